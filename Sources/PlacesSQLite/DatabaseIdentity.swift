import Foundation
import GRDBSQLite
import Places

/// What a file is to Vicinity, found by reading it through a read-only connection, before anything
/// writes to it: opening a store must never add tables to another application's SQLite file,
/// switch it to WAL mode, or migrate a database a newer Vicinity made.
///
/// Vicinity marks its databases with SQLite's `application_id` (``SQLitePlaceStore/applicationID``)
/// and their schema version in `user_version`. Databases made before the mark are recognised by
/// their tables and migrations, and marked when next opened.
enum DatabaseIdentity: Equatable {
    /// No file, an empty file, or an SQLite file without any table: a database may be made there.
    case empty
    /// A Vicinity database of the given schema version (1 … ``SQLitePlaceStore/schemaVersion``);
    /// `marked` when it carries Vicinity's `application_id` and its schema in `user_version`.
    case vicinity(schema: Int, marked: Bool)

    /// Reads what the file at `path` is.
    ///
    /// - Throws: `.notVicinity` for a file that is not SQLite or is another application's database,
    ///   `.newerSchema` for a database of a newer Vicinity, `.cannotOpen` when it cannot be read.
    static func inspect(path: String) throws(SQLiteStoreError) -> DatabaseIdentity {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes else { return .empty }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw .cannotOpen(path: path, reason: "it is a directory")
        }
        if (attributes[.size] as? NSNumber)?.intValue == 0 { return .empty }
        let found: Found
        do {
            let reader = try ReadOnlyConnection(path: path)
            found = try Found(reader)
        } catch let error as ReadOnlyConnection.Failure where error.code == SQLITE_NOTADB {
            throw .notVicinity(path: path, holding: "not an SQLite database file")
        } catch let error as ReadOnlyConnection.Failure {
            throw .cannotOpen(path: path, reason: error.message + " (SQLite error \(error.code))")
        } catch {
            throw .cannotOpen(path: path, reason: SQLiteStoreError.reason(of: error))
        }
        return try found.identity(path: path)
    }

    /// The marks read from a database.
    private struct Found {
        var applicationID: Int32
        var userVersion: Int
        var tables: [String]
        var migrations: [String]
        var writtenBy: String?

        init(_ db: ReadOnlyConnection) throws {
            applicationID = Int32(truncatingIfNeeded: try db.integer("PRAGMA application_id"))
            userVersion = try db.integer("PRAGMA user_version")
            tables = try db.texts(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            migrations =
                tables.contains("grdb_migrations") ? try db.texts("SELECT identifier FROM grdb_migrations") : []
            if tables.contains("setting") {
                writtenBy = try? db.texts(
                    "SELECT CAST(value AS TEXT) FROM setting WHERE key = '\(SQLitePlaceStore.writtenByKey)'"
                ).first
            }
        }

        func identity(path: String) throws(SQLiteStoreError) -> DatabaseIdentity {
            let known = Set(SQLitePlaceStore.migrationIdentifiers)
            let unknownMigrations = migrations.filter { !known.contains($0) }
            if applicationID == SQLitePlaceStore.applicationID {
                let schema = max(userVersion, migrations.count)
                if schema > SQLitePlaceStore.schemaVersion || !unknownMigrations.isEmpty {
                    throw .newerSchema(
                        path: path, schema: schema, writtenBy: writtenBy, supported: SQLitePlaceStore.schemaVersion)
                }
                return .vicinity(schema: schema, marked: userVersion == schema)
            }
            if applicationID == 0 && tables.isEmpty { return .empty }
            // Made before databases were marked: Vicinity's tables and only Vicinity's migrations.
            let unmarked = Set(["grdb_migrations", "setting", "user"])
            let laterTables = Set(["change_log", "change_log_head"])
            let placeTables = [Set(["place"]), Set(["place_kind", "place_bucket"])]
            let found = Set(tables).subtracting(laterTables)
            if applicationID == 0, placeTables.contains(where: { found == unmarked.union($0) }), !migrations.isEmpty {
                guard unknownMigrations.isEmpty else {
                    throw .newerSchema(
                        path: path, schema: migrations.count, writtenBy: writtenBy,
                        supported: SQLitePlaceStore.schemaVersion)
                }
                return .vicinity(schema: migrations.count, marked: false)
            }
            var holding = "it holds " + Found.list(tables)
            if applicationID != 0 {
                holding += ", application_id 0x" + String(UInt32(bitPattern: applicationID), radix: 16)
            }
            throw .notVicinity(path: path, holding: holding)
        }

        /// `table "a"`, `tables "a", "b" and "c"`, or the first few of many.
        private static func list(_ tables: [String]) -> String {
            if tables.isEmpty { return "no tables" }
            let shown = tables.prefix(5).map { PlacesError.quoted($0) }
            let more = tables.count > 5 ? " and \(tables.count - 5) more" : ""
            return (tables.count == 1 ? "table " : "tables ") + shown.joined(separator: ", ") + more
        }
    }
}
