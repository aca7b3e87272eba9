import NIOCore

/// One command as a client sent it: its arguments, the command name first.
///
/// Arguments are `ByteBuffer`s: a RESP argument is a slice of the bytes read from the socket (no copy),
/// and arguments are binary-safe. A request always has at least one argument; the decoder skips empty
/// lines and `*0` as Redis does.
///
/// ```swift
/// if request.isCommand("PING") { … }
/// ```
public struct Request: Sendable, Equatable {
    /// The arguments, the command name first; never empty when the decoder made the request.
    public var arguments: [ByteBuffer]

    /// Whether the request came as an inline text line (`nc`, `telnet`) rather than as RESP.
    public var isInline: Bool

    /// A request of these arguments.
    public init(arguments: [ByteBuffer], isInline: Bool) {
        self.arguments = arguments
        self.isInline = isInline
    }

    /// A request of these arguments, each its UTF-8 bytes; for tests and for commands built in code.
    public init(_ arguments: [String], isInline: Bool = false) {
        self.init(arguments: arguments.map { ByteBuffer(string: $0) }, isInline: isInline)
    }

    /// Whether the first argument is `name`, ignoring ASCII case (`get`, `GET` and `Get` are one command).
    ///
    /// - Parameter name: An ASCII command name, in any case.
    /// - Returns: False for a request without arguments.
    public func isCommand(_ name: String) -> Bool {
        guard let first = arguments.first, first.readableBytes == name.utf8.count else { return false }
        return first.withUnsafeReadableBytes { bytes in
            zip(bytes, name.utf8).allSatisfy { ASCII.lowercased($0) == ASCII.lowercased($1) }
        }
    }
}
