import Hummingbird
import NIOCore

/// Hummingbird's request context with the client's address, for `RateLimitMiddleware`.
public struct VicinityRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected client's address; nil when the channel has none (a test channel).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
