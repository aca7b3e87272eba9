import Foundation
import Geo
import Places
import PlacesSQLite
import TestSupport
import Testing

@testable import VicinityCLI

/// The database through the command line: import, export, users, tokens, the default location.
@Suite struct CLIStoreTests {
    static func write(_ text: String, name: String = "places.csv") throws -> String {
        try TemporaryDirectory(prefix: "vicinity-import").write(name, text)
    }

    /// A header and `count` rows of about 45 bytes (ids p0, p1, …; quoted names with a comma), so
    /// that a file spans several of the import's 4 MiB pieces; rows[n] is line n + 1.
    static func longRows(_ count: Int) -> [String] {
        ["id,name,lat,lon"]
            + (0..<count).map { number in
                "p\(number),\"Name, \(number) with a long tail\",\(number % 89),\(number % 179)"
            }
    }

    static let three = """
        id,name,lat,lon,phone
        omur,Omur,41.087853,29.014096,0212 1
        emre,Emre,41.092104,29.020575,0212 2
        arzu,Arzu,41.083994,29.021606,"0212, 3"

        """

    @Test func importedPlacesAreQueriedFromTheDatabase() throws {
        let db = TestEnvironment.freshDatabase()
        let imported = CLI.test(["import", try Self.write(Self.three), "--kind", "pharmacy", "--db", db])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasPrefix("Imported 3 places into \(db) in "))
        let near = CLI.test(["near", "41.088154", "29.015615", "--radius", "700", "--db", db])
        #expect(near.status == 0)
        #expect(near.standardOutput.contains("Omur") && near.standardOutput.contains("Arzu"))
        let attributes = try FileManager.default.attributesOfItem(atPath: db)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "people's locations: owner only")
    }

    /// Must show (issue 4): a bad row in the middle of 10k aborts the import, names file and line,
    /// and leaves every table exactly as before.
    @Test func aBadRowInTheMiddleOfTenThousandChangesNothing() throws {
        let db = TestEnvironment.freshDatabase()
        #expect(CLI.test(["import", try Self.write(Self.three), "--kind", "pharmacy", "--db", db]).status == 0)
        let admin = CLI.test(["admin-token", "--db", db]).standardOutput.trimmingCharacters(in: .newlines)
        #expect(
            CLI.test(["user", "add", "ayse", "--at", "41", "29", "--private", "--db", db, "--token", admin]).status == 0
        )
        let store = try SQLitePlaceStore(path: db)
        let before = (try store.places(), try store.users().map(\.user), try store.adminTokenDigest())

        var rows = ["id,name,lat,lon"]
        for number in 0..<10_000 { rows.append("n\(number),Name \(number),\(40 + Double(number) / 1e4),29.01") }
        rows[5_001] = "bad,Bad,91.5,29"  // line 5002
        let file = try Self.write(rows.joined(separator: "\n") + "\n", name: "ten-thousand.csv")
        let failed = CLI.test(["import", file, "--kind", "pharmacy", "--db", db])
        #expect(failed.status == 65)
        #expect(
            failed.standardError
                == "vicinity: \(file):5002: invalid latitude \"91.5\": expected a number of degrees from -90 to 90\n")
        let after = (try store.places(), try store.users().map(\.user), try store.adminTokenDigest())
        #expect(after.0 == before.0)
        #expect(after.1 == before.1)
        #expect(after.2 == before.2)
    }

    @Test func anIdRepeatedInAnotherFileNamesBothAndStoresNothing() throws {
        let db = TestEnvironment.freshDatabase()
        let first = try Self.write("id,name,lat,lon\na,A,1,1\nb,B,2,2\n", name: "first.csv")
        let second = try Self.write("id,name,lat,lon\nc,C,1,1\nb,Again,2,2\n", name: "second.csv")
        let failed = CLI.test(["import", first, second, "--kind", "town", "--db", db])
        #expect(failed.status == 65)
        #expect(failed.standardError == "vicinity: \(second):3: duplicate id \"b\" (first at \(first):3)\n")
        #expect(try SQLitePlaceStore(path: db).places().isEmpty)
        let skipped = CLI.test(["import", first, second, "--kind", "town", "--skip-invalid", "--db", db])
        #expect(skipped.status == 0, "\(skipped.standardError)")
        #expect(skipped.standardOutput.contains("Imported 3 places"))
        #expect(try SQLitePlaceStore(path: db).places().map(\.name) == ["A", "B", "C"])
    }

    /// Found in review: the streaming import opened (and so made) the database before reading
    /// its input, and a bad file left an empty database behind where there was none.
    @Test func aFailedImportLeavesNoDatabaseItMade() throws {
        let db = TestEnvironment.freshDatabase()
        let bad = try Self.write("id,name,lat,lon\na,A,1,1\nb,B,91,2\n", name: "bad.csv")
        let failed = CLI.test(["import", bad, "--kind", "town", "--db", db])
        #expect(failed.status == 65, "\(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: db), "a failed import left \(db)")
        let good = try Self.write("id,name,lat,lon\na,A,1,1\n", name: "good.csv")
        #expect(CLI.test(["import", good, "--kind", "town", "--db", db]).status == 0)
        // A database that was there stays, unchanged.
        #expect(CLI.test(["import", bad, "--kind", "town", "--db", db]).status == 65)
        #expect(try SQLitePlaceStore(path: db).places().map(\.id) == ["a"])
    }

    @Test func aLargeFileFromStandardInputIsReadInPieces() throws {
        let db = TestEnvironment.freshDatabase()
        // About 6 MiB: more than one piece.
        var rows = Self.longRows(150_000)
        rows.append("p7,Again,1,1")
        let outcome = CLI.test(
            ["import", "-", "--kind", "town", "--db", db], input: rows.joined(separator: "\n") + "\n")
        #expect(outcome.status == 65)
        #expect(outcome.standardError == "vicinity: <stdin>:150002: duplicate id \"p7\" (first at line 9)\n")
        rows.removeLast()
        let stored = CLI.test(
            ["import", "-", "--kind", "town", "--db", db], input: rows.joined(separator: "\n") + "\n")
        #expect(stored.status == 0, "\(stored.standardError)")
        #expect(try SQLitePlaceStore(path: db).places().count == 150_000)
    }

    /// The pieces after the first are read while the first is stored: a bad row there still stops
    /// the whole import, and with --skip-invalid the warnings come in file order.
    @Test func rowsOfALaterPieceAreCheckedAsTheFirstPieceIs() throws {
        // About 6 MiB: more than one piece.
        var rows = Self.longRows(150_000)
        rows[101] = "p100,Early,91,1"
        rows[140_001] = "p140000,Late,1,181"
        rows[140_003] = "p5,Again,1,1"
        let file = try Self.write(rows.joined(separator: "\n") + "\n")
        let db = TestEnvironment.freshDatabase()
        var fields = rows
        fields[101] = "p100,Early,1,1"
        let stopped = CLI.test([
            "import", try Self.write(fields.joined(separator: "\n") + "\n"), "--kind", "town", "--db", db,
        ])
        #expect(stopped.status == 65)
        #expect(stopped.standardError.contains(":140002: invalid longitude \"181\""), "\(stopped.standardError)")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing of the import is kept")
        let skipping = CLI.test(["import", file, "--kind", "town", "--skip-invalid", "--db", db])
        #expect(skipping.status == 0, "\(skipping.standardError)")
        #expect(skipping.standardOutput.contains("Imported 149997 places"), "\(skipping.standardOutput)")
        #expect(skipping.standardOutput.contains("skipped 3 invalid rows"))
        let warnings = skipping.standardError.split(separator: "\n")
        #expect(warnings.count == 3)
        #expect(warnings.first?.contains("\(file):102: invalid latitude \"91\"") == true, "\(warnings)")
        #expect(warnings.dropFirst().first?.contains("\(file):140002: invalid longitude \"181\"") == true)
        #expect(warnings.last?.contains("\(file):140004: duplicate id \"p5\" (first at line 7)") == true)
        #expect(try SQLitePlaceStore(path: db).places().count == 149_997)
    }

    /// A repeat found while storing (the storing thread's error, not the reader's) stops the
    /// import of a file of several pieces, naming both lines, and stores nothing.
    @Test func aRepeatFoundWhileStoringStopsAnImportOfSeveralPieces() throws {
        // About 9 MiB: three pieces; the repeat is in the second, of an id of the first.
        var rows = Self.longRows(220_000)
        rows[120_001] = "p3,Again,1,1"
        let db = TestEnvironment.freshDatabase()
        let outcome = CLI.test(
            ["import", "-", "--kind", "town", "--db", db], input: rows.joined(separator: "\n") + "\n")
        #expect(outcome.status == 65)
        #expect(outcome.standardError == "vicinity: <stdin>:120002: duplicate id \"p3\" (first at line 5)\n")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing of the import is kept")
    }

    @Test func skipInvalidReportsEachRowAndImportsTheRest() throws {
        let db = TestEnvironment.freshDatabase()
        let file = try Self.write("id,name,lat,lon\na,A,1,1\nb,B,nan,1\nc,C,1,1,extra\na,Again,2,2\nd,D,3,3\n")
        let outcome = CLI.test(["import", file, "--kind", "town", "--skip-invalid", "--db", db])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Imported 2 places"))
        #expect(outcome.standardOutput.contains("skipped 3 invalid rows"))
        #expect(
            outcome.standardError.split(separator: "\n") == [
                "vicinity: warning: skipped \(file):3: invalid latitude \"nan\": expected a number of degrees from -90 to 90",
                "vicinity: warning: skipped \(file):4: expected 4 fields as in the header, found 5",
                "vicinity: warning: skipped \(file):5: duplicate id \"a\" (first at line 2)",
            ])
    }

    @Test func reimportingUpdatesAndReplaceDeletesTheRest() throws {
        let db = TestEnvironment.freshDatabase()
        #expect(CLI.test(["import", try Self.write(Self.three), "--kind", "pharmacy", "--db", db]).status == 0)
        let changed = try Self.write("id,name,lat,lon\nomur,Omur Eczanesi,41.087853,29.014096\nnew,New,41,29\n")
        #expect(CLI.test(["import", changed, "--kind", "pharmacy", "--db", db]).status == 0)
        var ids = try SQLitePlaceStore(path: db).places().map { "\($0.id)=\($0.name)" }
        #expect(ids == ["arzu=Arzu", "emre=Emre", "new=New", "omur=Omur Eczanesi"])
        #expect(CLI.test(["import", changed, "--kind", "pharmacy", "--replace", "--db", db]).status == 0)
        ids = try SQLitePlaceStore(path: db).places().map { "\($0.id)=\($0.name)" }
        #expect(ids == ["new=New", "omur=Omur Eczanesi"])
    }

    @Test(arguments: ["csv", "geojson"])
    func exportReadsBackToTheSamePlaces(format: String) throws {
        let db = TestEnvironment.freshDatabase()
        let source =
            "id,name,lat,lon,phone,note\nq,\"Quote \"\"x\"\"\",-33.8688,151.2093,1,\" lead\"\n"
            + "z,Zed,89.99999999,-180,,\"a,b\"\n"
        #expect(CLI.test(["import", try Self.write(source), "--kind", "pharmacy", "--db", db]).status == 0)
        let exported = CLI.test(["export", "--kind", "pharmacy", "--format", format, "--db", db])
        #expect(exported.status == 0)
        let copy = TestEnvironment.freshDatabase()
        let file = try Self.write(exported.standardOutput, name: "export.\(format)")
        #expect(CLI.test(["import", file, "--kind", "pharmacy", "--db", copy]).status == 0)
        let original = try SQLitePlaceStore(path: db).places()
        let reread = try SQLitePlaceStore(path: copy).places()
        #expect(reread.map(\.id) == original.map(\.id))
        #expect(reread.map(\.coordinate) == original.map(\.coordinate))
        #expect(reread.map(\.name) == original.map(\.name))
        #expect(reread.map(\.attributes) == original.map(\.attributes))
        #expect(reread == original, "the attribute order too")
        let again = CLI.test(["export", "--kind", "pharmacy", "--format", format, "--db", copy])
        #expect(again.standardOutput == exported.standardOutput, "export, import, export: byte for byte")
    }

    /// Issue 15: a GeoJSON export → import → export put the attributes in alphabetical order
    /// (`JSONSerialization` forgets the order of an object's keys); CSV kept it.
    @Test func geoJSONKeepsTheAttributeOrderOfTheFile() throws {
        let db = TestEnvironment.freshDatabase()
        let source = "id,name,lat,lon,zeta,alpha,mid\na,A,41,29,1,2,3\n"
        #expect(CLI.test(["import", try Self.write(source), "--kind", "cafe", "--db", db]).status == 0)
        let exported = CLI.test(["export", "--kind", "cafe", "--format", "geojson", "--db", db]).standardOutput
        #expect(exported.contains(#""properties":{"name":"A","kind":"cafe","zeta":"1","alpha":"2","mid":"3"}"#))
        let copy = TestEnvironment.freshDatabase()
        #expect(CLI.test(["import", "-", "--kind", "cafe", "--db", copy], input: exported).status == 0)
        #expect(try SQLitePlaceStore(path: copy).places().first?.attributeNames == ["zeta", "alpha", "mid"])
        #expect(CLI.test(["export", "--kind", "cafe", "--format", "geojson", "--db", copy]).standardOutput == exported)
    }

    @Test func attributesNamedLikeCSVColumnsAreRefusedOnImportAndLeftOutOfExports() throws {
        let db = TestEnvironment.freshDatabase()
        let geojson =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","#
            + #""geometry":{"type":"Point","coordinates":[29,41]},"properties":{"name":"A","lat":"x","b":"y"}}]}"#
        let imported = CLI.test(["import", try Self.write(geojson, name: "a.geojson"), "--kind", "k", "--db", db])
        #expect(imported.status == 65)
        #expect(
            imported.standardError.contains(
                #"invalid attribute name "lat": expected 1 to 64 characters, no control characters, not id, name, lat, lon or kind"#
            ))
        // A database written before the rule may hold one: export leaves it out and says so.
        let store = try SQLitePlaceStore(path: db)
        let place = Place(
            id: "a", kind: "k", name: "A", coordinate: try Coordinate(latitude: 41, longitude: 29),
            attributeNames: ["lat", "b"], attributeValues: ["x", "y"])
        _ = try store.commit([.putPlace(place)])
        let exported = CLI.test(["export", "--kind", "k", "--db", db])
        #expect(exported.standardOutput == "id,name,lat,lon,b\r\na,A,41,29,y\r\n")
        #expect(exported.standardError.contains("attribute \"lat\" is named like a CSV column and is left out"))
    }

    @Test func usersNeedTokensAndPrivateOnesStayHidden() throws {
        let db = TestEnvironment.freshDatabase()
        let here = ["near", "41.088154", "29.015615", "--radius", "1000", "--kind", "user", "--db", db]
        #expect(CLI.test(["user", "add", "ayse", "--db", db]).status == 77, "adding needs the admin token")
        let admin = CLI.test(["admin-token", "--db", db]).standardOutput.trimmingCharacters(in: .newlines)
        #expect(admin.count == 43)
        let again = CLI.test(["admin-token", "--db", db])
        #expect(again.status == 64 && again.standardOutput.isEmpty, "a token is shown once: \(again)")
        let ayse = CLI.test(
            ["user", "add", "ayse", "--name", "Ayşe", "--at", "41.0885", "29.0158", "--db", db],
            environment: ["VICINITY_TOKEN": admin])
        #expect(ayse.status == 0, "\(ayse.standardError)")
        let ayseToken = ayse.standardOutput.trimmingCharacters(in: .newlines)
        let mehmetToken = CLI.test(
            ["user", "add", "mehmet", "--at", "41.089", "29.016", "--db", db, "--token", admin]
        ).standardOutput.trimmingCharacters(in: .newlines)
        #expect(CLI.test(here).standardOutput.contains("2 users within 1000 m"))

        // A wrong token: a clear error, nothing changed.
        let wrong = CLI.test(["user", "visibility", "ayse", "private", "--db", db, "--token", "not-a-token"])
        #expect(wrong.status == 77)
        #expect(wrong.standardError.contains("the token matches no user and is not the admin token"))
        for dashed in ["-abc", "--abc"] {  // a token is never mistaken for an option
            let outcome = CLI.test(["user", "visibility", "ayse", "private", "--db", db, "--token", dashed])
            #expect(outcome.status == 77, "\(outcome.standardError)")
            #expect(CLI.test(here + ["--token", dashed]).status == 77)
        }
        let other = CLI.test(["user", "visibility", "ayse", "private", "--db", db, "--token", mehmetToken])
        #expect(other.status == 77)
        #expect(CLI.test(["user", "show", "ayse", "--db", db, "--json"]).standardOutput.contains(#""public""#))

        #expect(CLI.test(["user", "visibility", "ayse", "private", "--db", db, "--token", ayseToken]).status == 0)
        let byOthers = [CLI.test(here), CLI.test(here + ["--token", mehmetToken])]
        for outcome in byOthers {
            #expect(outcome.standardOutput.contains("1 user within 1000 m"))
            #expect(!outcome.standardOutput.contains("ayse") && !outcome.standardOutput.contains("41.0885"))
        }
        #expect(CLI.test(["user", "show", "ayse", "--db", db]).status == 67, "private looks missing")
        #expect(CLI.test(here + ["--token", ayseToken]).standardOutput.contains("Ayşe"), "you always see yourself")
        #expect(CLI.test(["user", "show", "ayse", "--db", db, "--token", admin]).status == 0)

        // No token is in the database in clear text.
        var bytes = Data()
        for suffix in ["", "-wal"] { bytes.append(FileManager.default.contents(atPath: db + suffix) ?? Data()) }
        for token in [admin, ayseToken, mehmetToken] { #expect(bytes.range(of: Data(token.utf8)) == nil) }

        #expect(CLI.test(["user", "remove", "ayse", "--db", db, "--token", ayseToken]).status == 0)
        #expect(CLI.test(["user", "show", "ayse", "--db", db, "--token", admin]).status == 67)
        #expect(CLI.test(["user", "move", "mehmet", "--forget", "--db", db, "--token", mehmetToken]).status == 0)
        #expect(CLI.test(here).standardOutput.hasPrefix("No users within 1000 m"), "no location: on no map")
    }

    @Test func theDefaultDatabaseIsCreatedAndSeededOnceAndTheVariablesChooseAnother() throws {
        let home = try TemporaryDirectory(prefix: "vicinity-home").path
        let environment = ["HOME": home, "VICINITY_DATA": TestEnvironment.dataFolder]
        let first = CLI.run(["nearest", "51.530882", "-0.123796", "--count", "1"], environment: environment)
        let path = home + "/.local/share/vicinity/vicinity.sqlite"
        #expect(first.status == 0)
        #expect(first.standardError.hasPrefix("vicinity: created \(path) with the 2281 shipped places"))
        let second = CLI.run(["nearest", "51.530882", "-0.123796", "--count", "1"], environment: environment)
        #expect(second.standardError.isEmpty && second.standardOutput == first.standardOutput)

        let xdg = home + "/xdg"
        let viaXDG = CLI.run(["nearest", "0", "0"], environment: environment.merging(["XDG_DATA_HOME": xdg]) { $1 })
        #expect(viaXDG.standardError.hasPrefix("vicinity: created \(xdg)/vicinity/vicinity.sqlite"))
        let named = home + "/named.sqlite"
        let viaVariable = CLI.run(
            ["nearest", "0", "0"], environment: environment.merging(["VICINITY_DB": named]) { $1 })
        #expect(viaVariable.standardError.contains("no place of kind \"pharmacy\""), "a named database starts empty")
        #expect(FileManager.default.fileExists(atPath: named))
    }

    @Test(
        arguments: [
            (["import", "x.csv", "--kind", "user"], 64, "kind \"user\" is reserved for people"),
            (["import", "x.csv", "--kind", "two words"], 64, "invalid kind \"two words\""),
            (
                ["export", "--kind", "pharmacy", "--format", "xml"], 64,
                "invalid format \"xml\": expected csv or geojson"
            ),
            (
                ["user", "visibility", "ayse", "hidden"], 64,
                "invalid visibility \"hidden\": expected public or private"
            ),
            (
                ["user", "add", "ayse", "--at", "41"], 64,
                "--at takes a latitude and a longitude in degrees, got 1 values"
            ),
            (["user", "add", "ayse", "--at", "91", "0"], 64, "invalid latitude"),
            (["user", "move", "ayse"], 64, "missing the location"),
            (["near", "0", "0", "--data", "x.csv", "--db", "y"], 64, "--data and --db exclude each other"),
        ] as [([String], Int32, String)])
    func badCommandLines(arguments: [String], status: Int32, message: String) throws {
        let outcome = CLI.test(
            arguments + (arguments.contains("--db") ? [] : ["--db", TestEnvironment.freshDatabase()]))
        #expect(outcome.status == status, "\(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }
}
