extension GridIndex {
    /// Calls `body` with the handle and stored position (degrees) of every point in the cells
    /// that may hold a point within `angularRadius` of `center`, in arena order: a superset of
    /// the points within that central angle, for callers that decide by their own distance rule
    /// and need the positions (they come from the scan, without a look-up per handle).
    ///
    /// - Parameters:
    ///   - center: the cap's centre.
    ///   - angularRadius: radians on a unit sphere with geodetic latitude and longitude (a
    ///     distance on a sphere of radius R is R times it); π or more visits every cell.
    ///   - body: called once per point, with its handle, latitude and longitude.
    public func forEachPoint(
        inCapAround center: Coordinate, angularRadius: Double,
        _ body: (_ handle: UInt32, _ latitude: Double, _ longitude: Double) -> Void
    ) {
        let ranges = slots(inCapAround: center, angularRadius: angularRadius)
        stored.withUnsafeBufferPointer { stored in
            handles.withUnsafeBufferPointer { handles in
                guard Self.touch(ranges, stored: stored, handles: handles) else { return }
                for range in ranges {
                    for slot in range.start..<range.end {
                        body(handles[slot], stored[slot].latitude, stored[slot].longitude)
                    }
                }
            }
        }
    }
}
