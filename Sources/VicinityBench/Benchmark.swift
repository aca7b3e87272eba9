import CHeapStats
import Foundation
import Geo

/// The measurements behind `vicinity-bench bench`: a synthetic city indexed once, then the same query
/// set run through the index under each model and, for a few queries, through a brute-force scan.
struct Benchmark {
    struct Configuration {
        var points = 1_000_000
        var queries = 20_000
        var radiusMeters = 500.0
        var nearestCount = 10
        var cellSizeMeters = 250.0
        var bruteForceQueries = 5
        var projectedQueries = 500
        var seed: UInt64 = 20_261_122
        /// Passes over the query set per model; the median pass is reported.
        var passes = 3
    }

    struct ModelResult: Codable {
        var model: String
        var queries: Int
        var meanMicroseconds: Double
        var queriesPerSecond: Double
        var meanResults: Double
    }

    struct BruteForceResult: Codable {
        var model: String
        var queries: Int
        var bruteForceMeanMicroseconds: Double
        var indexMeanMicroseconds: Double
        var speedup: Double
        var identicalResults: Bool
    }

    struct Report: Codable {
        var points: Int
        var cellSizeMeters: Double
        var radiusMeters: Double
        var buildSeconds: Double
        var indexBytesPerPoint: Double
        var mallocBytesPerPoint: Double?
        var radius: [ModelResult]
        var nearest: ModelResult
        var bruteForce: [BruteForceResult]
        var machine: String
    }

    let configuration: Configuration

    /// The synthetic city's points and the query set, both deterministic for a seed.
    func dataset() -> (points: [(handle: UInt32, coordinate: Coordinate)], queries: [Coordinate]) {
        var city = SyntheticCity(seed: configuration.seed)
        var points: [(handle: UInt32, coordinate: Coordinate)] = []
        points.reserveCapacity(configuration.points)
        for handle in 0..<configuration.points { points.append((UInt32(handle), city.nextPoint())) }
        let queries = (0..<configuration.queries).map { _ in city.nextPoint() }
        return (points, queries)
    }

    /// Writes the dataset as Redis commands for `redis-cli --pipe`: `points.redis` (GEOADD, longitude
    /// first, 500 points a command), the same points as `points.csv` for `vicinity import` (ids are
    /// the Redis members), and `queries.redis` (GEOSEARCH … BYRADIUS … ASC WITHDIST, the same
    /// query set `run` times), so Redis can be measured on exactly the same work, and `varied.redis`
    /// (the same centres, queries of every shape: `variedQueries`).
    func exportRedis(to folder: String) throws {
        let (points, queries) = dataset()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var text = ""
        for start in stride(from: 0, to: points.count, by: 500) {
            text += "GEOADD city"
            for point in points[start..<min(points.count, start + 500)] {
                text += " \(point.coordinate.longitude) \(point.coordinate.latitude) \(point.handle)"
            }
            text += "\r\n"
        }
        try text.write(toFile: folder + "/points.redis", atomically: true, encoding: .utf8)
        text = "id,name,lat,lon\n"
        for point in points {
            text += "\(point.handle),Point \(point.handle),\(point.coordinate.latitude),\(point.coordinate.longitude)\n"
        }
        try text.write(toFile: folder + "/points.csv", atomically: true, encoding: .utf8)
        let radius = NumberText.plain(configuration.radiusMeters)
        text = queries.map {
            "GEOSEARCH city FROMLONLAT \($0.longitude) \($0.latitude) BYRADIUS \(radius) m ASC WITHDIST\r\n"
        }.joined()
        try text.write(toFile: folder + "/queries.redis", atomically: true, encoding: .utf8)
        try Self.variedQueries(at: queries, members: points.count, seed: configuration.seed).joined()
            .write(toFile: folder + "/varied.redis", atomically: true, encoding: .utf8)
    }

