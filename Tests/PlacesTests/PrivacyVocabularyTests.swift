import Places
import Testing

/// The words of issue 18 every surface parses alike: precisions, private spells, location
/// lifetimes.
@Suite struct PrivacyVocabularyTests {
    @Test(arguments: [
        ("3h", 10_800), ("90m", 5_400), ("1d12h", 129_600), ("45", 45), ("1s", 1), ("2H30M", 9_000),
        ("3650d", 315_360_000), ("315360000", 315_360_000),
    ])
    func spellsParse(text: String, seconds: Int) throws {
        #expect(try Vocabulary.privateSpell.parse(text) == seconds)
        #expect(try Vocabulary.locationTTL.parse(text) == seconds)
    }

    @Test(arguments: ["0", "0h", "3651d", "315360001", "3x", "", "h", "1d12", "-5", "1.5h", " 3h", "3h ", "h3"])
    func spellsRefuse(text: String) {
        #expect(throws: PlacesError.self) { try Vocabulary.privateSpell.parse(text) }
        #expect(!Vocabulary.privateSpell.isValid(text))
    }

    @Test func aLocationLifetimeMayBeZeroButNoLongerThanTenYears() throws {
        #expect(try Vocabulary.locationTTL.parse("0") == 0)
        #expect(try Vocabulary.locationTTL.parse("12h") == 43_200)
        for text in ["3651d", "3x", "", "h", "-1"] {
            #expect(throws: PlacesError.self, "\(text)") { try Vocabulary.locationTTL.parse(text) }
        }
    }

    @Test func aSpellOfZeroSecondsNamesTheRule() {
        #expect(
            throws: PlacesError.invalidValue(
                noun: "duration", value: "0",
                expected: "1s to 3650d, as seconds or with units d, h, m, s (e.g. 3h, 90m, 1d12h)")
        ) { try Vocabulary.privateSpell.parse("0") }
    }

    @Test(arguments: [
        ("exact", LocationPrecision.exact), ("STREET", .street), ("District", .district), ("city", .city),
    ])
    func precisionsParseInAnyCase(text: String, precision: LocationPrecision) throws {
        #expect(try Vocabulary.precision.parse(text) == precision)
    }

    @Test func anUnknownPrecisionIsRefused() {
        for text in ["", "block", "streets", "100"] {
            #expect(throws: PlacesError.self, "\(text)") { try Vocabulary.precision.parse(text) }
        }
    }
}
