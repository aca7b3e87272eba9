import Places

/// The façade's rules for ids and names, checked at the edge so that a bad path segment is a 400
/// naming the parameter and a bad body field a 422 naming its JSON pointer, before any write is
/// queued. Lengths count Unicode scalars, as the façade and SQLite's `length()` do; control
/// characters are general category Cc (U+0000–U+001F, U+007F–U+009F).
enum TextRules {
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// 1 to `limit` characters without control characters: a user id (128), a place id (128).
    static func isIdentifier(_ text: String, limit: Int) -> Bool {
        !text.isEmpty && text.unicodeScalars.count <= limit && !hasControls(text)
    }

    /// 0 to 256 characters without control characters: a user's or a place's name.
    static func isDisplayName(_ text: String) -> Bool {
        text.unicodeScalars.count <= 256 && !hasControls(text)
    }

    static let identifierRule = "1 to 128 characters, no control characters"

    /// A user id in a path: the façade's rule. (`nearby` cannot reach here: that path is the
    /// nearby-users query.)
    static func userID(_ id: String) throws(HTTPAPIError) -> String {
        guard isIdentifier(id, limit: 128) else {
            throw .invalidParameter(name: "id", in: .path, noun: "user id", value: id, expected: identifierRule)
        }
        return id
    }

    /// A place's kind and id in a path: the façade's rules (`PlaceDirectory.validatePlace`).
    static func placeKey(kind: String, id: String) throws(HTTPAPIError) {
        do {
            try PlaceDirectory.validatePlace(kind: kind, id: id)
        } catch .reservedKind {
            throw .invalidParameter(
                name: "kind", in: .path, noun: "kind", value: kind,
                expected: "a place kind other than \"user\" (users are under /v1/users)")
        } catch .invalidPlaceID {
            throw .invalidParameter(name: "id", in: .path, noun: "place id", value: id, expected: identifierRule)
        } catch {
            throw .invalidParameter(
                name: "kind", in: .path, noun: "kind", value: kind,
                expected: "1 to 64 characters, no spaces or control characters")
        }
    }
}
