import Places
import Synchronization

/// The results of a batch of writes as they come in, from the writer thread.
final class WriteBatch: Sendable {
    private let state: Mutex<(results: [Result<String?, PlacesError>?], remaining: Int)>

    init(count: Int) {
        state = Mutex((Array(repeating: nil, count: count), count))
    }

    /// Records one result; returns all of them, in order, when it was the last one.
    func record(_ result: Result<String?, PlacesError>, at index: Int) -> [Result<String?, PlacesError>]? {
        state.withLock { state in
            state.results[index] = result
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            return state.results.compactMap { $0 }
        }
    }
}
