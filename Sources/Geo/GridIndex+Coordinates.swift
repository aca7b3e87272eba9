extension GridIndex {
    /// The coordinates stored for the handles of `hits`, in their order: `coordinate(of:)` for a
    /// whole answer in one call, whose look-ups by handle are free to overlap.
    ///
    /// - Parameter hits: hits of this index (every handle indexed), as `within` found them.
    /// - Returns: one coordinate a hit, WGS84 degrees.
    public func coordinates(of hits: [GridHit]) -> [Coordinate] {
        slotOfHandle.withUnsafeBufferPointer { slots in
            stored.withUnsafeBufferPointer { stored in
                hits.map { hit in
                    let handle = Int(hit.handle)
                    precondition(
                        handle < slots.count && slots[handle] != GridIndex.absent, "handle \(handle) not indexed")
                    let point = stored[Int(slots[handle])]
                    return Coordinate(unchecked: point.latitude, point.longitude)
                }
            }
        }
    }
}
