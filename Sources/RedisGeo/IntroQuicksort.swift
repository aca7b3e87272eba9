/// The quicksort behind the hit orders of a search (`DistanceKeySort`, `PackedDistanceSort`): a
/// median of three, Hoare partitions, insertion sort below 17 elements. For the few hundred hits
/// of one search it is about three times faster here than the standard library's sort, which the
/// callers fall back to when it gives up (partitions that stay unbalanced), so no input is
/// quadratic. Not stable.
enum IntroQuicksort {
    /// Sorts `elements` ascending by `Order`; false when it gave up at the depth limit (the
    /// elements are then partly sorted, and the caller sorts them another way).
    ///
    /// The order is a type, not a closure, so that each use is specialised with its comparison
    /// inlined.
    static func sort<Order: QuicksortOrder>(_ elements: UnsafeMutableBufferPointer<Order.Element>, by _: Order.Type)
        -> Bool
    {
        guard elements.count > 1 else { return true }
        let depthLimit = 2 * (Int.bitWidth - elements.count.leadingZeroBitCount)
        return quicksort(elements, 0, elements.count - 1, depth: depthLimit, Order.self)
    }

    /// Sorts `elements[low...high]`; false when it gave up at the depth limit.
    private static func quicksort<Order: QuicksortOrder>(
        _ elements: UnsafeMutableBufferPointer<Order.Element>, _ low: Int, _ high: Int, depth: Int,
        _ order: Order.Type
    ) -> Bool {
        var low = low
        var high = high
        var depth = depth
        while high - low > 16 {
            guard depth > 0 else { return false }
            depth -= 1
            let middle = low + (high - low) / 2
            // Median of three to elements[middle], then Hoare partition around its key.
            if Order.less(elements[middle], elements[low]) { elements.swapAt(middle, low) }
            if Order.less(elements[high], elements[low]) { elements.swapAt(high, low) }
            if Order.less(elements[high], elements[middle]) { elements.swapAt(high, middle) }
            let pivot = elements[middle]
            var i = low
            var j = high
            while i <= j {
                while Order.less(elements[i], pivot) { i += 1 }
                while Order.less(pivot, elements[j]) { j -= 1 }
                if i <= j {
                    elements.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // Recurse into the smaller side, loop on the larger.
            if j - low < high - i {
                if !quicksort(elements, low, j, depth: depth, order) { return false }
                low = i
            } else {
                if !quicksort(elements, i, high, depth: depth, order) { return false }
                high = j
            }
        }
        if high > low {
            for index in (low + 1)...high {
                let element = elements[index]
                var position = index
                while position > low && Order.less(element, elements[position - 1]) {
                    elements[position] = elements[position - 1]
                    position -= 1
                }
                elements[position] = element
            }
        }
        return true
    }
}

/// How `IntroQuicksort` compares its elements.
protocol QuicksortOrder {
    associatedtype Element
    /// Whether `a` sorts before `b` (a strict weak order).
    static func less(_ a: Element, _ b: Element) -> Bool
}
