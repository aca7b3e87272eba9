import Logging
import Synchronization

/// Log lines kept in memory, for tests that read what a server logged: each line is the level,
/// the message and every metadata value, as a log file would hold them.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// A logger at `level` that writes here.
    public func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test", factory: { _ in Handler(capture: self) })
        logger.logLevel = level
        return logger
    }

    /// Everything logged so far, one line each.
    public var text: String { lines.withLock { $0.joined(separator: "\n") } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let error = event.error.map { ["error=\($0)"] } ?? []
            capture.append(([event.level.rawValue, "\(event.message)"] + fields + error).joined(separator: " "))
        }
    }
}
