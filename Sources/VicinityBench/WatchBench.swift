import Foundation
import Geo
import Places
import Synchronization

/// The measurements behind `vicinity-bench watches`: the synthetic city's points as places of one
/// kind (or as public users, `--users`) in a `DurableDirectory` over a store that keeps nothing (`NullPlaceStore`: the figures are
/// the directory's and the watches', not a disk's), static watches of one radius around points
/// of the query mixture, and moves of the places — each a `setPlace` with the place's coordinate
/// moved by a step in a random direction — paced at a rate, phase by phase:
/// no watches, the watches with the events discarded, the watches with every event formatted,
/// and no watches again.
struct WatchBench {
    struct Configuration {
        var points = 1_000_000
        var watches = 100_000
        var radiusMeters = 500.0
        var rate = 10_000.0
        var seconds = 10.0
        var stepMeters = 50.0
        var subscribers = 100
        var capacity = 10_000_000
        var seed: UInt64 = 20_261_122
        /// Whether the points are public users moved by `moveUser` and the watches of kind
        /// `user`, instead of places of kind `city` moved by `setPlace`.
        var users = false
    }

    /// One move: a place (its handle, which is also its id) and where it goes.
    struct Move {
        var handle: Int
        var coordinate: Coordinate
    }

    /// What one paced phase measured.
    struct Phase {
        var name: String
        var moves: Int
        var wallSeconds: Double
        /// The whole process's CPU (getrusage), per move.
        var processMicroseconds: Double
        /// The writer thread's CPU between the phase's first and last acknowledgement, per move.
        var writerMicroseconds: Double
        /// The consumer thread's CPU, per move.
        var consumerMicroseconds: Double
        var eventsPerMove: Double
        /// The engine's own time evaluating changes against the watches
        /// (`watchStatistics.evaluationSeconds`), per change: the mean, and the median, p90 and
        /// p99 of the samples taken at each acknowledgement (a sample covers the changes applied
        /// since the one before: one change at this rate, nearly always).
        var evaluationMean: Double
        var evaluationMedian: Double
        var evaluationP90: Double
        var evaluationP99: Double
        var samples: Int
        var singleChangeSamples: Int
        /// How late the pacer fell at worst, seconds.
        var worstLag: Double
    }

    let configuration: Configuration
    static let kind = "city"

    /// The city's points, the watches' centres (from the same mixture) and the moves.
    func dataset(moves count: Int) -> (points: [Coordinate], centres: [Coordinate], moves: [Move]) {
        var city = SyntheticCity(seed: configuration.seed)
        let points = (0..<configuration.points).map { _ in city.nextPoint() }
        let centres = (0..<configuration.watches).map { _ in city.nextPoint() }
        var random = SplitMix64(seed: configuration.seed ^ 0x4D4F_5645)
        var current = points
        var moves: [Move] = []
        moves.reserveCapacity(count)
        for _ in 0..<count {
            let handle = Int(random.next() % UInt64(points.count))
            let from = current[handle]
            let bearing = random.nextUnit() * 2 * .pi
            let step = configuration.stepMeters * random.nextUnit()
            let latitude = from.latitude + step * cos(bearing) / 111_000
            let longitude = from.longitude + step * sin(bearing) / (111_000 * cos(from.latitude * .pi / 180))
            guard let to = try? Coordinate(latitude: latitude, longitude: longitude) else { continue }
            current[handle] = to
            moves.append(Move(handle: handle, coordinate: to))
        }
        return (points, centres, moves)
    }

    static func place(_ handle: Int, at coordinate: Coordinate) -> Place {
        Place(id: String(handle), kind: kind, name: "Point \(handle)", coordinate: coordinate)
    }

    /// The kind the watches watch.
    var watchedKind: String { configuration.users ? PlaceDirectory.userKind : Self.kind }

    /// The write that makes a move.
    func request(_ move: Move) -> DirectoryRequest {
        configuration.users
            ? .moveUser("u\(move.handle)", to: move.coordinate)
            : .setPlace(Self.place(move.handle, at: move.coordinate))
    }

    /// A directory holding `points` as places of `kind` (or as public users `u0`, `u1`, …), in a
    /// `DurableDirectory` over a store that keeps nothing.
    func directory(_ points: [Coordinate]) throws -> DurableDirectory {
        var catalog = try PlaceCatalog()
        var directory: PlaceDirectory
        if configuration.users {
            // Every user shares one token digest: the benchmark moves them as the admin.
            let digest = TokenDigest(of: "vicinity-bench")
            directory = try PlaceDirectory(
                places: catalog,
                users: points.enumerated().map {
                    (User(id: "u\($0.offset)", name: "User \($0.offset)", location: $0.element), digest)
                },
                adminTokenDigest: nil)
        } else {
            try catalog.add(contentsOf: points.enumerated().map { Self.place($0.offset, at: $0.element) })
            directory = PlaceDirectory(places: catalog)
        }
        return DurableDirectory(directory, store: NullPlaceStore(), position: 0)
    }

