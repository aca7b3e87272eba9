import ArgumentParser
import Foundation
import Geo
import Places
import PlacesSQLite
import VicinityCLI

/// `vicinity-bench bench-store`: the database's figures — import, restart to ready, write throughput
/// with group commit — on the synthetic city written as a CSV file.
struct StoreBenchCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-store",
        abstract: "Benchmark the database: import, restart to ready, and writes per second.",
        discussion: """
            Writes the synthetic city (see vicinity-bench bench) as a CSV file of places with random ids, \
            imports it into a new database exactly as vicinity import does, reloads the database \
            into memory as a server start does and answers a first query, then times single-row \
            writes (user moves) from 1 and from 16 writer threads through the group commit, and the \
            16 writers again with one commit per write for comparison. Run a release build: \
            swift run -c release vicinity-bench bench-store
            """
    )

    @Option(help: "Places to import.") var points = 1_000_000
    @Option(help: "Writes per writer thread.") var writes = 400
    @Option(help: "Random seed.") var seed: UInt64 = 20_261_122
    @Option(
        help: ArgumentHelp(
            "Folder for the CSV file and the databases (default: a new temporary one).", valueName: "folder"))
    var folder: String?
    @Flag(help: "Keep the folder afterwards.") var keep = false

    func validate() throws {
        guard (1...100_000_000).contains(points) else {
            throw ValidationError("invalid points \"\(points)\": expected 1 to 100000000")
        }
        guard (1...1_000_000).contains(writes) else {
            throw ValidationError("invalid writes \"\(writes)\": expected 1 to 1000000")
        }
    }

    func execute(_ output: inout CommandOutput) throws {
        let manager = FileManager.default
        let folder = self.folder ?? manager.temporaryDirectory.appendingPathComponent("vicinity-bench-\(UUID())").path
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if !keep && self.folder == nil { try? manager.removeItem(atPath: folder) } }
        let csv = folder + "/city.csv"
        let database = folder + "/city.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? manager.removeItem(atPath: database + suffix) }

        output.progress("bench-store: writing \(points) places to \(csv)")
        try Self.writeCity(points: points, seed: seed, to: csv)
        output.line("vicinity bench-store — \(points) places, \(Benchmark.machineDescription())")

        output.progress("bench-store: importing")
        var start = DispatchTime.now().uptimeNanoseconds
        let imported = CLI.run(["import", csv, "--kind", "pharmacy", "--db", database])
        let importSeconds = Self.seconds(since: start)
        guard imported.status == 0 else { throw CLIError.internalError("import failed: \(imported.standardError)") }
        output.line(
            String(
                format: "import (CSV → new database, one transaction) %7.2f s  %9.0f rows/s", importSeconds,
                Double(points) / importSeconds))

        output.progress("bench-store: restarting")
        start = DispatchTime.now().uptimeNanoseconds
        let store = try SQLitePlaceStore(path: database)
        var directory = try store.loadDirectory()
        let loadSeconds = Self.seconds(since: start)
        let center = try Coordinate(latitude: SyntheticCity.centerLatitude, longitude: SyntheticCity.centerLongitude)
        let first = try directory.nearby(center, radiusMeters: 500, kind: "pharmacy")
        let readySeconds = Self.seconds(since: start)
        output.line(
            String(
                format: "restart to ready (open, load %d places, first query: %d within 500 m) %7.2f s",
                directory.places.count, first.count, readySeconds))
        _ = loadSeconds

        // One user per writer thread, each moved `writes` times.
        let writerCounts = [1, 16]
        for writer in 0..<writerCounts.max()! {
            try directory.addUser(User(id: "bench-\(writer)", name: "Bench \(writer)"), by: .admin)
        }
        _ = try store.commit(
            (0..<writerCounts.max()!).map { writer in
                .putUser(
                    try directory.user("bench-\(writer)", as: .admin), tokenDigest: Token.issue().digest)
            })
        for (writers, batch) in writerCounts.map({ ($0, 4_096) }) + [(16, 1)] {
            output.progress("bench-store: \(writers) writers, batch \(batch)")
            let durable = DurableDirectory(directory, store: store, maximumBatch: batch)
            let start = DispatchTime.now().uptimeNanoseconds
            Self.write(durable, writers: writers, writes: writes)
            let elapsed = Self.seconds(since: start)
            let statistics = durable.statistics
            durable.close()
            let total = writers * writes
            output.line(
                String(
                    format: "single-row writes, %2d writer%@, %@ %9.0f writes/s  (%d writes in %d commits, %.2f s)",
                    writers, writers == 1 ? " " : "s", batch == 1 ? "one commit each" : "group commit   ",
                    Double(total) / elapsed, total, statistics.commits, elapsed))
        }
    }

    /// Moves each writer's user `writes` times, from `writers` threads at once, each write waiting
    /// for its acknowledgement.
    static func write(_ durable: DurableDirectory, writers: Int, writes: Int) {
        let group = DispatchGroup()
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var random = SplitMix64(seed: UInt64(writer))
                for _ in 0..<writes {
                    let (latitude, longitude) = SyntheticCity.uniformPoint(&random)
                    let location = try? Coordinate(latitude: latitude, longitude: longitude)
                    _ = try? durable.performAndWait(.moveUser("bench-\(writer)", to: location), by: .admin)
                }
            }
        }
        group.wait()
    }

    /// The synthetic city as CSV: random 8-digit ids (unique, in random order), a name and two
    /// attributes per place, as a real pharmacy list has.
    static func writeCity(points: Int, seed: UInt64, to path: String) throws {
        var city = SyntheticCity(seed: seed)
        var random = SplitMix64(seed: seed ^ 0x1D5)
        // A random permutation of 10,000,000…: ids unique and unordered.
        var ids = Array(0..<points)
        for index in stride(from: ids.count - 1, to: 0, by: -1) {
            ids.swapAt(index, Int(random.next() % UInt64(index + 1)))
        }
        guard
            let handle = FileHandle(forWritingAtPath: path)
                ?? {
                    _ = FileManager.default.createFile(atPath: path, contents: nil)
                    return FileHandle(forWritingAtPath: path)
                }()
        else { throw CLIError.cannotCreate("\(path): cannot write the benchmark file") }
        defer { try? handle.close() }
        var text = "id,name,lat,lon,phone,city\n"
        for offset in 0..<points {
            let point = city.nextPoint()
            let id = 10_000_000 + ids[offset]
            text += "p\(id),Pharmacy \(id),\(point.latitude),\(point.longitude),0212 555 \(id % 10_000),Istanbul\n"
            if text.utf8.count > 1 << 20 {
                handle.write(Data(text.utf8))
                text = ""
            }
        }
        handle.write(Data(text.utf8))
    }

    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
