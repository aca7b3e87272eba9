import Places

extension HTTPAPIError {
    /// Where a parameter that breaks a rule stands.
    enum ParameterPlace {
        case parameter(Location)
        /// A body field at this JSON pointer; its value is shown as JSON shows it (a string in
        /// quotes, a number without).
        case body(pointer: String, isString: Bool)
    }

    /// A refusal of `Vocabulary`'s named by the parameter or body field it came in: a 400 naming
    /// the parameter, or a 422 naming the field's JSON pointer. Other errors pass as they are.
    static func parameter(_ name: String, in location: Location, _ error: PlacesError) -> HTTPAPIError {
        refused(error, at: .parameter(location), name: name)
    }

    /// As `parameter(_:in:_:)`, for a body field at `pointer` holding a string or a number.
    static func field(_ pointer: String, isString: Bool, _ error: PlacesError) -> HTTPAPIError {
        refused(error, at: .body(pointer: pointer, isString: isString), name: pointer)
    }

    private static func refused(_ error: PlacesError, at place: ParameterPlace, name: String) -> HTTPAPIError {
        let noun: String
        let value: String
        let expected: String
        switch error {
        case .invalidValue(let rule, let text, let words): (noun, value, expected) = (rule, text, words)
        case .invalidKind(let text): (noun, value, expected) = ("kind", text, Vocabulary.placeKind.expected)
        case .reservedKind(let text):
            (noun, value, expected) = ("kind", text, "a place kind other than \"user\" (users are under /v1/users)")
        case .invalidPlaceID(let text): (noun, value, expected) = ("place id", text, Vocabulary.placeID.expected)
        case .invalidUserID(let text):
            // A path names a stored user (`existingUserID`); a body names a new one (`userID`).
            let rule = if case .parameter(.path) = place { Vocabulary.existingUserID } else { Vocabulary.userID }
            (noun, value, expected) = ("user id", text, rule.expected)
        default: return .places(error)
        }
        switch place {
        case .parameter(let location):
            return .invalidParameter(name: name, in: location, noun: noun, value: value, expected: expected)
        case .body(let pointer, let isString):
            let shown = isString ? quoted(value) : value
            return .invalidBody(
                pointer: pointer, detail: "invalid \(noun) \(shown) at \(pointer): expected \(expected)",
                reason: "expected \(expected)")
        }
    }
}
