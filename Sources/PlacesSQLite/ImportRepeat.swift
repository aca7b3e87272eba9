import Foundation

/// A place left out of an import because the same kind and id was read before it.
struct ImportRepeat: Sendable {
    var sequence: Int
    var id: [UInt8]
    /// Where it was read, and where the place kept was read (`BucketImport`'s codes).
    var file: Int
    var position: Int
    var firstFile: Int
    var firstPosition: Int

    init(_ record: ImportRecord, first: ImportRecord) {
        (sequence, id, file, position) = (record.sequence, Array(record.entry.id), record.file, record.position)
        (firstFile, firstPosition) = (first.file, first.position)
    }
}
