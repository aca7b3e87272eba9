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
    func open(output: inout CommandOutput) throws(CLIError) -> SQLitePlaceStore {
        let manager = FileManager.default
        let isNew = !manager.fileExists(atPath: path)
        if isNew && isDefault {
            let folder = (path as NSString).deletingLastPathComponent
            do {
                try manager.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotCreate("\(folder): cannot create the database folder: \(error.localizedDescription)")
            }
        }
        // People's locations are private: a new database is readable by its owner only (SQLite
        // gives the -wal and -shm files the database file's permissions).
        if isNew {
            _ = manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let store: SQLitePlaceStore
        do {
            store = try SQLitePlaceStore(path: path)
        } catch {
            throw isNew ? .cannotCreate(error.description) : .noInput(error.description)
        }
        if isNew && isDefault { try seed(store, output: &output) }
        return store
    }

    /// Loads everything in the database into memory.
    func loadDirectory(output: inout CommandOutput) throws(CLIError) -> (SQLitePlaceStore, PlaceDirectory) {
        let store = try open(output: &output)
        do { return (store, try store.loadDirectory()) } catch { throw .data("\(path): \(error.description)") }
    }

    private func seed(_ store: SQLitePlaceStore, output: inout CommandOutput) throws(CLIError) {
        guard let folder = ShippedData.folder() else {
            output.warning("created \(path), empty: the shipped data (Data/) was not found to seed it")
            return
        }
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
        do { try batch.store(into: store) } catch { throw .ioError(String(describing: error)) }
        let places = batch.places
        output.note(
            "created \(path) with the \(places.count) shipped places (\(ShippedData.files.joined(separator: ", "))); "
                + "--db PATH or VICINITY_DB choose another database")
    }
}
