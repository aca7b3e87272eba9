import Foundation
import Logging
import NIOCore
import Places
import PostgresNIO
import Synchronization

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
        // The log's text of every place, made before the transaction: the head row, which every
        // other writer waits for, is then held only while the rows travel.
        let putTexts = Self.encodeInParallel(places)
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
                    let change: DirectoryChange? =
                        offset < removed.count
                        ? .removePlace(kind: removed[offset].kind, id: removed[offset].id)
                        : nil
                    CopyText.row(
                        into: &buffer, String(first + Int64(offset)), endText, atText,
                        change.map(ChangeCoding.encode) ?? putTexts[offset - removed.count])
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

extension PostgresPlaceStore {
    /// `ChangeCoding.encode(.putPlace(place))` for every place, on all cores.
    static func encodeInParallel(_ places: [Place]) -> [String] {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, places.count / 10_000))
        let results = Mutex([[String]](repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (places.count * part / parts)..<(places.count * (part + 1) / parts)
            let texts = places[range].map { ChangeCoding.encode(.putPlace($0)) }
            results.withLock { $0[part] = texts }
        }
        return results.withLock { $0.flatMap { $0 } }
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

    /// Writes `value` escaped, copying the runs between special bytes whole.
    private static func append(_ value: String, to buffer: inout ByteBuffer) {
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let escaped: UInt8
                switch bytes[index] {
                case 0x5C: escaped = 0x5C
                case 0x09: escaped = UInt8(ascii: "t")
                case 0x0A: escaped = UInt8(ascii: "n")
                case 0x0D: escaped = UInt8(ascii: "r")
                default: continue
                }
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                buffer.writeInteger(UInt8(0x5C))
                buffer.writeInteger(escaped)
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
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
