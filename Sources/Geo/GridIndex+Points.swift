extension GridIndex {
    /// Consecutive slots of the index's arena: their handles and the positions stored in them.
    /// The buffers are valid only inside the call that gives the run.
    public struct PointRun {
        /// The points' handles.
        public let handles: UnsafeBufferPointer<UInt32>
        /// The points' stored positions in degrees, slot for slot with `handles`.
        public let positions: UnsafeBufferPointer<Stored>
    }

    /// Calls `body` with every point in the cells that may hold a point within `angularRadius` of
    /// `center`, as runs of consecutive slots in arena order, and how many points the runs hold:
    /// a superset of the points within that central angle, for callers that decide by their own
    /// distance rule and need the positions (they come from the scan, without a look-up per
    /// handle), and read them best in bulk.
    ///
    /// - Parameters:
    ///   - center: the cap's centre.
    ///   - angularRadius: radians on a unit sphere with geodetic latitude and longitude (a
    ///     distance on a sphere of radius R is R times it); π or more visits every cell.
    ///   - body: called once, with the runs and their total number of points; the runs' buffers
    ///     are valid only inside it.
    public func withPoints<Result>(
        inCapAround center: Coordinate, angularRadius: Double,
        _ body: (_ runs: [PointRun], _ count: Int) -> Result
    ) -> Result {
        let ranges = slots(inCapAround: center, angularRadius: angularRadius)
        return stored.withUnsafeBufferPointer { stored in
            handles.withUnsafeBufferPointer { handles in
                // `touch`'s answer is used, so that its reads are not optimised away.
                guard Self.touch(ranges, stored: stored, handles: handles) else { return body([], 0) }
                var count = 0
                let runs = ranges.map { range in
                    count += range.end - range.start
                    return PointRun(
                        handles: UnsafeBufferPointer(rebasing: handles[range.start..<range.end]),
                        positions: UnsafeBufferPointer(rebasing: stored[range.start..<range.end]))
                }
                return body(runs, count)
            }
        }
    }
}
