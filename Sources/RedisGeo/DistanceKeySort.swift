/// Sorts (distance, index) pairs by distance with `IntroQuicksort`, falling back to the standard
/// library's sort when it gives up. Not stable, and NaN distances end up anywhere: callers check
/// the result for ties and NaN themselves.
enum DistanceKeySort {
    typealias Key = (distance: Double, index: Int)

    static func sort(_ keys: inout [Key], descending: Bool) {
        guard keys.count > 1 else { return }
        if descending {
            for index in keys.indices { keys[index].distance = -keys[index].distance }
        }
        let sorted = keys.withUnsafeMutableBufferPointer { IntroQuicksort.sort($0, by: ByDistance.self) }
        if !sorted { keys.sort { $0.distance < $1.distance } }
        if descending {
            for index in keys.indices { keys[index].distance = -keys[index].distance }
        }
    }

    /// Pairs by distance alone.
    private enum ByDistance: QuicksortOrder {
        @inline(__always)
        static func less(_ a: Key, _ b: Key) -> Bool { a.distance < b.distance }
    }
}
