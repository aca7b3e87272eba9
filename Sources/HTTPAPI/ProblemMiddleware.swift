import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The outermost middleware: every error becomes an `application/problem+json` response (RFC
/// 9457) instead of the transport's empty 500.
///
/// - `HTTPAPIError` from the handler or another middleware: its own status and problem.
/// - A body the generated code could not decode: 422 naming the field by JSON pointer when it
///   breaks the schema (a missing or unknown field, a wrong type); 400 for a value not among an
///   enum's, naming the valid ones, as for a query parameter. A body that is not JSON is refused before, by `BodyLimitMiddleware`.
/// - A parameter the generated code could not decode: 400 (`QueryTextMiddleware` refuses, naming
///   the parameter, all it knows to be unreadable first).
/// - An error the runtime gives a client-error status (406 for an `Accept` that allows none of the
///   operation's answers, 400 for a malformed header): that status with the runtime's description
///   of the cause. (Found by hand: `Accept: text/html` was a 500.)
/// - Anything else before the handler ran: 400 with the runtime's description of the cause.
/// - Anything else: 500, naming the operation only.
struct ProblemMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch {
            let problem = ProblemMiddleware.problem(for: error, operationID: operationID)
            return (HTTPResponse(status: problem.httpStatus, headerFields: problem.httpHeaderFields), problem.httpBody)
        }
    }

    /// The error to answer with.
    static func problem(for error: any Error, operationID: String) -> HTTPAPIError {
        if let error = error as? HTTPAPIError { return error }
        guard let error = error as? ServerError else { return .internalError(operation: operationID) }
        if let api = error.underlyingError as? HTTPAPIError { return api }
        if let decoding = error.underlyingError as? DecodingError {
            // Only operations with a JSON body decode one; their parameters are all strings, which
            // always decode. Any other decoding failure is a parameter's: a 400, never a body's 422.
            guard BodyLimitMiddleware.operationsWithBody.contains(operationID) else {
                return .malformedRequest(status: .badRequest, cause: error.causeDescription)
            }
            return problem(for: decoding)
        }
        if (400..<500).contains(error.httpStatus.code) {
            return .malformedRequest(status: error.httpStatus, cause: error.causeDescription)
        }
        if error.operationInput == nil { return .malformedRequest(status: .badRequest, cause: error.causeDescription) }
        return .internalError(operation: operationID)
    }

    /// A JSON body that could not be decoded into the operation's input.
    static func problem(for error: DecodingError) -> HTTPAPIError {
        switch error {
        case .keyNotFound(let key, let context):
            if let value = unknownDiscriminatorValue(context.debugDescription) {
                // A oneOf body whose discriminator names none of its forms: a value outside an
                // enum, as for any other field (the runtime reports it as a missing key).
                let at = pointer(context.codingPath + [key])
                let noun = key.stringValue.replacingOccurrences(of: "_", with: " ")
                let expected =
                    discriminatorValues[key.stringValue].map(inWords) ?? "one of the values openapi.yaml lists"
                return .invalidBodyChoice(
                    pointer: at, detail: "invalid \(noun) \(HTTPAPIError.quoted(value)) at \(at): expected \(expected)",
                    reason: "expected \(expected)")
            }
            let parent = pointer(context.codingPath)
            return .invalidBody(
                pointer: pointer(context.codingPath + [key]),
                detail: "missing field \"\(key.stringValue)\" at \(parent)", reason: "required")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let at = pointer(context.codingPath)
            return .invalidBody(
                pointer: at, detail: "invalid value at \(at): expected \(typeName(type))",
                reason: "expected \(typeName(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformedBody(context.debugDescription)
        case .dataCorrupted(let context):
            let at = pointer(context.codingPath)
            if let (type, value) = rejectedEnumValue(context.debugDescription) {
                let noun = context.codingPath.last?.stringValue.replacingOccurrences(of: "_", with: " ") ?? "value"
                let expected = enumValues[type].map(inWords) ?? "one of the values openapi.yaml lists for \(type)"
                return .invalidBodyChoice(
                    pointer: at, detail: "invalid \(noun) \(HTTPAPIError.quoted(value)) at \(at): expected \(expected)",
                    reason: "expected \(expected)")
            }
            if context.debugDescription.hasPrefix("Additional properties"), let key = context.codingPath.last {
                let form = otherFormFields[key.stringValue].map { ": \($0)" } ?? ""
                return .invalidBody(
                    pointer: at,
                    detail: "unknown field \"\(key.stringValue)\" at \(pointer(context.codingPath.dropLast()))\(form)",
                    reason: "unknown field")
            }
            return .invalidBody(
                pointer: at, detail: "invalid value at \(at): \(context.debugDescription)", reason: "invalid")
        @unknown default:
            return .malformedBody("\(error)")
        }
    }

    /// The values of the contract's enums that a request body may hold, by the generated type's
    /// name: the decoder's error names the type, not the values.
    static let enumValues: [String: [String]] = [
        "\(Components.Schemas.Visibility.self)": Components.Schemas.Visibility.allCases.map(\.rawValue),
        "\(Components.Schemas.Precision.self)": Components.Schemas.Precision.allCases.map(\.rawValue),
    ]

    /// Fields that one form of a oneOf body has and another has not, with the form that has
    /// them: sent with the other form they are unknown there, and the refusal says where they go.
    static let otherFormFields: [String: String] = [
        "for_seconds": "a time limit goes only with visibility private"
    ]

    /// The values of the discriminators of the contract's oneOf bodies, by property name.
    static let discriminatorValues: [String: [String]] = [
        "visibility": Components.Schemas.Visibility.allCases.map(\.rawValue)
    ]

    /// The value in swift-openapi-runtime's refusal of an unknown oneOf discriminator, "The oneOf
    /// structure does not contain the provided discriminator value 'PRIVATE'." (its words).
    static func unknownDiscriminatorValue(_ description: String) -> String? {
        let prefix = "The oneOf structure does not contain the provided discriminator value '"
        guard description.hasPrefix(prefix), description.hasSuffix("'.") else { return nil }
        return String(description.dropFirst(prefix.count).dropLast(2))
    }

    /// The type and the value of Swift's `RawRepresentable` refusal, "Cannot initialize Visibility
    /// from invalid String value PRIVATE" (the words of the standard library's `init(from:)`).
    static func rejectedEnumValue(_ description: String) -> (type: String, value: String)? {
        let prefix = "Cannot initialize "
        guard description.hasPrefix(prefix), let from = description.range(of: " from invalid "),
            let value = description.range(of: " value ", range: from.upperBound..<description.endIndex)
        else { return nil }
        return (String(description[prefix.endIndex..<from.lowerBound]), String(description[value.upperBound...]))
    }

    /// `public or private`, `geodesic, haversine or projected`.
    static func inWords(_ values: [String]) -> String {
        guard let last = values.last, values.count > 1 else { return values.first ?? "" }
        return values.dropLast().joined(separator: ", ") + " or " + last
    }

    /// An RFC 6901 JSON pointer (`/attributes/0/name`; `/` for the whole body).
    static func pointer(_ path: some Collection<any CodingKey>) -> String {
        guard !path.isEmpty else { return "/" }
        return path.map { key in
            let token = key.intValue.map(String.init) ?? key.stringValue
            return "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }.joined()
    }

    /// JSON's name for what a Swift type decodes from.
    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            // JSON's words, never Swift's: a keyed container is an object, an unkeyed one an array.
            let name = "\(type)"
            if name.hasPrefix("Dictionary<") { return "an object" }
            if name.hasPrefix("Array<") { return "an array" }
            return "a \(type)".replacingOccurrences(of: "Components.Schemas.", with: "")
        }
    }
}
