import Foundation

/// Reads a whole file into memory with POSIX calls, so that an error carries the system's own
/// reason ("No such file or directory", "Is a directory", "Permission denied").
enum SourceFile {
    /// The file's bytes.
    ///
    /// - Throws: `PlacesError.cannotRead` naming the path and the reason.
    static func bytes(atPath path: String) throws(PlacesError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .cannotRead(file: path, reason: reason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(file: path, reason: reason(errno)) }
        var bytes: [UInt8] = []
        // The size is a hint: a file that grows while it is read is read to its end.
        bytes.reserveCapacity(max(Int(status.st_size), 0) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(file: path, reason: reason(errno))
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
