import ArgumentParser
import Foundation
import VicinityCLI

/// `vicinity-bench bench`: index a deterministic synthetic city and time queries against brute force.
struct BenchCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark the grid index on a synthetic city against a brute-force scan.",
        discussion: """
            Half of the points are uniform over a 60 x 75 km box around Istanbul, half in 300 \
            Gaussian clusters (sigma 300-800 m); queries come from the same mixture. Run a release \
            build: swift run -c release vicinity-bench bench
            """
    )

    @Option(help: "Number of points to index.") var points = 1_000_000
    @Option(help: "Number of radius and nearest queries per model.") var queries = 20_000
    @Option(help: "Query radius in meters.") var radius = 500.0
    @Option(help: "Points per nearest query.") var nearest = 10
    @Option(help: "Grid cell size in meters.") var cellSize = 250.0
    @Option(help: "Queries also answered by brute-force scan (0 for none).") var bruteForceQueries = 5
    @Option(help: "Radius queries for the projected model (it projects every candidate).")
    var projectedQueries = 500
    @Option(help: "Random seed.") var seed: UInt64 = 20_261_122
    @Option(help: "Passes over the query set; the median pass is reported.") var passes = 3
    @Option(help: ArgumentHelp("Only write the dataset as Redis commands into this folder.", valueName: "folder"))
    var exportRedis: String?
    @Flag(help: "Print one JSON document.") var json = false

    func validate() throws {
        guard (1...100_000_000).contains(points) else {
            throw ValidationError("invalid points \"\(points)\": expected 1 to 100000000")
        }
        guard queries >= 1 else { throw ValidationError("invalid queries \"\(queries)\": expected 1 or more") }
        guard radius.isFinite, radius >= 0 else {
            throw ValidationError("invalid radius \"\(radius)\": expected a number of meters, 0 or more")
        }
        guard nearest >= 1 else { throw ValidationError("invalid nearest \"\(nearest)\": expected 1 or more") }
        guard (10...100_000).contains(cellSize) else {
            throw ValidationError("invalid cell size \"\(cellSize)\": expected 10 to 100000 meters")
        }
        guard (1...99).contains(passes) else { throw ValidationError("invalid passes \"\(passes)\": expected 1 to 99") }
        guard bruteForceQueries >= 0, projectedQueries >= 0 else {
            throw ValidationError("invalid query count: --brute-force-queries and --projected-queries take 0 or more")
        }
    }

    func execute(_ output: inout CommandOutput) throws {
        var configuration = Benchmark.Configuration()
        configuration.points = points
        configuration.queries = queries
        configuration.radiusMeters = radius
        configuration.nearestCount = nearest
        configuration.cellSizeMeters = cellSize
        configuration.bruteForceQueries = max(0, bruteForceQueries)
        configuration.projectedQueries = max(0, projectedQueries)
        configuration.seed = seed
        configuration.passes = passes
        if let folder = exportRedis {
            try Benchmark(configuration: configuration).exportRedis(to: folder)
            output.line("wrote \(folder)/points.redis and \(folder)/queries.redis")
            return
        }
        let progress = output
        let report = try Benchmark(configuration: configuration).run { progress.progress("bench: \($0)") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            // snake_case like every other JSON document the command line prints.
            encoder.keyEncodingStrategy = .convertToSnakeCase
            output.line(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        output.line(
            "vicinity bench — \(report.points) points, cell \(report.cellSizeMeters) m, median of \(passes) passes, "
                + report.machine)
        output.line(String(format: "index build          %8.3f s", report.buildSeconds))
        output.line(String(format: "index memory         %8.1f bytes/point (arrays)", report.indexBytesPerPoint))
        if let malloc = report.mallocBytesPerPoint {
            output.line(String(format: "heap growth          %8.1f bytes/point (mallinfo2)", malloc))
        }
        for result in report.radius {
            output.line(
                String(
                    format: "radius %4.0f m %-10@ %8.2f µs/query %10.0f q/s  %7.1f results (%d queries)",
                    report.radiusMeters, result.model, result.meanMicroseconds, result.queriesPerSecond,
                    result.meanResults, result.queries))
        }
        let nearest = report.nearest
        output.line(
            String(
                format: "nearest-%-3d %-12@ %8.2f µs/query %10.0f q/s", self.nearest, nearest.model,
                nearest.meanMicroseconds, nearest.queriesPerSecond))
        for brute in report.bruteForce {
            output.line(
                String(
                    format: "brute force %-12@ %10.1f µs/query vs index %7.2f µs: %6.0fx faster, identical: %@",
                    brute.model, brute.bruteForceMeanMicroseconds, brute.indexMeanMicroseconds, brute.speedup,
                    brute.identicalResults ? "yes" : "NO"))
        }
    }
}
