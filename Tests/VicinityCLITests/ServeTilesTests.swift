import HTTPAPI
import TestSupport
import Testing

@testable import VicinityCLI

/// `vicinity serve --tiles`: the browser map's tiles, or none.
@Suite struct ServeTilesTests {
    @Test func theDefaultIsOpenStreetMapAndNoneIsNone() throws {
        #expect(try ServeCommand.parse([]).tileLayer() == .openStreetMap)
        #expect(try ServeCommand.parse(["--tiles", "none"]).tileLayer() == nil)
        let other = try ServeCommand.parse([
            "--tiles", "https://{s}.tiles.example.org/{z}/{x}/{y}.png", "--tiles-attribution", "© Example",
        ])
        #expect(try other.tileLayer()?.source == "https://*.tiles.example.org")
        #expect(try other.tileLayer()?.attribution == "© Example")
    }

    @Test func aTileURLThePagePolicyCannotNameIsRefused() {
        let outcome = CLI.test([
            "serve", "--tiles", "https://x.org;img-src */{z}/{x}/{y}", "--db", TestEnvironment.freshDatabase(),
        ])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains(#"invalid tile URL "https://x.org;img-src */{z}/{x}/{y}""#))
    }
}
