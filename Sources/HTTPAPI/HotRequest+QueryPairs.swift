import Foundation

/// The query of a hot request read by bytes: the values by name (`QueryPairs`), decoded as the
/// generated decoder decodes them.
extension HotRequest {
    /// The values of a query by name, each name's in order, found by comparing the name's bytes: a
    /// query has a handful of names, all printable ASCII (`init` sends any other target to the
    /// generated server), for which byte equality is `String` equality, and a scan of a few pairs
    /// costs less than hashing `Substring`s into a dictionary.
    struct QueryPairs {
        /// The most distinct names kept: more than any hot operation takes, and few enough that
        /// the scans stay short (a query naming more goes to the generated server).
        static let maximumNames = 16
        private var names: [Substring]
        private var texts: [[String]]

        /// Room for `capacity` names without growing.
        init(capacity: Int) {
            names = []
            texts = []
            names.reserveCapacity(capacity)
            texts.reserveCapacity(capacity)
        }

        /// How many distinct names the query has.
        var nameCount: Int { names.count }

        /// The values of `name`, in order; nil when the query does not name it.
        subscript(name: String) -> [String]? {
            var name = name
            return name.withUTF8 { wanted in
                for index in names.indices where QueryPairs.equal(names[index], wanted) { return texts[index] }
                return nil
            }
        }

        fileprivate mutating func append(_ text: String, to name: Substring) {
            let found = name.utf8.withContiguousStorageIfAvailable { wanted in
                names.firstIndex { QueryPairs.equal($0, wanted) }
            }
            if let index = found ?? names.firstIndex(where: { $0.utf8.elementsEqual(name.utf8) }) {
                texts[index].append(text)
            } else {
                names.append(name)
                texts.append([text])
            }
        }

        /// Whether the bytes of `name` are `wanted`: the lengths, then the bytes in place (a
        /// request target is a native string, whose bytes are contiguous), without the generic
        /// walk of a `Substring`'s view.
        @inline(__always)
        static func equal(_ name: Substring, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
            let utf8 = name.utf8
            guard utf8.count == wanted.count else { return false }
            return utf8.withContiguousStorageIfAvailable { $0.elementsEqual(wanted) } ?? utf8.elementsEqual(wanted)
        }
    }

    /// The query's values by name, in order, decoded as the generated decoder decodes them (`+` a
    /// space, then percent-decoding; a value that is not valid percent-encoded UTF-8 becomes
    /// empty). Nil for a query the generated decoder refuses (a pair without `=`, an empty pair
    /// but for one after the last `&`), whose names need decoding, or that has more than
    /// `QueryPairs.maximumNames` names.
    static func values(of query: Substring) -> QueryPairs? {
        // Split on the byte `&`: for printable ASCII the same as on the `Character`, without
        // looking for grapheme breaks.
        var values = QueryPairs(capacity: QueryPairs.maximumNames)
        let utf8 = query.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            let pair = Substring(utf8[start..<end])
            // The next pair starts after the `&`; one after the last `&` is left out when empty.
            start = end < utf8.endIndex ? utf8.index(after: end) : end
            guard let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let name = pair[..<equals]
            guard !name.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
                return nil
            }
            values.append(decoded(pair[pair.utf8.index(after: equals)...]), to: name)
            if values.nameCount > QueryPairs.maximumNames { return nil }
        }
        return values
    }

    /// `+` as a space, `%XY` as the byte 0xXY; empty when a `%` is not followed by two hexadecimal
    /// digits or the bytes are not UTF-8.
    static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return ""
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(bytes: bytes, encoding: .utf8) ?? ""
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
