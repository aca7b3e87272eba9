/// Rows of the same shape — the hits of a search — kept as one run of bytes and their lengths
/// instead of a reply per value: a reply of hundreds of rows is built without an allocation per
/// row, and written in one pass (``RESPReply/rows(_:)``).
///
/// Each row has one value per column (two for a pair column). A single column of ``Column/text``
/// makes the reply a flat array of its values, as GEOSEARCH without WITH options replies; with
/// more columns each row is an array of its columns.
///
/// Rows without numbers (``Column/text``, ``Column/integer`` and ``Column/textPair`` columns) are
/// the same bytes in RESP2 and RESP3: they are kept as those bytes, framing and all, so that the
/// reply is written with one copy. Rows with numbers keep their values bare and are framed when
/// written, in the connection's format, unless they are made for a RESP2 connection
/// (`numbersAsBulkStrings`): then their numbers are framed at once as the bulk strings RESP2
/// writes, and only another format frames them again.
///
/// ```swift
/// var rows = RESPRows(columns: [.text, .number])
/// rows.appendText("610009")
/// rows.appendValue(capacity: 24) { out in write(70.7337, to: out) }   // returns the bytes written
/// // RESP2: *1 *2 $6 610009 $7 70.7337
/// ```
public struct RESPRows: Sendable {
    /// What one column holds, and how each format writes it.
    public enum Column: Sendable, Hashable {
        /// Text: a bulk string; a JSON string.
        case text
        /// A number already printed (``RESPReply/doubleText(_:)``): a RESP2 bulk string, a RESP3
        /// double, a JSON number.
        case number
        /// An integer already printed: `:n`; a JSON number.
        case integer
        /// Two numbers as an array (a position).
        case numberPair
        /// Two texts as an array.
        case textPair

        /// Values the column takes in the row.
        var width: Int {
            switch self {
            case .text, .number, .integer: return 1
            case .numberPair, .textPair: return 2
            }
        }
    }

    /// The columns of every row.
    public let columns: [Column]
    /// The values' bytes, one after another, row by row, in the first `used` bytes: bare, or with
    /// their RESP framing when `framed`.
    private var storage = Bytes(capacity: 0)
    private var used = 0
    /// Where each value ends in `storage` (unframed rows only).
    private var ends: [Int] = []
    /// Values appended so far.
    private(set) var valueCount = 0
    /// The next value's place in its row (0 ..< `valuesPerRow`).
    private var slot = 0
    /// Where the last complete row ends in `storage` (framed rows).
    private var completeBytes = 0
    /// Values per row.
    let valuesPerRow: Int
    /// Whether `storage` holds the rows framed: as RESP2 and RESP3 both write them (no number
    /// column), or as RESP2 writes them (`numbersAsBulkStrings`).
    let framed: Bool
    /// Whether the numbers are framed as RESP2's bulk strings, which RESP3 writes otherwise.
    public let numbersAsBulkStrings: Bool
    /// For each value of a row: the bytes written before it, framed (`Frame`).
    private let frames: [Frame]

