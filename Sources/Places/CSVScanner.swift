/// Splits RFC 4180 CSV bytes into records of field ranges, without copying.
///
/// - Records end at LF or CRLF; a CR not followed by LF is data. The last record may lack a line
///   break.
/// - Blank lines (no bytes before the line break) are skipped, so a final line break does not make
///   an empty record.
/// - A field that starts with `"` is quoted: it may hold commas, line breaks and doubled quotes
///   (`""` for `"`), and must be followed by a comma, a line break or the end of the file. A quote
///   inside an unquoted field is kept as data (`5" screen`), as most CSV writers expect.
/// - A UTF-8 byte order mark at the start is skipped.
struct CSVScanner {
    /// Where one field's content lies in the file: `bytes[start..<end]`, without the enclosing
    /// quotes of a quoted field.
    struct Field {
        var start: Int
        var end: Int
        /// The content still holds doubled quotes (`""`) to be turned into single ones.
        var hasDoubledQuotes: Bool
    }

    let bytes: [UInt8]
    let file: String
    /// Where scanning stops: the end of the bytes, or of the part this scanner reads.
    private var end: Int
    private var position: Int
    /// The 1-based line `position` is on.
    private var line = 1

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// A scanner for all of `bytes`; `atFileStart` skips a byte order mark at their start (false
    /// for a later piece of a file read in pieces).
    init(bytes: [UInt8], file: String, atFileStart: Bool = true) {
        self.bytes = bytes
        self.file = file
        end = bytes.count
        position = atFileStart && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// A scanner for the records of `bytes[start..<end]`, where `start` begins physical line
    /// `line`: one part of a file read in parts.
    init(bytes: [UInt8], file: String, start: Int, end: Int, line: Int, atFileStart: Bool = true) {
        self.init(bytes: bytes, file: file, atFileStart: atFileStart)
        self.end = end
        position = max(position, start)
        self.line = line
    }

    /// Where the next record would start.
    var offset: Int { position }

    /// The 1-based line `offset` is on.
    var currentLine: Int { line }

    /// Whether the scan has reached the end of its bytes.
    var atEnd: Bool { position >= end }

    /// Stops scanning at `end` (a record boundary, or the scan reports an unterminated quote).
    mutating func stop(at end: Int) { self.end = min(end, bytes.count) }

    /// Reads the next record's fields into `fields` (replacing its contents).
    ///
    /// - Returns: the 1-based line the record starts on, or nil at the end of the file.
    /// - Throws: `PlacesError.unterminatedQuote` or `.textAfterQuote`.
    mutating func next(into fields: inout [Field]) throws(PlacesError) -> Int? {
        fields.removeAll(keepingCapacity: true)
        skipBlankLines()
        guard position < end else { return nil }
        let recordLine = line
        while true {
            if position < end, bytes[position] == CSVScanner.quote {
                fields.append(try quotedField())
                // A closing quote must be followed by a separator.
                if position < end, bytes[position] != CSVScanner.comma, !atLineBreak() {
                    throw .textAfterQuote(SourceLocation(file: file, position: .line(line)), field: fields.count)
                }
            } else {
                let start = position
                while position < end, bytes[position] != CSVScanner.comma, !atLineBreak() { position += 1 }
                fields.append(Field(start: start, end: position, hasDoubledQuotes: false))
            }
            if position < end, bytes[position] == CSVScanner.comma {
                position += 1
                continue
            }
            skipLineBreak()
            return recordLine
        }
    }

    /// A field's text with doubled quotes undone, or nil if it is not valid UTF-8.
    func string(_ field: Field) -> String? {
        guard field.hasDoubledQuotes else {
            return bytes.withUnsafeBufferPointer {
                CSVScanner.validatedText(UnsafeBufferPointer(rebasing: $0[field.start..<field.end]))
            }
        }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(field.end - field.start)
        var index = field.start
        while index < field.end {
            unescaped.append(bytes[index])
            index += bytes[index] == CSVScanner.quote ? 2 : 1
        }
        return unescaped.withUnsafeBufferPointer(CSVScanner.validatedText)
    }

    /// The bytes as text if they are well-formed UTF-8, else nil.
    ///
    /// ASCII (checked eight bytes at a time) is decoded as it is; other text is decoded with
    /// repair and kept only if nothing was repaired (the text's bytes are the input's: a repair
    /// puts U+FFFD where the input held no well-formed character). `String(validating:as:)` does
    /// the same, but through generic code that looks up type metadata on every call.
    static func validatedText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if isASCII(bytes) { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// Whether every byte is below 0x80.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// The field's bytes when it has no doubled quotes (numbers never do), else nil.
    func rawBytes(_ field: Field) -> ArraySlice<UInt8>? {
        field.hasDoubledQuotes ? nil : bytes[field.start..<field.end]
    }

    // MARK: - Scanning

    /// Reads a quoted field starting at its opening quote; leaves `position` after the closing one.
    private mutating func quotedField() throws(PlacesError) -> Field {
        let openingLine = line
        position += 1
        let start = position
        var doubled = false
        while true {
            guard position < end else {
                throw .unterminatedQuote(SourceLocation(file: file, position: .line(openingLine)))
            }
            let byte = bytes[position]
            if byte == CSVScanner.quote {
                guard position + 1 < end, bytes[position + 1] == CSVScanner.quote else { break }
                doubled = true
                position += 2
                continue
            }
            if byte == CSVScanner.lineFeed { line += 1 }
            position += 1
        }
        let field = Field(start: start, end: position, hasDoubledQuotes: doubled)
        position += 1
        return field
    }

    /// Whether `position` is at LF, or at a CR that ends a line (before LF or at the end).
    private func atLineBreak() -> Bool {
        let byte = bytes[position]
        if byte == CSVScanner.lineFeed { return true }
        guard byte == CSVScanner.carriageReturn else { return false }
        return position + 1 == end || bytes[position + 1] == CSVScanner.lineFeed
    }

    private mutating func skipLineBreak() {
        guard position < end else { return }
        if bytes[position] == CSVScanner.carriageReturn { position += 1 }
        if position < end, bytes[position] == CSVScanner.lineFeed { position += 1 }
        line += 1
    }

    /// Moves past blank lines (and their line breaks) to the next record or the end.
    mutating func skipBlankLines() {
        while position < end, atLineBreak() { skipLineBreak() }
    }
}
