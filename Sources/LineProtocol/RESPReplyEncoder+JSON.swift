import Foundation
import NIOCore

/// The JSON line format (``RESPReplyEncoder/Format/json``).
extension RESPReplyEncoder {
    static func writeJSONLine(_ reply: RESPReply, to out: inout ByteBuffer) {
        if case .sequence(let replies) = reply {
            for reply in replies { writeJSONLine(reply, to: &out) }
            return
        }
        if case .error(let text) = reply {
            out.writeStaticString("{\"ok\":false,\"err\":")
            writeJSONString(text.utf8, to: &out)
        } else {
            out.writeStaticString("{\"ok\":true,\"result\":")
            writeJSON(reply, to: &out)
        }
        out.writeStaticString("}\n")
    }

    private static func writeJSON(_ reply: RESPReply, to out: inout ByteBuffer) {
        switch reply {
        case .simpleString(let text):
            writeJSONString(text.utf8, to: &out)
        case .error(let text):
            out.writeStaticString("{\"err\":")
            writeJSONString(text.utf8, to: &out)
            out.writeStaticString("}")
        case .integer(let value):
            out.writeString(String(value))
        case .bulkString(let bytes), .verbatim(_, let bytes):
            writeJSONBytes(bytes, to: &out)
        case .bulkText(let text):
            writeJSONString(text.utf8, to: &out)
        case .nullBulk, .nullArray, .null:
            out.writeStaticString("null")
        case .array(let elements), .push(let elements), .sequence(let elements):
            out.writeStaticString("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.writeStaticString(",") }
                writeJSON(element, to: &out)
            }
            out.writeStaticString("]")
        case .map(let entries):
            writeJSONMap(entries, to: &out)
        case .rows(let rows):
            writeJSON(rows.expanded, to: &out)
        case .double(let value):
            // JSON has no infinities or NaN: those become the strings RESP3 uses.
            if value.isFinite {
                out.writeString(doubleText(value))
            } else {
                writeJSONString(doubleText(value).utf8, to: &out)
            }
        case .doubleText(let text):
            if let value = Double(text), value.isFinite, text.first != "+" {
                out.writeString(text)
            } else {
                writeJSONString(text.utf8, to: &out)
            }
        case .boolean(let value):
            out.writeStaticString(value ? "true" : "false")
        }
    }

    private static func writeJSONMap(_ entries: [RESPReply.MapEntry], to out: inout ByteBuffer) {
        let keys = entries.map { jsonKey($0.key) }
        guard keys.allSatisfy({ $0 != nil }) else {
            out.writeStaticString("[")
            for (index, entry) in entries.enumerated() {
                out.writeStaticString(index > 0 ? ",[" : "[")
                writeJSON(entry.key, to: &out)
                out.writeStaticString(",")
                writeJSON(entry.value, to: &out)
                out.writeStaticString("]")
            }
            out.writeStaticString("]")
            return
        }
        out.writeStaticString("{")
        for (index, (key, entry)) in zip(keys, entries).enumerated() {
            if index > 0 { out.writeStaticString(",") }
            writeJSONString((key ?? "").utf8, to: &out)
            out.writeStaticString(":")
            writeJSON(entry.value, to: &out)
        }
        out.writeStaticString("}")
    }

    /// The key as a JSON object key: the text of a simple, bulk or verbatim string that is UTF-8; nil
    /// for anything else.
    private static func jsonKey(_ key: RESPReply) -> String? {
        switch key {
        case .simpleString(let text): return text
        case .bulkString(let bytes), .verbatim(_, let bytes):
            return utf8Text(bytes)
        case .bulkText(let text): return text
        default: return nil
        }
    }

    /// A JSON string when the bytes are UTF-8, else `{"base64":"…"}`.
    private static func writeJSONBytes(_ bytes: ByteBuffer, to out: inout ByteBuffer) {
        if let text = utf8Text(bytes) {
            writeJSONString(text.utf8, to: &out)
        } else {
            out.writeStaticString("{\"base64\":\"")
            out.writeString(Data(bytes.readableBytesView).base64EncodedString())
            out.writeStaticString("\"}")
        }
    }

    /// The bytes as text when they are well-formed UTF-8; nil otherwise. (`String(validating:as:)` would
    /// do, but needs macOS 15 and the package supports macOS 14.)
    private static func utf8Text(_ bytes: ByteBuffer) -> String? {
        var iterator = bytes.readableBytesView.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(buffer: bytes)
            case .error: return nil
            }
        }
    }

    /// The UTF-8 text as a JSON string (RFC 8259 §7): `"` and `\` escaped, control bytes as short escapes
    /// or `\u00XX`, everything else as is.
    static func writeJSONString(_ text: String.UTF8View, to out: inout ByteBuffer) {
        out.writeStaticString("\"")
        for byte in text {
            switch byte {
            case ASCII.doubleQuote: out.writeStaticString("\\\"")
            case ASCII.backslash: out.writeStaticString("\\\\")
            case ASCII.newline: out.writeStaticString("\\n")
            case ASCII.carriageReturn: out.writeStaticString("\\r")
            case ASCII.tab: out.writeStaticString("\\t")
            case 0x08: out.writeStaticString("\\b")
            case ASCII.formFeed: out.writeStaticString("\\f")
            case 0x00..<0x20:
                let digits: StaticString = "0123456789abcdef"
                out.writeStaticString("\\u00")
                out.writeInteger(digits.utf8Start[Int(byte >> 4)])
                out.writeInteger(digits.utf8Start[Int(byte & 0x0F)])
            default: out.writeInteger(byte)
            }
        }
        out.writeStaticString("\"")
    }
}
