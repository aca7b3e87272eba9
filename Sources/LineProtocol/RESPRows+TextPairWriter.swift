extension RESPRows {
    /// Writes rows of two text columns straight into the storage of the rows that lent it
    /// (`RESPRows.appendTextPairs`), for the length of that call: it cannot be copied, so no
    /// other holder writes into that storage or outlives the call with it.
    public struct TextPairWriter: ~Copyable {
        /// The rows' storage, this writer's to write into past `used`.
        let storage: Bytes
        /// The bytes written, the rows' before the call and this writer's.
        var used: Int
        /// The rows this writer appended.
        var count = 0

        init(storage: Bytes, used: Int) {
            self.storage = storage
            self.used = used
        }

        /// Appends a row: `first`'s bytes, then the value `writeSecond` writes into room for
        /// `secondCapacity` bytes (at most 99), returning how many it wrote.
        @inline(__always)
        public mutating func append(
            _ first: UnsafeBufferPointer<UInt8>, secondCapacity: Int,
            _ writeSecond: (UnsafeMutablePointer<UInt8>) -> Int
        ) {
            precondition((0...99).contains(secondCapacity), "room of \(secondCapacity) bytes for the second value")
            let length = first.count
            // The row's header and the first value's frame and line end (within `frameRoom`),
            // the first value, and the second with its header of at most two digits. Sums of
            // lengths of bytes in memory: they wrap nowhere, so they are not checked.
            let most = RESPRows.frameRoom &+ length &+ 5 &+ secondCapacity &+ 2
            if used &+ most > storage.capacity { storage.grow(to: used &+ most, keeping: used) }
            let out = storage.base + used
            out[0] = UInt8(ascii: "*")
            out[1] = UInt8(ascii: "2")
            out[2] = ASCII.carriageReturn
            out[3] = ASCII.newline
            var position = 4 &+ RESPRows.writeBulk(first, to: out + 4)
            // The second value after a one-digit header (moved one place on for a two-digit one).
            let second = out + position
            let written = writeSecond(second + 4)
            precondition((0...secondCapacity).contains(written), "wrote more than the room given")
            if written >= 10 { (second + 5).update(from: second + 4, count: written) }
            position &+= RESPRows.writeHeader(UInt8(ascii: "$"), written, to: second) &+ written
            out[position] = ASCII.carriageReturn
            out[position &+ 1] = ASCII.newline
            used &+= position &+ 2
            count &+= 1
        }
    }
}
