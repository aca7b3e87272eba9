import Foundation
import Places

/// The `change` text of one `change_log` row: the `ChangeCoding` texts of a run of consecutive
/// changes of one transaction, joined by line feeds (0x0A).
///
/// No escaping is needed: `ChangeCoding` writes a change as one line. It escapes a line feed inside
/// a field as the two characters `\n`, and its other fields (the tag, numbers, hex digests, whole
/// seconds, names such as `public` or `street`) never hold one, so every line feed in a row is a
/// boundary between two changes. A row of one change is that change's text alone, which is what
/// every row written before packing (schema v4 and older) is.
///
/// A text that holds a line feed, or is empty, is refused when packed: it could not be told apart
/// from two texts, or from none.
struct PackedChanges {
    /// The boundary between two texts.
    static let separator: UInt8 = 0x0A

    /// The texts packed so far, joined.
    private(set) var bytes: [UInt8] = []
    /// How many texts `bytes` holds.
    private(set) var count = 0

    /// Appends one change's text, which `write` appends to the bytes it is given (UTF-8).
    ///
    /// - Throws: what `write` throws; `SQLiteStoreError.writeFailed` for a text that holds a line
    ///   feed or is empty (nothing is then appended).
    mutating func append(_ write: (inout [UInt8]) throws -> Void) throws {
        let before = bytes.count
        if count > 0 { bytes.append(Self.separator) }
        let start = bytes.count
        do {
            try write(&bytes)
        } catch {
            bytes.removeSubrange(before...)
            throw error
        }
        let invalid = bytes.withUnsafeBufferPointer { all in
            start == all.count || memchr(all.baseAddress! + start, Int32(Self.separator), all.count - start) != nil
        }
        if invalid {
            let empty = start == bytes.count
            bytes.removeSubrange(before...)
            throw SQLiteStoreError.writeFailed(
                "a change-log entry " + (empty ? "is empty" : "holds a line feed") + ", which the log cannot pack")
        }
        count += 1
    }

    /// Empties the pack, keeping its memory for the next.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Calls `body` with each text of a row's `change` value, in order, with its offset in the row.
    ///
    /// - Parameter expected: the number of texts the row must hold (`last_position - position + 1`).
    /// - Throws: what `body` throws; `SQLiteStoreError.corrupt` when the row holds another number
    ///   (after the calls for the texts it has).
    static func forEachText(
        in packed: UnsafeBufferPointer<UInt8>, expected: Int,
        _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        var offset = 0
        var start = 0
        var end = 0
        while offset < expected {
            end = packed.count
            if let base = packed.baseAddress, start < packed.count,
                let found = memchr(base + start, Int32(separator), packed.count - start)
            {
                end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            }
            try body(offset, UnsafeBufferPointer(rebasing: packed[start..<end]))
            offset += 1
            if end == packed.count { break }
            start = end + 1
        }
        guard offset == expected, end == packed.count else {
            throw SQLiteStoreError.corrupt(
                "a change-log row holds another number of changes than its \(expected) positions")
        }
    }
}
