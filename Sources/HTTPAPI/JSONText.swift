import Geo
import NIOCore

/// Compact JSON written straight into bytes, for the large answers (`/v1/nearby`, `/v1/nearest`):
/// Foundation's `JSONEncoder`, which the generated server uses for every JSON body, was most of the
/// server's time on a long list (BENCHMARKS.md has the figures).
///
/// The caller writes the punctuation (`{`, `,`, `:`) with `raw`, and values with `string`,
/// `number` and `integer`. Numbers are the shortest text that reads back to the same `Double`
/// (the text of Swift's `description`; integral values without ".0", and -0 as 0, which reads
/// back equal); strings escape `"`, `\` and the control characters U+0000…U+001F, as RFC 8259
/// requires, and keep all other UTF-8 as it is.
///
/// The bytes grow in one buffer that this value owns; `bytes` copies them out once at the end.
/// Or they are written into room the caller lends (`init(writingInto:)`, a `ByteBuffer`'s) for
/// as long as they fit there, and then moved to a buffer of their own.
struct JSONText: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0
    /// Whether `base` is this value's to free, or the caller's room (`init(writingInto:)`).
    private(set) var ownsBytes = true
    private static let hexDigits: StaticString = "0123456789abcdef"
    /// Room for any number: the longest `Double` text is 24 bytes (`-2.2250738585072014e-308`).
    private static let numberRoom = 32

    /// - Parameter capacity: bytes to reserve.
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// Writes into `room` (the caller's, which must outlive this value) while the text fits in
    /// it; past that, the text moves to a buffer of its own (`ownsBytes`).
    ///
    /// - Parameter room: 64 bytes or more.
    init(writingInto room: UnsafeMutableRawBufferPointer) {
        precondition(room.count >= 64 && room.baseAddress != nil, "room for less than 64 bytes")
        capacity = room.count
        base = room.baseAddress!.bindMemory(to: UInt8.self, capacity: room.count)
        ownsBytes = false
    }

    deinit { if ownsBytes { base.deallocate() } }

    /// The text written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The text written so far, in a buffer from `allocator`.
    func buffer(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: count)
        buffer.writeBytes(UnsafeRawBufferPointer(start: base, count: count))
        return buffer
    }

    /// Makes room for `more` bytes after the ones written. Inlined, so that the appends of a few
    /// bytes each (most of an answer) are a comparison and a copy of a size known at compile time.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(more) }
    }

    @inline(never)
    private mutating func grow(_ more: Int) {
        let grown = max(capacity * 2, count + more)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        if ownsBytes { base.deallocate() }
        base = moved
        capacity = grown
        ownsBytes = true
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        (base + count).withMemoryRebound(to: UInt8.self, capacity: bytes.count) { target in
            guard let source = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes already JSON (another `JSONText`'s, `withBytes`), as they are.
    mutating func raw(_ bytes: UnsafeRawBufferPointer) { append(bytes) }

    /// Calls `body` with the text written so far (valid only inside `body`).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Appends ASCII punctuation or a literal key, as it is.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `"key":`.
    mutating func key(_ name: StaticString) {
        append(UInt8(ascii: "\""))
        raw(name)
        append(UInt8(ascii: "\""))
        append(UInt8(ascii: ":"))
    }

    /// Appends a JSON string.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// Appends a string given as its UTF-8 bytes, escaped as `string(_:)` escapes.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        // Most names need no escape: copy them whole.
        if !JSONText.needsEscape(utf8) {
            append(UnsafeRawBufferPointer(utf8))
        } else {
            for byte in utf8 { escape(byte) }
        }
        append(UInt8(ascii: "\""))
    }

    /// Whether any of `bytes` is one a JSON string escapes: a control character, `"` or `\`.
    @inline(__always)
    static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// Whether `bytes` are ASCII that a JSON string holds as they are (no control character, `"`
    /// or `\`): such a text is its `String`'s bytes and needs no escape. Eight bytes at a time
    /// (`escapeBits`), the last eight read again for a count not a multiple of eight; shorter
    /// texts byte by byte.
    @inline(__always)
    static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress, bytes.count >= 8 else { return bytes.allSatisfy(isPlainByte) }
        let raw = UnsafeRawPointer(start)
        var found: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            found |= escapeBits(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            found |= escapeBits(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
        return found == 0
    }

    /// Whether one byte is plain ASCII in the sense of `isPlainASCII`.
    @inline(__always)
    static func isPlainByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Not zero exactly when one of the eight bytes of `word` is not `isPlainByte`: the high bit
    /// of a byte from 0x80 up, or of a byte below 0x20, or of a zero byte of `word` XOR `"` or `\`
    /// repeated (x − 1 borrows into the high bit of a zero byte; a borrow reaches the bytes above
    /// only from a byte that is itself found, so the answer for the word as a whole is exact).
    @inline(__always)
    static func escapeBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        return (word | control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
    }

    /// Appends `"…"` around bytes `isPlainASCII` accepted.
    @inline(__always)
    mutating func plainString(utf8: UnsafeBufferPointer<UInt8>) {
        reserve(utf8.count + 2)
        base[count] = UInt8(ascii: "\"")
        if let source = utf8.baseAddress { (base + count + 1).update(from: source, count: utf8.count) }
        base[count + 1 + utf8.count] = UInt8(ascii: "\"")
        count += utf8.count + 2
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw(#"\""#)
        case UInt8(ascii: "\\"): raw(#"\\"#)
        case 0x0A: raw(#"\n"#)
        case 0x0D: raw(#"\r"#)
        case 0x09: raw(#"\t"#)
        case 0..<0x20:
            raw(#"\u00"#)
            append(JSONText.hexDigits.utf8Start[Int(byte >> 4)])
            append(JSONText.hexDigits.utf8Start[Int(byte & 0xF)])
        default: append(byte)
        }
    }

    /// Appends a number: the shortest decimal that reads back to `value`; `null` for NaN and
    /// infinities, which JSON cannot write (no answer of the API holds one).
    mutating func number(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        // Integral values below 2^53 without ".0", as JSONEncoder writes them.
        if value == value.rounded(.towardZero), abs(value) < 0x1p53 {
            return integer(Int(value))
        }
        reserve(JSONText.numberRoom)
        var digits = DigitSink(start: base + count, room: JSONText.numberRoom)
        value.write(to: &digits)
        count += digits.written
    }

    /// Appends `value` rounded to `decimals` decimals (`RoundedDecimal`, as `printf("%.*f")`),
    /// trailing zeros trimmed: the served numbers (`ServedPrecision`), without the search for the
    /// shortest text that `number` makes. For a value already rounded so (`QueryHit.served`) the
    /// text is `number`'s, byte for byte, as `JSONEncoder` writes it; so is a magnitude below 1e-4,
    /// which is handed to `number` in its exponent form (`1e-07`). NaN and infinities are `null`.
    @inline(__always)
    mutating func decimal(_ value: Double, decimals: Int) {
        guard let rounded = RoundedDecimal(value, decimals: decimals), rounded.isShortestText else {
            return number(RoundedDecimal(value, decimals: decimals)?.doubleValue ?? value)
        }
        write(rounded, decimals: decimals)
    }

    /// Writes a rounded decimal trimmed; `decimals` its decimals, a constant where inlined (the
    /// served precisions), so that the digits come out by constant divisions, inline.
    @inline(__always)
    private mutating func write(_ rounded: RoundedDecimal, decimals: Int) {
        reserve(RoundedDecimal.maximumTextLength)
        count += rounded.write(
            to: base + count, trimmed: true, power: RoundedDecimal.power(decimals), decimals: decimals)
    }

    /// Appends a distance in meters as served (`ServedPrecision.distance`): to the millimetre.
    ///
    /// A function of its own, small, so that `decimal` and the digits' writer are inlined into it
    /// with the precision a constant (every division by a constant); in a long caller, such as a
    /// list's loop, the compiler may leave them calls that divide by a variable.
    @inline(never)
    mutating func distance(_ meters: Double) { decimal(meters, decimals: ServedPrecision.distanceDecimals) }

    /// Appends a latitude or longitude in degrees as served (`ServedPrecision.degrees`): to
    /// 1e-7°. A function of its own for the reason `distance` is.
    @inline(never)
    mutating func degrees(_ degrees: Double) { decimal(degrees, decimals: ServedPrecision.coordinateDecimals) }

    /// Appends a bearing in degrees as served (`ServedPrecision.bearing`): to 0.01°, one that
    /// rounds to 360 written 0. A function of its own for the reason `distance` is.
    @inline(never)
    mutating func bearing(_ degrees: Double) {
        let decimals = ServedPrecision.bearingDecimals
        guard let rounded = RoundedDecimal(degrees, decimals: decimals) else {
            return decimal(degrees, decimals: decimals)
        }
        if rounded.steps >= 36_000 { return raw("0") }
        // `decimal`'s text, from the value rounded once.
        guard rounded.isShortestText else { return number(rounded.doubleValue) }
        write(rounded, decimals: decimals)
    }

    /// Appends a whole number.
    mutating func integer(_ value: Int) {
        reserve(20)
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // The digits backwards into the end of the room, then moved to their place.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let length = withUnsafeMutableBytes(of: &scratch) { scratch in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            (base + count).update(
                from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, count: scratch.count - index)
            return scratch.count - index
        }
        count += length
    }
}

/// Receives the text of a `Double` from the standard library's `write(to:)`, which hands it over
/// as ASCII bytes (`_writeASCII`) without making a `String`: a third cheaper than `description`
/// (66 ns against 104 ns a number here). Any other route in (`write(_:)`) is taken as well.
private struct DigitSink: TextOutputStream {
    let start: UnsafeMutablePointer<UInt8>
    let room: Int
    private(set) var written = 0

    init(start: UnsafeMutablePointer<UInt8>, room: Int) {
        self.start = start
        self.room = room
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        precondition(written + buffer.count <= room, "a number longer than \(room) bytes")
        guard let source = buffer.baseAddress else { return }
        (start + written).update(from: source, count: buffer.count)
        written += buffer.count
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _writeASCII($0) }
    }
}
