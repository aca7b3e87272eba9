import Testing

@testable import HTTPAPI

/// `QueryParameter.hasBlankEnd` decides by bytes what `Character.isWhitespace` decides of a
/// value's first and last characters, and must decide the same.
@Suite struct QueryParameterTests {
    /// Ends a byte check can get wrong: ASCII and Unicode blanks, `\r\n`, marks that extend the
    /// character before them, and a prepended mark (U+0600) that joins the space after it.
    static let texts = [
        "", " ", "a", " a", "a ", "\t41", "41\n", "41\r", "a\r\n", "\r\n", "\u{0B}41", "41\u{0C}", "\u{600} ",
        "\u{600}1", " \u{600}", "\u{A0}41", "41\u{A0}", "\u{85}", "é ", " é", "e\u{301}", " \u{301}", "a \u{301}",
        "a\u{2003}", "\u{2003}a", "\u{3000}", "41.088", "city", "日本 ", " 日本", "💊", "x\u{200D}",
    ]

    @Test(arguments: texts) func blankEndsAreTheCharacters(_ text: String) {
        let characters = text.first?.isWhitespace == true || text.last?.isWhitespace == true
        #expect(QueryParameter.hasBlankEnd(text) == characters, "\(text.unicodeScalars.map(\.value))")
    }

    @Test func textsOfTwoOrThreeBlanksAndMarksAreDecidedAsCharacters() {
        let scalars: [Unicode.Scalar] = [
            " ", "\t", "\r", "\n", "a", "1", "\u{85}", "\u{A0}", "\u{301}", "\u{600}",
            "\u{200D}", "\u{2028}", "\u{FE0F}", "é",
        ]
        let thirds: [Unicode.Scalar?] = scalars.map { $0 } + [nil]
        for first in scalars {
            for second in scalars {
                for third in thirds {
                    var text = String(first) + String(second)
                    if let third { text.unicodeScalars.append(third) }
                    let characters = text.first?.isWhitespace == true || text.last?.isWhitespace == true
                    #expect(QueryParameter.hasBlankEnd(text) == characters, "\(text.unicodeScalars.map(\.value))")
                }
            }
        }
    }
}
