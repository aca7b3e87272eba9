import Geo
import Places
import Testing

/// The change log's text form: every change reads back exactly, whatever its texts hold.
@Suite struct ChangeCodingTests {
    /// Texts that an escaping bug would break: separators, escapes, line breaks, empty, non-ASCII.
    static let awkward = [
        "", "plain", "tab\there", "line\nbreak", "cr\rlf", "back\\slash", "\\t literally", "trailing\\",
        "İstanbul Eczanesi", "👩‍⚕️", "a\t\\n\tb",
    ]

    static func changes(seed: UInt64) throws -> [DirectoryChange] {
        var random = SplitMix64(seed: seed)
        func pick() -> String { awkward[Int(random.next() % UInt64(awkward.count))] }
        func coordinate() throws -> Coordinate {
            let latitude = Double(Int64(random.next() % 180_000_001) - 90_000_000) / 1e6
            let longitude = Double(Int64(random.next() % 360_000_001) - 180_000_000) / 1e6 + 1e-9
            return try Coordinate(latitude: latitude, longitude: min(180, longitude))
        }
        let digest = TokenDigest(bytes: (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) })!
        var attributes: [String: String] = [:]
        for _ in 0..<Int(random.next() % 4) { attributes["k" + pick()] = pick() }
        let place = Place(
            id: "id" + pick(), kind: "kind" + pick(), name: pick(), coordinate: try coordinate(),
            attributes: attributes)
        let located = User(id: "u" + pick(), name: pick(), location: try coordinate(), visibility: .public)
        let nowhere = User(id: "v" + pick(), name: pick(), location: nil, visibility: .private)
        return [
            .putPlace(place), .removePlace(kind: "kind" + pick(), id: "id" + pick()),
            .addUser(located, tokenDigest: digest), .putUser(nowhere, tokenDigest: digest),
            .moveUser("u" + pick(), to: try coordinate()), .moveUser("u", to: nil),
            .setVisibility("u" + pick(), .private), .setVisibility("u", .public), .removeUser("u" + pick()),
            .setAdminToken(digest),
        ]
    }

    @Test(arguments: 0..<200) func everyChangeReadsBackExactly(seed: Int) throws {
        for change in try Self.changes(seed: UInt64(seed)) {
            let text = ChangeCoding.encode(change)
            #expect(!text.contains("\n") && !text.contains("\r"), "one line: \(text)")
            #expect(try ChangeCoding.decode(text) == change, "\(text)")
        }
    }

    @Test func theLogHoldsATokensDigestOnly() throws {
        let (clear, digest) = Token.issue()
        let text = ChangeCoding.encode(.setAdminToken(digest))
        #expect(!text.contains(clear))
        #expect(text.utf8.count == 2 + 64)
    }

    @Test(arguments: [
        "", "X\ta", "P\tk\ti\tn\t91\t0", "P\tk\ti\tn\t1", "U\tu\tn\t\t\tpublic\tzz", "V\tu\tmaybe", "T\t00",
    ])
    func aLineThatIsNoChangeIsAnErrorNamingIt(text: String) {
        #expect(throws: PlacesError.self) { try ChangeCoding.decode(text) }
        do {
            _ = try ChangeCoding.decode(text)
        } catch {
            #expect(error.description.contains("unreadable change-log entry"), "\(error.description)")
        }
    }
}
