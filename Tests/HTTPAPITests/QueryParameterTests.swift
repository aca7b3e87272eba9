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

    /// `HotRequest` keeps the value a decimal parameter's check read instead of `Double(_:)` of
    /// the text, which the generated decoder uses: for every text the check accepts they must be
    /// the same `Double`, bit for bit.
    @Test func aCheckedDecimalIsTheGeneratedDecodersDouble() throws {
        var texts = [
            "41.088154", "41.308095327014605", "28.90500860848254", "-0", "0", "+41.088", "41.", ".5", "4.1088154e1",
            "2.9e1", "1e3", "250.5", "90", "-90", "-89.99999999999999999", "0.1", "0.30000000000000004",
            "179.99999999999999", "1E2", "00012.5", "1e-5", "12345678901234567890e-18", "nan", "0x10", " 41", "",
        ]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let digits = Int.random(in: 1...22, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            text += String(Int.random(in: 0...179, using: &random)) + "."
            for _ in 0..<digits { text += String(Int.random(in: 0...9, using: &random)) }
            texts.append(text)
        }
        var differing: [String] = []
        for parameter in [QueryParameter.latitude("lat"), .longitude("lon"), .radius, .maxDistance] {
            #expect(parameter.decimalValue != nil, "\(parameter.name)")
            for text in texts {
                let plain = (try? parameter.check(text: text)) != nil
                guard let value = try? parameter.checkedDecimal(text: text) else {
                    // A refused text: refused by the plain check too.
                    if plain { differing.append("\(parameter.name)=\(text): refused, accepted by the check") }
                    continue
                }
                guard plain, let decoded = Double(text), value.bitPattern == decoded.bitPattern else {
                    differing.append("\(parameter.name)=\(text): \(value) against \(String(describing: Double(text)))")
                    continue
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(QueryParameter.limit.decimalValue == nil)
        #expect(QueryParameter.kind.decimalValue == nil)
    }

    /// The values `HotRequest` keeps by name: the first noted for each, up to four names.
    @Test func decimalsKeepTheFirstValueOfEachName() {
        var decimals = HotRequest.Decimals()
        #expect(decimals["lat"] == nil)
        decimals.note(1, of: "lat")
        decimals.note(2, of: "lon")
        decimals.note(3, of: "lat")
        decimals.note(4, of: "radius")
        decimals.note(5, of: "max_distance")
        decimals.note(6, of: "fifth")
        #expect(decimals["lat"] == 1)
        #expect(decimals["lon"] == 2)
        #expect(decimals["radius"] == 4)
        #expect(decimals["max_distance"] == 5)
        #expect(decimals["fifth"] == nil)
    }
}
