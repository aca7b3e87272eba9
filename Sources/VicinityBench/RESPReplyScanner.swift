/// Finds where one RESP2 reply ends in a run of bytes, without building it: the client side of
/// `vicinity-bench line-bench`, which only needs to know when a reply is complete.
///
/// Understands simple strings (`+`), errors (`-`), integers (`:`), bulk strings (`$`, including
/// the null bulk `$-1`) and arrays (`*`, including `*-1`), nested to any depth.
struct RESPReplyScanner {
    /// A reply that is not RESP2: the byte offset and what was found there.
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var found: String
        var description: String { "malformed reply at byte \(offset): \(found)" }
    }

    /// The offset just past the first complete reply starting at `start`, or nil when `bytes`
    /// does not yet hold all of it.
    static func end(of bytes: UnsafeRawBufferPointer, from start: Int) throws(Malformed) -> Int? {
        var offset = start
        // Values still expected: one reply, plus the elements of arrays opened inside it.
        var pending = 1
        while pending > 0 {
            guard offset < bytes.count else { return nil }
            let type = bytes[offset]
            guard let lineEnd = lineEnd(in: bytes, from: offset + 1) else { return nil }
            pending -= 1
            switch type {
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"):
                offset = lineEnd + 2
            case UInt8(ascii: "$"), UInt8(ascii: "*"):
                let length = try integer(in: bytes, from: offset + 1, to: lineEnd)
                offset = lineEnd + 2
                if type == UInt8(ascii: "*") {
                    pending += max(0, length)
                } else if length >= 0 {
                    guard offset + length + 2 <= bytes.count else { return nil }
                    offset += length + 2
                }
            default:
                throw Malformed(offset: offset, found: "type byte \(type)")
            }
        }
        return offset
    }

    /// The offset of the "\r" of the line that starts at `start`, or nil when it has not arrived.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "\r") && bytes[index + 1] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return nil
    }

    /// The decimal integer (optionally negative) in `start..<end`.
    private static func integer(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) throws(Malformed)
        -> Int
    {
        var index = start
        let negative = index < end && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < end, end - index <= 18 else { throw Malformed(offset: start, found: "a bad length") }
        var value = 0
        while index < end {
            let digit = Int(bytes[index]) - 48
            guard (0...9).contains(digit) else { throw Malformed(offset: index, found: "a bad length") }
            value = value * 10 + digit
            index += 1
        }
        return negative ? -value : value
    }
}
