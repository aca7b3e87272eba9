import Foundation
import Geo
import PlaceQueries
import Places
import Testing

/// Must show 2 (issue 18): an anonymous attacker with 1,000 queries of its choice around a
/// `street` user learns the user's cell and nothing more.
///
/// The attacker asks as any surface does (`PlaceDirectory.answer(_:)` as `.anonymous`): from three
/// anchors around the target it takes the rounded distance it is given, then binary-searches the
/// radius at which the user first appears, and trilaterates the three radii by least squares on
/// the WGS84 geodesic. Against an `exact` user the same attacker finds the true position within a
/// metre (it is competent); against a `street` user its estimate is the published centre, no
/// nearer the true position than the centre is.
@Suite struct TrilaterationAttackTests {
    /// What one run of the attack found, in meters.
    struct Outcome {
        /// From the estimate to the user's exact location.
        var toTrue: Double
        /// From the estimate to the published centre of the user's cell.
        var toCentre: Double
        /// From the published centre to the exact location (what the cell hides).
        var centreToTrue: Double
    }

    /// An anonymous client with a budget of queries.
    struct Attacker {
        let directory: PlaceDirectory
        let budget: Int
        private(set) var spent = 0

        init(directory: PlaceDirectory, budget: Int) {
            self.directory = directory
            self.budget = budget
        }

        /// One query for users, as a surface asks it.
        mutating func ask(_ center: Coordinate, _ reach: PlaceQuery.Reach) throws -> [QueryHit] {
            precondition(spent < budget, "the attacker spent its budget")
            spent += 1
            let query = PlaceQuery(collection: .users, center: center, reach: reach, principal: .anonymous)
            return try directory.answer(query).hits
        }

        /// Estimates where user `id` is, knowing only that they are within about a kilometre of
        /// `guess`. Spends the whole budget.
        mutating func locate(_ id: String, near guess: Coordinate) throws -> Coordinate {
            let bearings = [17.0, 137, 257]
            let anchors = bearings.map { Geodesic.wgs84.destination(from: guess, bearing: $0, distanceMeters: 1_500) }
            var radii: [Double] = []
            for (index, anchor) in anchors.enumerated() {
                let queries = (budget - spent) / (anchors.count - index)
                // The distance it is given, rounded to the step the hit names, brackets the search.
                let given = try #require(try ask(anchor, .nearest(count: 1, maxDistanceMeters: nil)).first)
                #expect(given.id == id)
                let halfStep = (given.precision?.cellMeters ?? 0) / 2
                var low = max(0, given.distanceMeters - halfStep - 1)
                var high = given.distanceMeters + halfStep + 1
                // The user is within `radius` exactly when their distance is at most it.
                for _ in 1..<queries {
                    let middle = (low + high) / 2
                    let seen = try ask(anchor, .within(radiusMeters: middle, limit: nil)).contains { $0.id == id }
                    if seen { high = middle } else { low = middle }
                }
                radii.append((low + high) / 2)
            }
            return try Self.trilaterate(anchors, radii, from: guess)
        }

        /// The point whose geodesic distances to `anchors` best fit `radii` (least squares,
        /// Gauss–Newton from `start` with a numerical Jacobian in degrees).
        static func trilaterate(_ anchors: [Coordinate], _ radii: [Double], from start: Coordinate) throws
            -> Coordinate
        {
            var latitude = start.latitude
            var longitude = start.longitude
            func residuals(_ latitude: Double, _ longitude: Double) throws -> [Double] {
                let point = try Coordinate(latitude: latitude, longitude: longitude)
                return try zip(anchors, radii).map { try DistanceModel.geodesic.distance($0, point) - $1 }
            }
            let step = 1e-7
            for _ in 0..<20 {
                let r = try residuals(latitude, longitude)
                let dLatitude = try residuals(latitude + step, longitude).enumerated().map { ($1 - r[$0]) / step }
                let dLongitude = try residuals(latitude, longitude + step).enumerated().map { ($1 - r[$0]) / step }
                // Normal equations of the 2×2 least-squares step.
                var (aa, ab, bb, ar, br) = (0.0, 0.0, 0.0, 0.0, 0.0)
                for i in r.indices {
                    aa += dLatitude[i] * dLatitude[i]
                    ab += dLatitude[i] * dLongitude[i]
                    bb += dLongitude[i] * dLongitude[i]
                    ar += dLatitude[i] * r[i]
                    br += dLongitude[i] * r[i]
                }
                let determinant = aa * bb - ab * ab
                let deltaLatitude = -(bb * ar - ab * br) / determinant
                let deltaLongitude = -(aa * br - ab * ar) / determinant
                latitude += deltaLatitude
                longitude += deltaLongitude
                if abs(deltaLatitude) < 1e-12 && abs(deltaLongitude) < 1e-12 { break }
            }
            return try Coordinate(latitude: latitude, longitude: longitude)
        }
    }

