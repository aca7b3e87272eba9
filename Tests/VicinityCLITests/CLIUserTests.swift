import Foundation
import Places
import PlacesSQLite
import TestSupport
import Testing

@testable import VicinityCLI

/// Issue 15, users from the command line: what a missing token says, `user list` for the admin,
/// `user token` for a user who lost theirs.
@Suite struct CLIUserTests {
    /// A database with an admin token, a public user at Levent and a private one nearby.
    struct Fixture {
        let db = TestEnvironment.freshDatabase()
        var admin = ""
        var ayse = ""
        var mehmet = ""

        init() {
            admin = CLI.test(["admin-token", "--db", db]).standardOutput.trimmingCharacters(in: .newlines)
            ayse = CLI.test(["user", "add", "ayse", "--at", "41.0885", "29.0158", "--db", db, "--token", admin])
                .standardOutput.trimmingCharacters(in: .newlines)
            mehmet = CLI.test(
                [
                    "user", "add", "mehmet", "--name", "Mehmet", "--at", "41.089", "29.016", "--private", "--db", db,
                    "--token", admin,
                ]
            ).standardOutput.trimmingCharacters(in: .newlines)
        }
    }

    @Test func userAddWithoutATokenSaysWhichTokenAndHow() {
        let db = TestEnvironment.freshDatabase()
        let outcome = CLI.test(["user", "add", "ayse", "--db", db])
        #expect(outcome.status == 77)
        #expect(
            outcome.standardError
                == "vicinity: adding a user needs the admin token, and no token was given: pass it with --token TOKEN "
                + "or in $VICINITY_TOKEN (vicinity admin-token creates it)\n")
        #expect(!outcome.standardError.contains("server"))
    }

    @Test func userAddWithAUsersTokenSaysItIsNotTheAdmins() {
        let fixture = Fixture()
        let outcome = CLI.test(["user", "add", "zeynep", "--db", fixture.db, "--token", fixture.ayse])
        #expect(outcome.status == 77)
        #expect(outcome.standardError.contains("adding a user needs the admin token, and the token given is a user's"))
    }

    @Test func changingAUserWithoutATokenSaysHowToPassOne() {
        let fixture = Fixture()
        let outcome = CLI.test(["user", "move", "ayse", "41", "29", "--db", fixture.db])
        #expect(outcome.status == 77)
        #expect(outcome.standardError.hasSuffix("pass it with --token TOKEN or in $VICINITY_TOKEN\n"))
    }

    @Test func theAdminListsEveryUserWithLocations() throws {
        let fixture = Fixture()
        let listed = CLI.test(["user", "list", "--db", fixture.db], environment: ["VICINITY_TOKEN": fixture.admin])
        #expect(listed.status == 0, "\(listed.standardError)")
        let lines = listed.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("ayse    public ") && lines[0].contains("41.0885, 29.0158"))
        #expect(lines[1].hasPrefix("mehmet  private") && lines[1].hasSuffix("Mehmet"))
        let json = CLI.test(["user", "list", "--json", "--db", fixture.db, "--token", fixture.admin])
        let documents = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(documents.map { $0["id"] as? String } == ["ayse", "mehmet"])
        #expect(documents[1]["visibility"] as? String == "private")
        #expect(documents[1]["lat"] as? Double == 41.089)
    }

    /// Private users' locations must not leak: nobody but the admin lists users.
    @Test func nobodyElseListsUsers() {
        let fixture = Fixture()
        for token in [nil, fixture.ayse, fixture.mehmet] {
            let outcome = CLI.test(
                ["user", "list", "--db", fixture.db] + (token.map { ["--token", $0] } ?? []))
            #expect(outcome.status == 77)
            #expect(outcome.standardOutput.isEmpty)
            #expect(outcome.standardError.contains("listing users needs the admin token"))
            #expect(!outcome.standardError.contains("41.089"))
        }
    }

    @Test func aUserReplacesTheirTokenAndTheOldOneStopsWorking() throws {
        let fixture = Fixture()
        let replaced = CLI.test(["user", "token", "ayse", "--db", fixture.db, "--token", fixture.ayse])
        #expect(replaced.status == 0, "\(replaced.standardError)")
        let fresh = replaced.standardOutput.trimmingCharacters(in: .newlines)
        #expect(fresh.count == 43 && fresh != fixture.ayse)
        #expect(replaced.standardError.contains("the old one no longer works"))
        let old = CLI.test(["user", "visibility", "ayse", "private", "--db", fixture.db, "--token", fixture.ayse])
        #expect(old.status == 77, "the old token is revoked")
        #expect(CLI.test(["user", "visibility", "ayse", "private", "--db", fixture.db, "--token", fresh]).status == 0)
        // The record itself is unchanged but for the visibility just set.
        let shown = CLI.test(["user", "show", "ayse", "--json", "--db", fixture.db, "--token", fresh]).standardOutput
        #expect(shown.contains(#""lat":41.0885"#) && shown.contains(#""private""#))
        // Stored only as a digest.
        var bytes = Data()
        for suffix in ["", "-wal"] { bytes.append(FileManager.default.contents(atPath: fixture.db + suffix) ?? Data()) }
        #expect(bytes.range(of: Data(fresh.utf8)) == nil)
    }

    @Test func theAdminReplacesAUsersTokenButOthersCannot() {
        let fixture = Fixture()
        let byOther = CLI.test(["user", "token", "ayse", "--db", fixture.db, "--token", fixture.mehmet])
        #expect(byOther.status == 77)
        let ofPrivate = CLI.test(["user", "token", "mehmet", "--db", fixture.db, "--token", fixture.ayse])
        #expect(ofPrivate.status == 67, "a private user looks missing to others")
        let byAdmin = CLI.test(["user", "token", "mehmet", "--db", fixture.db, "--token", fixture.admin])
        #expect(byAdmin.status == 0)
        let fresh = byAdmin.standardOutput.trimmingCharacters(in: .newlines)
        #expect(CLI.test(["user", "show", "mehmet", "--db", fixture.db, "--token", fixture.mehmet]).status == 77)
        #expect(CLI.test(["user", "show", "mehmet", "--db", fixture.db, "--token", fresh]).status == 0)
    }

    @Test func swappedCoordinatesOfAUserGetTheHint() {
        let fixture = Fixture()
        let move = CLI.test(["user", "move", "ayse", "151.2", "-33.9", "--db", fixture.db, "--token", fixture.ayse])
        #expect(move.status == 64)
        #expect(
            move.standardError.hasSuffix(
                "did you swap latitude and longitude? try `vicinity user move ayse -33.9 151.2`\n"))
        let add = CLI.test([
            "user", "add", "zeynep", "--at", "151.2", "-33.9", "--db", fixture.db, "--token", fixture.admin,
        ])
        #expect(
            add.standardError.hasSuffix("try `vicinity user add zeynep --at -33.9 151.2`\n"), "\(add.standardError)")
    }
}
