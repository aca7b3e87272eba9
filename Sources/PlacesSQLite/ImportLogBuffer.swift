import Foundation
import GRDB
import GRDBSQLite
import Geo
import Places

/// The change-log lines of an import, gathered in packets on a temporary table while the merge
/// makes them (their number is known only at its end), then appended to the log in order.
struct ImportLogBuffer {
    private let db: Database
    private let enabled: Bool
    private var packet: [UInt8] = []
    private var packetLines = 0
    private var packets = 0
    private var total = 0
    private var names = AttributeCoding.NameCache()
    /// Lines per packet.
    static let linesPerPacket = 4_096

    init(db: Database, enabled: Bool) {
        self.db = db
        self.enabled = enabled
    }

    /// Adds the removal of a place.
    mutating func add(removing id: UnsafeBufferPointer<UInt8>, kind: UnsafeBufferPointer<UInt8>) throws {
        guard enabled else { return }
        let change = ChangeCoding.encode(
            .removePlace(kind: String(decoding: kind, as: UTF8.self), id: String(decoding: id, as: UTF8.self)))
        packet += change.utf8
        try endLine()
    }

    /// Adds the storing of a place.
    mutating func add(putting entry: MergedEntry, kind: UnsafeBufferPointer<UInt8>, name: String) throws {
        guard enabled else { return }
        if entry.attributes.isEmpty {
            ChangeCoding.appendPutPlace(
                kind: kind, id: entry.id, name: entry.name, latitude: entry.latitude, longitude: entry.longitude,
                to: &packet)
        } else {
            let (attributeNames, values) = AttributeCoding.decode(
                String(decoding: entry.attributes, as: UTF8.self), names: &names)
            let place = Place(
                id: String(decoding: entry.id, as: UTF8.self), kind: name,
                name: String(decoding: entry.name, as: UTF8.self),
                coordinate: try Coordinate(latitude: entry.latitude, longitude: entry.longitude),
                attributeNames: attributeNames, attributeValues: values)
            ChangeCoding.appendPutPlace(place, to: &packet)
        }
        try endLine()
    }

    private mutating func endLine() throws {
        packet.append(0x0A)
        packetLines += 1
        total += 1
        if packetLines == Self.linesPerPacket { try flush() }
    }

    private mutating func flush() throws {
        guard packetLines > 0 else { return }
        try db.execute(
            sql: "INSERT INTO temp.vicinity_import_log (key, count, data) VALUES (?, ?, ?)",
            arguments: [packets, packetLines, Data(packet)])
        packets += 1
        packetLines = 0
        packet.removeAll(keepingCapacity: true)
    }

    /// Appends every line, in order, to the change log as one transaction's changes.
    mutating func appendToLog() throws {
        guard enabled else { return }
        try flush()
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v2(
                db.sqliteConnection, "SELECT data FROM temp.vicinity_import_log ORDER BY key", -1, &statement, nil)
                == SQLITE_OK
        else { throw SQLiteStoreError.writeFailed(String(cString: sqlite3_errmsg(db.sqliteConnection))) }
        defer { sqlite3_finalize(statement) }
        let data = OwnedBytes()
        var offset = 0
        try SQLitePlaceStore.appendToLog(count: total, in: db) { _, insert, parameter in
            if offset >= data.count {
                guard sqlite3_step(statement) == SQLITE_ROW else {
                    throw SQLiteStoreError.writeFailed("the import's log: a packet is missing")
                }
                data.replace(withColumn: 0, of: statement)
                offset = 0
            }
            let bytes = data.bytes
            var end = offset
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = UnsafeBufferPointer(
                start: bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: end - offset)
            offset = end + 1
            return bindBytes(insert, parameter, line)
        }
    }
}
