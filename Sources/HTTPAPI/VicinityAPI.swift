import Geo
import OpenAPIRuntime
import PlaceQueries
import Places

/// The HTTP API's handler: the generated `APIProtocol` over the `Places` façade.
///
/// Every operation reads through `DurableDirectory.read` (from memory, in parallel) or writes
/// through its group commit, so authorization and visibility are the façade's: a private user
/// is in no answer to anyone else, whatever the route. The handler checks every parameter (the
/// generated server does not check `minimum`/`maximum`), turns the façade's answers into the
/// contract's types, and throws `HTTPAPIError` for everything else; `ProblemMiddleware` turns
/// that into `application/problem+json`.
///
/// ```swift
/// let api = VicinityAPI(directory: durable)
/// try api.registerHandlers(on: router, middlewares: HTTPServer.middlewares(for: api))
/// ```
public struct VicinityAPI: Sendable {
    public let directory: DurableDirectory
    /// What `GET /metrics` shows; `MetricsMiddleware` counts the requests into it.
    public let metrics: HTTPMetrics
    /// How the watch streams behave (heartbeat, queue).
    public let watchStreams: WatchStreamSettings
    /// The budget of queries about other users (`--user-query-rate`), shared with the line
    /// protocol in `serve`.
    public let userQueryLimit: UserQueryLimit

    /// - Parameters:
    ///   - directory: the store's directory, shared with the line protocol in `serve`.
    ///   - metrics: the server's metrics.
    ///   - watchStreams: how the watch streams behave.
    ///   - userQueryLimit: the budget of queries about other users; the same instance as the line
    ///     protocol's, so that a scraper cannot double it by switching protocols.
    public init(
        directory: DurableDirectory, metrics: HTTPMetrics = HTTPMetrics(),
        watchStreams: WatchStreamSettings = WatchStreamSettings(), userQueryLimit: UserQueryLimit = .unlimited
    ) {
        self.directory = directory
        self.metrics = metrics
        self.watchStreams = watchStreams
        self.userQueryLimit = userQueryLimit
    }

    // MARK: - Who asks

    /// The principal of the request's token: anonymous without one.
    ///
    /// - Throws: `.places(.invalidToken)` for a token that names no one (401, also on reads).
    func principal() throws(HTTPAPIError) -> Principal {
        // No token (or an empty one) is the anonymous principal whatever the directory holds
        // (`PlaceDirectory.principal(presenting:)`): no read lock taken for it.
        guard let token = RequestToken.current, !token.isEmpty else { return .anonymous }
        return try read { directory throws(PlacesError) in try directory.principal(presenting: token) }
    }

    /// The token of a write, checked before anything else: none is a 401, as is one that names
    /// no one. The façade resolves it again when it plans the write (a token revoked meanwhile no
    /// longer works).
    func writerToken() throws(HTTPAPIError) -> String {
        guard let token = RequestToken.current, !token.isEmpty else { throw .missingToken }
        _ = try principal()
        return token
    }

    // MARK: - The façade

    /// Runs a read on the directory, turning the façade's errors into `HTTPAPIError`.
    func read<T>(_ body: (PlaceDirectory) throws(PlacesError) -> T) throws(HTTPAPIError) -> T {
        do { return try directory.read(body) } catch { throw .places(error) }
    }

    /// Makes a write with the request's token; returns once it is stored and visible, with its
    /// receipt: the token it created (a registered user's), whether it replaced a record, and
    /// the log position it was stored at.
    func writeWithReceipt(_ request: DirectoryRequest, token: String?) async throws(HTTPAPIError) -> WriteReceipt {
        do { return try await directory.performWithReceipt(request, presenting: token) } catch { throw .places(error) }
    }

    /// Answers a query; one about users first takes a query from the asker's budget.
    ///
    /// - Throws: `.places(.tooManyQueries)` (429) beyond the budget, a 400 naming `open` or
    ///   `where` for a filter on users (the query layer's refusal and message), or the façade's
    ///   refusal.
    func answer(_ question: PlaceQuery) throws(HTTPAPIError) -> QueryAnswer {
        if question.collection == .users { try admitUserQuery(question.principal) }
        do {
            return try read { directory throws(PlacesError) in try directory.answer(question) }
        } catch {
            guard question.filters, question.collection == .users, case .places(let refusal) = error else {
                throw error
            }
            let name = question.open != nil ? QueryParameter.open.name : QueryParameter.attributeFilter.name
            throw .parameter(name, in: .query, refusal)
        }
    }

    /// Takes one query about other users from `principal`'s budget (`UserQueryLimit`): a user by
    /// their id, the anonymous by the client's address (as `RateLimitMiddleware` names it), the
    /// admin never.
    ///
    /// - Throws: `.places(.tooManyQueries)`, a 429 with `Retry-After`.
    func admitUserQuery(_ principal: Principal) throws(HTTPAPIError) {
        do { try userQueryLimit.admit(principal, address: RequestClient.address) } catch { throw .places(error) }
    }

    /// A write's `Vicinity-Position` (the contract's `int64`; a log never holds 2^63 changes).
    static func position(_ receipt: WriteReceipt) -> Int64 { Int64(clamping: receipt.position) }
}

extension VicinityAPI: APIProtocol {}
