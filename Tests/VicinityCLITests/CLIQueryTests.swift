import Foundation
import Places
import TestSupport
import Testing

@testable import VicinityCLI

/// The commands end to end, in-process, on the shipped data.
@Suite struct CLIQueryTests {
    static let istanbul = "Data/pharmacies-istanbul-example.csv"

    @Test func istanbulWithin500MetersListsOnlyOmur() {
        let outcome = CLI.test(["near", "41.088154", "29.015615", "--radius", "500", "--data", Self.istanbul])
        #expect(outcome.status == 0)
        #expect(
            outcome.standardOutput == """
                1 pharmacy within 500 m of 41.088154, 29.015615 (geodesic, WGS84):
                   1.     131.9 m  WSW 255°  Omur  [omur]

                """)
    }

    @Test func istanbulWithin700MetersListsAllThreeNearestFirst() {
        let outcome = CLI.test(["near", "41.088154", "29.015615", "--radius", "700", "--data", Self.istanbul])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].contains("131.9 m") && lines[1].contains("Omur"))
        #expect(lines[2].contains("662.5 m") && lines[2].contains("Emre"))
        #expect(lines[3].contains("681.9 m") && lines[3].contains("Arzu"))
    }

    @Test func nearJSONHasTheDocumentedShape() throws {
        let outcome = CLI.test(["near", "41.088154", "29.015615", "--radius", "700", "--data", Self.istanbul, "--json"])
        #expect(outcome.status == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let query = try #require(document["query"] as? [String: Any])
        #expect(query["lat"] as? Double == 41.088154)
        #expect(query["lon"] as? Double == 29.015615)
        #expect(query["radius_m"] as? Double == 700)
        #expect(query["model"] as? String == "geodesic")
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.map { $0["id"] as? String } == ["omur", "emre", "arzu"])
        let first = results[0]
        // Served to the millimetre and to 0.01° (`ServedPrecision`).
        #expect(first["distance_m"] as? Double == 131.936)
        #expect(first["bearing_deg"] as? Double == 255.32)
        for key in ["id", "name", "lat", "lon", "distance_m", "bearing_deg"] { #expect(first[key] != nil, "\(key)") }
        #expect(outcome.standardOutput.split(separator: "\n").count == 1)
    }

    @Test func distJSONHasAllThreeModels() throws {
        let outcome = CLI.test(["dist", "41.088154", "29.015615", "41.087853", "29.014096", "--json"])
        #expect(outcome.status == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(document["geodesic_m"] as? Double == 131.936)
        #expect(document["haversine_m"] as? Double == 131.63)
        #expect(document["projected_m"] as? Double == 131.93)
        #expect(document["crs"] as? String == "EPSG:32635")
        #expect(document["bearing_deg"] as? Double == 255.32)
        #expect(outcome.standardOutput.contains(#""geodesic_m":131.936,"#))
    }

    @Test func negativeCoordinatesAreValuesNotOptions() {
        let outcome = CLI.test(["nearest", "51.530882", "-0.123796", "--count", "1"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("117.3 m"))
        let southern = CLI.test(["dist", "-33.8688", "151.2093", "-37.8136", "144.9631", "--json"])
        #expect(southern.status == 0, "\(southern.standardError)")
    }

    @Test func nearestWithMaxDistanceCanBeEmpty() {
        let outcome = CLI.test(["nearest", "41.088154", "29.015615", "--max-distance", "100", "--data", Self.istanbul])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("No pharmacies within 100 m of 41.088154, 29.015615"))
    }

    @Test func limitSaysHowManyAreWithin() throws {
        let outcome = CLI.test([
            "near", "41.088154", "29.015615", "--radius", "700", "--limit", "1", "--data", Self.istanbul,
        ])
        #expect(
            outcome.standardOutput.hasPrefix(
                "3 pharmacies within 700 m of 41.088154, 29.015615 (geodesic, WGS84), the nearest 1:"))
        let json = CLI.test([
            "near", "41.088154", "29.015615", "--radius", "700", "--limit", "1", "--data", Self.istanbul, "--json",
        ])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["total"] as? Int == 3)
        #expect((document["query"] as? [String: Any])?["limit"] as? Int == 1)
        #expect((document["results"] as? [Any])?.count == 1)
    }

    /// Found 2026-11-22 in review: a name with a line break or an escape sequence broke the
    /// one-line-per-result layout and reached the terminal.
    @Test func controlCharactersInNamesAreNotPrinted() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-names")
        defer { folder.remove() }
        let path = try folder.write("names.csv", "id,name,lat,lon\nx,\"Evil\u{1B}[2J\nName\u{202E}\",41.0881,29.0156\n")
        let outcome = CLI.test(["near", "41.088154", "29.015615", "--data", path])
        #expect(outcome.status == 0)
        #expect(!outcome.standardOutput.contains("\u{1B}"))
        #expect(!outcome.standardOutput.contains("\u{202E}"), "a right-to-left override cannot flip the line")
        #expect(outcome.standardOutput.split(separator: "\n").count == 2)
    }

    /// Found in review of the one vocabulary: `--data` files may hold kinds a database refuses
    /// (spaces, over 64 characters), and `near --kind` must still find them there.
    @Test func dataFilesKeepKindsADatabaseWouldRefuse() throws {
        let folder = try TemporaryDirectory(prefix: "vicinity-kinds")
        defer { folder.remove() }
        let path = try folder.write("food.csv", "id,name,lat,lon,kind\nk,Kebab,41.0881,29.0156,fast food\n")
        let outcome = CLI.test(["near", "41.088154", "29.015615", "--kind", "fast food", "--data", path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Kebab"))
        let database = CLI.test(["near", "41.088154", "29.015615", "--kind", "fast food"])
        #expect(database.status == 64)
        #expect(database.standardError.contains(#"invalid kind "fast food": expected 1 to 64 characters"#))
    }

    @Test func aPlaceAtTheQueryPointHasBearingZero() throws {
        let outcome = CLI.test(["near", "41.087853", "29.014096", "--radius", "1", "--data", Self.istanbul, "--json"])
        #expect(outcome.standardOutput.contains(#""bearing_deg":0,"distance_m":0"#))
    }

    /// Issue 15: no `--version`, though the server reports one.
    @Test func versionIsPrinted() {
        let outcome = CLI.test(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == ProductVersion.current + "\n")
    }

    /// Issue 15: every `--db` help line showed a stray backslash.
    @Test func helpHasNoStrayBackslash() {
        for command in ["near", "nearest", "map", "import", "serve", "export"] {
            let outcome = CLI.test([command, "--help"])
            #expect(outcome.status == 0 && !outcome.standardOutput.contains("\\"), "\(command)")
        }
    }

    @Test func helpIsPrintedToStandardOutput() {
        let outcome = CLI.test(["near", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("--radius"))
        #expect(outcome.standardError.isEmpty)
    }

    @Test(arguments: [
        ("-33.9", true), ("-.5", true), ("-1e3", true), ("-inf", true), ("-NaN", true),
        ("--radius", false), ("-h", false), ("-", false), ("-x1", false),
    ])
    func negativeNumberShielding(_ argument: String, _ shielded: Bool) {
        #expect(CLI.looksLikeNegativeNumber(argument) == shielded)
    }
}
