import Foundation

/// The handles of one kind's places by id: an open-addressing table of 4-byte handles with linear
/// probing, whose keys are the ids in the kind's `PlaceTexts` (not copies of them). A slot holds
/// `handle + 1`, 0 when empty; the table is at most 80 % full (5 bytes a place), and its size is
/// not a power of two (a hash is mapped to a slot by a multiply-shift). Hashes are `Hasher`'s,
/// seeded per process, so ids chosen to collide cannot be prepared in advance.
struct PlaceIDMap: Sendable {
    private var slots: [UInt32] = []
    private(set) var count = 0

    init(reservingCapacity capacity: Int = 0) {
        if capacity > 0 { slots = [UInt32](repeating: 0, count: Self.slotCount(for: capacity)) }
    }

    private static func slotCount(for count: Int) -> Int { max(8, count + count / 4 + 1) }

    /// The hash of an id as `String` equality sees it: its bytes when ASCII, else the bytes of its
    /// NFC form (canonically equivalent spellings are the same id, as in a `[String: …]`).
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        if bytes.contains(where: { $0 >= 0x80 }) {
            var composed = String(decoding: bytes, as: UTF8.self).precomposedStringWithCanonicalMapping
            composed.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        } else {
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// Whether two ids are equal as `String`s: the same bytes, or canonically equivalent.
    @inline(__always)
    private static func same(_ stored: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        if stored.elementsEqual(key) { return true }
        guard stored.contains(where: { $0 >= 0x80 }) || key.contains(where: { $0 >= 0x80 }) else { return false }
        return String(decoding: stored, as: UTF8.self) == String(decoding: key, as: UTF8.self)
    }

    @inline(__always)
    private func home(_ hash: UInt64) -> Int {
        Int(hash.multipliedFullWidth(by: UInt64(slots.count)).high)
    }

    /// The handle of `id`, or nil.
    func handle(of id: String, in texts: PlaceTexts) -> UInt32? {
        guard count > 0 else { return nil }
        var id = id
        return id.withUTF8 { key in
            var slot = home(Self.hash(key))
            while true {
                let value = slots[slot]
                if value == 0 { return nil }
                if texts.withID(Int(value - 1), { Self.same($0, key) }) { return value - 1 }
                slot += 1
                if slot == slots.count { slot = 0 }
            }
        }
    }

    /// Records `handle` for its id in `texts`, which no other handle has.
    mutating func insert(_ handle: UInt32, in texts: PlaceTexts) {
        if (count + 1) * 5 > slots.count * 4 { rehash(capacity: max(16, count * 2), texts: texts) }
        var slot = texts.withID(Int(handle)) { home(Self.hash($0)) }
        while slots[slot] != 0 {
            slot += 1
            if slot == slots.count { slot = 0 }
        }
        slots[slot] = handle + 1
        count += 1
    }

    /// Records `handle` for `id` unless a handle already has that id, in one probe: a bulk load
    /// that checks and inserts each id walks its slots once, not twice. The handle's entry must be
    /// appended to `texts` right after (the table reads it from then on).
    ///
    /// - Returns: the handle that has the id already (nothing is then recorded), or nil.
    mutating func insert(_ handle: UInt32, id: String, in texts: PlaceTexts) -> UInt32? {
        var id = id
        return id.withUTF8 { insert(handle, id: $0, in: texts) }
    }

    /// `insert(_:id:in:)` for an id given as UTF-8 bytes.
    mutating func insert(_ handle: UInt32, id key: UnsafeBufferPointer<UInt8>, in texts: PlaceTexts) -> UInt32? {
        if (count + 1) * 5 > slots.count * 4 { rehash(capacity: max(16, count * 2), texts: texts) }
        var slot = home(Self.hash(key))
        while true {
            let value = slots[slot]
            if value == 0 { break }
            if texts.withID(Int(value - 1), { Self.same($0, key) }) { return value - 1 }
            slot += 1
            if slot == slots.count { slot = 0 }
        }
        slots[slot] = handle + 1
        count += 1
        return nil
    }

    /// Records handles for ids that the caller knows no handle has, given by their hashes
    /// (`hash(_:)`, taken while the ids' bytes were at hand): the home slots of the whole batch are
    /// read first, so that their cache misses overlap instead of coming one after another.
    ///
    /// - Parameters:
    ///   - handles: the handles, each with the hash at the same offset in `hashes`.
    ///   - hashes: as many hashes as handles; a batch of a few dozen is enough.
    ///   - texts: the ids of the handles already recorded (read only if the table must grow).
    mutating func insertAbsent(
        _ handles: UnsafeBufferPointer<UInt32>, hashes: UnsafeBufferPointer<UInt64>, in texts: PlaceTexts
    ) {
        precondition(handles.count == hashes.count, "one hash per handle")
        if (count + handles.count) * 5 > slots.count * 4 {
            rehash(capacity: max(16, (count + handles.count) * 2), texts: texts)
        }
        let slotCount = UInt64(slots.count)
        slots.withUnsafeMutableBufferPointer { slots in
            var touched: UInt32 = 0
            for hash in hashes { touched |= slots[Int(hash.multipliedFullWidth(by: slotCount).high)] }
            // Always true; it only keeps the reads above from being optimised away.
            guard touched != UInt32.max else { return }
            for (handle, hash) in zip(handles, hashes) {
                var slot = Int(hash.multipliedFullWidth(by: slotCount).high)
                while slots[slot] != 0 {
                    slot += 1
                    if slot == slots.count { slot = 0 }
                }
                slots[slot] = handle + 1
            }
        }
        count += handles.count
    }

    /// Forgets `handle` (its id still readable in `texts`), shifting back the entries after it.
    mutating func remove(_ handle: UInt32, in texts: PlaceTexts) {
        guard var hole = find(handle, in: texts) else { return }
        slots[hole] = 0
        count -= 1
        var slot = hole
        while true {
            slot += 1
            if slot == slots.count { slot = 0 }
            let value = slots[slot]
            if value == 0 { return }
            let wanted = texts.withID(Int(value - 1)) { home(Self.hash($0)) }
            // Move the entry into the hole unless its home lies cyclically in (hole, slot].
            let stays = hole <= slot ? (wanted > hole && wanted <= slot) : (wanted > hole || wanted <= slot)
            if !stays {
                slots[hole] = value
                slots[slot] = 0
                hole = slot
            }
        }
    }

    /// Makes the slot of `old` hold `new` (the same id now has another handle).
    mutating func renumber(_ old: UInt32, to new: UInt32, in texts: PlaceTexts) {
        guard let slot = find(old, in: texts) else { return }
        slots[slot] = new + 1
    }

    /// Gives every handle recorded its new number, `newHandles[handle]`: the ids stay, and with
    /// them every slot.
    ///
    /// - Parameter newHandles: the new handle of every handle recorded.
    mutating func renumber(_ newHandles: UnsafeBufferPointer<UInt32>) {
        slots.withUnsafeMutableBufferPointer { slots in
            for slot in slots.indices where slots[slot] != 0 {
                slots[slot] = newHandles[Int(slots[slot] - 1)] + 1
            }
        }
    }

    private func find(_ handle: UInt32, in texts: PlaceTexts) -> Int? {
        guard count > 0 else { return nil }
        var slot = texts.withID(Int(handle)) { home(Self.hash($0)) }
        while true {
            let value = slots[slot]
            if value == 0 { return nil }
            if value == handle + 1 { return slot }
            slot += 1
            if slot == slots.count { slot = 0 }
        }
    }

    private mutating func rehash(capacity: Int, texts: PlaceTexts) {
        let old = slots
        slots = [UInt32](repeating: 0, count: Self.slotCount(for: capacity))
        for value in old where value != 0 {
            var slot = texts.withID(Int(value - 1)) { home(Self.hash($0)) }
            while slots[slot] != 0 {
                slot += 1
                if slot == slots.count { slot = 0 }
            }
            slots[slot] = value
        }
    }

    /// Bytes held by the table.
    var memoryBytes: Int { slots.capacity * 4 }
}
