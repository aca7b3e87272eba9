import Foundation

/// A record of an import: a place with its order key, its sequence number in the import and
/// where it was read (`BucketImport`'s codes).
struct ImportRecord {
    var order: UInt64
    var sequence: Int
    var file: Int
    var position: Int
    var entry: MergedEntry
}
