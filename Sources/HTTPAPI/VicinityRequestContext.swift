import Hummingbird
import NIOCore

/// Hummingbird's request context with the client's address, for `RateLimitMiddleware`, and the
/// connection, for the watch streams (`RequestChannelMiddleware`).
public struct VicinityRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected client's address; nil when the channel has none (a test channel).
    public let remoteAddress: SocketAddress?
    /// The connection the request came on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
