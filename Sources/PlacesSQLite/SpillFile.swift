import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file an import sets its places aside in: written at its end, read back at any
/// offset. It is unlinked as soon as it is made, so nothing of it stays on disk once it is closed
/// or the process ends, however it ends; it is closed on `exec`.
///
/// The file is made in the first of `$TMPDIR`, `/var/tmp` and `/tmp` that takes it: the
/// directories SQLite uses for its own temporary files.
///
/// One thread writes; reads (from any thread) see what was written before a happens-before edge
/// to them, such as the start of the reading thread.
final class SpillFile: @unchecked Sendable {
    private let descriptor: Int32
    /// The directory the file was made in, for messages.
    let directory: String
    /// Bytes written so far: the offset of the next write.
    private(set) var size = 0

    init() throws(SQLiteStoreError) {
        var directories: [String] = []
        if let given = ProcessInfo.processInfo.environment["TMPDIR"], !given.isEmpty { directories.append(given) }
        directories += ["/var/tmp", "/tmp"]
        var failures: [String] = []
        for directory in directories {
            var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
            template += Array("vicinity-import-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard made >= 0 else {
                failures.append("\(directory): \(String(cString: strerror(errno)))")
                continue
            }
            _ = fcntl(made, F_SETFD, FD_CLOEXEC)
            guard template.withUnsafeBufferPointer({ unlink($0.baseAddress!) }) == 0 else {
                failures.append("\(directory): cannot unlink a file made there: \(String(cString: strerror(errno)))")
                close(made)
                continue
            }
            descriptor = made
            self.directory = directory
            return
        }
        throw .writeFailed(
            "no directory takes the import's temporary file (" + failures.joined(separator: "; ")
                + "); set TMPDIR to a writable directory")
    }

    deinit { close(descriptor) }

    /// Whether the file has no name on disk (it never has, once made).
    var isUnlinked: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_nlink == 0
    }

    /// Appends `bytes` at the end of the file.
    ///
    /// - Returns: the offset they were written at.
    func append(_ bytes: UnsafeRawBufferPointer) throws(SQLiteStoreError) -> Int {
        let start = size
        var done = 0
        while done < bytes.count {
            let wrote = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(start + done))
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else {
                throw .writeFailed(
                    "the import's temporary file in \(directory): \(String(cString: strerror(errno)))"
                        + " (set TMPDIR to a directory with room for about the size of the input)")
            }
            done += wrote
        }
        size += bytes.count
        return start
    }

    /// Reads `into.count` bytes written at `offset`.
    func read(at offset: Int, into: UnsafeMutableRawBufferPointer) throws(SQLiteStoreError) {
        var done = 0
        while done < into.count {
            let got = pread(descriptor, into.baseAddress! + done, into.count - done, off_t(offset + done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                throw .writeFailed(
                    "the import's temporary file in \(directory): "
                        + (got == 0 ? "it ends before what was written" : String(cString: strerror(errno))))
            }
            done += got
        }
    }
}
