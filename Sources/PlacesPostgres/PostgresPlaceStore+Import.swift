import Logging
import NIOCore
import Places
import PostgresNIO

extension PostgresPlaceStore {
    /// Stores a batch of checked places in one transaction, all or none: the bulk path for
    /// imports.
    ///
    /// The places stream to the server with `COPY … FROM STDIN` into a temporary table, from which
    /// one statement upserts them; with `replacingKinds`, the stored places of those kinds that the
    /// import does not put back are deleted in the same transaction. The change log gets one entry
    /// per change, the removals first, by a second `COPY`, and a notification wakes every node.
    ///
    /// - Parameters:
    ///   - progress: called now and then, on another thread while this one waits, with the number
    ///     of places sent so far.
    /// - Throws: `PlacesError.storeUnavailable` when the database cannot be reached,
    ///   `PostgresStoreError.writeFailed` (a constraint, naming the row); nothing is then stored.
    public func store(_ batch: PlaceImport, replacingKinds: Set<String>, progress: ((Int) -> Void)?) throws {
        let places = batch.places
        let logger = self.logger
        let report = ProgressReport(progress)
        try writeTransaction(timeout: nil) { connection in
            try await connection.query(
                """
                CREATE TEMPORARY TABLE vicinity_import (
                    ord bigint NOT NULL, kind text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
                    name text NOT NULL, lat double precision NOT NULL, lon double precision NOT NULL,
                    attributes text NOT NULL
                ) ON COMMIT DROP
                """, logger: logger)
            let attributes = AttributeCoding.encodeAll(places)
            try await connection.copyFrom(
                table: "vicinity_import", columns: ["ord", "kind", "id", "name", "lat", "lon", "attributes"],
                logger: logger
            ) { writer in
                var buffer = ByteBuffer()
                for (offset, place) in places.enumerated() {
                    let range = attributes.range(of: offset)
                    CopyText.row(
                        into: &buffer, String(offset), place.kind, place.id, place.name,
                        "\(place.coordinate.latitude)", "\(place.coordinate.longitude)",
                        String(decoding: attributes.bytes[range], as: UTF8.self))
                    if buffer.readableBytes >= CopyText.chunkBytes {
                        try await writer.write(buffer)
                        buffer.clear()
                    }
                    if (offset + 1) % 16_384 == 0 { report.call(offset + 1) }
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
            }
            var removed: [(kind: String, id: String)] = []
            if !replacingKinds.isEmpty {
                let rows = try await connection.query(
                    """
                    DELETE FROM vicinity_place p
                    WHERE p.kind = ANY(\(Array(replacingKinds))::text[])
                        AND NOT EXISTS (SELECT 1 FROM vicinity_import i WHERE i.kind = p.kind AND i.id = p.id)
                    RETURNING p.kind, p.id
                    """, logger: logger)
                for try await row in rows {
                    let (kind, id) = try row.decode((String, String).self)
                    removed.append((kind, id))
                }
                removed.sort { a, b in
                    a.kind != b.kind
                        ? a.kind.utf8.lexicographicallyPrecedes(b.kind.utf8)
                        : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
                }
            }
            // A key imported twice keeps its last place, as a second upsert would.
            try await connection.query(
                """
                INSERT INTO vicinity_place (kind, id, name, lat, lon, attributes)
                SELECT DISTINCT ON (kind, id) kind, id, name, lat, lon, attributes
                FROM vicinity_import ORDER BY kind, id, ord DESC
                ON CONFLICT (kind, id) DO UPDATE SET name = excluded.name, lat = excluded.lat,
                    lon = excluded.lon, attributes = excluded.attributes
                """, logger: logger)
            let count = removed.count + places.count
            guard count > 0 else { return }
            let (end, committedAt) = try await Self.advanceHead(by: count, on: connection, logger: logger)
            let first = end - Int64(count) + 1
            try await connection.copyFrom(
                table: "vicinity_change_log", columns: ["position", "tx_end", "committed_at", "change"],
                logger: logger
            ) { writer in
                var buffer = ByteBuffer()
                let endText = String(end)
                let atText = "\(committedAt)"
                for offset in 0..<count {
                    let change: DirectoryChange =
                        offset < removed.count
                        ? .removePlace(kind: removed[offset].kind, id: removed[offset].id)
                        : .putPlace(places[offset - removed.count])
                    CopyText.row(
                        into: &buffer, String(first + Int64(offset)), endText, atText, ChangeCoding.encode(change))
                    if buffer.readableBytes >= CopyText.chunkBytes {
                        try await writer.write(buffer)
                        buffer.clear()
                    }
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
            }
            try await Self.notify(end, on: connection, logger: logger)
        }
        progress?(places.count)
    }
}

/// COPY's text format: one row a line, columns separated by tabs, and a backslash, tab, line feed
/// or carriage return inside a value written `\\`, `\t`, `\n`, `\r`.
enum CopyText {
    /// How much to send in one CopyData message (1 MiB).
    static let chunkBytes = 1 << 20

    static func row(into buffer: inout ByteBuffer, _ values: String...) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            append(value, to: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    private static func append(_ value: String, to buffer: inout ByteBuffer) {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            buffer.writeString(value)
            return
        }
        for byte in value.utf8 {
            switch byte {
            case 0x5C: buffer.writeBytes([0x5C, 0x5C])
            case 0x09: buffer.writeBytes([0x5C, UInt8(ascii: "t")])
            case 0x0A: buffer.writeBytes([0x5C, UInt8(ascii: "n")])
            case 0x0D: buffer.writeBytes([0x5C, UInt8(ascii: "r")])
            default: buffer.writeInteger(byte)
            }
        }
    }
}

/// The caller's progress callback, called from the import's task while the caller's thread waits
/// for it (so never at the same time as the caller).
private final class ProgressReport: @unchecked Sendable {
    private let callback: ((Int) -> Void)?

    init(_ callback: ((Int) -> Void)?) { self.callback = callback }

    func call(_ count: Int) { callback?(count) }
}