    /// Runs `trials` attacks on a user at `precision`: each a fresh directory with the user at a
    /// random position (seeded) near `latitude`, found by an attacker that knows only a point
    /// within 700 m of them.
    static func attack(precision: LocationPrecision, latitude: Double, trials: Int, seed: UInt64) throws
        -> [Outcome]
    {
        var random = SplitMix64(seed: seed)
        var outcomes: [Outcome] = []
        for _ in 0..<trials {
            let exact = try Coordinate(
                latitude: latitude + Double.random(in: -0.5...0.5, using: &random),
                longitude: Double.random(in: -179...179, using: &random))
            var directory = PlaceDirectory(places: try PlaceCatalog())
            try directory.addUser(
                User(id: "target", name: "Target", location: exact, precision: precision), by: .admin)
            let centre = precision.published(exact)
            let guess = Geodesic.wgs84.destination(
                from: exact, bearing: Double.random(in: 0..<360, using: &random),
                distanceMeters: Double.random(in: 0...700, using: &random))
            var attacker = Attacker(directory: directory, budget: 1_000)
            let estimate = try attacker.locate("target", near: guess)
            #expect(attacker.spent == 1_000)
            outcomes.append(
                Outcome(
                    toTrue: try DistanceModel.geodesic.distance(estimate, exact),
                    toCentre: try DistanceModel.geodesic.distance(estimate, centre),
                    centreToTrue: try DistanceModel.geodesic.distance(centre, exact)))
        }
        return outcomes
    }

    static let latitudes = [0.0, -33.9, 45, 60, 70]

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    @Test func aStreetUserGivesAwayTheirCellAndNothingMore() throws {
        var outcomes: [Outcome] = []
        for (index, latitude) in Self.latitudes.enumerated() {
            outcomes += try Self.attack(precision: .street, latitude: latitude, trials: 12, seed: 1_800 + UInt64(index))
        }
        let toTrue = Self.mean(outcomes.map(\.toTrue))
        let toCentre = Self.mean(outcomes.map(\.toCentre))
        let hidden = Self.mean(outcomes.map(\.centreToTrue))
        print(
            "trilateration of a street user, \(outcomes.count) trials of 1,000 queries: "
                + "mean error to the true position \(toTrue) m, to the published centre \(toCentre) m "
                + "(centre to true position: \(hidden) m)")
        #expect(toTrue > toCentre)
        // The attacker lands on the centre: it learns the cell, and the cell's centre is all.
        #expect(toCentre < 0.5)
        #expect(outcomes.allSatisfy { $0.toCentre < 1 })
        // What it misses is what the cell hides (about 38 m on average for 100 m squares).
        #expect(abs(toTrue - hidden) < 1)
        #expect(toTrue > 25)
    }

    @Test func theSameAttackerFindsAnExactUserWithinAMetre() throws {
        var outcomes: [Outcome] = []
        for (index, latitude) in Self.latitudes.enumerated() {
            outcomes += try Self.attack(precision: .exact, latitude: latitude, trials: 6, seed: 1_900 + UInt64(index))
        }
        let toTrue = Self.mean(outcomes.map(\.toTrue))
        print(
            "trilateration of an exact user (control), \(outcomes.count) trials of 1,000 queries: "
                + "mean error \(toTrue) m, worst \(outcomes.map(\.toTrue).max() ?? 0) m")
        #expect(outcomes.allSatisfy { $0.toTrue < 1 })
    }
}
