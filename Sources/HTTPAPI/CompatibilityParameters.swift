/// Query parameters the server reads that the contract does not declare (openapi.yaml's
/// introduction says why): `crs` of the four query operations, with which first-version clients
/// choose the CRS of `model=projected`. `QueryTextMiddleware` binds them for the handler.
enum CompatibilityParameters {
    /// The operations that read `crs` from the query: those whose checked parameters
    /// (`QueryParameter.byOperation`) list it.
    static let crsOperations = Set(
        QueryParameter.byOperation.filter { $0.value.contains { $0.name == QueryParameter.crs.name } }.keys)

    /// The `crs` text of the request being answered (percent-decoded), or nil when not given.
    @TaskLocal static var crs: String?
}
