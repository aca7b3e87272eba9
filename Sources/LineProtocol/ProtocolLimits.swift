/// How much one client may send in one request.
///
/// Past a limit the decoder throws ``LineProtocolError/protocolError(_:)``; the server answers
/// `-ERR Protocol error: <reason>` and closes that connection. The limits also bound what the decoder
/// buffers for a request that has not fully arrived: a partial line never grows past
/// ``maximumInlineBytes`` (plus the bytes of the read that crossed it), a partial RESP request never past
/// ``maximumRequestBytes``.
///
/// ```swift
/// let decoder = RESPRequestDecoder(limits: ProtocolLimits(maximumBulkBytes: 4 * 1024 * 1024))
/// ```
public struct ProtocolLimits: Sendable, Equatable {
    /// Longest inline request line in bytes, its `\r\n` or `\n` not counted; also the longest
    /// `*<count>` and `$<length>` line of a RESP request, as in Redis.
    ///
    /// Default 65,536 (64 KiB), Redis's `PROTO_INLINE_MAX_SIZE` (`src/server.h`). Reasons past it:
    /// "too big inline request", "too big mbulk count string", "too big bulk count string".
    public var maximumInlineBytes: Int

    /// Longest bulk string, one RESP argument, in bytes.
    ///
    /// Default 1,048,576 (1 MiB): a place record is a few hundred bytes. Redis's `proto-max-bulk-len`
    /// defaults to 512 MB. Reason past it: "invalid bulk length".
    public var maximumBulkBytes: Int

    /// Most arguments in one request, the command name included.
    ///
    /// Default 1,024. Redis accepts up to `INT_MAX`. Reasons past it: "invalid multibulk length" (RESP),
    /// "too many arguments in inline request" (inline; Vicinity's own, Redis has no inline limit).
    public var maximumArguments: Int

    /// Most bytes one RESP request may take on the wire, from its `*` to the end of its last argument.
    ///
    /// Default 8,388,608 (8 MiB). Without it, 1,024 arguments of 1 MiB each would let one connection
    /// park 1 GiB in a partial request; Redis's nearest guard is `client-query-buffer-limit` (1 GB), which
    /// closes the connection without a reply. Checked when an argument's length is announced, before its
    /// bytes arrive. Reason past it: "too big request" (Vicinity's own).
    public var maximumRequestBytes: Int

    /// The defaults above.
    public static let `default` = ProtocolLimits()

    /// Limits for one server; every value must be positive.
    ///
    /// - Parameters:
    ///   - maximumInlineBytes: Longest inline line and count line, in bytes.
    ///   - maximumBulkBytes: Longest RESP argument, in bytes.
    ///   - maximumArguments: Most arguments in one request.
    ///   - maximumRequestBytes: Most bytes of one RESP request.
    public init(
        maximumInlineBytes: Int = 64 * 1024,
        maximumBulkBytes: Int = 1024 * 1024,
        maximumArguments: Int = 1024,
        maximumRequestBytes: Int = 8 * 1024 * 1024
    ) {
        precondition(
            maximumInlineBytes > 0 && maximumBulkBytes > 0 && maximumArguments > 0 && maximumRequestBytes > 0,
            "protocol limits must be positive")
        self.maximumInlineBytes = maximumInlineBytes
        self.maximumBulkBytes = maximumBulkBytes
        self.maximumArguments = maximumArguments
        self.maximumRequestBytes = maximumRequestBytes
    }
}
