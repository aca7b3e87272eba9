import Places

/// What the server knows about one connection: who it is (after `AUTH`), how it wants its
/// replies, and what `CLIENT` commands set.
public struct Session: Sendable {
    /// The connection's number, as `CLIENT ID` reports it (1, 2, … in order of arrival).
    public let id: Int
    /// The token given with `AUTH`, resolved again on every write; nil before `AUTH`.
    public var token: String?
    /// Who the token named when it was given (reads use it; writes resolve the token again).
    public var principal: Principal = .anonymous
    /// 2 (RESP2, the default) or 3 after `HELLO 3`.
    public var protocolVersion = 2
    /// Replies as RESP, or one JSON object per line after `OUTPUT json`.
    public var outputJSON = false
    /// The format the connection's replies are written in now: JSON after `OUTPUT json`, else
    /// RESP3 after `HELLO 3`, else RESP2.
    public var replyFormat: RESPReplyEncoder.Format {
        outputJSON ? .json : (protocolVersion == 3 ? .resp3 : .resp2)
    }
    /// `CLIENT SETNAME`.
    public var name: String?
    /// `CLIENT SETINFO lib-name` / `lib-ver`.
    public var libraryName: String?
    public var libraryVersion: String?
    /// The budget of queries about other users this connection draws on
    /// (`ServerConfiguration.userQueryLimit`, shared by every connection of the process).
    public var userQueryLimit: UserQueryLimit = .unlimited
    /// The client's IP address (no port), which the anonymous are limited by; nil when unknown
    /// (a session without a socket).
    public var clientAddress: String?
    /// Set by `QUIT`: close after the reply.
    public var closing = false
    /// Set by `MONITOR`: the service starts sending this connection every command once the reply
    /// is written.
    var startsMonitoring = false
    /// The connection's entry in the service's `ClientRegistry` (nil for a session without one).
    var record: ClientRegistry.Record?
    /// The commands queued since `MULTI`; nil outside a transaction.
    var transaction: QueuedTransaction?
    /// The connection's geo watches (`WATCH NEARBY`, `SUBSCRIBE`); nil for a session without a
    /// connection of its own, which cannot watch.
    var watches: ConnectionWatches?
    /// `WATCH`ed keys and their change counters when watched (`DurableDirectory.version(ofKey:)`).
    var watchedKeys: [String: UInt64] = [:]
    /// The log position of the last write acknowledged on this connection (`POSITION`), shared by
    /// every copy of the session.
    public let lastWrite = LastWritePosition()

    public init(id: Int) { self.id = id }
}
