import Testing

@testable import VicinityBench

/// Bad `vicinity-bench` command lines: one line on standard error naming the value and the valid
/// range, exit code 64, as `vicinity` does.
@Suite struct BenchBadInputTests {
    @Test(arguments: [
        (["bench", "--cell-size", "5"], "invalid cell size \"5.0\": expected 10 to 100000 meters"),
        (["bench", "--nearest", "0"], "invalid nearest \"0\": expected 1 or more"),
        (["bench-store", "--writes", "0"], "invalid writes \"0\": expected 1 to 1000000"),
        (["line-bench", "--port", "0", "--file", "x"], "invalid port \"0\": expected 1 to 65535"),
        (["watches", "--rate", "0"], "invalid rate \"0.0\": expected 1 to 1000000 moves a second"),
        (["watches", "--subscribers", "0"], "invalid subscribers \"0\": expected 1 to 100000"),
        (["crash-writer", "--db", "x", "--writers", "0"], "invalid writers \"0\": expected 1 to 64"),
        (["line-service", "--csv", "x", "--file", "y", "--passes", "0"], "invalid passes \"0\": expected 1 to 999"),
        (
            ["line-service", "--csv", "x", "--file", "y", "--evict", "2000000"],
            "invalid evict \"2000000\": expected 0 to 1048576 KiB"
        ),
    ])
    func usageErrors(arguments: [String], message: String) {
        let outcome = BenchTool.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.standardError == "vicinity-bench: \(message)\n")
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test func helpListsTheToolsThatVicinityNoLongerShips() {
        let outcome = BenchTool.run(["--help"])
        #expect(outcome.status == 0)
        for command in ["bench", "bench-store", "line-bench", "watches", "crash-writer"] {
            #expect(outcome.standardOutput.contains("\n  \(command) "), "\(command)")
        }
    }
}
