import ArgumentParser
import Foundation
import Geo
import PlaceQueries
import Places
import VicinityCLI

/// `vicinity-bench bench-hours`: the cost of the open filter on the synthetic city.
struct HoursBenchCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-hours",
        abstract: "Benchmark opening hours: parsing at load, evaluation per candidate, open queries.",
        discussion: """
            Every point of the synthetic city (see bench) gets opening hours drawn from a list of \
            real values (Data/pharmacies-piemonte.csv and common forms) in Europe/Istanbul, and a \
            tenth get none. It reports the cost of compiling hours when places are made, the cost \
            of evaluating one candidate (OpeningClock.isOpen, and state with the next change), and \
            radius and nearest queries with and without --open, all in the same run.
            """)

    @Option(help: "Number of points.") var points = 1_000_000
    @Option(help: "Radius and nearest queries per measurement.") var queries = 5_000
    @Option(help: "Query radius in meters.") var radius = 500.0
    @Option(help: "Places per nearest query.") var nearest = 10
    @Option(help: "Passes; the median is reported.") var passes = 5
    @Option(help: "Random seed.") var seed: UInt64 = 20_261_126

    /// Real values (from the shipped Piedmont data and OSM documentation), weighted by repetition.
    static let hours = [
        "Mo-Fr 08:30-12:30,15:00-19:30; Sa 08:30-12:30", "Mo-Sa 08:30-12:30,15:30-19:30",
        "Mo-Fr 08:30-19:30; Sa 09:00-12:30", "Mo-Su 08:00-20:00", "24/7", "Mo-Sa 09:00-13:00,15:30-19:30; PH off",
        "Mo-Fr 09:00-19:00; Sa 09:00-13:00; Su,PH off", "Mo-Su 22:00-06:00", "Mo-Fr 08:00-20:00; Sa,Su 10:00-18:00",
        "Mo 15:00-19:30; Tu-Sa 08:30-12:30,15:00-19:30", "Mo-Sa 08:30-19:30; Dec 24-26 off",
        "Mo-Fr 08:30-12:30,15:00-19:30; Sa 08:30-12:30; Su,PH 09:00-12:00",
    ]

    func execute(_ output: inout CommandOutput) throws {
        var city = SyntheticCity(seed: seed)
        var random = SplitMix64(seed: seed &+ 1)
        let coordinates = (0..<points).map { _ in city.nextPoint() }
        let choices = (0..<points).map { _ in Int(random.next() % UInt64(Self.hours.count + 1)) }
        output.progress("bench-hours: making \(points) places")
        // Making the places: with hours (parsed and compiled) and without, same run.
        func make(withHours: Bool) -> (places: [Place], seconds: Double) {
            let names = ["opening_hours", "tz", "country"]
            let clock = ContinuousClock()
            var places: [Place] = []
            places.reserveCapacity(points)
            let elapsed = clock.measure {
                for index in 0..<points {
                    let value = withHours && choices[index] < Self.hours.count ? Self.hours[choices[index]] : ""
                    places.append(
                        Place(
                            id: "p\(index)", kind: "pharmacy", name: "", coordinate: coordinates[index],
                            attributeNames: names, attributeValues: [value, "Europe/Istanbul", "TR"]))
                }
            }
            return (places, elapsed.seconds)
        }
        let plain = make(withHours: false)
        let timed = make(withHours: true)
        let parseNanoseconds = (timed.seconds - plain.seconds) / Double(points) * 1e9
        output.line(
            "vicinity-bench bench-hours — \(points) points, median of \(passes) passes, \(Benchmark.machineDescription())"
        )
        output.line(
            String(
                format: "making places       %8.3f s with hours, %8.3f s without: %6.0f ns a place for the hours",
                timed.seconds, plain.seconds, parseNanoseconds))
        var catalog = try PlaceCatalog()
        try catalog.add(contentsOf: timed.places)
        var directory = PlaceDirectory(places: catalog)
        directory.holidays = HolidayCalendars()
        let places = timed.places
        // A Thursday evening: 18:30 in Istanbul, many places about to close.
        let moment = OpeningMoment.instant(1_795_710_600)

        func median(_ body: () throws -> Void) throws -> Double {
            var samples: [Double] = []
            for _ in 0..<passes {
                let clock = ContinuousClock()
                var failure: Error?
                let elapsed = clock.measure {
                    do { try body() } catch { failure = error }
                }
                if let failure { throw failure }
                samples.append(elapsed.seconds)
            }
            return samples.sorted()[samples.count / 2]
        }
        var open = 0
        let compiled = places.map(\.hours)
        let evaluate = try median {
            let clock = OpeningClock(at: moment)
            var count = 0
            for hours in compiled where clock.isOpen(hours) { count += 1 }
            open = count
        }
        let uncached = try median {
            let clock = OpeningClock(at: moment)
            var count = 0
            for case let hours? in compiled where clock.evaluate(hours) { count += 1 }
            if count < 0 { print(count) }
        }
        let withHours = compiled.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        let stateSample = min(points, 200_000)
        let states = try median {
            let clock = OpeningClock(at: moment)
            var changes = 0
            for hours in compiled.prefix(stateSample) where clock.state(of: hours).nextChange != nil {
                changes += 1
            }
            if changes < 0 { print(changes) }
        }
        output.line(
            String(
                format:
                    "open? per candidate %8.1f ns (OpeningClock.isOpen, with its memo, over all %d places; %d open)",
                evaluate / Double(points) * 1e9, points, open))
        output.line(
            String(
                format: "evaluation alone    %8.1f ns a place with hours (OpeningClock.evaluate, no memo; %d places)",
                uncached / Double(withHours) * 1e9, withHours))
        output.line(
            String(
                format: "state + next change %8.1f ns a place (over %d places)", states / Double(stateSample) * 1e9,
                stateSample))

        var queryCity = SyntheticCity(seed: seed &+ 2)
        let centres = (0..<queries).map { _ in queryCity.nextPoint() }
        func run(_ reach: PlaceQuery.Reach, open: Bool) throws -> (seconds: Double, hits: Int) {
            var hits = 0
            let seconds = try median {
                hits = 0
                for centre in centres {
                    var query = PlaceQuery(kind: "pharmacy", center: centre, reach: reach, countsAll: false)
                    if open { query.open = moment }
                    hits += try directory.answer(query).hits.count
                }
            }
            return (seconds, hits)
        }
        let candidates = try centres.reduce(0) { total, centre in
            total + (try catalog.count(centre, radiusMeters: radius, kind: "pharmacy"))
        }
        let within = try run(.within(radiusMeters: radius, limit: nil), open: false)
        let withinOpen = try run(.within(radiusMeters: radius, limit: nil), open: true)
        output.line(
            String(
                format:
                    "near %g m           %8.1f µs a query, %8.1f µs with --open (×%.2f); %.0f candidates and %.0f open hits a query; %+.1f ns a candidate",
                radius, within.seconds / Double(queries) * 1e6, withinOpen.seconds / Double(queries) * 1e6,
                withinOpen.seconds / within.seconds, Double(candidates) / Double(queries),
                Double(withinOpen.hits) / Double(queries),
                (withinOpen.seconds - within.seconds) / Double(max(1, candidates)) * 1e9))
        let nearestPlain = try run(.nearest(count: nearest, maxDistanceMeters: nil), open: false)
        let nearestOpen = try run(.nearest(count: nearest, maxDistanceMeters: nil), open: true)
        output.line(
            String(
                format: "nearest %d          %8.1f µs a query, %8.1f µs with --open (×%.2f)", nearest,
                nearestPlain.seconds / Double(queries) * 1e6, nearestOpen.seconds / Double(queries) * 1e6,
                nearestOpen.seconds / nearestPlain.seconds))
    }
}