    /// Bytes owned by one `RESPRows` (copied before a change when shared, as an array is).
    final class Bytes: @unchecked Sendable {
        private(set) var base: UnsafeMutablePointer<UInt8>
        private(set) var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: max(capacity, 1))
        }

        deinit { base.deallocate() }

        /// A copy of the first `count` bytes, with room for `capacity`.
        func copy(count: Int, capacity: Int) -> Bytes {
            let copy = Bytes(capacity: max(capacity, count))
            copy.base.initialize(from: base, count: count)
            return copy
        }

        /// Makes room for `size` bytes in all, keeping the first `count`.
        func grow(to size: Int, keeping count: Int) {
            guard size > capacity else { return }
            let larger = max(size, 2 * capacity)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            moved.initialize(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = larger
        }
    }

    /// What goes before a value of a framed row: the row's `*count\r\n` for the first value of a
    /// row of several columns (`row`), a pair's `*2\r\n` for the first value of a pair, then a
    /// bulk string's `$length\r\n` or an integer's `:`.
    private struct Frame {
        var row = 0
        var pair = false
        var integer = false
    }

    /// Rows of these columns; none yet.
    ///
    /// - Parameter numbersAsBulkStrings: whether the rows are for a RESP2 connection: numbers are
    ///   then framed as it writes them (bulk strings), once, as they are appended. They are still
    ///   right in any format, but RESP3 and JSON then take them apart again.
    public init(columns: [Column], numbersAsBulkStrings: Bool = false) {
        precondition(!columns.isEmpty, "a row has at least one column")
        precondition(columns.count < 1_000, "\(columns.count) columns")
        self.columns = columns
        valuesPerRow = columns.reduce(0) { $0 + $1.width }
        let hasNumbers = columns.contains { $0 == .number || $0 == .numberPair }
        self.numbersAsBulkStrings = numbersAsBulkStrings && hasNumbers
        framed = !hasNumbers || numbersAsBulkStrings
        var frames: [Frame] = []
        if framed {
            for (index, column) in columns.enumerated() {
                var frame = Frame(row: index == 0 && columns.count > 1 ? columns.count : 0)
                switch column {
                case .integer: frame.integer = true
                case .textPair, .numberPair:
                    frame.pair = true
                    frames.append(frame)
                    frame = Frame()
                default: break
                }
                frames.append(frame)
            }
        }
        self.frames = frames
    }

    /// The number of complete rows.
    public var count: Int { valueCount / valuesPerRow }

    /// The bytes of all values (of unframed rows; framed rows count their framing too).
    var byteCount: Int { used }

    /// Makes room for `rows` more rows holding `bytes` more bytes of values in all.
    public mutating func reserveCapacity(rows: Int, bytes: Int) {
        if framed {
            // Framing: `$`, a few digits and two line ends a value, and each row's header; an
            // estimate (each append makes room for the longest frame anyway).
            grow(to: used + bytes + rows * valuesPerRow * 19)
        } else {
            ends.reserveCapacity(ends.count + rows * valuesPerRow)
            grow(to: used + bytes)
        }
    }

    /// Appends the next value: the text's UTF-8 bytes.
    public mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes($0) }
    }

    /// Appends values to rows of one text column, one by one, as `body` hands them to the function
    /// it is given (bytes valid only during that call): the members of a reply without WITH
    /// options, written framed with the storage made this value's own once for all of them
    /// rather than once a value.
    public mutating func appendTexts(_ body: (_ append: (UnsafeBufferPointer<UInt8>) -> Void) -> Void) {
        precondition(columns == [.text], "appendTexts is for rows of one text column")
        grow(to: used)
        // `body` cannot reach these rows (they are borrowed for the call): the storage stays
        // this value's own while it runs.
        let storage = self.storage
        var used = self.used
        var count = 0
        body { bytes in
            let length = bytes.count
            if used + length + Self.frameRoom > storage.capacity {
                storage.grow(to: used + length + Self.frameRoom, keeping: used)
            }
            used += Self.writeBulk(bytes, to: storage.base + used)
            count += 1
        }
        self.used = used
        valueCount += count
        // Each value is a row.
        completeBytes = used
    }

    /// Appends rows of two text columns through the writer `body` is given (valid only during the
    /// call): the rows of a reply WITHDIST, written as `appendBytes` and `appendValue` would
    /// write them, with the storage made this value's own once for all of them.
    public mutating func appendTextPairs(_ body: (inout TextPairWriter) -> Void) {
        precondition(columns == [.text, .text], "appendTextPairs is for rows of two text columns")
        precondition(slot == 0, "appendTextPairs starts at the start of a row")
        grow(to: used)
        // The writer writes into this value's own storage (`body` cannot reach these rows: they
        // are borrowed for the call); what it wrote counts once it is back.
        var writer = TextPairWriter(storage: storage, used: used)
        body(&writer)
        precondition(writer.storage === storage, "the writer given back is the one lent")
        used = writer.used
        valueCount += 2 * writer.count
        // Each pair is a row.
        completeBytes = used
    }

    /// Appends the next value: these bytes.
    public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard framed else {
            appendValue(capacity: bytes.count) { out in
                if let base = bytes.baseAddress { ShortCopy.copy(from: base, to: out, count: bytes.count) }
                return bytes.count
            }
            return
        }
        let count = bytes.count
        let out = room(count + Self.frameRoom)
        var position = Self.writeFrame(frames[slot], length: count, to: out)
        if let base = bytes.baseAddress { ShortCopy.copy(from: base, to: out + position, count: count) }
        position += count
        out[position] = ASCII.carriageReturn
        out[position + 1] = ASCII.newline
        used += position + 2
        finishValue()
    }

    /// Appends the next value, written by `write` into room for `capacity` bytes; `write` returns
    /// how many it wrote.
    public mutating func appendValue(capacity: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        _ = appendIfWritten(capacity: capacity) { out -> Int? in write(out) }
    }

    /// Appends the next value when `write` writes it into room for `capacity` bytes and returns
    /// how many it wrote; appends nothing and returns false when `write` returns nil.
    public mutating func appendIfWritten(capacity: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int?) -> Bool {
        precondition(capacity >= 0, "room of \(capacity) bytes")
        if framed {
            // The row's and the pair's headers go first; an integer's `:` after them, or a bulk
            // string's `$`, its length and a line end: the value is written where a length of two
            // digits puts it, and moved one place back for one digit (on for three or more).
            let frame = frames[slot]
            let out = room(capacity + Self.frameRoom)
            let prefix = Self.writeArrayHeaders(frame, to: out)
            let guess = frame.integer ? prefix + 1 : prefix + 5
            guard let written = write(out + guess) else { return false }
            precondition((0...capacity).contains(written), "wrote more than the room given")
            var end = guess + written
            if frame.integer {
                out[prefix] = UInt8(ascii: ":")
            } else if written >= 10, written < 100 {
                _ = Self.writeHeader(UInt8(ascii: "$"), written, to: out + prefix)
            } else if written < 10 {
                // One place back, first byte first (no call for a few bytes).
                for index in 0..<written { out[prefix + 4 + index] = out[guess + index] }
                _ = Self.writeHeader(UInt8(ascii: "$"), written, to: out + prefix)
                end -= 1
            } else {
                let header = Self.headerLength(written)
                UnsafeMutableRawPointer(out + prefix + header).copyMemory(from: out + guess, byteCount: written)
                _ = Self.writeHeader(UInt8(ascii: "$"), written, to: out + prefix)
                end = prefix + header + written
            }
            out[end] = ASCII.carriageReturn
            out[end + 1] = ASCII.newline
            used += end + 2
            finishValue()
        } else {
            let out = room(capacity)
            guard let written = write(out) else { return false }
            precondition((0...capacity).contains(written), "wrote more than the room given")
            used += written
            ends.append(used)
            valueCount += 1
        }
        return true
    }

    /// The room a value needs beyond its bytes, framed: a row's array header (fewer than 1,000
    /// columns), a pair's, `$` with up to 19 digits and a line end, and the value's line end.
    static let frameRoom = 6 + 4 + 22 + 2

    /// Writes what goes before a value of `length` bytes; returns how many bytes that is.
    @inline(__always)
    private static func writeFrame(_ frame: Frame, length: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let position = writeArrayHeaders(frame, to: out)
        if frame.integer {
            out[position] = UInt8(ascii: ":")
            return position + 1
        }
        return position + writeHeader(UInt8(ascii: "$"), length, to: out + position)
    }

    /// Writes the array headers of a frame (its row's, its pair's), which do not depend on the
    /// value; returns how many bytes that is.
    @inline(__always)
    private static func writeArrayHeaders(_ frame: Frame, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var position = 0
        if frame.row > 0 { position += writeHeader(UInt8(ascii: "*"), frame.row, to: out) }
        if frame.pair { position += writeHeader(UInt8(ascii: "*"), 2, to: out + position) }
        return position
    }

    /// Writes the bytes as a bulk string (`$length`, a line end, the bytes, a line end) into room
    /// for their count and `frameRoom`; returns how many bytes that is.
    @inline(__always)
    static func writeBulk(_ bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Wrapping sums: every term is a length within the room the caller made.
        let length = bytes.count
        let header = writeHeader(UInt8(ascii: "$"), length, to: out)
        if let base = bytes.baseAddress { ShortCopy.copy(from: base, to: out + header, count: length) }
        out[header &+ length] = ASCII.carriageReturn
        out[header &+ length &+ 1] = ASCII.newline
        return header &+ length &+ 2
    }

    /// How many bytes `writeHeader` writes for a number ≥ 0.
    @inline(__always)
    static func headerLength(_ number: Int) -> Int {
        var digits = 1
        var rest = number
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits + 3
    }

    /// Writes `prefix`, the number in decimal and a line end; returns how many bytes that is.
    @inline(__always)
    static func writeHeader(_ prefix: UInt8, _ number: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = prefix
        let digits: Int
        if number < 10 {
            out[1] = UInt8(truncatingIfNeeded: number) &+ UInt8(ascii: "0")
            digits = 1
        } else if number < 100 {
            out[1] = UInt8(truncatingIfNeeded: number / 10) &+ UInt8(ascii: "0")
            out[2] = UInt8(truncatingIfNeeded: number % 10) &+ UInt8(ascii: "0")
            digits = 2
        } else {
            digits = RESPReplyEncoder.writeDigits(number, to: out + 1)
        }
        out[digits &+ 1] = ASCII.carriageReturn
        out[digits &+ 2] = ASCII.newline
        return digits &+ 3
    }

    /// Counts a framed value, and its row when it completes one.
    @inline(__always)
    private mutating func finishValue() {
        valueCount += 1
        slot += 1
        if slot == valuesPerRow {
            slot = 0
            completeBytes = used
        }
    }

    /// Where the next `count` bytes go, with room for them, in storage of this value's own.
    @inline(__always)
    private mutating func room(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        grow(to: used + count)
        return storage.base + used
    }

    /// Makes room for `size` bytes in all, in storage of this value's own (copied when shared).
    @inline(__always)
    private mutating func grow(to size: Int) {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(count: used, capacity: size)
        } else {
            storage.grow(to: size, keeping: used)
        }
    }

    /// The bytes written so far.
    private var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.base, count: used) }

    /// Calls `body` with the values' bytes and where each ends (unframed rows).
    func withValues<T>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Int>) -> T) -> T {
        precondition(!framed, "framed rows are written whole (withFramedRows)")
        return withExtendedLifetime(storage) { ends.withUnsafeBufferPointer { ends in body(written, ends) } }
    }

    /// Calls `body` with the complete rows' bytes as RESP2 (and, without `numbersAsBulkStrings`,
    /// RESP3) writes them, after the reply's array header (framed rows).
    func withFramedRows<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        precondition(framed, "rows with numbers are framed as they are written")
        return withExtendedLifetime(storage) { body(UnsafeBufferPointer(start: storage.base, count: completeBytes)) }
    }

    /// The bytes of each value in order, bare (without framing).
    private func values() -> [ArraySlice<UInt8>] {
        let storage = withExtendedLifetime(storage) { Array(written) }
        guard framed else {
            return (0..<valueCount).map { index in storage[(index == 0 ? 0 : ends[index - 1])..<ends[index]] }
        }
        var values: [ArraySlice<UInt8>] = []
        var position = 0
        func skipLine() {
            while storage[position] != ASCII.carriageReturn { position += 1 }
            position += 2
        }
        for index in 0..<valueCount {
            // Array headers; a value itself starts with `$` or `:`.
            while storage[position] == UInt8(ascii: "*") { skipLine() }
            if frames[index % valuesPerRow].integer {
                position += 1
                let start = position
                skipLine()
                values.append(storage[start..<position - 2])
            } else {
                var length = 0
                position += 1
                while storage[position] != ASCII.carriageReturn {
                    length = length * 10 + Int(storage[position] - UInt8(ascii: "0"))
                    position += 1
                }
                position += 2
                values.append(storage[position..<position + length])
                position += length + 2
            }
        }
        return values
    }

    /// The rows as nested replies, as they would be without this type: for JSON, and to compare.
    public var expanded: RESPReply {
        let values = values()
        var index = 0
        func next() -> String {
            defer { index += 1 }
            return String(decoding: values[index], as: UTF8.self)
        }
        func cell(_ column: Column) -> RESPReply {
            switch column {
            case .text: return .bulkText(next())
            case .number: return .doubleText(next())
            case .integer:
                let text = next()
                return Int(text).map(RESPReply.integer) ?? .bulkText(text)
            case .numberPair: return .array([.doubleText(next()), .doubleText(next())])
            case .textPair: return .array([.bulkText(next()), .bulkText(next())])
            }
        }
        var rows: [RESPReply] = []
        rows.reserveCapacity(count)
        for _ in 0..<count {
            if columns.count == 1 {
                rows.append(cell(columns[0]))
            } else {
                rows.append(.array(columns.map(cell)))
            }
        }
        return .array(rows)
    }
}
