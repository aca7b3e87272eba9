/// Redis's partial quicksort (`src/pqsort.c`: the NetBSD / Bentley–McIlroy quicksort that only
/// recurses into partitions overlapping the wanted range), reproduced step for step.
///
/// GEOSEARCH with COUNT n (without ANY) sorts its candidates with it when there are more than n.
/// The algorithm is not stable, so which of several equally distant members come first depends on
/// its exact sequence of swaps: matching Redis's reply byte for byte needs the same sequence. When
/// every candidate is returned Redis calls glibc's `qsort`, a stable merge sort (glibc 2.36).
enum RedisPartialSort {
    /// Sorts enough of `elements` that positions `lower...upper` hold what a full sort would put
    /// there (and with Redis's tie order).
    ///
    /// - Parameter compare: negative, zero or positive like a C comparator.
    static func sort<Element>(
        _ elements: inout [Element], lower: Int, upper: Int, by compare: (Element, Element) -> Int
    ) {
        elements.withUnsafeMutableBufferPointer { a in
            sort(a, start: 0, count: a.count, lower: lower, upper: upper, by: compare)
        }
    }

    private static func sort<Element>(
        _ a: UnsafeMutableBufferPointer<Element>, start: Int, count: Int, lower: Int, upper: Int,
        by compare: (Element, Element) -> Int
    ) {
        var base = start
        var n = count
        while true {
            if n < 7 {
                // Insertion sort for small partitions.
                for pm in (base + 1)..<(base + max(n, 1)) {
                    var pl = pm
                    while pl > base && compare(a[pl - 1], a[pl]) > 0 {
                        a.swapAt(pl, pl - 1)
                        pl -= 1
                    }
                }
                return
            }
            var pm = base + n / 2
            if n > 7 {
                var pl = base
                var pn = base + n - 1
                if n > 40 {
                    let d = n / 8
                    pl = medianOfThree(a, pl, pl + d, pl + 2 * d, compare)
                    pm = medianOfThree(a, pm - d, pm, pm + d, compare)
                    pn = medianOfThree(a, pn - 2 * d, pn - d, pn, compare)
                }
                pm = medianOfThree(a, pl, pm, pn, compare)
            }
            a.swapAt(base, pm)
            var pa = base + 1
            var pb = pa
            var pc = base + n - 1
            var pd = pc
            while true {
                while pb <= pc {
                    let result = compare(a[pb], a[base])
                    if result > 0 { break }
                    if result == 0 {
                        a.swapAt(pa, pb)
                        pa += 1
                    }
                    pb += 1
                }
                while pb <= pc {
                    let result = compare(a[pc], a[base])
                    if result < 0 { break }
                    if result == 0 {
                        a.swapAt(pc, pd)
                        pd -= 1
                    }
                    pc -= 1
                }
                if pb > pc { break }
                a.swapAt(pb, pc)
                pb += 1
                pc -= 1
            }
            let pn = base + n
            var r = min(pa - base, pb - pa)
            swapBlocks(a, base, pb - r, r)
            r = min(pd - pc, pn - pd - 1)
            swapBlocks(a, pb, pn - r, r)
            r = pb - pa
            if r > 1 && overlaps(start: base, count: r, lower: lower, upper: upper) {
                sort(a, start: base, count: r, lower: lower, upper: upper, by: compare)
            }
            r = pd - pc
            guard r > 1 else { return }
            // Iterate rather than recurse for the right-hand partition, as Redis does.
            base = pn - r
            n = r
            guard overlaps(start: base, count: n, lower: lower, upper: upper) else { return }
        }
    }

    /// Whether the partition `start..<start + count` meets the wanted range (Redis compares pointers
    /// to the range's first byte and last byte; in whole elements this is the same test).
    private static func overlaps(start: Int, count: Int, lower: Int, upper: Int) -> Bool {
        !((lower < start && upper < start) || (lower >= start + count && upper >= start + count))
    }

    private static func medianOfThree<Element>(
        _ a: UnsafeMutableBufferPointer<Element>, _ i: Int, _ j: Int, _ k: Int, _ compare: (Element, Element) -> Int
    ) -> Int {
        if compare(a[i], a[j]) < 0 {
            return compare(a[j], a[k]) < 0 ? j : (compare(a[i], a[k]) < 0 ? k : i)
        }
        return compare(a[j], a[k]) > 0 ? j : (compare(a[i], a[k]) < 0 ? i : k)
    }

    /// Swaps `a[i + m]` with `a[j + m]` for m in 0..<count, in increasing m, like Redis's `vecswap`
    /// (the blocks may overlap).
    private static func swapBlocks<Element>(_ a: UnsafeMutableBufferPointer<Element>, _ i: Int, _ j: Int, _ count: Int)
    {
        for offset in 0..<max(count, 0) { a.swapAt(i + offset, j + offset) }
    }
}
