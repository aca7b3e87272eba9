/// A Redis 7.0 GEO search (GEOSEARCH, GEORADIUS and their BYMEMBER forms) over a sorted set,
/// answering with exactly Redis's members in exactly Redis's order.
///
/// Redis does not test every member. It picks a cell size from the radius, takes the cell holding the
/// centre and its eight neighbours, drops neighbours that lie wholly outside the bounding box, and
/// tests only the members of the remaining cells (`geohashCalculateAreasByShapeWGS84`,
/// `membersOfAllNeighbors`). This type does the same, so it also reproduces what that scheme misses:
/// a member outside the nine cells is never reported, even inside the shape. The case that matters
/// is a member stored at longitude 180 or latitude 85.05112878, whose score carries past 52 bits
/// (see `GeoHash.encode`): it lies in no cell computed from a centre off that edge. (In 400,000
/// random trials with other members the nine cells always covered the shape.)
///
/// Without ASC/DESC the reply is in scan order: the centre cell, then north, south, east, west,
/// north-east, north-west, south-east, south-west; inside a cell, by score and then member bytes.
///
/// ```swift
/// let search = try RedisGeoSearch(longitude: 15, latitude: 37, shape: .radius(200, unit: .kilometers))
/// let matches = try search.matches(in: entries, order: .ascending, count: .first(3))
/// ```
public struct RedisGeoSearch: Sendable, Hashable {
    /// The centre, degrees: FROMLONLAT as given, or FROMMEMBER's decoded position.
    public let longitude: Double
    public let latitude: Double
    /// The area searched.
    public let shape: RedisGeoShape
    /// The bounding box Redis computes for the shape, degrees (Redis `geohashBoundingBox`). Its
    /// longitudes may pass ±180 and its latitudes ±85.05.
    public let boundingBox: GeoHashCell.Bounds
    /// The nine cells in Redis's scan order (centre, N, S, E, W, NE, NW, SE, SW), nil for the
    /// neighbours Redis prunes. All have the same step.
    public let cells: [GeoHashCell?]

    /// Order of the reply (ASC, DESC or neither).
    public enum Order: Sendable, Hashable {
        /// Scan order (see the type's discussion), unless a COUNT without ANY forces `ascending`.
        case unsorted
        /// Nearest first (ASC).
        case ascending
        /// Farthest first (DESC).
        case descending
    }

    /// How many members to return (COUNT).
    public enum Count: Sendable, Hashable {
        /// No COUNT.
        case all
        /// COUNT n: the n nearest (the n farthest with DESC); without an order, nearest first.
        case first(Int)
        /// COUNT n ANY: stop scanning once n members matched, then order those if asked.
        case any(Int)
    }

    /// Prepares a search: validates it and computes the cells to scan.
    ///
    /// - Parameters:
    ///   - longitude: the centre, degrees, -180...180.
    ///   - latitude: the centre, degrees, -85.05112878...85.05112878.
    ///   - shape: the radius or box, in its unit; sizes must be 0 or more (+infinity allowed).
    /// - Throws: `GeoError.outsideRedisGeoRange` for the centre, `GeoError.invalidRadius` for a
    ///   negative or NaN size (Redis: `RedisGeoMessage.negativeRadius` / `negativeBox`).
    public init(longitude: Double, latitude: Double, shape: RedisGeoShape) throws(GeoError) {
        guard GeoHash.isEncodable(longitude: longitude, latitude: latitude) else {
            throw .outsideRedisGeoRange(longitude: longitude, latitude: latitude)
        }
        for size in shape.sizes where size.isNaN || size < 0 { throw .invalidRadius(size) }
        self.longitude = longitude
        self.latitude = latitude
        self.shape = shape
        let box = Self.boundingBox(longitude: longitude, latitude: latitude, shape: shape)
        boundingBox = box
        cells = Self.cells(longitude: longitude, latitude: latitude, shape: shape, box: box)
    }

    /// The step (bits per axis) of the scanned cells.
    public var step: UInt8 { cells[0]?.step ?? GeoHash.maximumStep }

    /// The distance in meters from the centre to a member's decoded position if the position is in
    /// the shape, else nil (Redis `geoAppendIfWithinShape`). Says nothing about whether the scan
    /// reaches the member: see `matches(in:order:count:)`.
    public func distanceIfInside(longitude pointLongitude: Double, latitude pointLatitude: Double) -> Double? {
        switch shape {
        case .radius(let radius, let unit):
            return RedisGeo.distanceIfInRadius(
                centerLongitude: longitude, centerLatitude: latitude, longitude: pointLongitude,
                latitude: pointLatitude, radiusMeters: radius * unit.metersPerUnit)
        case .box(let width, let height, let unit):
            return RedisGeo.distanceIfInRectangle(
                widthMeters: width * unit.metersPerUnit, heightMeters: height * unit.metersPerUnit,
                centerLongitude: longitude, centerLatitude: latitude, longitude: pointLongitude,
                latitude: pointLatitude)
        }
    }

