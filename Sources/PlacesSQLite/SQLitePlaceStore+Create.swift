import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

extension SQLitePlaceStore {
    /// Opens the database at `path`, or makes it when there is none (no file, an empty file, an
    /// SQLite file without tables) so that it appears only whole.
    ///
    /// A new database is built under a temporary name in the same folder, filled by `fill`, closed,
    /// and then linked into place: when anything fails (a full disk, a file-size limit, `fill`
    /// throwing) nothing is left behind, neither the file nor its `-wal` and `-shm`, and the next
    /// run starts afresh. When another process makes the database meanwhile, that one is opened
    /// and this one dropped. The new file is readable by its owner only (mode 0600).
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - fill: the first content of a new database (e.g. the shipped places); not called when the
    ///     database exists.
    /// - Returns: the store, and whether it was made now (and filled).
    /// - Throws: `SQLiteStoreError.cannotCreate` when the new database cannot be made, what
    ///   `init(path:)` throws for an existing one, or what `fill` throws.
    public static func openOrCreate(path: String, fill: (SQLitePlaceStore) throws -> Void) throws
        -> (store: SQLitePlaceStore, created: Bool)
    {
        guard try DatabaseIdentity.inspect(path: path) == .empty else {
            return (try SQLitePlaceStore(path: path), false)
        }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).new-\(unique)"
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SQLiteStoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
        defer { removeDatabaseFiles(temporary) }
        do {
            let store = try SQLitePlaceStore(path: temporary)
            try fill(store)
            // Closing the last connection checkpoints the WAL into the file and deletes it.
            try store.queue.close()
        } catch let error as SQLiteStoreError {
            switch error {
            case .cannotOpen(_, let reason), .writeFailed(let reason):
                throw SQLiteStoreError.cannotCreate(path: path, reason: reason)
            default: throw error
            }
        } catch let error as DatabaseError {
            throw SQLiteStoreError.cannotCreate(path: path, reason: SQLiteStoreError.reason(of: error))
        }
        guard !FileManager.default.fileExists(atPath: temporary + "-wal") else {
            throw SQLiteStoreError.cannotCreate(path: path, reason: "its write-ahead log was not folded into the file")
        }
        // An existing empty file is replaced; else the link fails rather than replace a database
        // another process made meanwhile.
        if FileManager.default.fileExists(atPath: path) {
            guard rename(temporary, path) == 0 else {
                throw SQLiteStoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
        } else if link(temporary, path) != 0 {
            guard errno == EEXIST else {
                throw SQLiteStoreError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            return (try SQLitePlaceStore(path: path), false)
        }
        return (try SQLitePlaceStore(path: path), true)
    }

    /// Deletes a database file and its companions, if present.
    private static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