    /// One Redis GEO query per centre, of every shape a client asks: `GEOSEARCH` from the
    /// coordinate or from a member (a random point's handle), by radius (100 m to 2 km, in any unit)
    /// or by box, ASC, DESC or unordered, `COUNT` with and without `ANY`, any `WITH*` combination;
    /// one in eight is `GEORADIUS` or `GEORADIUSBYMEMBER_RO`. Deterministic for a seed; lines end
    /// with CRLF.
    static func variedQueries(at centres: [Coordinate], members: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed ^ 0x5641_5249_4544)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        return centres.map { centre in
            let meters = pick([100.0, 250, 500, 500, 1_000, 2_000])
            let unit = pick(["m", "m", "km", "ft", "mi"])
            let perUnit = ["m": 1.0, "km": 1_000, "ft": 0.3048, "mi": 1_609.34][unit]!
            let radius = NumberText.plain((meters / perUnit * 1_000).rounded() / 1_000)
            let order = pick(["ASC", "ASC", "DESC", ""])
            let count = pick(["", "", "COUNT 10", "COUNT 50", "COUNT 10 ANY"])
            let with = ["WITHCOORD", "WITHDIST", "WITHHASH"].filter { _ in random.next() % 2 == 0 }
            let tail = [order, count].filter { !$0.isEmpty } + with
            let member = String(random.next() % UInt64(members))
            let lonLat = "\(centre.longitude) \(centre.latitude)"
            var words: [String]
            switch random.next() % 16 {
            case 0: words = ["GEORADIUS city", lonLat, radius, unit]
            case 1: words = ["GEORADIUSBYMEMBER_RO city", member, radius, unit]
            case 2, 3, 4: words = ["GEOSEARCH city FROMMEMBER", member, "BYRADIUS", radius, unit]
            case 5, 6, 7: words = ["GEOSEARCH city FROMLONLAT", lonLat, "BYBOX", radius, radius, unit]
            default: words = ["GEOSEARCH city FROMLONLAT", lonLat, "BYRADIUS", radius, unit]
            }
            return (words + tail).joined(separator: " ") + "\r\n"
        }
    }

    func run(progress: (String) -> Void) throws -> Report {
        progress("generating \(configuration.points) points")
        let (points, queries) = dataset()

        progress("building the index")
        let heapBefore = Benchmark.heapInUse()
        let clock = ContinuousClock()
        var index = try GridIndex(cellSizeMeters: configuration.cellSizeMeters)
        let buildTime = try clock.measure { try index.insert(contentsOf: points) }
        let heapAfter = Benchmark.heapInUse()
        let mallocPerPoint = heapBefore.flatMap { before in
            heapAfter.map { Double($0 - before) / Double(configuration.points) }
        }

        let models: [(String, DistanceModel, Int)] = [
            ("geodesic", .geodesic, configuration.queries),
            ("haversine", .sphere, configuration.queries),
            ("projected", .projected(.auto), min(configuration.queries, configuration.projectedQueries)),
        ]
        var radius: [ModelResult] = []
        for (name, model, count) in models where count > 0 {
            progress("\(count) radius queries, \(name), \(configuration.passes) passes")
            let sample = Array(queries.prefix(count))
            radius.append(
                try measurePasses(name, queries: sample) { query in
                    try index.within(radiusMeters: configuration.radiusMeters, of: query, model: model).count
                })
        }

        // What a front end adds to a geodesic radius query: every hit's initial bearing, by the
        // normal-section frame (`BearingFrame`) and by one `geod_inverse` a hit.
        let bearingCount = min(configuration.queries, configuration.projectedQueries)
        if bearingCount > 0 {
            progress("\(bearingCount) radius queries with bearings, geodesic, \(configuration.passes) passes")
            let sample = Array(queries.prefix(bearingCount))
            // The control: the same query reading each hit's coordinates, without a bearing.
            radius.append(
                try measurePasses("+reads", queries: sample) { query in
                    var sum = 0.0
                    let hits = try index.within(radiusMeters: configuration.radiusMeters, of: query, model: .geodesic)
                    for hit in hits { sum += points[Int(hit.handle)].coordinate.latitude }
                    return sum.isNaN ? 0 : hits.count
                })
            radius.append(
                try measurePasses("+bearings", queries: sample) { query in
                    let frame = BearingFrame(from: query, model: .geodesic)
                    var sum = 0.0
                    let hits = try index.within(radiusMeters: configuration.radiusMeters, of: query, model: .geodesic)
                    for hit in hits { sum += try frame.bearing(to: points[Int(hit.handle)].coordinate) }
                    return sum.isNaN ? 0 : hits.count
                })
            radius.append(
                try measurePasses("+geod_inv", queries: sample) { query in
                    var sum = 0.0
                    let hits = try index.within(radiusMeters: configuration.radiusMeters, of: query, model: .geodesic)
                    for hit in hits {
                        sum += Geodesic.wgs84.inverse(query, points[Int(hit.handle)].coordinate).initialBearing
                    }
                    return sum.isNaN ? 0 : hits.count
                })
        }

        progress("\(configuration.queries) nearest-\(configuration.nearestCount) queries, geodesic")
        let nearest = try measurePasses("geodesic", queries: queries) { query in
            try index.nearest(configuration.nearestCount, to: query, model: .geodesic).count
        }

        var bruteForce: [BruteForceResult] = []
        for (name, model) in [("geodesic", DistanceModel.geodesic), ("haversine", .sphere)]
        where configuration.bruteForceQueries > 0 {
            progress("\(configuration.bruteForceQueries) brute-force scans, \(name)")
            bruteForce.append(
                try compareWithBruteForce(name, model: model, index: index, points: points, queries: queries))
        }
        return Report(
            points: configuration.points, cellSizeMeters: configuration.cellSizeMeters,
            radiusMeters: configuration.radiusMeters, buildSeconds: buildTime.seconds,
            indexBytesPerPoint: Double(index.memoryFootprintBytes) / Double(configuration.points),
            mallocBytesPerPoint: mallocPerPoint, radius: radius, nearest: nearest, bruteForce: bruteForce,
            machine: Benchmark.machineDescription())
    }

    /// Times brute-force scans and the index on the same queries, and checks they agree.
    private func compareWithBruteForce(
        _ name: String, model: DistanceModel, index: GridIndex, points: [(handle: UInt32, coordinate: Coordinate)],
        queries: [Coordinate]
    ) throws -> BruteForceResult {
        let clock = ContinuousClock()
        let sample = Array(queries.prefix(configuration.bruteForceQueries))
        var identical = true
        var bruteTotal = Duration.zero
        var indexTotal = Duration.zero
        let repeats = 20
        for query in sample {
            var brute: [GridHit] = []
            bruteTotal += try clock.measure {
                brute = []
                for point in points {
                    let distance = try model.distance(query, point.coordinate)
                    if distance <= configuration.radiusMeters {
                        brute.append(GridHit(handle: point.handle, distanceMeters: distance))
                    }
                }
                brute.sort { ($0.distanceMeters, $0.handle) < ($1.distanceMeters, $1.handle) }
            }
            var fromIndex: [GridHit] = []
            indexTotal += try clock.measure {
                for _ in 0..<repeats {
                    fromIndex = try index.within(radiusMeters: configuration.radiusMeters, of: query, model: model)
                }
            }
            let sameHandles = brute.map(\.handle) == fromIndex.map(\.handle)
            let closeDistances = zip(brute, fromIndex).allSatisfy { abs($0.distanceMeters - $1.distanceMeters) < 1e-6 }
            identical = identical && sameHandles && closeDistances
        }
        let bruteMean = bruteTotal.seconds / Double(sample.count) * 1e6
        let indexMean = indexTotal.seconds / Double(sample.count * repeats) * 1e6
        return BruteForceResult(
            model: name, queries: sample.count, bruteForceMeanMicroseconds: bruteMean,
            indexMeanMicroseconds: indexMean, speedup: bruteMean / indexMean, identicalResults: identical)
    }

    /// Runs the query set `passes` times and reports the pass with the median time: a shared
    /// machine's passing hiccups move one pass, not the figure.
    private func measurePasses(_ name: String, queries: [Coordinate], query: (Coordinate) throws -> Int) throws
        -> ModelResult
    {
        let clock = ContinuousClock()
        var passes: [ModelResult] = []
        for _ in 0..<max(1, configuration.passes) {
            var results = 0
            let elapsed = try clock.measure {
                for point in queries { results += try query(point) }
            }
            passes.append(Benchmark.result(name, count: queries.count, elapsed: elapsed, results: results))
        }
        passes.sort { $0.meanMicroseconds < $1.meanMicroseconds }
        return passes[passes.count / 2]
    }

    private static func result(_ model: String, count: Int, elapsed: Duration, results: Int) -> ModelResult {
        let seconds = elapsed.seconds
        return ModelResult(
            model: model, queries: count, meanMicroseconds: seconds / Double(count) * 1e6,
            queriesPerSecond: Double(count) / seconds, meanResults: Double(results) / Double(count))
    }

    /// Bytes of heap in use (glibc `mallinfo2`), or nil where the C library does not count them.
    static func heapInUse() -> Int? {
        let bytes = vicinity_heap_in_use()
        return bytes == 0 ? nil : Int(bytes)
    }

    static func machineDescription() -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        var model = "unknown CPU"
        if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return "\(model), \(cores) cores, \(String(format: "%.0f", memory)) GiB"
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
