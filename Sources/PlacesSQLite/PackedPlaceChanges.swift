import Foundation
import Geo
import Places

/// The `change` value of a change-log row written by an import: a blob of place changes of one
/// kind in binary, so that an import neither prints nor parses a number per place.
///
/// The blob is a format byte (1: never the first byte of a `ChangeCoding` text, which is a letter),
/// the kind (a LEB128 length and UTF-8 bytes), then each change: `P` and the place as a bucket
/// entry (`BucketWriter.appendEntry`), or `R` and the id (a LEB128 length and UTF-8 bytes).
struct PackedPlaceChanges {
    /// The format byte.
    static let format: UInt8 = 1
    static let put = UInt8(ascii: "P")
    static let remove = UInt8(ascii: "R")

    /// The blob so far.
    private(set) var bytes: [UInt8] = []
    /// The changes it holds.
    private(set) var count = 0

    /// Starts a blob of changes to places of `kind` (UTF-8 bytes).
    init(kind: UnsafeBufferPointer<UInt8>) {
        start(kind: kind)
    }

    /// Empties the blob for changes to places of `kind`, keeping its memory.
    mutating func start(kind: UnsafeBufferPointer<UInt8>) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(Self.format)
        BucketWriter.appendLength(kind.count, to: &bytes)
        bytes.append(contentsOf: kind)
        count = 0
    }

    /// Whether the blob holds as many changes, or as many bytes, as a log row takes
    /// (`SQLitePlaceStore.changesPerRow`, `bytesPerRow`).
    var isFull: Bool { count >= SQLitePlaceStore.changesPerRow || bytes.count >= SQLitePlaceStore.bytesPerRow }

    /// Appends the storing of a place, given as its bucket entry's bytes.
    mutating func appendPut(entry: UnsafeRawBufferPointer) {
        bytes.append(Self.put)
        bytes.append(contentsOf: entry)
        count += 1
    }

    /// Appends the removal of the place of `id`.
    mutating func appendRemove(id: UnsafeBufferPointer<UInt8>) {
        bytes.append(Self.remove)
        BucketWriter.appendLength(id.count, to: &bytes)
        bytes.append(contentsOf: id)
        count += 1
    }

    /// Calls `body` with each change a blob holds, in order, with its offset.
    ///
    /// - Parameter expected: the number of changes the row must hold.
    /// - Throws: what `body` throws; `SQLiteStoreError.corrupt` for a blob that is cut short, holds
    ///   something else, or another number of changes.
    static func forEachChange(
        in blob: UnsafeRawBufferPointer, expected: Int, _ body: (Int, DirectoryChange) throws -> Void
    ) throws {
        guard blob.first == format else { throw SQLiteStoreError.corrupt("a change-log row of an unknown format") }
        var offset = 1
        let kindBytes = try BucketEntryParser.text(blob, &offset)
        let kind = String(decoding: kindBytes, as: UTF8.self)
        var names = AttributeCoding.NameCache()
        var index = 0
        while offset < blob.count {
            let tag = blob[offset]
            offset += 1
            let change: DirectoryChange
            switch tag {
            case put:
                let entry = try BucketEntryParser.entry(blob, &offset)
                let (attributeNames, values) =
                    entry.attributes.isEmpty
                    ? ([], [])
                    : AttributeCoding.decode(String(decoding: entry.attributes, as: UTF8.self), names: &names)
                let coordinate: Coordinate
                do {
                    coordinate = try Coordinate(latitude: entry.latitude, longitude: entry.longitude)
                } catch {
                    throw SQLiteStoreError.corrupt("a logged place at \(entry.latitude), \(entry.longitude)")
                }
                change = .putPlace(
                    Place(
                        id: String(decoding: entry.id, as: UTF8.self), kind: kind,
                        name: String(decoding: entry.name, as: UTF8.self), coordinate: coordinate,
                        attributeNames: attributeNames, attributeValues: values))
            case remove:
                change = .removePlace(
                    kind: kind, id: String(decoding: try BucketEntryParser.text(blob, &offset), as: UTF8.self))
            default:
                throw SQLiteStoreError.corrupt("a change-log row holding a change tagged \(tag)")
            }
            guard index < expected else {
                throw SQLiteStoreError.corrupt("a change-log row holds more changes than its \(expected) positions")
            }
            try body(index, change)
            index += 1
        }
        guard index == expected, offset == blob.count else {
            throw SQLiteStoreError.corrupt(
                "a change-log row holds another number of changes than its \(expected) positions")
        }
    }
}
