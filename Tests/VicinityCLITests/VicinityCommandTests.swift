import Testing

@testable import VicinityCLI

/// The root command: what `vicinity --help` offers a user.
@Suite struct VicinityCommandTests {
    /// The benchmarks and the crash test's writer live in `vicinity-bench` (issue 14), not in the
    /// shipped binary, neither listed nor runnable.
    @Test(arguments: ["bench", "bench-store", "line-bench", "crash-writer"])
    func theBenchmarkToolsAreNotPartOfVicinity(command: String) {
        let help = CLI.test(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("\n  near "))
        #expect(!help.standardOutput.contains("\n  \(command) "))
        let run = CLI.test([command])
        #expect(run.status == 64)
        #expect(run.standardError.hasPrefix("vicinity: unexpected argument '\(command)'"), "\(run.standardError)")
    }
}
