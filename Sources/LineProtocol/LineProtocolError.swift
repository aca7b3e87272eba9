/// Every error the `LineProtocol` module throws.
public enum LineProtocolError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Bytes that are not a valid request; the connection is answered and closed.
    /// `reason` completes Redis's `-ERR Protocol error: …` line.
    case protocolError(String)

    public var description: String {
        switch self {
        case .protocolError(let reason): return "Protocol error: \(reason)"
        }
    }
}
