import Foundation

/// Hands what one thread makes to the thread that uses it, in order, with at most `capacity`
/// pieces waiting between them: an import reads and checks its next piece while the database
/// stores the last one, or sorts its next part while the last is written, and its memory stays
/// bounded whatever the file's size.
///
/// The maker `put`s pieces and ends with `finish(throwing:)`; the user `take`s them until nil,
/// or gets the maker's error from `take`. A user that gives up calls `cancel`: the maker's
/// next `put` throws `Cancelled`, so it stops.
public final class ImportPipeline<Piece: Sendable>: @unchecked Sendable {
    /// What `put` throws once the user has given up.
    public struct Cancelled: Error {}

    private let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [Piece] = []
    private var ended = false
    private var failure: (any Error)?
    private var cancelled = false

    /// - Parameter capacity: pieces that may wait, at least 1.
    public init(capacity: Int) {
        precondition(capacity >= 1, "a pipeline holds at least one piece")
        self.capacity = capacity
    }

    /// Adds a piece, waiting while `capacity` pieces wait already.
    ///
    /// - Throws: `Cancelled` once the user has given up (the piece is dropped).
    public func put(_ piece: Piece) throws(Cancelled) {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { throw Cancelled() }
        waiting.append(piece)
        condition.broadcast()
    }

    /// Says the maker is done: with nil after its last piece, else with what stopped it.
    public func finish(throwing error: (any Error)?) {
        condition.lock()
        ended = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next piece in order, waiting for it; nil once the maker has finished without error
    /// and every piece was taken.
    ///
    /// - Throws: the maker's error, once the pieces it put before it have been taken.
    public func take() throws -> Piece? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !ended { condition.wait() }
        guard waiting.isEmpty else {
            let piece = waiting.removeFirst()
            condition.broadcast()
            return piece
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the maker: pieces waiting are dropped, and its next `put` throws.
    public func cancel() {
        condition.lock()
        cancelled = true
        waiting.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
