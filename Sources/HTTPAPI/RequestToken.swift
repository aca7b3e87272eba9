/// The bearer token of the request being handled, set by `BearerTokenMiddleware` for the
/// handler's task (the generated server passes no security information to the handler; this is
/// the generator's documented way to carry it).
///
/// Tests call the handler inside `RequestToken.$current.withValue(token) { … }`.
enum RequestToken {
    /// The token from `Authorization: Bearer <token>`, or nil when the request sent none.
    @TaskLocal static var current: String?
}
