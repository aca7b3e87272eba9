/// Copies of a few bytes — an id, a distance — written inline: a call to `memmove` costs more than
/// the copy of a value that short.
enum ShortCopy {
    /// Copies `count` bytes from `source` to `destination` (the two must not overlap).
    ///
    /// Up to 16 bytes are moved as two (overlapping) 8-, 4- or 2-byte words, or one byte; longer
    /// runs go to `update(from:count:)`.
    @inline(__always)
    static func copy(from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        switch count {
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 2..<4:
            let head = from.loadUnaligned(as: UInt16.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
            to.storeBytes(of: head, as: UInt16.self)
            to.storeBytes(of: tail, toByteOffset: count - 2, as: UInt16.self)
        case 1:
            destination.pointee = source.pointee
        case 0:
            break
        default:
            destination.update(from: source, count: count)
        }
    }
}
