import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// A request for one of the hot operations (`GET`/`HEAD` `/v1/nearby`, `/v1/nearest`,
/// `/v1/users/nearby`), read as the generated server reads it, for `HotRoutes` to answer without
/// the generated layer.
///
/// `init` returns nil for every request whose reading it cannot vouch to be the generated
/// server's: another method or path (`/v1/nearby/` too), a body or `Connection` header, bytes
/// outside printable ASCII in the target, a query pair without `=`, a parameter name with `%` or
/// `+`, a value the generated decoder would fail to decode after `QueryTextMiddleware` accepted
/// it, an `Accept` the generated server would refuse or could not read. Those go to the
/// generated server, which answers them as it always did: the two can differ only in speed.
/// `HotRoutesDifferentialTests` holds the two to the same answers.
struct HotRequest: Sendable {
    /// The operation with its decoded query.
    enum Operation: Sendable {
        /// With the `crs` the contract does not declare (`CompatibilityParameters`).
        case nearby(
            Operations.FindNearby.Input.Query,
            accept: [AcceptHeaderContentType<Operations.FindNearby.AcceptableContentType>], crs: String?)
        case nearest(
            Operations.FindNearest.Input.Query,
            accept: [AcceptHeaderContentType<Operations.FindNearest.AcceptableContentType>], crs: String?)
        case nearbyUsers(Operations.FindNearbyUsers.Input.Query)
    }

    /// The contract's operation id, e.g. `findNearby` (metrics count by it).
    let operationID: String
    /// The path template, as the request log names it: `/v1/nearby`.
    let route: String
    let method: HTTPRequest.Method
    let headerFields: HTTPFields
    /// The operation, or the parameter error `QueryTextMiddleware` answers with (the generated
    /// decoder is then never reached).
    let operation: Result<Operation, HTTPAPIError>

    /// Each operation's query parameters (`QueryParameter.byOperation`), looked up once.
    private static let nearbyParameters = parameters(of: "findNearby")
    private static let nearestParameters = parameters(of: "findNearest")
    private static let nearbyUsersParameters = parameters(of: "findNearbyUsers")

    /// An operation's parameters; an operation the contract does not have is a programming error
    /// (its query would be checked against no rules).
    private static func parameters(of operation: String) -> [QueryParameter] {
        guard let parameters = QueryParameter.byOperation[operation] else {
            preconditionFailure("openapi.yaml has no operation \(operation)")
        }
        return parameters
    }

    /// The converter the generated server reads `Accept` with (`HTTPServer.configuration`).
    static let converter = Converter(configuration: HTTPServer.configuration)

