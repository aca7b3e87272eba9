import Foundation

/// The bytes of a GeoJSON document read from a `PlaceByteSource` a little at a time, cut into the
/// JSON values a streamed read needs: the root object's member names and values, and the elements
/// of its `features` array one by one.
///
/// It checks the punctuation between the values it cuts (`{`, `:`, `,`, `[`, `]`, `}`) and finds
/// where each value ends (strings and their escapes, nesting); the caller checks each value itself
/// with `JSONSerialization`, so the document is valid JSON when every value and the punctuation
/// are. Only the value being cut is held: a value longer than `longestValueBytes` is refused
/// before the rest of it is read.
struct GeoJSONStreamScanner {
    private var source: PlaceByteSource
    private var buffer: [UInt8] = []
    /// Index in `buffer` of the next byte to look at.
    private var position = 0
    /// Bytes dropped from the front of `buffer` so far (to give offsets in the whole document).
    private var dropped = 0
    private var ended = false
    private let readBytes: Int
    let file: String
    let longestValueBytes: Int

    /// - Parameters:
    ///   - readBytes: bytes asked of the source at a time.
    ///   - longestValueBytes: the longest value `value()` cuts.
    init(_ source: PlaceByteSource, file: String, readBytes: Int = 1 << 20, longestValueBytes: Int) {
        self.source = source
        self.file = file
        self.readBytes = max(1, readBytes)
        self.longestValueBytes = longestValueBytes
    }

    /// The offset of the next byte in the whole document (0-based).
    var offset: Int { dropped + position }

    /// The next byte, nil at the end of the source.
    mutating func peek() throws(PlacesError) -> UInt8? {
        if position == buffer.count {
            guard try refill(keepingFrom: position) else { return nil }
        }
        return buffer[position]
    }

    /// Skips a UTF-8 byte order mark at the start of the document.
    mutating func skipByteOrderMark() throws(PlacesError) {
        guard try peek() == 0xEF else { return }
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        while buffer.count - position < 3, try refill(keepingFrom: position) {}
        if buffer[position...].starts(with: mark) { position += 3 }
    }

    mutating func skipWhiteSpace() throws(PlacesError) {
        while let byte = try peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    /// Takes the next byte when it is `byte`; false (and nothing taken) otherwise.
    mutating func take(_ byte: UInt8) throws(PlacesError) -> Bool {
        guard try peek() == byte else { return false }
        position += 1
        return true
    }

    /// A refusal naming the offset of the next byte: `expected` says what should stand there.
    mutating func unexpected(_ expected: String) throws(PlacesError) -> PlacesError {
        let found = try peek().map { "'\(String(decoding: [$0], as: UTF8.self))'" } ?? "the end of the file"
        return .invalidJSON(file: file, reason: "expected \(expected) at byte \(offset), found \(found)")
    }

    /// Cuts the JSON value that starts at the next byte and returns its bytes, unchecked beyond
    /// where it ends. Nil when it is longer than `longestValueBytes` (what was read of it is
    /// dropped); a source that ends inside it gives the bytes up to the end.
    mutating func value() throws(PlacesError) -> [UInt8]? {
        // Where the value starts in the whole document: a refill moves it in `buffer`.
        let from = offset
        var depth = 0
        var inString = false
        var escaped = false
        while true {
            if position == buffer.count {
                if offset - from > longestValueBytes { return nil }
                guard try refill(keepingFrom: from - dropped) else { break }
                continue
            }
            let byte = buffer[position]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 {
                        position += 1
                        break
                    }
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                // At depth 0 the value (a number or a literal) ended before this byte.
                if depth == 0 { break }
                depth -= 1
                if depth == 0 {
                    position += 1
                    break
                }
            } else if depth == 0
                && (byte == UInt8(ascii: ",") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D)
            {
                break
            }
            position += 1
        }
        return Array(buffer[(from - dropped)..<position])
    }

    /// Reads more of the source, first dropping the bytes before `keep`. False at the source's end.
    private mutating func refill(keepingFrom keep: Int) throws(PlacesError) -> Bool {
        if ended { return false }
        if keep > 0 {
            buffer.removeFirst(keep)
            dropped += keep
            position -= keep
        }
        let before = buffer.count
        ended = try source.fill(&buffer, until: buffer.count + readBytes)
        return buffer.count > before
    }
}
