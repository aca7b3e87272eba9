import ArgumentParser

/// The root `vicinity-bench` command: the benchmarks behind BENCHMARKS.md and the crash test's
/// writer, kept out of the shipped `vicinity` binary.
struct VicinityBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vicinity-bench",
        abstract: "Benchmark Vicinity and drive its crash test; not part of the vicinity command.",
        discussion: """
            Run a release build (swift build -c release, then .build/release/vicinity-bench bench): \
            the figures of a debug build say little. scripts/bench-*.sh run these commands.
            """,
        subcommands: [
            BenchCommand.self, StoreBenchCommand.self, LineBenchCommand.self, LineServiceBenchCommand.self,
            WatchBenchCommand.self,
            CrashWriterCommand.self, OpeningHoursTableCommand.self, HoursBenchCommand.self,
            NumbersBenchCommand.self,
        ]
    )
}
