import Foundation

/// The environment variables a run reads (`VICINITY_DB`, `VICINITY_TOKEN`, `VICINITY_DATA`,
/// `XDG_DATA_HOME`, `HOME`, `COLUMNS`, `LINES`, `NO_COLOR`): the process's own, or those a test
/// gives `CLI.run`, so that tests never touch the real home folder.
enum CLIEnvironment {
    @TaskLocal static var current: [String: String] = ProcessInfo.processInfo.environment
}
