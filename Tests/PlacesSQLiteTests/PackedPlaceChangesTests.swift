import Foundation
import GRDB
import Geo
import Places
import Testing

@testable import PlacesSQLite

/// An import's log rows: binary place changes, a few thousand a row, read back as the changes
/// they hold; a broken row is refused.
@Suite struct PackedPlaceChangesTests {
    static func packed(_ changes: [DirectoryChange], kind: String) -> PackedPlaceChanges {
        var kindText = kind
        var packed = kindText.withUTF8 { PackedPlaceChanges(kind: $0) }
        for change in changes {
            switch change {
            case .putPlace(let place):
                SQLitePlaceStore.entryBytes(place).withUnsafeBytes { packed.appendPut(entry: $0) }
            case .removePlace(_, let id):
                var id = id
                id.withUTF8 { packed.appendRemove(id: $0) }
            default: Issue.record("not a place change")
            }
        }
        return packed
    }

    static func read(_ bytes: [UInt8], expected: Int) throws -> [DirectoryChange] {
        var read: [DirectoryChange] = []
        try bytes.withUnsafeBytes { blob in
            try PackedPlaceChanges.forEachChange(in: blob, expected: expected) { offset, change in
                #expect(offset == read.count)
                read.append(change)
            }
        }
        return read
    }

    @Test func changesReadBackAsWritten() throws {
        let changes: [DirectoryChange] = [
            .putPlace(
                Place(
                    id: "a\tb\n", kind: "ü kind", name: "", coordinate: try Coordinate(latitude: -90, longitude: 180),
                    attributes: ["city": "İzmir \"x\""], attributeNames: ["city"])),
            .removePlace(kind: "ü kind", id: "gone"),
            .putPlace(
                Place(
                    id: String(repeating: "é", count: 100), kind: "ü kind", name: "N",
                    coordinate: try Coordinate(latitude: 41.0123456789, longitude: -0.000001))),
        ]
        let packed = Self.packed(changes, kind: "ü kind")
        #expect(packed.count == 3)
        #expect(try Self.read(packed.bytes, expected: 3).map(ChangeCoding.encode) == changes.map(ChangeCoding.encode))
        // Too few or too many changes for the row's positions, a cut, an unknown tag: refused.
        #expect(throws: SQLiteStoreError.self) { _ = try Self.read(packed.bytes, expected: 2) }
        #expect(throws: SQLiteStoreError.self) { _ = try Self.read(packed.bytes, expected: 4) }
        #expect(throws: SQLiteStoreError.self) { _ = try Self.read(Array(packed.bytes.dropLast(3)), expected: 3) }
        #expect(throws: SQLiteStoreError.self) { _ = try Self.read(packed.bytes + [UInt8(ascii: "X")], expected: 3) }
        #expect(throws: SQLiteStoreError.self) { _ = try Self.read([2] + packed.bytes.dropFirst(), expected: 3) }
    }

    /// An import of 10,000 places writes three log rows, binary, and a follower reads its changes
    /// from anywhere inside them.
    @Test func anImportLogsAFewBinaryRows() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let store = try SQLitePlaceStore(path: path)
        var batch = PlaceImport()
        for index in 0..<10_000 {
            try batch.add(
                Place(
                    id: "p\(index)", kind: "pharmacy", name: "P \(index)",
                    coordinate: try Coordinate(latitude: Double(index % 90), longitude: Double(index % 180))))
        }
        try store.store(batch, replacingKinds: [], progress: nil)
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(
                db, sql: "SELECT position, last_position, typeof(change) AS type FROM change_log ORDER BY position")
        }
        #expect(rows.map { $0["type"] as String } == ["blob", "blob", "blob"])
        #expect(rows.map { $0["last_position"] as Int } == [4_096, 8_192, 10_000])
        for after in [0, 1, 4_095, 4_096, 9_999] {
            guard case .changes(let entries) = try store.changes(after: LogPosition(after), limit: 1) else {
                Issue.record("trimmed")
                continue
            }
            // The whole transaction from the position on.
            #expect(entries.count == 10_000 - after)
            #expect(entries.first?.position == LogPosition(after + 1))
        }
    }
}
