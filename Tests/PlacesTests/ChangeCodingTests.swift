import Foundation
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
        let precisions = LocationPrecision.allCases
        func precision() -> LocationPrecision { precisions[Int(random.next() % UInt64(precisions.count))] }
        func time() -> Date { Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000)) }
        let located = User(
            id: "u" + pick(), name: pick(), location: try coordinate(), visibility: .public, precision: precision(),
            locationExpiresAt: random.next() % 2 == 0 ? nil : time())
        let nowhere = User(
            id: "v" + pick(), name: pick(), location: nil, visibility: .private, precision: precision(),
            privateUntil: random.next() % 2 == 0 ? nil : time())
        return [
            .putPlace(place), .removePlace(kind: "kind" + pick(), id: "id" + pick()),
            .addUser(located, tokenDigest: digest), .putUser(nowhere, tokenDigest: digest),
            .moveUser("u" + pick(), to: try coordinate(), expiresAt: time()), .moveUser("u", to: nil),
            .setVisibility("u" + pick(), .private, privateUntil: time()), .setVisibility("u", .public),
            .setPrecision("u" + pick(), precision()), .forgetLocation("u" + pick(), expiresAt: time()),
            .endPrivacy("u" + pick(), privateUntil: time()), .removeUser("u" + pick()), .setAdminToken(digest),
        ]
    }

    @Test(arguments: 0..<200) func everyChangeReadsBackExactly(seed: Int) throws {
        for change in try Self.changes(seed: UInt64(seed)) {
            let text = ChangeCoding.encode(change)
            #expect(!text.contains("\n") && !text.contains("\r"), "one line: \(text)")
            #expect(try ChangeCoding.decode(text) == change, "\(text)")
        }
    }

    /// A log written before precision and timers existed reads on: a user line of six fields is a
    /// user at `LocationPrecision.stored` with no timers, `M` and `V` lines without their last
    /// field have no timer.
    @Test func linesOfTheFirstVersionReadOn() throws {
        let digest = String(repeating: "ab", count: 32)
        let old = try ChangeCoding.decode("U\tu\tU\t41\t29\tpublic\t\(digest)")
        guard case .putUser(let user, _) = old else { throw PlacesError.noSuchUser("u") }
        #expect(user.precision == .street && user.locationExpiresAt == nil && user.privateUntil == nil)
        #expect(
            try ChangeCoding.decode("M\tu\t41\t29") == .moveUser("u", to: try Coordinate(latitude: 41, longitude: 29)))
        #expect(try ChangeCoding.decode("V\tu\tprivate") == .setVisibility("u", .private))
    }

    @Test func theLogHoldsATokensDigestOnly() throws {
        let (clear, digest) = Token.issue()
        let text = ChangeCoding.encode(.setAdminToken(digest))
        #expect(!text.contains(clear))
        #expect(text.utf8.count == 2 + 64)
    }

    @Test(arguments: [
        "", "X\ta", "P\tk\ti\tn\t91\t0", "P\tk\ti\tn\t1", "U\tu\tn\t\t\tpublic\tzz", "V\tu\tmaybe", "T\t00",
        "N\tu\tblurry", "X\tu\t", "G\tu\tsoon", "M\tu\t1\t2\tlater",
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
