import Foundation
import Geo
import Testing

@testable import Places

/// Tokens: 256 random bits in base64url, kept as SHA-256, compared in constant time, never printed.
@Suite struct TokenTests {
    @Test func tokensAre256BitBase64URL() {
        var seen = Set<String>()
        for _ in 0..<200 {
            let (clearText, digest) = Token.issue()
            #expect(clearText.count == 43)
            #expect(clearText.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            #expect(digest.matches(clearText))
            #expect(seen.insert(clearText).inserted)
        }
    }

    /// One base64url draw in 64 begins with `-`, which a command line reads as an option: with
    /// 20,000 tokens a leading `-` would show up about 300 times if it were not redrawn.
    @Test func noTokenBeginsWithADash() {
        var firstCharacters = Set<Character>()
        for _ in 0..<20_000 { firstCharacters.insert(Token.issue().clearText.first!) }
        #expect(!firstCharacters.contains("-"))
        #expect(firstCharacters.count == 63, "every other first character still occurs")
    }

    @Test func aDigestMatchesOnlyItsToken() {
        let (clearText, digest) = Token.issue()
        #expect(!digest.matches(clearText + "x"))
        #expect(!digest.matches(String(clearText.dropLast())))
        #expect(!digest.matches(""))
        #expect(digest.bytes.count == 32)
        #expect(TokenDigest(bytes: digest.bytes) == digest)
        #expect(TokenDigest(bytes: [1, 2, 3]) == nil)
    }

    @Test func digestsAreNeverPrinted() {
        let (clearText, digest) = Token.issue()
        #expect(digest.description == "TokenDigest(redacted)")
        #expect(!"\(digest)".contains(clearText))
        #expect(!String(reflecting: digest).contains(clearText))
    }

    @Test func theDirectoryKnowsWhoPresentsAToken() throws {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        let admin = directory.rotateAdminToken()
        #expect(try directory.principal(presenting: admin) == .admin)
        let ayse = try directory.addUser(User(id: "ayse", name: "Ayşe"), by: try directory.principal(presenting: admin))
        #expect(try directory.principal(presenting: ayse) == .user("ayse"))
        #expect(try directory.principal(presenting: nil) == .anonymous)
        #expect(throws: PlacesError.invalidToken) { try directory.principal(presenting: "not-a-token") }
        let rotated = directory.rotateAdminToken()
        #expect(throws: PlacesError.invalidToken) { try directory.principal(presenting: admin) }
        #expect(try directory.principal(presenting: rotated) == .admin)
        try directory.removeUser("ayse", by: .user("ayse"))
        #expect(throws: PlacesError.invalidToken) { try directory.principal(presenting: ayse) }
    }

    @Test func aWrongTokenGetsAClearErrorAndChangesNothing() throws {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        let here = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        _ = try directory.addUser(User(id: "ayse", name: "Ayşe", location: here), by: .admin)
        let before = try directory.user("ayse", as: .admin)
        #expect(throws: PlacesError.invalidToken) {
            try directory.moveUser("ayse", to: nil, by: try directory.principal(presenting: "guess"))
        }
        #expect(try directory.user("ayse", as: .admin) == before)
        #expect(
            PlacesError.invalidToken.description
                == "the token matches no user and is not the admin token (tokens are shown once, when created)")
    }
}
