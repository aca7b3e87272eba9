import Foundation

/// Hands what one thread reads to the thread that stores it, in order, with at most `capacity`
/// pieces waiting between them: an import reads and checks its next piece while the database
/// stores the last one, and its memory stays bounded whatever the file's size.
///
/// The reader `put`s pieces and ends with `finish(throwing:)`; the storer `take`s them until nil,
/// or gets the reader's error from `take`. A storer that gives up calls `cancel`: the reader's
/// next `put` throws `Cancelled`, so it stops reading.
final class ImportPipeline<Piece: Sendable>: @unchecked Sendable {
    /// What `put` throws once the storer has given up.
    struct Cancelled: Error {}

    private let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [Piece] = []
    private var ended = false
    private var failure: (any Error)?
    private var cancelled = false

    /// - Parameter capacity: pieces that may wait, at least 1.
    init(capacity: Int) {
        precondition(capacity >= 1, "a pipeline holds at least one piece")
        self.capacity = capacity
    }

    /// Adds a piece, waiting while `capacity` pieces wait already.
    ///
    /// - Throws: `Cancelled` once the storer has given up (the piece is dropped).
    func put(_ piece: Piece) throws(Cancelled) {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { throw Cancelled() }
        waiting.append(piece)
        condition.broadcast()
    }

    /// Says the reader is done: with nil after its last piece, else with what stopped it.
    func finish(throwing error: (any Error)?) {
        condition.lock()
        ended = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next piece in order, waiting for it; nil once the reader has finished without error
    /// and every piece was taken.
    ///
    /// - Throws: the reader's error, once the pieces it put before it have been taken.
    func take() throws -> Piece? {
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

    /// Stops the reader: pieces waiting are dropped, and its next `put` throws.
    func cancel() {
        condition.lock()
        cancelled = true
        waiting.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
