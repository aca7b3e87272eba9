extension GridIndex {
    /// Calls `body` with the arena slot of every handle (`slots[handle]`), when the index is packed
    /// as `GridIndexBuilder.build(into:)` leaves it: handles 0 ..< `count`, one slot each, no spare
    /// room. The slots are then a permutation of 0 ..< `count` in grid order (row by row, each row's
    /// cells by column): a caller that renumbers its own columns by it, and the index by
    /// `numberHandlesBySlot()`, keeps the places of one cell side by side in memory.
    ///
    /// - Returns: what `body` returns, or nil (without calling it) if the index is not packed.
    public func withSlotOfEachHandle<R>(_ body: (_ slots: UnsafeBufferPointer<UInt32>) -> R) -> R? {
        guard isPacked else { return nil }
        return slotOfHandle.withUnsafeBufferPointer(body)
    }

    /// Gives each point the handle equal to its arena slot, so that handles ascend in grid order
    /// (the numbering `withSlotOfEachHandle` shows). Positions and cells are unchanged.
    ///
    /// - Precondition: the index is packed (`withSlotOfEachHandle` calls its body).
    public mutating func numberHandlesBySlot() {
        precondition(isPacked, "only a packed index is numbered by slot")
        handles.withUnsafeMutableBufferPointer { handles in
            for slot in handles.indices { handles[slot] = UInt32(slot) }
        }
        slotOfHandle.withUnsafeMutableBufferPointer { slots in
            for handle in slots.indices { slots[handle] = UInt32(handle) }
        }
    }

    /// Whether every slot of the arena is live and the handles are exactly 0 ..< `count`.
    private var isPacked: Bool {
        stored.count == count && handles.count == count && slotOfHandle.count == count && staleSlots == 0
    }
}
