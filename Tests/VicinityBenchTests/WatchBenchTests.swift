import Foundation
import TestSupport
import Testing
import VicinityCLI

@testable import VicinityBench

/// `vicinity-bench watches` on a small city: the four paced phases report, and `--export` writes
/// the files scripts/bench-watch.sh feeds PostGIS, with events that are the moves' effect.
@Suite struct WatchBenchTests {
    /// Runs the tool on a thread of its own: it paces with sleeps and waits on semaphores, which on
    /// Swift's cooperative threads (as many as the cores) would stall every async test meanwhile.
    static func run(_ arguments: [String]) async -> CLI.Outcome {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: BenchTool.run(arguments)) }.start()
        }
    }

    @Test func pacedPhasesReportEachPhase() async throws {
        let outcome = await Self.run([
            "watches", "--points", "3000", "--watches", "200", "--rate", "2000", "--seconds", "0.2",
            "--subscribers", "4", "--step", "200",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        for phase in ["no watches ", "200 watches ", "200 watches, formatted", "no watches again"] {
            #expect(outcome.standardOutput.contains(phase), "\(phase)")
        }
        #expect(outcome.standardOutput.contains("watches add "))
        #expect(outcome.standardOutput.contains("events taken: inside "))
    }

    @Test func exportWritesTheCityTheFencesTheMovesAndTheirEvents() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let outcome = await Self.run([
            "watches", "--points", "3000", "--watches", "200", "--export", folder.path, "--export-moves", "500",
            "--step", "200",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        func lines(_ name: String) throws -> [Substring] {
            try String(contentsOfFile: folder.file(name), encoding: .utf8).split(separator: "\n")
        }
        #expect(try lines("places.csv").count == 3_001)
        #expect(try lines("fences.csv").count == 201)
        #expect(try lines("moves.csv").count == 501)
        let events = try lines("events.csv").dropFirst()
        #expect(!events.isEmpty)
        // Every event names a move of the file and the place that move moved.
        let moved = Dictionary(
            uniqueKeysWithValues: try lines("moves.csv").dropFirst().map { line in
                let fields = line.split(separator: ",")
                return (Int(fields[0])!, String(fields[1]))
            })
        for event in events {
            let fields = event.split(separator: ",")
            #expect(moved[Int(fields[0])!] == String(fields[2]), "\(event)")
            #expect(["enter", "exit", "move"].contains(String(fields[3])), "\(event)")
        }
    }
}
