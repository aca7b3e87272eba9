import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Checks the text of each number and word query parameter (`QueryParameter.byOperation`) before
/// the generated code decodes it, and reports the first bad or missing one naming its text and
/// valid range: `invalid latitude "abc": expected a number of degrees from -90 to 90`.
///
/// Without it, text the generated decoder cannot read becomes an error without the parameter's
/// name, and `Double(_:)` takes `nan` and hexadecimal floats that the contract refuses.
struct QueryTextMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let items = QueryTextMiddleware.items(of: request.path ?? "")
        if operationID == "watchNearby" || operationID == "watchNearbyUsers", items["user"] != nil {
            // The first version's roaming watch (`user=` instead of lat and lon) has its own path.
            let target =
                operationID == "watchNearby" ? "/v1/users/ID/nearby/watch" : "/v1/users/ID/nearby/watch?kind=user"
            throw HTTPAPIError.conflictingParameter(
                name: "user",
                detail: "a watch that follows a user is GET \(target); this path watches a fixed point (lat and lon)")
        }
        if let parameters = QueryParameter.byOperation[operationID] {
            try QueryTextMiddleware.check(items, against: parameters)
        }
        if CompatibilityParameters.crsOperations.contains(operationID) {
            return try await CompatibilityParameters.$crs.withValue(items["crs"]?.first) {
                try await next(request, body, metadata)
            }
        }
        if operationID.hasPrefix("watch") {
            // A watch follows every place of its circle: a filter it would ignore is refused, not
            // dropped as other unknown parameters are (a watch "of open places" would be a trap).
            for name in ["open", "where"] where items[name] != nil {
                throw HTTPAPIError.conflictingParameter(
                    name: name,
                    detail: "query parameter \"\(name)\" does not apply to a watch: a watch follows every place "
                        + "within its radius (open and where filter /v1/nearby, /v1/nearest and /v1/map)")
            }
        }
        return try await next(request, body, metadata)
    }

    /// Checks the parameters in their order in the contract; the first bad one is the error.
    /// Every value of a repeated parameter is checked, and then a parameter given more times than
    /// it may be (once, but for a list) is refused: the generated decoder would take the first
    /// and silently drop the others.
    static func check(_ items: [String: [String]], against parameters: [QueryParameter]) throws(HTTPAPIError) {
        try check(against: parameters) { items[$0] }
    }

    /// `check(_:against:)` of the values `texts` finds by name (nil for a name the query lacks),
    /// for a caller that has read the query its own way.
    static func check(against parameters: [QueryParameter], texts: (String) -> [String]?) throws(HTTPAPIError) {
        try check(against: parameters, texts: texts) { (parameter, text) throws(HTTPAPIError) in
            try parameter.check(text: text)
        }
    }

    /// `check(against:texts:)` with each text checked by `checkText` (`QueryParameter.check(text:)`
    /// or a check that keeps what it read), in the same order.
    static func check(
        against parameters: [QueryParameter], texts: (String) -> [String]?,
        checkText: (QueryParameter, String) throws(HTTPAPIError) -> Void
    ) throws(HTTPAPIError) {
        for parameter in parameters {
            if let texts = texts(parameter.name) {
                for text in texts { try checkText(parameter, text) }
                // The generated decoder would take the first of a single value and drop the rest
                // silently; a list (`where`) takes them all, up to its most.
                guard texts.count <= parameter.maximumCount else { throw parameter.repeated(texts.count) }
            } else if parameter.required {
                throw parameter.missing
            }
        }
    }

    /// The query items of a request target by name, percent-decoded (`+` is a space, as in
    /// forms), each name's values in order. Split on the bytes `&` and `=` (swift-openapi-runtime
    /// splits on `Character`s: the two differ only for a raw combining mark right after one of
    /// them, which the runtime then refuses anyway).
    static func items(of target: String) -> [String: [String]] {
        let utf8 = target.utf8
        guard let mark = utf8.firstIndex(of: UInt8(ascii: "?")) else { return [:] }
        var items: [String: [String]] = [:]
        for pair in utf8[utf8.index(after: mark)...].split(separator: UInt8(ascii: "&")) {
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                items[decoded(pair[..<equals]), default: []].append(decoded(pair[pair.index(after: equals)...]))
            } else {
                items[decoded(pair), default: []].append("")
            }
        }
        return items
    }

    /// The text of a name or value: as it is unless it has `+` or `%` (most have neither).
    private static func decoded(_ utf8: Substring.UTF8View) -> String {
        let text = Substring(utf8)
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
