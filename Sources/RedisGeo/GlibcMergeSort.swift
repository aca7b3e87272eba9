/// glibc's `qsort` (2.36 and earlier): a top-down merge sort, stable, that takes from the left run
/// while the comparator says "not greater" (glibc `msort.c`). Redis sorts full GEO replies with it.
///
/// Reproduced rather than replaced by Swift's sort because a comparator that is not a total order
/// (Redis's distance comparator meets NaN distances near the antipode) makes the result depend on
/// the algorithm; with a total order any stable sort would do.
enum GlibcMergeSort {
    static func sort<Element>(_ elements: inout [Element], by compare: (Element, Element) -> Int) {
        guard elements.count > 1 else { return }
        var scratch = elements
        elements.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { scratch in sort(a, scratch, 0, a.count, compare) }
        }
    }

    private static func sort<Element>(
        _ a: UnsafeMutableBufferPointer<Element>, _ scratch: UnsafeMutableBufferPointer<Element>, _ start: Int,
        _ count: Int, _ compare: (Element, Element) -> Int
    ) {
        guard count > 1 else { return }
        let leftCount = count / 2
        let middle = start + leftCount
        let end = start + count
        sort(a, scratch, start, leftCount, compare)
        sort(a, scratch, middle, count - leftCount, compare)
        var left = start
        var right = middle
        var output = start
        while left < middle && right < end {
            if compare(a[left], a[right]) <= 0 {
                scratch[output] = a[left]
                left += 1
            } else {
                scratch[output] = a[right]
                right += 1
            }
            output += 1
        }
        // The rest of the left run moves up; the rest of the right run is already in place.
        while left < middle {
            scratch[output] = a[left]
            left += 1
            output += 1
        }
        for index in start..<output { a[index] = scratch[index] }
    }
}
