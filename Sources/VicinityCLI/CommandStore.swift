import Places
import PlacesPostgres
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
    /// The places that have an attribute of this name (a plain name such as `duty`).
    func storedPlaces(withAttribute name: String) throws -> [Place]
}

extension SQLitePlaceStore: CommandStore {
    var name: String { path }
    func storedPlaces() throws -> [Place] { try places() }
    func storedPlaces(kind: String) throws -> [Place] { try places(kind: kind) }
    func storedPlaces(withAttribute name: String) throws -> [Place] { try places(withAttribute: name) }
}

extension PostgresPlaceStore: CommandStore {
    var name: String { settings.description }
    func storedPlaces() throws -> [Place] { try places() }
    func storedPlaces(kind: String) throws -> [Place] { try places().filter { $0.kind == kind } }
    func storedPlaces(withAttribute name: String) throws -> [Place] {
        try places().filter { $0.attribute(name) != nil }
    }
}

extension DatabaseOptions {
    /// The PostgreSQL database the options or `$VICINITY_POSTGRES` name, or nil for SQLite (`--db`
    /// wins over the variable).
    func postgresSettings() throws(CLIError) -> PostgresSettings? {
        let environment = CLIEnvironment.current
        let url: String
        let fromCommandLine: Bool
        if let postgres {
            guard db == nil else {
                throw .usage("--db and --postgres exclude each other: --db names a SQLite file, --postgres a server")
            }
            url = postgres.trimmingCharacters(in: .whitespaces)
            fromCommandLine = true
        } else if db == nil, let variable = environment["VICINITY_POSTGRES"], !variable.isEmpty {
            if let file = environment["VICINITY_DB"], !file.isEmpty {
                throw .usage(
                    "both $VICINITY_POSTGRES and $VICINITY_DB are set: unset one, or choose with --postgres URL "
                        + "or --db PATH")
            }
            url = variable
            fromCommandLine = false
        } else {
            if postgresPasswordFile != nil {
                throw .usage(
                    db == nil
                        ? "--postgres-password-file needs --postgres URL or $VICINITY_POSTGRES"
                        : "--postgres-password-file is for PostgreSQL, and --db names a SQLite file")
            }
            return nil
        }
        do {
            return try PostgresSettings.parse(
                url, passwordFile: postgresPasswordFile, environment: environment, urlFromCommandLine: fromCommandLine)
        } catch {
            if case .unreadablePasswordFile = error { throw .noInput(error.description) }
            throw .usage(error.description)
        }
    }

    /// Opens the database the options name (`--postgres`/`$VICINITY_POSTGRES`, else the SQLite
    /// file of `--db`, `$VICINITY_DB` or the default).
    func openStore(output: inout CommandOutput) throws(CLIError) -> any CommandStore {
        guard let settings = try postgresSettings() else { return try locate().open(output: &output) }
        do { return try PostgresPlaceStore(settings: settings) } catch {
            throw CLIError.postgres(error)
        }
    }

    /// Opens the database and loads a snapshot of it.
    func loadSnapshot(output: inout CommandOutput) throws(CLIError) -> (any CommandStore, DirectorySnapshot) {
        let store = try openStore(output: &output)
        do {
            return (store, try store.snapshot(cellSizeMeters: nil))
        } catch {
            throw .data("\(store.name): \(CLIError.reason(error))")
        }
    }
}

extension CLIError {
    /// A store's error in one line, without its type's name.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as SQLiteStoreError: return error.description
        case let error as PostgresStoreError: return error.description
        case let error as PlacesError: return error.description
        default: return "\(error)"
        }
    }

    /// The exit code for a PostgreSQL store that could not be opened: 69 would be sysexits'
    /// "unavailable", but the command line's codes are 64–77 as documented; a server that cannot
    /// be reached is an I/O error (74), a schema to migrate is data (65).
    static func postgres(_ error: any Error) -> CLIError {
        guard let error = error as? PostgresStoreError else { return .ioError(reason(error)) }
        switch error {
        case .notMigrated, .newerSchema, .readFailed, .migrationFailed: return .data(error.description)
        case .invalidURL, .passwordOnCommandLine: return .usage(error.description)
        case .unreadablePasswordFile: return .noInput(error.description)
        default: return .ioError(error.description)
        }
    }
}
