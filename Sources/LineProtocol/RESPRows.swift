/// Rows of the same shape — the hits of a search — kept as one run of bytes and their lengths
/// instead of a reply per value: a reply of hundreds of rows is built without an allocation per
/// row, and written in one pass (``RESPReply/rows(_:)``).
///
/// Each row has one value per column (two for a pair column). A single column of ``Column/text``
/// makes the reply a flat array of its values, as GEOSEARCH without WITH options replies; with
/// more columns each row is an array of its columns.
///
/// ```swift
/// var rows = RESPRows(columns: [.text, .number])
/// rows.appendText("610009")
/// rows.appendNumber { out in write(70.7337, to: out) }   // returns the bytes written
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
    /// The values' bytes, one after another, row by row, in the first `used` bytes.
    private var storage: [UInt8] = []
    private var used = 0
    /// Where each value ends in `storage`.
    private var ends: [Int] = []
    /// Values per row.
    let valuesPerRow: Int

    /// Rows of these columns; none yet.
    public init(columns: [Column]) {
        precondition(!columns.isEmpty, "a row has at least one column")
        self.columns = columns
        valuesPerRow = columns.reduce(0) { $0 + $1.width }
    }

    /// The number of complete rows.
    public var count: Int { ends.count / valuesPerRow }

    /// The number of values (a pair counts two).
    var valueCount: Int { ends.count }

    /// The bytes of all values.
    var byteCount: Int { used }

    /// Makes room for `rows` more rows holding `bytes` more bytes in all.
    public mutating func reserveCapacity(rows: Int, bytes: Int) {
        ends.reserveCapacity(ends.count + rows * valuesPerRow)
        grow(to: used + bytes)
    }

    /// Appends the next value: the text's UTF-8 bytes.
    public mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { source in
            appendValue(capacity: source.count) { out in
                if let base = source.baseAddress { out.update(from: base, count: source.count) }
                return source.count
            }
        }
    }

    /// Appends the next value: these bytes.
    public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        appendValue(capacity: bytes.count) { out in
            if let base = bytes.baseAddress { ShortCopy.copy(from: base, to: out, count: bytes.count) }
            return bytes.count
        }
    }

    /// Appends the next value, written by `write` into room for `capacity` bytes; `write` returns
    /// how many it wrote.
    public mutating func appendValue(capacity: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        _ = appendIfWritten(capacity: capacity) { out -> Int? in write(out) }
    }

    /// Appends the next value when `write` writes it into room for `capacity` bytes and returns
    /// how many it wrote; appends nothing and returns false when `write` returns nil.
    public mutating func appendIfWritten(capacity: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int?) -> Bool {
        if used + capacity > storage.count { grow(to: used + capacity) }
        let start = used
        let written = storage.withUnsafeMutableBufferPointer { buffer in write(buffer.baseAddress! + start) }
        guard let written else { return false }
        precondition((0...capacity).contains(written), "wrote more than the room given")
        used += written
        ends.append(used)
        return true
    }

    private mutating func grow(to size: Int) {
        guard size > storage.count else { return }
        storage.append(contentsOf: repeatElement(0, count: max(size, 2 * storage.count) - storage.count))
    }

    /// The bytes of value `index` (counting values, not rows).
    func value(_ index: Int) -> ArraySlice<UInt8> {
        storage[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Calls `body` with the values' bytes and where each ends.
    func withValues<T>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Int>) -> T) -> T {
        storage.withUnsafeBufferPointer { bytes in ends.withUnsafeBufferPointer { ends in body(bytes, ends) } }
    }

    /// The rows as nested replies, as they would be without this type: for JSON, and to compare.
    public var expanded: RESPReply {
        var index = 0
        func next() -> String {
            defer { index += 1 }
            return String(decoding: value(index), as: UTF8.self)
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
