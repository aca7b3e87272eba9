import RedisGeo

/// Writes WITHDIST's text of a search's hits, as Redis 7.0 prints their distances (not rounded
/// to a user's precision): from the hit's estimate when every distance within its error prints
/// the same (`RedisGeoText.writeDistance`), else from Redis's exact distance.
struct RedisGeoDistanceWriter {
    /// The unit the search's distances are printed in.
    let unit: RedisGeoUnit
    /// The search the hits come from (for the exact distance of an estimate too close to call).
    let search: RedisGeoSearch
    /// Meters in one `unit`, taken once so that a row does not switch on the unit.
    private let metersPerUnit: Double

    /// A writer of the distances of `search`'s hits, in its shape's unit.
    init(search: RedisGeoSearch) {
        self.search = search
        unit = search.shape.unit
        metersPerUnit = unit.metersPerUnit
    }

    /// The room a distance's text takes: "%.4f" of at most half the Earth's circumference, in
    /// feet, is 13 bytes; `RedisGeoText.distance(meters:unit:)` never comes near this.
    static let room = 40

    /// Writes the text of a hit's distance to `out`, room for `room` bytes, and returns its
    /// length.
    @inline(__always)
    func write(_ hit: RedisGeoHit, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if let written = RedisGeoText.writeDistance(
            meters: hit.distanceMeters, errorMeters: hit.distanceError, metersPerUnit: metersPerUnit, to: out)
        {
            return written
        }
        return writeExact(hit, to: out)
    }

    /// `write` of a hit whose estimate is too close to a rounding edge (or whose distance is
    /// beyond what `RedisGeoText.writeDistance` writes): printed from Redis's exact distance.
    @inline(never)
    private func writeExact(_ hit: RedisGeoHit, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let meters = hit.distanceError == 0 ? hit.distanceMeters : search.exactDistance(hit)
        var text = RedisGeoText.distance(meters: meters, unit: unit)
        return text.withUTF8 { bytes in
            precondition(bytes.count <= Self.room, "\(bytes.count) bytes for room of \(Self.room)")
            if let base = bytes.baseAddress { out.update(from: base, count: bytes.count) }
            return bytes.count
        }
    }
}
