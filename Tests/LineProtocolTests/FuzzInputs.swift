import Geo
import LineProtocol
import NIOCore

/// Seeded inputs for the decoder's property test: valid request streams (with the requests they must
/// give), those streams mutated, and random bytes, some drawn from the protocol's own characters.
struct FuzzInputs {
    /// One input: its bytes, and the requests it must decode to when it was left valid.
    struct Input {
        var bytes: [UInt8]
        var expected: [Expected]?
    }

    /// A request as plain bytes (cheaper to build than a `Request` in a debug build).
    struct Expected: Equatable {
        var arguments: [[UInt8]]
        var isInline: Bool

        init(_ request: Request) {
            arguments = request.arguments.map { Array($0.readableBytesView) }
            isInline = request.isInline
        }

        init(arguments: [[UInt8]], isInline: Bool) {
            self.arguments = arguments
            self.isInline = isInline
        }
    }

    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Bytes a protocol parser branches on, to make random input reach past its first check.
    private static let alphabet = Array("*$\r\n0123456789-+ \t\"'\\xaAfF\u{B}".utf8)

    /// Fragments that push counts, lengths and quotes to their edges.
    private static let fragments: [[UInt8]] = [
        "\r\n", "\r", "\n", "*", "$", "-1", "0", "-", "1025", "2147483648", "99999999999999999999", "\"", "'", "\\",
        "\\x", " ", "*1\r\n", "*0\r\n", "$-1\r\n", "$0\r\n", "\0", "\u{B}", "\\x4", "\"\"", "*-1\r\n",
    ].map { Array($0.utf8) }

    mutating func next() -> Input {
        let kind = int(100)
        if kind < 25 { return Input(bytes: randomBytes(from: Self.alphabet), expected: nil) }
        if kind < 35 { return Input(bytes: randomBytes(from: nil), expected: nil) }
        let (bytes, requests) = validStream()
        if kind < 55 { return Input(bytes: bytes, expected: requests) }
        return Input(bytes: mutated(bytes), expected: nil)
    }

    /// A size for the next read: mostly small, sometimes up to the rest of the input.
    mutating func readSize(remaining: Int) -> Int {
        int(2) == 0 ? 1 + int(4) : 1 + int(remaining)
    }

    // MARK: Drawing

    private mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }

    private mutating func randomBytes(from alphabet: [UInt8]?) -> [UInt8] {
        (0..<int(48)).map { _ in
            guard let alphabet, int(16) != 0 else { return UInt8(truncatingIfNeeded: random.next()) }
            return alphabet[int(alphabet.count)]
        }
    }

    private mutating func validStream() -> ([UInt8], [Expected]) {
        var bytes: [UInt8] = []
        var requests: [Expected] = []
        for _ in 0...int(3) {
            if int(2) == 0 {
                let arguments = (0..<int(5)).map { _ in
                    (0..<int(10)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                }
                bytes += [0x2A, 0x30 + UInt8(arguments.count), 0x0D, 0x0A]  // *<count>\r\n
                for argument in arguments {
                    bytes += [0x24] + Array(String(argument.count).utf8) + [0x0D, 0x0A] + argument + [0x0D, 0x0A]
                }
                if !arguments.isEmpty {
                    requests.append(Expected(arguments: arguments, isInline: false))
                }
            } else {
                let (line, arguments) = inlineLine()
                bytes += line
                if !arguments.isEmpty {
                    requests.append(Expected(arguments: arguments, isInline: true))
                }
            }
        }
        return (bytes, requests)
    }

    /// An inline line and its arguments: plain words, "double-quoted" bytes with escapes, 'single-quoted'
    /// text with \' — or a blank line.
    private mutating func inlineLine() -> ([UInt8], [[UInt8]]) {
        let plain = Array("abcXYZ019.:_-*$".utf8)
        var line: [UInt8] = int(4) == 0 ? [0x20] : []
        var arguments: [[UInt8]] = []
        for index in 0..<int(5) {
            if index > 0 { line += int(3) == 0 ? [0x09] : [0x20] }
            var argument: [UInt8] = []
            switch int(3) {
            case 0:
                // A line starting with "*" would be RESP: plain words start with a letter.
                argument = [0x61] + (0..<int(6)).map { _ in plain[int(plain.count)] }
                line += argument
            case 1:
                line.append(0x22)
                for _ in 0..<int(8) {
                    let byte = UInt8(truncatingIfNeeded: random.next())
                    argument.append(byte)
                    if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
                        line.append(byte)
                    } else if byte == 0x0A {
                        line += Array("\\n".utf8)
                    } else {
                        let hex = Array("0123456789abcdef".utf8)
                        line += [0x5C, 0x78, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]  // \xHH
                    }
                }
                line.append(0x22)
            default:
                line.append(0x27)
                for _ in 0..<int(8) {
                    let byte = plain[int(plain.count)]
                    if int(8) == 0 {
                        argument.append(0x27)
                        line += Array("\\'".utf8)
                    } else {
                        argument.append(byte)
                        line.append(byte)
                    }
                }
                line.append(0x27)
            }
            arguments.append(argument)
        }
        line += int(2) == 0 ? [0x0D, 0x0A] : [0x0A]
        return (line, arguments)
    }

    private mutating func mutated(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...int(3) {
            let position = int(bytes.count + 1)
            switch int(5) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
            case 1:
                bytes.insert(contentsOf: Self.fragments[int(Self.fragments.count)], at: position)
            case 2:
                bytes.removeSubrange(position..<min(bytes.count, position + 1 + int(4)))
            case 3:
                bytes.removeSubrange(position..<bytes.count)
            default:
                let end = min(bytes.count, position + int(16))
                bytes.insert(contentsOf: bytes[position..<end], at: int(bytes.count + 1))
            }
        }
        return bytes
    }
}