    /// Starts one watch a centre, spread over the sink's subscribers in turn; returns their ids in
    /// the centres' order.
    func startWatches(
        _ centres: [Coordinate], radiusMeters: Double, on durable: DurableDirectory, sink: WatchEventSink
    ) throws -> [WatchID] {
        let kind = watchedKind
        var ids: [WatchID] = []
        ids.reserveCapacity(centres.count)
        for (offset, centre) in centres.enumerated() {
            let spec = WatchSpec(kind: kind, center: .point(centre), radiusMeters: radiusMeters)
            ids.append(
                try durable.watch(spec, by: .anonymous, for: sink.subscribers[offset % sink.subscribers.count]))
        }
        return ids
    }

    /// Waits until the consumer has taken every event queued so far.
    static func drain(_ durable: DurableDirectory, _ sink: WatchEventSink) {
        while sink.counts.events < durable.watchStatistics.eventsQueued { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Applies `moves` at `rate` a second (each submitted when due, acknowledged on the writer
    /// thread), and measures the phase.
    func pace(
        _ name: String, _ moves: ArraySlice<Move>, rate: Double, on durable: DurableDirectory, sink: WatchEventSink
    ) -> Phase {
        let drain = Self.drain
        let recorder = AcknowledgementRecorder(durable: durable, moves: moves.count)
        drain(durable, sink)
        let statisticsBefore = durable.watchStatistics
        let consumerBefore = sink.counts.cpuSeconds
        let processBefore = WatchEventSink.processCPUSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        var worstLag = 0.0
        var submitted = 0
        let list = Array(moves)
        while submitted < list.count {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let due = min(list.count, Int(elapsed * rate) + 1)
            worstLag = max(worstLag, Double(due - submitted - 1) / rate)
            while submitted < due {
                let move = list[submitted]
                let index = submitted
                durable.submit(request(move), by: .admin) { result in
                    if case .failure(let error) = result { preconditionFailure("move refused: \(error)") }
                    recorder.acknowledge(index)
                }
                submitted += 1
            }
            let next = Double(submitted) / rate - Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if next > 0 { Thread.sleep(forTimeInterval: next) }
        }
        recorder.done.wait()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        drain(durable, sink)
        let process = WatchEventSink.processCPUSeconds() - processBefore
        let statisticsAfter = durable.watchStatistics
        let consumer = sink.counts.cpuSeconds - consumerBefore
        let count = Double(moves.count)
        let changes = Double(max(1, statisticsAfter.changesEvaluated - statisticsBefore.changesEvaluated))
        let perChange = recorder.samples.map { $0.seconds / Double($0.changes) }.sorted()
        func percentile(_ p: Double) -> Double {
            perChange.isEmpty ? 0 : perChange[min(perChange.count - 1, Int(p * Double(perChange.count)))] * 1e6
        }
        return Phase(
            name: name, moves: moves.count, wallSeconds: wall, processMicroseconds: process / count * 1e6,
            writerMicroseconds: recorder.writerSeconds / max(1, count - 1) * 1e6,
            consumerMicroseconds: consumer / count * 1e6,
            eventsPerMove: Double(statisticsAfter.eventsQueued - statisticsBefore.eventsQueued) / count,
            evaluationMean: (statisticsAfter.evaluationSeconds - statisticsBefore.evaluationSeconds) / changes * 1e6,
            evaluationMedian: percentile(0.5), evaluationP90: percentile(0.9), evaluationP99: percentile(0.99),
            samples: perChange.count, singleChangeSamples: recorder.samples.filter { $0.changes == 1 }.count,
            worstLag: worstLag)
    }
}

/// Counts acknowledgements on the writer thread (every completion runs there, one at a time), and
/// samples the engine's evaluation counters at each: the time spent on the changes applied since
/// the sample before.
final class AcknowledgementRecorder: @unchecked Sendable {
    struct Sample {
        var seconds: Double
        var changes: Int
    }

    unowned let durable: DurableDirectory
    let moves: Int
    let done = DispatchSemaphore(value: 0)
    /// Written on the writer thread only; read after `done`.
    private(set) var samples: [Sample] = []
    private(set) var writerSeconds = 0.0
    private var acknowledged = 0
    private var last: WatchStatistics
    private var writerStart = 0.0

    init(durable: DurableDirectory, moves: Int) {
        self.durable = durable
        self.moves = moves
        last = durable.watchStatistics
        samples.reserveCapacity(moves)
    }

    func acknowledge(_ index: Int) {
        let now = durable.watchStatistics
        if now.changesEvaluated > last.changesEvaluated {
            samples.append(
                Sample(
                    seconds: now.evaluationSeconds - last.evaluationSeconds,
                    changes: now.changesEvaluated - last.changesEvaluated))
            last = now
        }
        acknowledged += 1
        if acknowledged == 1 { writerStart = WatchEventSink.threadCPUSeconds() }
        if acknowledged == moves {
            writerSeconds = WatchEventSink.threadCPUSeconds() - writerStart
            done.signal()
        }
    }
}
