import Foundation

/// Finds a JSON `null` in a request body. The contract has no `nullable` (a value that may be
/// unknown is a field that is left out), but the generated decoder reads `"attributes": null`
/// as an absent field; schemathesis found the body accepted. `BodyLimitMiddleware` refuses it.
enum JSONNulls {
    /// The JSON pointer of the first `null` in document order (object members by sorted name),
    /// or nil when there is none or the body is not JSON (the generated decoder reports that).
    static func firstPointer(in body: some Collection<UInt8>) -> String? {
        guard let document = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        else { return nil }
        return firstPointer(in: document, at: "")
    }

    private static func firstPointer(in value: Any, at pointer: String) -> String? {
        switch value {
        case is NSNull:
            return pointer.isEmpty ? "/" : pointer
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let token = key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                if let found = object[key].flatMap({ firstPointer(in: $0, at: pointer + "/" + token) }) {
                    return found
                }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstPointer(in: element, at: pointer + "/\(index)") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
