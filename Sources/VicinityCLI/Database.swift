import Foundation
import Places
import PlacesSQLite

/// Where the database is and how it is opened: `--db PATH`, else `$VICINITY_DB`, else
/// `$XDG_DATA_HOME/vicinity/vicinity.sqlite` (`~/.local/share/vicinity/vicinity.sqlite`).
///
/// The first use of the default database creates it and seeds it with the shipped pharmacies,
/// saying so on standard error. A database named by `--db` or `$VICINITY_DB` starts empty.
struct Database {
    /// The file.
    let path: String
    /// Whether the path is the default one (neither `--db` nor `$VICINITY_DB`).
    let isDefault: Bool

    /// The database the options and environment name.
    static func locate(option: String?, environment: [String: String] = CLIEnvironment.current)
        throws(CLIError) -> Database
    {
        if let option {
            let path = option.trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty else { throw .usage("invalid --db \"\": expected the path of a database file") }
            return Database(path: path, isDefault: false)
        }
        if let configured = environment["VICINITY_DB"], !configured.isEmpty {
            return Database(path: configured, isDefault: false)
        }
        var dataHome = environment["XDG_DATA_HOME"] ?? ""
        // The XDG spec: a relative XDG_DATA_HOME is invalid and must be ignored.
        if !dataHome.hasPrefix("/") {
            guard let home = environment["HOME"], !home.isEmpty else {
                throw .usage("no database: pass --db PATH or set VICINITY_DB (neither HOME nor XDG_DATA_HOME is set)")
            }
            dataHome = home + "/.local/share"
        }
        return Database(path: dataHome + "/vicinity/vicinity.sqlite", isDefault: true)
    }

    /// Opens the database, creating it if needed; a new default database gets the shipped data.
    ///
    /// A database that cannot be made leaves nothing behind (neither the file nor a folder made
    /// for it), so that the next run tries again and seeds the default database.
    func open(output: inout CommandOutput) throws(CLIError) -> SQLitePlaceStore {
        let manager = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        var madeFolder = false
        if isDefault && !manager.fileExists(atPath: folder) {
            do {
                // People's locations are private: the folder is its owner's only.
                try manager.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                madeFolder = true
            } catch {
                throw .cannotCreate("\(folder): cannot create the database folder: \(error.localizedDescription)")
            }
        }
        var seeded: String?
        do {
            let (store, created) = try SQLitePlaceStore.openOrCreate(path: path) { store in
                if isDefault { seeded = try seed(store) }
            }
            if created, let seeded { output.note(seeded) }
            if created, isDefault, seeded == nil {
                output.warning("created \(path), empty: the shipped data (Data/) was not found to seed it")
            }
            return store
        } catch {
            if madeFolder { try? manager.removeItem(atPath: folder) }
            switch error {
            case let error as CLIError: throw error
            case let error as SQLiteStoreError:
                if case .cannotCreate = error { throw .cannotCreate(error.description) }
                throw .noInput(error.description)
            default: throw .internalError("\(error)")
            }
        }
    }

    /// Loads everything in the database into memory.
    func loadDirectory(output: inout CommandOutput) throws(CLIError) -> (SQLitePlaceStore, PlaceDirectory) {
        let store = try open(output: &output)
        do { return (store, try store.loadDirectory()) } catch { throw .data("\(path): \(error.description)") }
    }

    /// Stores the shipped places in a new database; nil when the shipped data is not found, else
    /// the note to print once the database is in place.
    private func seed(_ store: SQLitePlaceStore) throws -> String? {
        guard let folder = ShippedData.folder() else { return nil }
        var batch = PlaceImport()
        do throws(PlacesError) {
            for file in ShippedData.files {
                for place in try PlaceLoader.load(path: folder + "/" + file, defaultKind: "pharmacy").places {
                    try batch.add(place)
                }
            }
        } catch {
            throw CLIError(error)
        }
        try batch.store(into: store)
        return "created \(path) with the \(batch.places.count) shipped places "
            + "(\(ShippedData.files.joined(separator: ", "))); --db PATH or VICINITY_DB choose another database"
    }
}
