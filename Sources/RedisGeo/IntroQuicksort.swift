/// The quicksort behind the hit orders of a search (`DistanceKeySort`, `PackedDistanceSort`): a
/// median of three, Hoare partitions, insertion sort below 17 elements. For the few hundred hits
/// of one search it is about three times faster here than the standard library's sort, which the
/// callers fall back to when it gives up (partitions that stay unbalanced), so no input is
/// quadratic. Not stable.
enum IntroQuicksort {
    /// Sorts `elements` ascending by `key`; false when it gave up at the depth limit (the elements
    /// are then partly sorted, and the caller sorts them another way).
    @inline(__always)
    static func sort<Element, Key: Comparable>(
        _ elements: UnsafeMutableBufferPointer<Element>, by key: (Element) -> Key
    ) -> Bool {
        guard elements.count > 1 else { return true }
        let depthLimit = 2 * (Int.bitWidth - elements.count.leadingZeroBitCount)
        return quicksort(elements, 0, elements.count - 1, depth: depthLimit, key)
    }

    /// Sorts `elements[low...high]`; false when it gave up at the depth limit.
    private static func quicksort<Element, Key: Comparable>(
        _ elements: UnsafeMutableBufferPointer<Element>, _ low: Int, _ high: Int, depth: Int,
        _ key: (Element) -> Key
    ) -> Bool {
        var low = low
        var high = high
        var depth = depth
        while high - low > 16 {
            guard depth > 0 else { return false }
            depth -= 1
            let middle = low + (high - low) / 2
            // Median of three to elements[middle], then Hoare partition around its key.
            if key(elements[middle]) < key(elements[low]) { elements.swapAt(middle, low) }
            if key(elements[high]) < key(elements[low]) { elements.swapAt(high, low) }
            if key(elements[high]) < key(elements[middle]) { elements.swapAt(high, middle) }
            let pivot = key(elements[middle])
            var i = low
            var j = high
            while i <= j {
                while key(elements[i]) < pivot { i += 1 }
                while key(elements[j]) > pivot { j -= 1 }
                if i <= j {
                    elements.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // Recurse into the smaller side, loop on the larger.
            if j - low < high - i {
                if !quicksort(elements, low, j, depth: depth, key) { return false }
                low = i
            } else {
                if !quicksort(elements, i, high, depth: depth, key) { return false }
                high = j
            }
        }
        if high > low {
            for index in (low + 1)...high {
                let element = elements[index]
                var position = index
                while position > low && key(elements[position - 1]) > key(element) {
                    elements[position] = elements[position - 1]
                    position -= 1
                }
                elements[position] = element
            }
        }
        return true
    }
}
