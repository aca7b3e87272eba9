import Testing

@testable import Places

/// `AttributeMatch(parsing:)`: `NAME=VALUE`, split at the first `=`.
@Suite struct AttributeMatchTests {
    @Test(arguments: [
        ("dispensing=yes", "dispensing", "yes"),
        ("note=a=b", "note", "a=b"),
        ("empty=", "empty", ""),
        // An emoji modifier or a combining mark right after `=` makes one Character of the two:
        // the `=` is still found (schemathesis sent `x-=🏻`).
        ("x-=\u{1F3FB}", "x-", "\u{1F3FB}"),
        ("note=\u{0301}e", "note", "\u{0301}e"),
        ("ca\u{0301}=1", "ca\u{0301}", "1"),
    ])
    func nameAndValueAreSplitAtTheFirstEquals(text: String, name: String, value: String) {
        let match = AttributeMatch(parsing: text)
        #expect(match?.name == name && match?.value == value, "\(text.unicodeScalars.map(\.value))")
        #expect(Vocabulary.attributeMatch.isValid(text))
    }

    @Test(arguments: ["", "novalue", "=yes"])
    func withoutANameOrAnEqualsSignItIsNone(text: String) {
        #expect(AttributeMatch(parsing: text) == nil)
    }
}
