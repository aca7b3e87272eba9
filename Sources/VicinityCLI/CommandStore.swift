import Places
import PlacesSQLite

/// What the commands need of a store, SQLite or PostgreSQL: writes through the façade, bulk
/// imports, the snapshot a command or a server loads, and the places `export` prints.
protocol CommandStore: BulkPlaceStore {
    /// How messages name the database: a file's path, or a PostgreSQL URL without its password.
    var name: String { get }
    /// Every place, in (kind, id) order.
    func storedPlaces() throws -> [Place]
    /// The places of one kind, in id order.
    func storedPlaces(kind: String) throws -> [Place]
}

extension SQLitePlaceStore: CommandStore {
    var name: String { path }
    func storedPlaces() throws -> [Place] { try places() }
    func storedPlaces(kind: String) throws -> [Place] { try places(kind: kind) }
}

extension DatabaseOptions {
    /// Opens the database the options name (`--postgres`/`$VICINITY_POSTGRES`, else the SQLite
    /// file of `--db`, `$VICINITY_DB` or the default).
    func openStore(output: inout CommandOutput) throws(CLIError) -> any CommandStore {
        try locate().open(output: &output)
    }

    /// Opens the database and loads a snapshot of it.
    func loadSnapshot(output: inout CommandOutput) throws(CLIError) -> (any CommandStore, DirectorySnapshot) {
        let store = try openStore(output: &output)
        do {
            return (store, try store.snapshot(cellSizeMeters: nil))
        } catch {
            let reason = (error as? SQLiteStoreError)?.description ?? (error as? PlacesError)?.description ?? "\(error)"
            throw .data("\(store.name): \(reason)")
        }
    }
}