    /// Runs the search over a sorted set.
    ///
    /// - Parameters:
    ///   - entries: the members of the GEO key in sorted-set order: by score, then by member bytes
    ///     (see `RedisGeoEntry.precedes(_:)` for string members). Other orders give wrong results.
    ///   - order: ASC, DESC or neither.
    ///   - count: COUNT n, COUNT n ANY or no COUNT.
    /// - Returns: the members Redis replies with, in its order, with their distances in meters.
    /// - Throws: `GeoError.invalidCount` for a COUNT below 1 (Redis: `RedisGeoMessage.countNotPositive`).
    public func matches<Member: Sendable, Entries: RandomAccessCollection<RedisGeoEntry<Member>>>(
        in entries: Entries, order: Order = .unsorted, count: Count = .all
    ) throws(GeoError) -> [RedisGeoMatch<Member>] {
        var limit = 0
        var any = false
        switch count {
        case .all: break
        case .first(let value), .any(let value):
            guard value > 0 else { throw .invalidCount(value) }
            limit = value
            any = { if case .any = count { return true } else { return false } }()
        }
        var found = scan(entries, stopAfter: any ? limit : 0)
        let sortOrder = (limit != 0 && order == .unsorted && !any) ? .ascending : order
        let returned = (limit == 0 || found.count < limit) ? found.count : limit
        if sortOrder != .unsorted {
            let descending = sortOrder == .descending
            let compare = { (a: RedisGeoMatch<Member>, b: RedisGeoMatch<Member>) -> Int in
                let ascending =
                    a.distanceMeters > b.distanceMeters ? 1 : (a.distanceMeters == b.distanceMeters ? 0 : -1)
                return descending ? -ascending : ascending
            }
            if returned == found.count {
                GlibcMergeSort.sort(&found, by: compare)
            } else {
                RedisPartialSort.sort(&found, lower: 0, upper: returned - 1, by: compare)
            }
        }
        return Array(found.prefix(returned))
    }

    /// Scans the cells in Redis's order (`membersOfAllNeighbors`), stopping once `stopAfter` members
    /// matched if it is not 0.
    private func scan<Member: Sendable, Entries: RandomAccessCollection<RedisGeoEntry<Member>>>(
        _ entries: Entries, stopAfter limit: Int
    ) -> [RedisGeoMatch<Member>] {
        var found: [RedisGeoMatch<Member>] = []
        var lastProcessed = 0
        for (index, candidate) in cells.enumerated() {
            guard let cell = candidate else { continue }
            // Redis skips a cell equal to the last one scanned, but never compares with the centre
            // (its "last processed" index 0 doubles as "none yet").
            if lastProcessed != 0, cells[lastProcessed] == cell { continue }
            if !found.isEmpty && limit != 0 && found.count >= limit { break }
            let range = cell.scoreRange
            let minimum = Double(range.lowerBound)
            let maximum = Double(range.upperBound)
            var position = firstIndex(in: entries, notBelow: minimum)
            while position < entries.endIndex, entries[position].score < maximum {
                let entry = entries[position]
                let point = GeoHash.decode(score: entry.score)
                if let distance = distanceIfInside(longitude: point.longitude, latitude: point.latitude) {
                    found.append(
                        RedisGeoMatch(
                            member: entry.member, score: entry.score, longitude: point.longitude,
                            latitude: point.latitude, distanceMeters: distance))
                }
                if !found.isEmpty && limit != 0 && found.count >= limit { break }
                position = entries.index(after: position)
            }
            lastProcessed = index
        }
        return found
    }

    /// The first position whose score is `minimum` or more (Redis `zslFirstInRange`).
    private func firstIndex<Member: Sendable, Entries: RandomAccessCollection<RedisGeoEntry<Member>>>(
        in entries: Entries, notBelow minimum: Double
    ) -> Entries.Index {
        var low = entries.startIndex
        var count = entries.count
        while count > 0 {
            let half = count / 2
            let middle = entries.index(low, offsetBy: half)
            if entries[middle].score < minimum {
                low = entries.index(after: middle)
                count -= half + 1
            } else {
                count = half
            }
        }
        return low
    }
}
