/// Finds where a request body stops being JSON (RFC 8259), so that a 400 can say where:
/// `expected a value at line 2, column 9 (byte 17)`. Foundation's `JSONDecoder` on Linux says only
/// "The given data was not valid JSON." (issue 15: "malformed JSON gets no position").
///
/// Only the grammar is checked: what the values mean is the generated decoder's business. A
/// document nested deeper than `maximumDepth` is refused, as Foundation's parser refuses one.
enum JSONSyntax {
    /// Where and why a body is not JSON (thrown only inside the scanner; callers get it returned).
    struct Fault: Error, Equatable, Sendable, CustomStringConvertible {
        /// Bytes before the one at fault, from 0; the body's length when it ends too soon.
        var offset: Int
        /// 1-based line (counted by `\n`) and column (counted in bytes) of `offset`.
        var line: Int
        var column: Int
        /// What was expected there, e.g. `a value`, `',' or '}'`.
        var expected: String

        /// `unexpected '}', expected a value at line 1, column 8 (byte 7)`.
        var description: String { "\(found), expected \(expected) at line \(line), column \(column) (byte \(offset))" }

        fileprivate var atEnd = false
        fileprivate var byte: UInt8 = 0

        private var found: String {
            if atEnd { return "unexpected end of data" }
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "'") {
                return "unexpected '\(Character(Unicode.Scalar(byte)))'"
            }
            return "unexpected byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }

    /// Foundation's `JSONSerialization` refuses documents nested deeper than 512.
    static let maximumDepth = 512

    /// The first fault in `bytes`, or nil when they are one JSON text.
    static func firstFault(in bytes: some Collection<UInt8>) -> Fault? {
        var scanner = Scanner(bytes: Array(bytes))
        do throws(Fault) {
            scanner.skipSpace()
            try scanner.value(depth: 0)
            scanner.skipSpace()
            if scanner.index < scanner.bytes.count { throw scanner.fault(expecting: "the end of the data") }
            return nil
        } catch {
            return error
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        func fault(expecting expected: String) -> Fault {
            let before = bytes[..<index]
            let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            var fault = Fault(offset: index, line: line, column: index - lineStart + 1, expected: expected)
            fault.atEnd = index >= bytes.count
            fault.byte = current ?? 0
            return fault
        }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func value(depth: Int) throws(Fault) {
            guard let byte = current else { throw fault(expecting: "a value") }
            switch byte {
            case UInt8(ascii: "{"): try container(depth: depth, close: UInt8(ascii: "}"), isObject: true)
            case UInt8(ascii: "["): try container(depth: depth, close: UInt8(ascii: "]"), isObject: false)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw fault(expecting: "a value")
            }
        }

        private mutating func container(depth: Int, close: UInt8, isObject: Bool) throws(Fault) {
            guard depth < JSONSyntax.maximumDepth else {
                throw fault(expecting: "at most \(JSONSyntax.maximumDepth) levels of nesting")
            }
            index += 1
            skipSpace()
            if current == close {
                index += 1
                return
            }
            let closing = isObject ? "',' or '}'" : "',' or ']'"
            while true {
                if isObject {
                    guard current == UInt8(ascii: "\"") else { throw fault(expecting: "a member name in quotes") }
                    try string()
                    skipSpace()
                    guard current == UInt8(ascii: ":") else { throw fault(expecting: "':'") }
                    index += 1
                    skipSpace()
                }
                try value(depth: depth + 1)
                skipSpace()
                switch current {
                case UInt8(ascii: ","):
                    index += 1
                    skipSpace()
                case close:
                    index += 1
                    return
                default:
                    throw fault(expecting: closing)
                }
            }
        }

        private mutating func literal(_ word: String) throws(Fault) {
            for expected in word.utf8 {
                guard current == expected else { throw fault(expecting: "'\(word)'") }
                index += 1
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func number() throws(Fault) {
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                try digits()
            }
            if current == UInt8(ascii: ".") {
                index += 1
                try digits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                try digits()
            }
        }

        private mutating func digits() throws(Fault) {
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw fault(expecting: "a digit")
            }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }

        /// A string: no raw control characters, escapes as RFC 8259 §7 lists them, UTF-8 left to
        /// the decoder (which refuses what is not UTF-8).
        private mutating func string() throws(Fault) {
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { throw fault(expecting: "an escape") }
                    if escaped == UInt8(ascii: "u") {
                        index += 1
                        for _ in 0..<4 {
                            guard let hex = current, hex.isHexDigit else {
                                throw fault(expecting: "a hexadecimal digit")
                            }
                            index += 1
                        }
                    } else {
                        guard "\"\\/bfnrt".utf8.contains(escaped) else {
                            throw fault(expecting: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
                        }
                        index += 1
                    }
                case 0x00..<0x20:
                    throw fault(expecting: "a character other than a control character (escape it)")
                default:
                    index += 1
                }
            }
            throw fault(expecting: "'\"'")
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
