import ArgumentParser
import Foundation
import Geo
import Places
import VicinityCLI

/// `vicinity-bench watches`: what static watches cost the writes that move what they watch — the
/// CPU per move with and without them in the same run, and the engine's own time per move.
struct WatchBenchCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "watches",
        abstract: "Benchmark watches: CPU per move with static watches over the synthetic city.",
        discussion: """
            Loads the synthetic city (see vicinity-bench bench) as places of kind city into a \
            directory over a store that keeps nothing, then moves random places (setPlace, each by a \
            random step) at a steady rate in four phases: no watches; the watches, their events \
            taken and discarded by one consumer thread; the same, each event formatted (distance and \
            bearing by measure(), one line of text); no watches again. Reports the whole process's \
            CPU per move (getrusage), the writer and consumer threads' CPU, and the engine's time \
            evaluating a change. With --export, instead writes the city, the watches, a run of \
            unpaced moves and the enter/exit/move events they caused as CSV files, for \
            scripts/bench-watch.sh to feed the same moves to PostGIS. Run a release build.
            """
    )

    @Option(help: "Places in the city.") var points = 1_000_000
    @Option(help: "Static watches, centred on points of the query mixture.") var watches = 100_000
    @Option(help: "Watch radius in meters.") var radius = 500.0
    @Option(help: "Moves a second.") var rate = 10_000.0
    @Option(help: "Seconds each phase lasts.") var seconds = 10.0
    @Option(help: "Longest step of a move, meters (each move goes a random distance up to it).") var step = 50.0
    @Option(help: "Subscribers the watches are spread over.") var subscribers = 4
    @Flag(
        help: """
            Wake the consumer with a semaphore when events arrive (a system call on the writer thread \
            while it sleeps) instead of letting it look every millisecond.
            """)
    var wakeBySignal = false
    @Flag(help: "Move public users (moveUser) under watches of kind user, instead of places.") var users = false
    @Option(help: "Random seed.") var seed: UInt64 = 20_261_122
    @Option(
        help: ArgumentHelp(
            "Write the city, watches, moves and events as CSV into this folder instead.", valueName: "folder"))
    var export: String?
    @Option(help: "Moves to export with --export.") var exportMoves = 10_000

    func validate() throws {
        guard (1...100_000_000).contains(points) else {
            throw ValidationError("invalid points \"\(points)\": expected 1 to 100000000")
        }
        guard (0...10_000_000).contains(watches) else {
            throw ValidationError("invalid watches \"\(watches)\": expected 0 to 10000000")
        }
        guard radius.isFinite, (0...100_000).contains(radius) else {
            throw ValidationError("invalid radius \"\(radius)\": expected 0 to 100000 meters")
        }
        guard rate.isFinite, (1...1_000_000).contains(rate) else {
            throw ValidationError("invalid rate \"\(rate)\": expected 1 to 1000000 moves a second")
        }
        guard seconds.isFinite, (0.01...3_600).contains(seconds) else {
            throw ValidationError("invalid seconds \"\(seconds)\": expected 0.01 to 3600")
        }
        guard step.isFinite, (0...10_000).contains(step) else {
            throw ValidationError("invalid step \"\(step)\": expected 0 to 10000 meters")
        }
        guard (1...100_000).contains(subscribers) else {
            throw ValidationError("invalid subscribers \"\(subscribers)\": expected 1 to 100000")
        }
        guard !(users && export != nil) else {
            throw ValidationError("--export writes places for PostGIS: it cannot be combined with --users")
        }
        guard (1...10_000_000).contains(exportMoves) else {
            throw ValidationError("invalid export moves \"\(exportMoves)\": expected 1 to 10000000")
        }
    }

    func execute(_ output: inout CommandOutput) throws {
        var configuration = WatchBench.Configuration()
        configuration.points = points
        configuration.watches = watches
        configuration.radiusMeters = radius
        configuration.rate = rate
        configuration.seconds = seconds
        configuration.stepMeters = step
        configuration.subscribers = subscribers
        configuration.seed = seed
        configuration.users = users
        let bench = WatchBench(configuration: configuration)
        let perPhase = max(1, Int(rate * seconds))
        output.progress("watches: making \(points) places, \(watches) centres and the moves")
        let (points, centres, moves) = bench.dataset(moves: export == nil ? 4 * perPhase : exportMoves)
        var start = DispatchTime.now().uptimeNanoseconds
        let durable = try bench.directory(points)
        defer { durable.close() }
        let loadSeconds = StoreBenchCommand.seconds(since: start)
        var limits = durable.watchLimits
        limits.maximumWatches = max(limits.maximumWatches, watches)
        limits.maximumPerSubscriber = max(limits.maximumPerSubscriber, watches / subscribers + 1)
        durable.watchLimits = limits
        let sink = WatchEventSink(subscribers: subscribers, capacity: 50_000_000, signalling: wakeBySignal)
        defer { sink.stop() }
        output.line(
            "vicinity watches — \(points.count) \(users ? "public users" : "places"), \(watches) watches of \(NumberText.plain(radius)) m, "
                + "moves of up to \(NumberText.plain(step)) m, \(subscribers) subscribers woken by "
                + (wakeBySignal ? "a semaphore" : "polling every 1 ms") + ", \(Benchmark.machineDescription())")
        output.line(
            String(format: "load %d %@ %8.2f s", points.count, users ? "users " : "places", loadSeconds))
        if let folder = export {
            try exportRun(bench, points: points, centres: centres, moves: moves, durable, sink, to: folder, &output)
            return
        }

        var phases: [WatchBench.Phase] = []
        output.progress("watches: phase 1, no watches")
        phases.append(bench.pace("no watches", moves[0..<perPhase], rate: rate, on: durable, sink: sink))
        output.progress("watches: starting \(watches) watches")
        start = DispatchTime.now().uptimeNanoseconds
        let processBefore = WatchEventSink.processCPUSeconds()
        _ = try bench.startWatches(centres, radiusMeters: radius, on: durable, sink: sink)
        let watchSeconds = StoreBenchCommand.seconds(since: start)
        WatchBench.drain(durable, sink)
        let drainedSeconds = StoreBenchCommand.seconds(since: start)
        let inside = sink.counts.byKind[.inside] ?? 0
        output.line(
            String(
                format: "start %d watches              %8.2f s (%.1f µs a watch; %d inside events, %.1f a watch; "
                    + "all taken after %.2f s; process CPU %.2f s)",
                watches, watchSeconds, watchSeconds / Double(max(1, watches)) * 1e6, inside,
                Double(inside) / Double(max(1, watches)), drainedSeconds,
                WatchEventSink.processCPUSeconds() - processBefore))
        output.progress("watches: phase 2, events discarded")
        phases.append(
            bench.pace(
                "\(watches) watches", moves[perPhase..<2 * perPhase], rate: rate, on: durable, sink: sink))
        sink.formatting.store(true, ordering: .relaxed)
        output.progress("watches: phase 3, events formatted")
        phases.append(
            bench.pace(
                "\(watches) watches, formatted", moves[2 * perPhase..<3 * perPhase], rate: rate, on: durable,
                sink: sink))
        sink.formatting.store(false, ordering: .relaxed)
        for subscriber in sink.subscribers { durable.unwatchAll(for: subscriber) }
        WatchBench.drain(durable, sink)
        output.progress("watches: phase 4, no watches again")
        phases.append(
            bench.pace("no watches again", moves[3 * perPhase..<4 * perPhase], rate: rate, on: durable, sink: sink)
        )

        output.line(
            String(
                format: "%d moves a phase at %.0f/s; µs a move: process CPU, writer thread, consumer thread; "
                    + "engine evaluation per change: mean, p50, p90, p99", perPhase, rate))
        for phase in phases {
            output.line(
                phase.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(
                        format:
                            "%6.2f s  process %6.2f  writer %6.2f  consumer %6.2f  events/move %6.2f  "
                            + "eval mean %6.2f  p50 %6.2f  p90 %6.2f  p99 %6.2f  (%d samples, %d of 1 change; lag ≤ %.1f ms)",
                        phase.wallSeconds, phase.processMicroseconds, phase.writerMicroseconds,
                        phase.consumerMicroseconds, phase.eventsPerMove, phase.evaluationMean, phase.evaluationMedian,
                        phase.evaluationP90, phase.evaluationP99, phase.samples, phase.singleChangeSamples,
                        phase.worstLag * 1e3))
        }
        let baseline = (phases[0].processMicroseconds + phases[3].processMicroseconds) / 2
        output.line(
            String(
                format: "watches add %.2f µs of process CPU a move (discarded), %.2f µs (formatted), "
                    + "over the mean of the two phases without (%.2f µs)",
                phases[1].processMicroseconds - baseline, phases[2].processMicroseconds - baseline, baseline))
        let counts = sink.counts
        output.line(
            "events taken: "
                + WatchEvent.Kind.allCases.compactMap { kind in counts.byKind[kind].map { "\(kind.rawValue) \($0)" } }
                .joined(separator: ", "))
    }

    /// Starts the watches, applies `moves` unpaced, and writes what PostGIS needs to do the same
    /// and what Vicinity's watches reported: places.csv (id,name,lat,lon), fences.csv
    /// (id,lat,lon,radius), moves.csv (seq,id,lat,lon) and events.csv (seq,fence,id,kind, sorted).
    func exportRun(
        _ bench: WatchBench, points: [Coordinate], centres: [Coordinate], moves: [WatchBench.Move],
        _ durable: DurableDirectory, _ sink: WatchEventSink, to folder: String, _ output: inout CommandOutput
    ) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var text = "id,name,lat,lon\n"
        for (handle, point) in points.enumerated() {
            text += "\(handle),Point \(handle),\(point.latitude),\(point.longitude)\n"
        }
        try text.write(toFile: folder + "/places.csv", atomically: true, encoding: .utf8)
        text = "id,lat,lon,radius\n"
        for (index, centre) in centres.enumerated() {
            text += "\(index),\(centre.latitude),\(centre.longitude),\(NumberText.plain(radius))\n"
        }
        try text.write(toFile: folder + "/fences.csv", atomically: true, encoding: .utf8)
        text = "seq,id,lat,lon\n"
        for (seq, move) in moves.enumerated() {
            text += "\(seq + 1),\(move.handle),\(move.coordinate.latitude),\(move.coordinate.longitude)\n"
        }
        try text.write(toFile: folder + "/moves.csv", atomically: true, encoding: .utf8)

        output.progress("watches: starting \(centres.count) watches")
        let ids = try bench.startWatches(centres, radiusMeters: radius, on: durable, sink: sink)
        let fenceOf = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, $0.offset) })
        WatchBench.drain(durable, sink)
        sink.keeping.store(true, ordering: .relaxed)
        let base = durable.readWithPosition { $1 }
        output.progress("watches: applying \(moves.count) moves")
        let phase = bench.pace("export", moves[...], rate: 1_000_000, on: durable, sink: sink)
        let kept = sink.takeKept()
        var lines: [String] = []
        lines.reserveCapacity(kept.count)
        for event in kept {
            guard let fence = fenceOf[event.watch], event.position > base else { continue }
            lines.append("\(event.position - base),\(fence),\(event.object),\(event.kind.rawValue)")
        }
        lines.sort()
        try ("seq,fence,id,kind\n" + lines.map { $0 + "\n" }.joined())
            .write(toFile: folder + "/events.csv", atomically: true, encoding: .utf8)
        var byKind: [String: Int] = [:]
        for event in kept { byKind[event.kind.rawValue, default: 0] += 1 }
        output.line(
            String(
                format: "%d moves unpaced: %.2f s (%.0f moves/s), process CPU %.2f µs a move, writer thread %.2f µs, "
                    + "engine evaluation per change: mean %.2f µs, p50 %.2f, p99 %.2f; %.2f events a move",
                moves.count, phase.wallSeconds, Double(moves.count) / phase.wallSeconds, phase.processMicroseconds,
                phase.writerMicroseconds, phase.evaluationMean, phase.evaluationMedian, phase.evaluationP99,
                phase.eventsPerMove))
        output.line(
            "events: " + byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; wrote \(folder)/places.csv, fences.csv, moves.csv, events.csv")
    }
}
