/// How much one client may send in one request.
///
/// Past a limit the decoder throws ``LineProtocolError/protocolError(_:)``; the server answers
/// `-ERR Protocol error: <reason>` and closes that connection. The limits also bound what the decoder
/// buffers for a request that has not fully arrived: a partial line never grows past
/// ``maximumInlineBytes`` (plus the bytes of the read that crossed it), a partial RESP request never past
/// ``maximumRequestBytes``. Limits are in bytes, as Redis's are; an idle client is closed by the server's
/// idle timeout (`ServerConfiguration.idleTimeoutSeconds`), also in the middle of a request.
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
    /// Default 536,870,912 (512 MiB), Redis's `proto-max-bulk-len`. Reason past it: "invalid bulk length".
    public var maximumBulkBytes: Int

    /// Most bytes one RESP request may take on the wire, from its `*` to the end of its last argument.
    ///
    /// Default 1,073,741,824 (1 GiB), Redis's `client-query-buffer-limit`: the number of arguments is
    /// not limited by itself (Redis 7.0's `unit/geo.tcl` sends GEOADD with 60,002 of them), only the bytes
    /// they take. Checked when the count is announced (each argument takes at least 6 bytes, `$0\r\n\r\n`)
    /// and when an argument's length is announced, before its bytes arrive, so a request that cannot fit
    /// fails at once. Reason past it: "too big request" (Vicinity's own; Redis closes the connection
    /// without a reply).
    public var maximumRequestBytes: Int

    /// The defaults above.
    public static let `default` = ProtocolLimits()

    /// Limits for one server; every value must be positive.
    ///
    /// - Parameters:
    ///   - maximumInlineBytes: Longest inline line and count line, in bytes.
    ///   - maximumBulkBytes: Longest RESP argument, in bytes.
    ///   - maximumRequestBytes: Most bytes of one RESP request.
    public init(
        maximumInlineBytes: Int = 64 * 1024,
        maximumBulkBytes: Int = 512 * 1024 * 1024,
        maximumRequestBytes: Int = 1024 * 1024 * 1024
    ) {
        precondition(
            maximumInlineBytes > 0 && maximumBulkBytes > 0 && maximumRequestBytes > 0,
            "protocol limits must be positive")
        self.maximumInlineBytes = maximumInlineBytes
        self.maximumBulkBytes = maximumBulkBytes
        self.maximumRequestBytes = maximumRequestBytes
    }
}
