import Foundation

/// Where a streamed place file's bytes come from: a file descriptor read piece by piece, or bytes
/// already in memory (standard input a test gives).
public struct PlaceByteSource {
    private enum Origin {
        case descriptor(Int32)
        case memory([UInt8], offset: Int)
    }

    private var origin: Origin
    /// Bytes read ahead (to choose the format), given back before the rest.
    private var prefix: [UInt8] = []
    /// How messages name the source.
    let name: String

    /// A descriptor the caller opened and closes; `name` is how messages call it.
    public init(descriptor: Int32, name: String) {
        origin = .descriptor(descriptor)
        self.name = name
    }

    /// Bytes in memory; `name` is how messages call them.
    public init(bytes: [UInt8], name: String) {
        origin = .memory(bytes, offset: 0)
        self.name = name
    }

    /// Appends bytes to `buffer` until it holds at least `count` bytes or the source ends.
    ///
    /// - Returns: true when the source has ended (everything is in `buffer`).
    /// - Throws: `PlacesError.cannotRead` with the system's reason.
    mutating func fill(_ buffer: inout [UInt8], until count: Int) throws(PlacesError) -> Bool {
        if !prefix.isEmpty {
            buffer.append(contentsOf: prefix)
            prefix = []
        }
        switch origin {
        case .memory(let bytes, let offset):
            let end = min(bytes.count, offset + max(count - buffer.count, 0))
            buffer.append(contentsOf: bytes[offset..<end])
            origin = .memory(bytes, offset: end)
            return end == bytes.count
        case .descriptor(let descriptor):
            let piece = 1 << 20
            while buffer.count < count {
                let before = buffer.count
                buffer.reserveCapacity(max(count, before + piece))
                buffer.append(contentsOf: repeatElement(0, count: piece))
                let got = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress! + before, piece) }
                buffer.removeLast(piece - max(got, 0))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw .cannotRead(file: name, reason: String(cString: strerror(errno)))
                }
                if got == 0 { return true }
            }
            return false
        }
    }

    /// The source with `bytes` read from it put back in front.
    func withPrefix(_ bytes: [UInt8]) -> PlaceByteSource {
        var source = self
        source.prefix = bytes + prefix
        return source
    }
}

/// POSIX `read`, outside the type whose method has the same name.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
