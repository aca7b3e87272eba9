import ArgumentParser

/// The root `vicinity` command.
struct VicinityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vicinity",
        abstract: "Answer \"what is near this point?\" exactly, on the WGS84 ellipsoid.",
        discussion: """
            Coordinates are latitude first (as a person says them), in decimal degrees; negative \
            numbers are values, not options (vicinity near -33.8688 151.2093).
            Exit codes: 0 success, 64 bad argument, 65 bad data, 66 unreadable file.
            """,
        subcommands: [
            NearCommand.self, NearestCommand.self, DistCommand.self, MapCommand.self, BenchCommand.self,
            CrashWriterCommand.self,
        ]
    )
}
