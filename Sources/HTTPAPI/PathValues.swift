import Places

/// Checks of path parameters with the façade's rules (`Vocabulary`), so that a bad segment is a
/// 400 naming the parameter before any write is queued.
enum PathValues {
    /// A place's kind and id (`Vocabulary.placeKind`, `Vocabulary.placeID`).
    static func placeKey(kind: String, id: String) throws(HTTPAPIError) {
        do { _ = try Vocabulary.placeKind.parse(kind) } catch { throw .parameter("kind", in: .path, error) }
        do { _ = try Vocabulary.placeID.parse(id) } catch { throw .parameter("id", in: .path, error) }
    }

    /// A stored user's id (`Vocabulary.existingUserID`).
    static func userID(_ id: String) throws(HTTPAPIError) -> String {
        do { return try Vocabulary.existingUserID.parse(id) } catch { throw .parameter("id", in: .path, error) }
    }
}
