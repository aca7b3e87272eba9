import Foundation
import GRDB
import Geo
import Places
import TestSupport
import Testing

@testable import PlacesSQLite

/// Opening recognises Vicinity's own databases and leaves every other file as it found it; a new
/// database appears whole or not at all.
@Suite struct DatabaseIdentityTests {
    /// Every file in a folder with its bytes: what "untouched" compares.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// Runs SQL on a database through a connection of its own, closed afterwards (as another
    /// program would).
    static func edit(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
    }

    /// Another application's database: one table, rollback journal, no application id.
    static func foreignDatabase(in folder: TemporaryDirectory, applicationID: Int = 0) throws -> String {
        let path = folder.file("notes.sqlite")
        try edit(
            path,
            """
            CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO note (text) VALUES ('milk');
            PRAGMA application_id = \(applicationID);
            """)
        return path
    }

    @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = try Self.foreignDatabase(in: folder)
        let before = try Self.snapshot(folder.path)
        #expect(throws: SQLiteStoreError.notVicinity(path: path, holding: "it holds table \"note\"")) {
            _ = try SQLitePlaceStore(path: path)
        }
        #expect(throws: SQLiteStoreError.self) { _ = try SQLitePlaceStore.openOrCreate(path: path) { _ in } }
        #expect(try Self.snapshot(folder.path) == before)
        let journal = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "delete")
    }

    @Test func aMarkedForeignDatabaseNamesItsApplicationID() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = try Self.foreignDatabase(in: folder, applicationID: 0x0F05_5000)
        #expect(
            throws: SQLiteStoreError.notVicinity(
                path: path, holding: "it holds table \"note\", application_id 0xf055000")
        ) {
            _ = try SQLitePlaceStore(path: path)
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = folder.file("list.txt")
        try Data(String(repeating: "not a database\n", count: 20).utf8).write(to: URL(fileURLWithPath: path))
        let before = try Self.snapshot(folder.path)
        #expect(throws: SQLiteStoreError.notVicinity(path: path, holding: "not an SQLite database file")) {
            _ = try SQLitePlaceStore(path: path)
        }
        #expect(try Self.snapshot(folder.path) == before)
    }

    @Test func aDatabaseOfANewerVicinityIsRefusedNamingBothVersions() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = folder.file("v.sqlite")
        try SQLitePlaceStore(path: path).upsert([try SQLitePlaceStoreTests.place("a", 41, 29)])
        let newer = SQLitePlaceStore.schemaVersion + 3
        try Self.edit(
            path,
            """
            PRAGMA user_version = \(newer);
            UPDATE setting SET value = CAST('9.1.0' AS BLOB) WHERE key = 'schema_written_by';
            """)
        let before = try Self.snapshot(folder.path)
        do {
            _ = try SQLitePlaceStore(path: path)
            Issue.record("a newer database was opened")
        } catch {
            #expect(
                error.description
                    == "\(path) was written by Vicinity 9.1.0 (schema \(newer)); this is Vicinity "
                    + "\(ProductVersion.current), which reads schema \(SQLitePlaceStore.schemaVersion) at most: "
                    + "upgrade Vicinity to open it; it was left untouched")
        }
        #expect(try Self.snapshot(folder.path) == before)
    }

    @Test func anUnknownMigrationMeansANewerVicinity() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = folder.file("v.sqlite")
        _ = try SQLitePlaceStore(path: path)
        try Self.edit(path, "INSERT INTO grdb_migrations (identifier) VALUES ('v9: opening hours')")
        #expect {
            _ = try SQLitePlaceStore(path: path)
        } throws: { error in
            guard case .newerSchema(_, let schema, let writtenBy, _) = error as? SQLiteStoreError else { return false }
            return schema == SQLitePlaceStore.schemaVersion + 1 && writtenBy == ProductVersion.current
        }
    }

    @Test func aDatabaseMadeBeforeTheMarkIsOpenedAndMarked() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = folder.file("old.sqlite")
        try SQLitePlaceStore(path: path).upsert([try SQLitePlaceStoreTests.place("a", 41, 29)])
        try Self.edit(
            path,
            "PRAGMA application_id = 0; PRAGMA user_version = 0; DELETE FROM setting WHERE key = 'schema_written_by';")
        #expect(
            try DatabaseIdentity.inspect(path: path) == .vicinity(schema: SQLitePlaceStore.schemaVersion, marked: false)
        )
        #expect(try SQLitePlaceStore(path: path).places().map(\.id) == ["a"])
        let marks = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "PRAGMA application_id"), try Int.fetchOne(db, sql: "PRAGMA user_version"))
        }
        #expect(marks.0 == Int(SQLitePlaceStore.applicationID))
        #expect(marks.1 == SQLitePlaceStore.schemaVersion)
    }

    @Test func aNewDatabaseAppearsFilledOrNotAtAll() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = folder.file("new.sqlite")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            _ = try SQLitePlaceStore.openOrCreate(path: path) { store in
                try store.upsert([try SQLitePlaceStoreTests.place("a", 41, 29)])
                throw Refused()
            }
        }
        #expect(try Self.snapshot(folder.path).isEmpty)
        let (store, created) = try SQLitePlaceStore.openOrCreate(path: path) { store in
            try store.upsert([try SQLitePlaceStoreTests.place("a", 41, 29)])
        }
        #expect(created)
        #expect(try store.places().map(\.id) == ["a"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let (again, createdAgain) = try SQLitePlaceStore.openOrCreate(path: path) { _ in
            Issue.record("an existing database was filled again")
        }
        #expect(!createdAgain)
        #expect(try again.places().count == 1)
    }

    @Test func anEmptyFileIsMadeIntoADatabase() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-identity")
        let path = folder.file("empty.sqlite")
        FileManager.default.createFile(atPath: path, contents: nil)
        let (store, created) = try SQLitePlaceStore.openOrCreate(path: path) { store in
            try store.upsert([try SQLitePlaceStoreTests.place("seeded", 41, 29)])
        }
        #expect(created)
        #expect(try store.places().map(\.id) == ["seeded"])
    }

    @Test func aRefusedWriteCarriesItsWholeCauseOnOneLine() {
        let error = DatabaseError(
            resultCode: .SQLITE_FULL, message: "database or disk is full",
            sql: "INSERT INTO place (kind, id)\nVALUES (?, ?)")
        let reason = SQLiteStoreError.reason(of: error)
        #expect(reason == "database or disk is full (SQLite error 13)")
        let message = PlacesError.storeFailed(SQLiteStoreError.writeFailed(reason).cause).description
        #expect(
            message
                == "the write was not stored, and nothing of it was made: database or disk is full (SQLite error 13)")
        let long = PlacesError.storeFailed(String(repeating: "cause ", count: 40)).description
        #expect(long.hasSuffix("cause cause "))
        #expect(!long.contains("\n") && !long.contains("…"))
    }
}
