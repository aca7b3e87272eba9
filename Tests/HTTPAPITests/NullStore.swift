import Places

/// A store that keeps nothing: the directory in memory is the whole truth for these tests.
final class NullStore: PlaceStore {
    func commit(_ changes: [DirectoryChange]) throws -> [DirectoryChange] { changes }
}