    /// - Returns: nil for a request to leave to the generated server (see the type's summary).
    init?(_ head: HTTPRequest) {
        guard head.method == .get || head.method == .head, let target = head.path else { return nil }
        let fields = head.headerFields
        guard fields[.contentLength] == nil, fields[.transferEncoding] == nil, fields[.connection] == nil,
            fields[.expect] == nil
        else { return nil }
        // Printable ASCII only: the generated decoder splits on `Character`s, the same as bytes then.
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }) else { return nil }
        let mark = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = mark.map { target[..<$0] } ?? target[...]
        let parameters: [QueryParameter]
        switch path {
        case "/v1/nearby": (operationID, parameters) = ("findNearby", HotRequest.nearbyParameters)
        case "/v1/nearest": (operationID, parameters) = ("findNearest", HotRequest.nearestParameters)
        case "/v1/users/nearby": (operationID, parameters) = ("findNearbyUsers", HotRequest.nearbyUsersParameters)
        default: return nil
        }
        route = String(path)
        method = head.method
        headerFields = fields
        let query = mark.map { target[target.utf8.index(after: $0)...] } ?? ""
        guard let values = HotRequest.values(of: query) else { return nil }
        // The decimal parameters' values as their check read them: the same `Double` as the
        // generated decoder's `Double(_:)` of a text the check accepts (`DecimalNumber.parse`).
        var decimals = Decimals()
        do {
            // Without `%` in the query, `values` holds the texts `QueryTextMiddleware.items` reads
            // (`+` a space in both, every pair with `=`, names as written): no second parse. With
            // one, the two differ for a value that is not valid percent-encoding (empty here, as
            // written there), and the check reads the middleware's.
            if query.utf8.contains(UInt8(ascii: "%")) {
                try QueryTextMiddleware.check(QueryTextMiddleware.items(of: target), against: parameters)
            } else {
                try QueryTextMiddleware.check(against: parameters, texts: { values[$0] }) {
                    (parameter, text) throws(HTTPAPIError) in
                    guard parameter.decimalValue != nil else { return try parameter.check(text: text) }
                    decimals.note(try parameter.checkedDecimal(text: text), of: parameter.name)
                }
            }
        } catch {
            operation = .failure(error)
            return
        }
        // The headers the generated code decodes: the positions (checked again, as text, by
        // `MinimumPositionMiddleware`) and `Accept`.
        for name in [MinimumPositionMiddleware.minimumPositionField, MinimumPositionMiddleware.waitField] {
            if let text = fields[name], Int64(text) == nil { return nil }
        }
        guard let decoded = HotRequest.operation(operationID, values, decimals, fields) else { return nil }
        operation = .success(decoded)
    }

    /// The operation's query and `Accept` as the generated deserializer decodes them, and its
    /// serializer's check that `application/json` is acceptable; nil when any of it would fail.
    private static func operation(
        _ operationID: String, _ values: QueryPairs, _ decimals: Decimals, _ fields: HTTPFields
    ) -> Operation? {
        // Without `Accept` the converter reads nothing (`validateAcceptIfPresent` returns at once,
        // the defaults stand): it is not even copied then.
        let hasAccept = fields[.accept] != nil
        /// A decimal parameter's first value: the one its check read, else `Double(_:)`'s; nil
        /// when the query does not name it.
        func decimal(_ name: String) throws -> Double? {
            guard let text = values[name]?.first else { return nil }
            guard let value = decimals[name] ?? Double(text) else { throw Unreadable() }
            return value
        }
        func requiredDecimal(_ name: String) throws -> Double {
            guard let value = try decimal(name) else { throw Unreadable() }
            return value
        }
        do {
            if hasAccept { try HotRequest.converter.validateAcceptIfPresent("application/json", in: fields) }
            switch operationID {
            case "findNearby":
                let query = try Operations.FindNearby.Input.Query(
                    lat: requiredDecimal("lat"), lon: requiredDecimal("lon"),
                    radius: decimal("radius"), kind: values["kind"]?.first,
                    limit: optional(values["limit"], { Int($0) }),
                    model: optional(values["model"], Components.Schemas.DistanceModelName.init(rawValue:)),
                    open: values["open"]?.first, _where: values["where"],
                    format: optional(values["format"], Components.Schemas.ResultFormat.init(rawValue:)))
                return .nearby(
                    query, accept: try accept(in: fields, defaults: nearbyAcceptDefaults), crs: values["crs"]?.first)
            case "findNearest":
                let query = try Operations.FindNearest.Input.Query(
                    lat: requiredDecimal("lat"), lon: requiredDecimal("lon"),
                    count: optional(values["count"], { Int($0) }),
                    maxDistance: decimal("max_distance"), kind: values["kind"]?.first,
                    model: optional(values["model"], Components.Schemas.DistanceModelName.init(rawValue:)),
                    open: values["open"]?.first, _where: values["where"],
                    format: optional(values["format"], Components.Schemas.ResultFormat.init(rawValue:)))
                return .nearest(
                    query, accept: try accept(in: fields, defaults: nearestAcceptDefaults), crs: values["crs"]?.first)
            default:
                let query = try Operations.FindNearbyUsers.Input.Query(
                    lat: requiredDecimal("lat"), lon: requiredDecimal("lon"),
                    radius: decimal("radius"), limit: optional(values["limit"], { Int($0) }))
                if hasAccept {
                    let _: [AcceptHeaderContentType<Operations.FindNearbyUsers.AcceptableContentType>] =
                        try HotRequest.converter.extractAcceptHeaderIfPresent(in: fields)
                }
                return .nearbyUsers(query)
            }
        } catch {
            return nil
        }
    }

    /// What the generated deserializer reads from a request without `Accept` (the runtime's
    /// `defaultValues`, made once here instead of for every request).
    private static let nearbyAcceptDefaults =
        AcceptHeaderContentType<Operations.FindNearby.AcceptableContentType>.defaultValues
    private static let nearestAcceptDefaults =
        AcceptHeaderContentType<Operations.FindNearest.AcceptableContentType>.defaultValues

    /// `Accept` as the generated deserializer reads it: `defaults` when the request has none.
    private static func accept<T: AcceptableProtocol>(in fields: HTTPFields, defaults: [AcceptHeaderContentType<T>])
        throws -> [AcceptHeaderContentType<T>]
    {
        guard fields[.accept] != nil else { return defaults }
        return try converter.extractAcceptHeaderIfPresent(in: fields)
    }

    /// The first value of each decimal parameter as its check read it, by name: a hot query has
    /// at most four (`lat`, `lon`, `radius` or `max_distance`), kept without an allocation and
    /// looked up by comparing names. A fifth is not kept (its text is read again).
    struct Decimals {
        private var first: (name: String, value: Double)?
        private var second: (name: String, value: Double)?
        private var third: (name: String, value: Double)?
        private var fourth: (name: String, value: Double)?

        /// Notes `value` for `name` unless one was noted before (the first value is the one read).
        mutating func note(_ value: Double, of name: String) {
            guard self[name] == nil else { return }
            if first == nil {
                first = (name, value)
            } else if second == nil {
                second = (name, value)
            } else if third == nil {
                third = (name, value)
            } else if fourth == nil {
                fourth = (name, value)
            }
        }

        /// The value noted for `name`, nil when none was.
        subscript(name: String) -> Double? {
            if let first, first.name == name { return first.value }
            if let second, second.name == name { return second.value }
            if let third, third.name == name { return third.value }
            if let fourth, fourth.name == name { return fourth.value }
            return nil
        }
    }

    /// Why a value cannot be read here (the request goes to the generated server).
    private struct Unreadable: Error {}

    /// The first value converted, nil when the parameter is absent.
    private static func optional<T>(_ values: [String]?, _ convert: (String) -> T?) throws -> T? {
        guard let text = values?.first else { return nil }
        guard let value = convert(text) else { throw Unreadable() }
        return value
    }
}
