extension PackedDistanceSort {
    /// The indices of the `wanted` smallest `distances` in ascending order (the largest, in
    /// descending order, when asked): the first `wanted` of `sortedKeys(_:descending:)`' order, without
    /// sorting the rest. Nil when a distance is negative, NaN or infinite, or there are more than
    /// `maximumCount`.
    ///
    /// Keeps the `wanted` best keys seen so far in a max-heap (its root the worst of them): each
    /// further key is compared with the root once and, only when better, takes its place. For a
    /// COUNT of tens among thousands of hits that is one pass and a few hundred heap steps, where a
    /// full sort moves every key several times.
    ///
    /// - Parameter wanted: 1 or more; all of them (`sortedKeys`' order) when there are no more
    ///   distances.
    static func first(_ wanted: Int, of distances: UnsafeBufferPointer<Double>, descending: Bool) -> [Int]? {
        let count = distances.count
        guard wanted > 0, count <= maximumCount else { return nil }
        guard wanted < count else {
            return sortedKeys(distances, descending: descending)?.map { Int($0 & indexMask) }
        }
        var heap = [UInt64](repeating: 0, count: wanted)
        var valid = true
        heap.withUnsafeMutableBufferPointer { heap in
            for index in 0..<count {
                let distance = distances[index]
                valid = valid && distance >= 0 && distance.isFinite && distance.sign == .plus
                let key = Self.key(distance, index: index, descending: descending)
                if index < wanted {
                    heap[index] = key
                    siftUp(heap, from: index)
                } else if key < heap[0] {
                    heap[0] = key
                    siftDown(heap, count: wanted)
                }
            }
            if valid { sort(heap) }
        }
        guard valid else { return nil }
        return heap.map { Int($0 & indexMask) }
    }

    /// Moves the key at `index` up a max-heap until its parent is larger.
    @inline(__always)
    private static func siftUp(_ heap: UnsafeMutableBufferPointer<UInt64>, from index: Int) {
        var child = index
        let key = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent] < key else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = key
    }

    /// Moves the root of a max-heap of `count` keys down until both children are smaller.
    @inline(__always)
    private static func siftDown(_ heap: UnsafeMutableBufferPointer<UInt64>, count: Int) {
        var parent = 0
        let key = heap[0]
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, heap[child + 1] > heap[child] { child += 1 }
            guard heap[child] > key else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = key
    }
}
