extension GridIndex {
    /// Reads one value from every cache line that `ranges`' entries and handles occupy (4 entries
    /// of 16 bytes and 16 handles a line), so that the misses overlap before a scan that then
    /// needs them one after another behind its arithmetic.
    ///
    /// - Returns: true for every valid index (no stored latitude is NaN); the result only exists
    ///   so that the reads cannot be optimised away: a caller stops when it is false.
    @inline(__always)
    static func touch(
        _ ranges: [SlotRange], stored: UnsafeBufferPointer<Stored>, handles: UnsafeBufferPointer<UInt32>
    ) -> Bool {
        var touched = 0.0
        var touchedHandles: UInt32 = 0
        for range in ranges {
            for slot in stride(from: range.start, to: range.end, by: 4) { touched += stored[slot].latitude }
            for slot in stride(from: range.start, to: range.end, by: 16) { touchedHandles |= handles[slot] }
        }
        return !(touched.isNaN && touchedHandles == 0)
    }
}
