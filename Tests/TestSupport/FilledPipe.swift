import Foundation
import Synchronization

/// A pipe that a thread of its own fills with `head`, then `filler` again and again, until
/// `total` bytes are written or the read end stops taking them: a file larger than a reader should
/// ever hold, to show that the reader stops early.
public final class FilledPipe: Sendable {
    /// The descriptor to read from.
    public let readEnd: Int32
    private let written = Mutex(0)

    public init(head: [UInt8], filler: [UInt8], total: Int) {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe: \(String(cString: strerror(errno)))")
        readEnd = ends[0]
        let writer = ends[1]
        let thread = Thread { [self] in
            func send(_ bytes: [UInt8]) -> Bool {
                bytes.withUnsafeBytes { write(writer, $0.baseAddress!, bytes.count) } == bytes.count
            }
            var sent = 0
            if send(head) { sent += head.count }
            while sent < total, send(filler) {
                sent += filler.count
                self.written.withLock { $0 = sent }
            }
            close(writer)
        }
        thread.start()
    }

    /// Bytes written so far.
    public var bytesWritten: Int { written.withLock { $0 } }

    /// Reads and drops what is left, so that the writing thread ends, then closes the read end.
    public func drainAndClose() {
        var sink = [UInt8](repeating: 0, count: 1 << 16)
        while sink.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress!, 1 << 16) }) > 0 {}
        close(readEnd)
    }
}
