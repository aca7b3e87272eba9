/// A candidate's squared chord (m²) and arena slot.
struct ChordKey {
    var chordSquared: Double
    var slot: UInt32
}

/// The `capacity` shortest chords seen so far: a binary max-heap on the squared chord.
struct ChordHeap {
    let capacity: Int
    private(set) var keys: [ChordKey] = []

    init(capacity: Int) {
        self.capacity = capacity
        keys.reserveCapacity(min(capacity, 4_096))
    }

    var isFull: Bool { keys.count >= capacity }
    /// The longest chord kept (m²); only meaningful when not empty.
    var longest: Double { keys[0].chordSquared }

    /// Whether a chord would be kept: the heap has room, or it is shorter than the longest kept.
    @inline(__always)
    func admits(_ chordSquared: Double) -> Bool { !isFull || chordSquared < keys[0].chordSquared }

    /// Keeps `key`, dropping the longest kept when full. Call only when `admits` says so.
    mutating func insert(_ key: ChordKey) {
        if !isFull {
            keys.append(key)
            var child = keys.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard keys[parent].chordSquared < keys[child].chordSquared else { break }
                keys.swapAt(parent, child)
                child = parent
            }
            return
        }
        keys[0] = key
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < keys.count else { break }
            let right = left + 1
            let larger = right < keys.count && keys[right].chordSquared > keys[left].chordSquared ? right : left
            guard keys[larger].chordSquared > keys[parent].chordSquared else { break }
            keys.swapAt(parent, larger)
            parent = larger
        }
    }
}
