import NIOCore

/// Splits an inline request line into arguments the way Redis 7.0's `sdssplitargs` (`src/sds.c`) does,
/// so a line typed into `nc` or `telnet` means what it means to `redis-server`.
///
/// - Arguments are separated by runs of C `isspace` bytes (space, `\t`, `\n`, `\v`, `\f`, `\r`); an
///   unquoted argument ends at a space, `\t`, `\n` or `\r` only (`\v` and `\f` inside one are kept, as in
///   Redis).
/// - `"double quotes"` take the escapes `\n \r \t \b \a`, `\xHH` (two hex digits) and `\<any>` for that
///   byte (so `\"` and `\\`); `'single quotes'` take `\'` only. A quote may open in the middle of an
///   argument (`a"b c"` is `ab c`); `""` is an empty argument.
/// - A closing quote must be followed by whitespace or the end of the line, and every quote must close;
///   otherwise the line fails with "unbalanced quotes in request", Redis's reply text.
///
/// One deliberate difference: Redis parses a C string, so a NUL byte ends its line early; here NUL is an
/// ordinary byte.
enum InlineSplitter {
    /// The arguments of one line.
    ///
    /// - Parameter line: The line without its `\n` or `\r\n`. Unquoted arguments come back as slices of it.
    /// - Returns: The arguments, empty for a blank line.
    /// - Throws: ``LineProtocolError/protocolError(_:)`` "unbalanced quotes in request".
    static func split(_ line: ByteBuffer) throws -> [ByteBuffer] {
        var rewritten: [UInt8] = []
        let pieces = try line.withUnsafeReadableBytes { try Self.pieces(of: $0, rewritten: &rewritten) }
        // Rewritten arguments share one buffer: one allocation per line, not per argument.
        let rewrittenBuffer = rewritten.isEmpty ? ByteBuffer() : ByteBuffer(bytes: rewritten)
        return pieces.map { piece in
            let (source, range) = piece.isRewritten ? (rewrittenBuffer, piece.range) : (line, piece.range)
            return source.getSlice(at: source.readerIndex + range.lowerBound, length: range.count) ?? ByteBuffer()
        }
    }

    /// Where an argument lies: in the line when it is written as is, in the rewritten bytes once quotes
    /// or escapes changed it.
    private struct Piece {
        var range: Range<Int>
        var isRewritten: Bool
    }

    private static let unbalancedQuotes = LineProtocolError.protocolError("unbalanced quotes in request")

    private static func pieces(of line: UnsafeRawBufferPointer, rewritten: inout [UInt8]) throws -> [Piece] {
        var pieces: [Piece] = []
        var index = 0
        let end = line.count
        while true {
            while index < end && ASCII.isSpace(line[index]) { index += 1 }
            if index == end { return pieces }
            let start = index
            var isRewritten = false
            argument: while index < end {
                let byte = line[index]
                switch byte {
                case ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn:
                    break argument
                case ASCII.doubleQuote, ASCII.singleQuote:
                    let rewrittenStart = rewritten.count
                    rewritten.append(contentsOf: line[start..<index])
                    index = try readQuoted(
                        line, from: index + 1, doubleQuoted: byte == ASCII.doubleQuote, into: &rewritten)
                    pieces.append(Piece(range: rewrittenStart..<rewritten.count, isRewritten: true))
                    isRewritten = true
                    // The closing quote ends the argument; readQuoted checked that a space or the end follows.
                    break argument
                default:
                    index += 1
                }
            }
            if !isRewritten { pieces.append(Piece(range: start..<index, isRewritten: false)) }
        }
    }

    /// Appends the quoted text starting at `index` (just after the opening quote) to `bytes`.
    ///
    /// - Returns: The index just after the closing quote.
    private static func readQuoted(
        _ line: UnsafeRawBufferPointer, from start: Int, doubleQuoted: Bool, into bytes: inout [UInt8]
    ) throws -> Int {
        let end = line.count
        let quote = doubleQuoted ? ASCII.doubleQuote : ASCII.singleQuote
        var index = start
        while index < end {
            let byte = line[index]
            if byte == quote {
                if index + 1 < end && !ASCII.isSpace(line[index + 1]) { throw unbalancedQuotes }
                return index + 1
            }
            guard byte == ASCII.backslash, index + 1 < end else {
                bytes.append(byte)
                index += 1
                continue
            }
            let next = line[index + 1]
            if !doubleQuoted {
                if next == ASCII.singleQuote {
                    bytes.append(next)
                    index += 2
                } else {
                    bytes.append(byte)
                    index += 1
                }
            } else if next == ASCII.lowercaseX, index + 3 < end,
                let high = ASCII.hexValue(line[index + 2]), let low = ASCII.hexValue(line[index + 3])
            {
                bytes.append(high << 4 | low)
                index += 4
            } else {
                bytes.append(unescaped(next))
                index += 2
            }
        }
        throw unbalancedQuotes
    }

    /// The byte `\<byte>` stands for inside double quotes.
    private static func unescaped(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x6E: return ASCII.newline  // n
        case 0x72: return ASCII.carriageReturn  // r
        case 0x74: return ASCII.tab  // t
        case 0x62: return 0x08  // b: backspace
        case 0x61: return 0x07  // a: bell
        default: return byte
        }
    }
}
