import ArgumentParser
import Places

/// The root `vicinity` command.
struct VicinityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vicinity",
        abstract: "Answer \"what is near this point?\" exactly, on the WGS84 ellipsoid.",
        discussion: """
            Coordinates are latitude first (as a person says them), in decimal degrees; negative \
            numbers are values, not options (vicinity near -33.8688 151.2093).
            Queries search the database (--db, else $VICINITY_DB, else \
            $XDG_DATA_HOME/vicinity/vicinity.sqlite, created with the shipped pharmacies on first \
            use), or --data files.
            Exit codes: 0 success, 64 bad argument, 65 bad data, 66 unreadable file, 67 no such \
            user or place, 73 cannot create the database, 74 the database refused a write, 77 a \
            missing or wrong token.
            """,
        version: ProductVersion.current,
        subcommands: [
            NearCommand.self, NearestCommand.self, DistCommand.self, MapCommand.self, ImportCommand.self,
            ImportRotaCommand.self,
            ExportCommand.self, UserCommand.self, AdminTokenCommand.self, ServeCommand.self, MigrateCommand.self,
        ]
    )
}
