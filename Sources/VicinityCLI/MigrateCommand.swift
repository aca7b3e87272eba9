import ArgumentParser
import PlacesPostgres

/// `vicinity migrate`: creates or upgrades the schema of a PostgreSQL database.
struct MigrateCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or upgrade the Vicinity schema of a PostgreSQL database (--postgres).",
        discussion: """
            Each version's migration runs in its own transaction: a failed one is rolled back and \
            leaves the schema as it was. A database already at this version is left as it is; one \
            a newer Vicinity migrated is refused. SQLite files (--db) migrate themselves when opened.
            """)

    @OptionGroup var database: DatabaseOptions

    func execute(_ output: inout CommandOutput) throws {
        guard let settings = try database.postgresSettings() else {
            throw CLIError.usage(
                "migrate is for PostgreSQL: pass --postgres URL or set $VICINITY_POSTGRES (SQLite files migrate "
                    + "themselves when opened)")
        }
        let (from, to) = try { () throws(CLIError) in
            do { return try PostgresPlaceStore.migrate(settings) } catch { throw CLIError.postgres(error) }
        }()
        output.line(
            from == to
                ? "\(settings): schema \(to), already current."
                : "\(settings): migrated from schema \(from) to \(to).")
    }
}
