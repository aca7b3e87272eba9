import Foundation
import Places
import Synchronization

/// A `PlaceStore` that keeps nothing: each commit is numbered and forgotten, so a benchmark of
/// what happens in memory after a commit (`vicinity-bench watches`) measures that and not a disk.
/// Its log is always empty (nobody follows it) and its snapshot is an empty directory.
final class NullPlaceStore: PlaceStore {
    /// The last position handed out.
    private let position = Mutex<LogPosition>(0)

    /// - Parameter position: the position the first commit follows.
    init(position: LogPosition = 0) {
        self.position.withLock { $0 = position }
    }

    func commit(_ changes: [DirectoryChange]) throws -> StoredCommit {
        let last = position.withLock { position in
            position += LogPosition(changes.count)
            return position
        }
        return StoredCommit(changes: changes, position: last)
    }

    func head() throws -> LogHead {
        LogHead(position: position.withLock { $0 }, committedAt: nil)
    }

    func changes(after position: LogPosition, limit: Int) throws -> LogRead { .changes([]) }

    func snapshot(cellSizeMeters: Double?) throws -> DirectorySnapshot {
        DirectorySnapshot(
            directory: PlaceDirectory(places: try PlaceCatalog(cellSizeMeters: cellSizeMeters)),
            position: position.withLock { $0 })
    }

    func waitForChanges(after position: LogPosition, timeout: Double) {
        Thread.sleep(forTimeInterval: min(timeout, 0.1))
    }

    func trimLog(keeping retention: LogRetention) throws -> Int { 0 }
}
