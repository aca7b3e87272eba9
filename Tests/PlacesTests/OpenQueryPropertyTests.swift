import Foundation
import Geo
import OpeningHours
import PlaceQueries
import Testing

@testable import Places

/// `nearest --open T` and `near --open T` against brute force: random places with random hours,
/// zones, holidays, duty spells and attributes, at random instants (daylight-saving changes and
/// midnights among them) and in three regions (a city, the north pole, the antimeridian). Brute
/// force converts the instant with Foundation's `Calendar`, evaluates `OpeningHours` directly,
/// filters, then sorts every place by the model's own distance.
@Suite(.timeLimit(.minutes(10))) struct OpenQueryPropertyTests {
    static let hoursPool = [
        "Mo-Fr 08:30-19:30; Sa 09:00-12:30", "24/7", "Mo-Su 22:00-06:00", "Fr-Sa 18:00-02:00",
        "Mo-Sa 08:00-20:00; PH off", "Mo-Fr 09:00-13:00,15:00-19:00; Su,PH 10:00-12:00", "off",
        "Mo-Su 00:00-24:00; We 12:00-14:00 off", "\"by appointment\"", "Mo-Fr 08:00-18:00 unknown",
        "8.45-19.30 (continuato)", "", "Dec 24-Jan 06 10:00-14:00; Mo-Fr 08:00-20:00",
        "Mo-Fr 01:30-03:30", "Su 02:00-03:00",
    ]
    static let zones = [
        "Europe/Rome", "Europe/Istanbul", "America/New_York", "Pacific/Auckland", "Asia/Kolkata", "UTC",
    ]

    enum Region: CaseIterable {
        case city, pole, antimeridian

        func point(_ random: inout SplitMix64) -> Coordinate {
            let (latitude, longitude): (Double, Double)
            switch self {
            case .city:
                (latitude, longitude) = (
                    45.07 + (random.nextUnit() - 0.5) * 0.1, 7.68 + (random.nextUnit() - 0.5) * 0.1
                )
            case .pole: (latitude, longitude) = (90 - random.nextUnit() * 0.05, random.nextUnit() * 360 - 180)
            case .antimeridian:
                (latitude, longitude) = (
                    (random.nextUnit() - 0.5) * 0.05,
                    random.nextUnit() < 0.5 ? 180 - random.nextUnit() * 0.03 : -180 + random.nextUnit() * 0.03
                )
            }
            // swift-format-ignore: NeverUseForceTry
            return try! Coordinate(latitude: latitude, longitude: longitude)
        }
    }

    static let holidays = HolidayCalendars([
        "IT": PublicHolidays([
            CalendarDate(year: 2026, month: 12, day: 8), CalendarDate(year: 2026, month: 12, day: 25),
            CalendarDate(year: 2027, month: 3, day: 29),
        ])
    ])

    /// Instants around the places' daylight-saving changes, midnights and holidays, and random.
    static func instants(_ random: inout SplitMix64) -> [Int64] {
        var instants: [Int64] = [
            1_774_746_000 - 1_800, 1_774_746_000, 1_792_890_000 + 600,  // Rome's changes, 2026
            1_793_000_000, 1_796_688_000, 1_798_156_800,  // an ordinary week, 8 Dec, 25 Dec 2026 (UTC midnight)
        ]
        for _ in 0..<10 { instants.append(1_767_225_600 + Int64(random.next() % (2 * 365 * 86_400))) }
        return instants
    }

    static func makePlaces(_ count: Int, region: Region, _ random: inout SplitMix64) -> [Place] {
        (0..<count).map { index in
            var attributes: [String: String] = [:]
            if random.next() % 10 != 0 {
                attributes["opening_hours"] = hoursPool[Int(random.next() % UInt64(hoursPool.count))]
            }
            if random.next() % 12 != 0 { attributes["tz"] = zones[Int(random.next() % UInt64(zones.count))] }
            if random.next() % 2 == 0 { attributes["country"] = "IT" }
            if random.next() % 3 == 0 { attributes["dispensing"] = random.next() % 2 == 0 ? "yes" : "no" }
            if random.next() % 6 == 0 {
                let day = 1 + Int(random.next() % 28)
                let month = 1 + Int(random.next() % 12)
                let start = String(format: "2026-%02d-%02dT19:30", month, day)
                let end = String(format: "2026-%02d-%02dT08:30", month, day + 1)
                attributes["duty"] = "\(start)/\(end)"
            }
            // Ties: a few places share a point.
            let coordinate = index > 0 && random.next() % 20 == 0 ? Coordinate?.none : region.point(&random)
            return Place(
                id: "p\(index)", kind: "pharmacy", name: "P\(index)",
                coordinate: coordinate ?? region.point(&random), attributes: attributes)
        }
    }

    /// Open by the brute-force rule: Foundation's calendar for the local time, `OpeningHours`
    /// evaluated directly, duty spells converted by Foundation.
    static func bruteOpen(_ place: Place, at instant: Int64) -> Bool {
        guard let zoneName = place.attribute("tz"), let zone = TimeZone(identifier: zoneName) else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: Double(instant))
        if let duty = place.attribute("duty"), !duty.isEmpty {
            let ends = duty.split(separator: "/").map { text -> Date in
                let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
                return calendar.date(
                    from: DateComponents(
                        year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))!
            }
            if ends[0] <= date && date < ends[1] { return true }
        }
        guard let text = place.attribute("opening_hours"), let hours = try? OpeningHours(parsing: text) else {
            return false
        }
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let local = try! LocalTime(
            year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!)
        let name = place.attribute("holidays") ?? place.attribute("country")
        if text.contains("PH") {
            // PH rules are decided only in the years the calendar lists (and the day before's).
            guard let name, Self.holidays[name] != nil else { return false }
            let previous = local.date.previous.year
            guard [2026, 2027].contains(local.date.year), [2026, 2027].contains(previous) else { return false }
        }
        let dates = name.flatMap { Self.holidays[$0] } ?? PublicHolidays([])
        return hours.state(at: local, holidays: dates).status == .open
    }

    @Test(arguments: Region.allCases) func nearestAndNearOpenEqualBruteForce(region: Region) throws {
        var random = SplitMix64(seed: 1_900 + UInt64(Region.allCases.firstIndex(of: region)!))
        let places = Self.makePlaces(600, region: region, &random)
        var catalog = try PlaceCatalog()
        try catalog.add(contentsOf: places)
        var directory = PlaceDirectory(places: catalog)
        directory.holidays = Self.holidays
        var checked = 0
        for instant in Self.instants(&random) {
            for _ in 0..<4 {
                let center = region.point(&random)
                let model: DistanceModel = random.next() % 2 == 0 ? .geodesic : .sphere
                let dispensing = random.next() % 4 == 0
                let matches = dispensing ? [AttributeMatch(name: "dispensing", value: "yes")] : []
                let expected = try places.filter {
                    Self.bruteOpen($0, at: instant) && (!dispensing || $0.attribute("dispensing") == "yes")
                }.map { ($0.id, try model.distance(center, $0.coordinate)) }
                    .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
                let count = 1 + Int(random.next() % 12)
                var query = PlaceQuery(
                    kind: "pharmacy", center: center, reach: .nearest(count: count, maxDistanceMeters: nil),
                    model: model)
                query.open = .instant(instant)
                query.attributes = matches
                let nearest = try directory.answer(query)
                #expect(nearest.hits.map(\.id) == expected.prefix(count).map(\.0), "nearest \(count) at \(instant)")
                #expect(nearest.hits.allSatisfy { $0.opening?.status == .open })
                let radius = random.nextUnit() * 4_000
                query.reach = .within(radiusMeters: radius, limit: nil)
                let near = try directory.answer(query)
                #expect(
                    near.hits.map(\.id) == expected.filter { $0.1 <= radius }.map(\.0), "within \(radius) at \(instant)"
                )
                #expect(near.total == near.hits.count)
                for (hit, brute) in zip(nearest.hits, expected) {
                    #expect(abs(hit.distanceMeters - brute.1) <= 1e-6)
                }
                checked += expected.count
            }
        }
        // The data must make the filter matter: some places open, many not.
        #expect(checked > 100)
    }

    @Test func nearestOpenReachesAcrossTheEarth() throws {
        // One open place on the other side of the Earth, many closed nearby.
        var places = (0..<200).map { index in
            Place(
                id: "c\(index)", kind: "pharmacy", name: "",
                // swift-format-ignore: NeverUseForceTry
                coordinate: try! Coordinate(latitude: 45 + Double(index) * 1e-4, longitude: 7.6),
                attributes: ["opening_hours": "off", "tz": "Europe/Rome"])
        }
        places.append(
            Place(
                id: "far", kind: "pharmacy", name: "",
                // swift-format-ignore: NeverUseForceTry
                coordinate: try! Coordinate(latitude: -45, longitude: -172.4),
                attributes: ["opening_hours": "24/7", "tz": "UTC"]))
        let directory = PlaceDirectory(
            places: try {
                var c = try PlaceCatalog(); try c.add(contentsOf: places); return c
            }())
        var query = PlaceQuery(
            // swift-format-ignore: NeverUseForceTry
            kind: "pharmacy", center: try! Coordinate(latitude: 45, longitude: 7.6),
            reach: .nearest(count: 3, maxDistanceMeters: nil))
        query.open = .now
        let answer = try directory.answer(query)
        #expect(answer.hits.map(\.id) == ["far"])
        #expect(answer.hits.first.map { $0.distanceMeters > 19_000_000 } == true)
        query.hoursAt = .now
        query.open = nil
        query.reach = .within(radiusMeters: 200, limit: nil)
        let marked = try directory.answer(query)
        #expect(marked.hits.count > 10)
        #expect(marked.hits.allSatisfy { $0.opening?.status == .closed })
    }

    @Test func usersRefuseOpenAndAttributeFilters() throws {
        let directory = PlaceDirectory(places: try PlaceCatalog())
        // swift-format-ignore: NeverUseForceTry
        var query = PlaceQuery(
            kind: "user", center: try! Coordinate(latitude: 0, longitude: 0),
            reach: .nearest(count: 1, maxDistanceMeters: nil))
        query.open = .now
        #expect(throws: PlacesError.self) { try directory.answer(query) }
        query.open = nil
        query.attributes = [AttributeMatch(name: "a", value: "b")]
        #expect(throws: PlacesError.self) { try directory.answer(query) }
    }
}
