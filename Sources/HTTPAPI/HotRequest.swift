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
        do {
            // Without `%` in the query, `values` holds the texts `QueryTextMiddleware.items` reads
            // (`+` a space in both, every pair with `=`, names as written): no second parse. With
            // one, the two differ for a value that is not valid percent-encoding (empty here, as
            // written there), and the check reads the middleware's.
            if query.utf8.contains(UInt8(ascii: "%")) {
                try QueryTextMiddleware.check(QueryTextMiddleware.items(of: target), against: parameters)
            } else {
                try QueryTextMiddleware.check(against: parameters) { values[$0] }
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
        guard let decoded = HotRequest.operation(operationID, values, fields) else { return nil }
        operation = .success(decoded)
    }

    /// The operation's query and `Accept` as the generated deserializer decodes them, and its
    /// serializer's check that `application/json` is acceptable; nil when any of it would fail.
    private static func operation(_ operationID: String, _ values: QueryPairs, _ fields: HTTPFields)
        -> Operation?
    {
        let converter = HotRequest.converter
        do {
            try converter.validateAcceptIfPresent("application/json", in: fields)
            switch operationID {
            case "findNearby":
                let query = try Operations.FindNearby.Input.Query(
                    lat: required(values["lat"], { Double($0) }), lon: required(values["lon"], { Double($0) }),
                    radius: optional(values["radius"], { Double($0) }), kind: values["kind"]?.first,
                    limit: optional(values["limit"], { Int($0) }),
                    model: optional(values["model"], Components.Schemas.DistanceModelName.init(rawValue:)),
                    open: values["open"]?.first, _where: values["where"],
                    format: optional(values["format"], Components.Schemas.ResultFormat.init(rawValue:)))
                return .nearby(
                    query, accept: try accept(in: fields, defaults: nearbyAcceptDefaults), crs: values["crs"]?.first)
            case "findNearest":
                let query = try Operations.FindNearest.Input.Query(
                    lat: required(values["lat"], { Double($0) }), lon: required(values["lon"], { Double($0) }),
                    count: optional(values["count"], { Int($0) }),
                    maxDistance: optional(values["max_distance"], { Double($0) }), kind: values["kind"]?.first,
                    model: optional(values["model"], Components.Schemas.DistanceModelName.init(rawValue:)),
                    open: values["open"]?.first, _where: values["where"],
                    format: optional(values["format"], Components.Schemas.ResultFormat.init(rawValue:)))
                return .nearest(
                    query, accept: try accept(in: fields, defaults: nearestAcceptDefaults), crs: values["crs"]?.first)
            default:
                let query = try Operations.FindNearbyUsers.Input.Query(
                    lat: required(values["lat"], { Double($0) }), lon: required(values["lon"], { Double($0) }),
                    radius: optional(values["radius"], { Double($0) }), limit: optional(values["limit"], { Int($0) }))
                if fields[.accept] != nil {
                    let _: [AcceptHeaderContentType<Operations.FindNearbyUsers.AcceptableContentType>] =
                        try converter.extractAcceptHeaderIfPresent(in: fields)
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

    /// Why a value cannot be read here (the request goes to the generated server).
    private struct Unreadable: Error {}

    /// The first value, converted.
    private static func required<T>(_ values: [String]?, _ convert: (String) -> T?) throws -> T {
        guard let text = values?.first, let value = convert(text) else { throw Unreadable() }
        return value
    }

    /// The first value converted, nil when the parameter is absent.
    private static func optional<T>(_ values: [String]?, _ convert: (String) -> T?) throws -> T? {
        guard let text = values?.first else { return nil }
        guard let value = convert(text) else { throw Unreadable() }
        return value
    }

    /// The values of a query by name, each name's in order, found by comparing the name's bytes: a
    /// query has a handful of names, all printable ASCII (`init` sends any other target to the
    /// generated server), for which byte equality is `String` equality, and a scan of a few pairs
    /// costs less than hashing `Substring`s into a dictionary.
    struct QueryPairs {
        /// The most distinct names kept: more than any hot operation takes, and few enough that
        /// the scans stay short (a query naming more goes to the generated server).
        static let maximumNames = 16
        private var names: [Substring]
        private var texts: [[String]]

        /// Room for `capacity` names without growing.
        init(capacity: Int) {
            names = []
            texts = []
            names.reserveCapacity(capacity)
            texts.reserveCapacity(capacity)
        }

        /// How many distinct names the query has.
        var nameCount: Int { names.count }

        /// The values of `name`, in order; nil when the query does not name it.
        subscript(name: String) -> [String]? {
            var name = name
            return name.withUTF8 { wanted in
                for index in names.indices where names[index].utf8.elementsEqual(wanted) { return texts[index] }
                return nil
            }
        }

        fileprivate mutating func append(_ text: String, to name: Substring) {
            if let index = names.firstIndex(where: { $0.utf8.elementsEqual(name.utf8) }) {
                texts[index].append(text)
            } else {
                names.append(name)
                texts.append([text])
            }
        }
    }

    /// The query's values by name, in order, decoded as the generated decoder decodes them (`+` a
    /// space, then percent-decoding; a value that is not valid percent-encoded UTF-8 becomes
    /// empty). Nil for a query the generated decoder refuses (a pair without `=`, an empty pair
    /// but for one after the last `&`), whose names need decoding, or that has more than
    /// `QueryPairs.maximumNames` names.
    static func values(of query: Substring) -> QueryPairs? {
        // Split on the byte `&`: for printable ASCII the same as on the `Character`, without
        // looking for grapheme breaks.
        var values = QueryPairs(capacity: QueryPairs.maximumNames)
        let utf8 = query.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            let pair = Substring(utf8[start..<end])
            // The next pair starts after the `&`; one after the last `&` is left out when empty.
            start = end < utf8.endIndex ? utf8.index(after: end) : end
            guard let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let name = pair[..<equals]
            guard !name.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
                return nil
            }
            values.append(decoded(pair[pair.utf8.index(after: equals)...]), to: name)
            if values.nameCount > QueryPairs.maximumNames { return nil }
        }
        return values
    }

    /// `+` as a space, `%XY` as the byte 0xXY; empty when a `%` is not followed by two hexadecimal
    /// digits or the bytes are not UTF-8.
    static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return ""
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(bytes: bytes, encoding: .utf8) ?? ""
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
