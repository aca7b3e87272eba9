import Synchronization

/// The replies of several commands as they come in (at once, or from the writer thread): calls
/// its completion once, with all of them in order, when the last one is recorded.
final class ReplyBatch: Sendable {
    private let state: Mutex<(replies: [RESPReply?], remaining: Int)>
    private let completion: @Sendable ([RESPReply]) -> Void

    init(count: Int, completion: @escaping @Sendable ([RESPReply]) -> Void) {
        state = Mutex((Array(repeating: nil, count: count), count))
        self.completion = completion
    }

    /// Records the reply of command `index`; the last one calls the completion.
    func record(_ reply: RESPReply, at index: Int) {
        let all: [RESPReply]? = state.withLock { state in
            state.replies[index] = reply
            state.remaining -= 1
            return state.remaining == 0 ? state.replies.compactMap { $0 } : nil
        }
        if let all { completion(all) }
    }
}
