import VicinityCLI

/// Entry point of the `vicinity-bench` executable, separated from its `main.swift` so tests can
/// run its command lines in-process.
public enum BenchTool {
    /// The program name that starts every error message.
    static let programName = "vicinity-bench"

    /// Runs the command line as a process would, then exits with its status.
    public static func main() -> Never { CLI.main(VicinityBenchCommand.self, programName: programName) }

    /// Runs one command line in-process and returns what it printed and its exit status.
    ///
    /// - Parameter arguments: the arguments after the program name.
    static func run(_ arguments: [String]) -> CLI.Outcome {
        CLI.run(VicinityBenchCommand.self, programName: programName, arguments)
    }
}
