import Foundation
import Places
import PlacesSQLite
import TestSupport
import Testing

@testable import VicinityCLI

/// Issue 15, the shell: what a person or a script meets around the commands themselves — standard
/// input, output formats, errors a program can read, suggestions for typos.
@Suite struct CLIShellTests {
    static let istanbul = "Data/pharmacies-istanbul-example.csv"
    static let here = ["41.088154", "29.015615"]

    static func istanbulText() throws -> String {
        try String(contentsOfFile: TestEnvironment.dataFolder + "/pharmacies-istanbul-example.csv", encoding: .utf8)
    }

    // MARK: - Standard input

    @Test func importReadsStandardInput() throws {
        let db = TestEnvironment.freshDatabase()
        let imported = CLI.test(["import", "-", "--kind", "pharmacy", "--db", db], input: try Self.istanbulText())
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasPrefix("Imported 3 places into \(db)"))
        #expect(try SQLitePlaceStore(path: db).places().map(\.id) == ["arzu", "emre", "omur"])
    }

    @Test func importReadsGeoJSONFromStandardInputByItsContent() throws {
        let db = TestEnvironment.freshDatabase()
        let geojson =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","#
            + #""geometry":{"type":"Point","coordinates":[29,41]},"properties":{"name":"A"}}]}"#
        let imported = CLI.test(["import", "-", "--kind", "cafe", "--db", db], input: geojson)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try SQLitePlaceStore(path: db).places().map(\.id) == ["a"])
    }

    @Test func dataReadsStandardInputAndNamesItInMessages() throws {
        let near = CLI.test(["near"] + Self.here + ["--radius", "700", "--data", "-"], input: try Self.istanbulText())
        #expect(near.status == 0, "\(near.standardError)")
        #expect(near.standardOutput.hasPrefix("3 pharmacies within 700 m"))
        let bad = CLI.test(["near"] + Self.here + ["--data", "-"], input: "id,name,lat,lon\na,A,95,29\n")
        #expect(bad.status == 65)
        #expect(bad.standardError.hasPrefix("vicinity: <stdin>:2: invalid latitude \"95\""), "\(bad.standardError)")
    }

    @Test func standardInputIsReadOnce() {
        let outcome = CLI.test(["near"] + Self.here + ["--data", "-", "--data", "-"], input: "")
        #expect(outcome.status == 64)
        #expect(outcome.standardError == "vicinity: standard input (-) can be read only once\n")
    }

    // MARK: - GeoJSON results

    @Test(arguments: ["near", "nearest"])
    func resultsAsGeoJSON(command: String) throws {
        let outcome = CLI.test([command] + Self.here + ["--data", Self.istanbul, "--format", "geojson"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(document["type"] as? String == "FeatureCollection")
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == (command == "near" ? 1 : 3))
        let first = features[0]
        #expect(first["id"] as? String == "omur")
        let geometry = try #require(first["geometry"] as? [String: Any])
        #expect(geometry["coordinates"] as? [Double] == [29.014096, 41.087853], "longitude first")
        let properties = try #require(first["properties"] as? [String: Any])
        #expect(properties["name"] as? String == "Omur")
        #expect(properties["kind"] as? String == "pharmacy")
        #expect(properties["distance_m"] as? Double == 131.936)
        #expect(properties["bearing_deg"] as? Double == 255.32)
        #expect(outcome.standardOutput.contains(#""distance_m":131.936,"bearing_deg":255.32}"#))
        #expect(outcome.standardOutput.hasPrefix(#"{"type":"FeatureCollection","features":["#))
    }

    @Test func formatAndJSONAgreeOrAreRefused() {
        let base = ["near"] + Self.here + ["--data", Self.istanbul]
        #expect(CLI.test(base + ["--format", "json"]).standardOutput == CLI.test(base + ["--json"]).standardOutput)
        let both = CLI.test(base + ["--json", "--format", "geojson"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("--json and --format geojson exclude each other"))
        let unknown = CLI.test(base + ["--format", "kml"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError == "vicinity: invalid format \"kml\": expected text, json or geojson\n")
    }

    // MARK: - Errors as JSON

    @Test(
        arguments: [
            (
                ["near", "91", "29", "--json"], 64,
                #"invalid latitude \"91\": expected a number of degrees from -90 to 90"#
            ),
            (["near", "41", "29", "--json", "--data", "/nonexistent.csv"], 66, "/nonexistent.csv"),
            (["near", "41", "29", "--json", "--radus", "5"], 64, "unknown option '--radus'"),
        ] as [([String], Int32, String)])
    func errorsAreJSONUnderJSON(arguments: [String], status: Int32, message: String) throws {
        let outcome = CLI.test(arguments)
        #expect(outcome.status == status)
        #expect(outcome.standardOutput.isEmpty)
        let line = outcome.standardError.trimmingCharacters(in: .newlines)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(document["exit_code"] as? Int == Int(status))
        #expect(line.contains(message), "\(line)")
        let plain = CLI.test(arguments.filter { $0 != "--json" })
        #expect(plain.status == status)
        #expect(plain.standardError == "vicinity: \(document["error"] as? String ?? "")\n", "the same message")
    }

    // MARK: - Did you mean

    @Test(arguments: [
        (["nera", "41", "29"], "unknown command 'nera'. Did you mean 'near'?"),
        (["neares", "41", "29"], "unknown command 'neares'. Did you mean 'nearest'?"),
        (["near", "41", "29", "--radus", "5"], "unknown option '--radus'. Did you mean '--radius'?"),
        (["nearest", "41", "29", "--cout", "5"], "unknown option '--cout'. Did you mean '--count'?"),
        (["user", "lst"], "unknown command 'lst'. Did you mean 'list'?"),
        (["export", "--kind", "all", "--fromat", "csv"], "unknown option '--fromat'. Did you mean '--format'?"),
    ])
    func mistypedNamesGetASuggestion(arguments: [String], message: String) {
        let outcome = CLI.test(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.standardError == "vicinity: \(message)\n", "\(outcome.standardError)")
    }

    @Test(arguments: [["frobnicate"], ["near", "41", "29", "--frobnicate-everything"], ["user", "xyz"]])
    func farNamesGetNoSuggestion(arguments: [String]) {
        let outcome = CLI.test(arguments)
        #expect(outcome.status == 64)
        #expect(!outcome.standardError.lowercased().contains("did you mean"), "\(outcome.standardError)")
    }

    @Test func editDistanceCountsASwapOfNeighboursAsOne() {
        #expect(Suggestion.editDistance(Array("nera"), Array("near")) == 1)
        #expect(Suggestion.editDistance(Array("radus"), Array("radius")) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.closest(to: "map", among: ["near", "dist"]) == nil)
    }

    // MARK: - Swapped coordinates

    @Test func anImpossibleLatitudeThatIsALongitudeSuggestsTheSwap() {
        let outcome = CLI.test(["near", "151.2", "-33.9"])
        #expect(outcome.status == 64)
        #expect(
            outcome.standardError
                == "vicinity: invalid latitude \"151.2\": expected a number of degrees from -90 to 90; "
                + "did you swap latitude and longitude? try `vicinity near -33.9 151.2`\n")
        let nearest = CLI.test(["nearest", "151.2", "-33.9"])
        #expect(nearest.standardError.hasSuffix("try `vicinity nearest -33.9 151.2`\n"))
        let dist = CLI.test(["dist", "41", "29", "151.2", "-33.9"])
        #expect(dist.standardError.hasSuffix("try `vicinity dist 41 29 -33.9 151.2`\n"), "\(dist.standardError)")
    }

    @Test(arguments: [["near", "151.2", "95"], ["near", "200", "-33.9"], ["near", "91", "abc"]])
    func noSwapHintWhenSwappingWouldNotHelp(arguments: [String]) {
        let outcome = CLI.test(arguments)
        #expect(outcome.status == 64)
        #expect(!outcome.standardError.contains("swap"), "\(outcome.standardError)")
    }

    // MARK: - One meaning of --kind all

    @Test(arguments: ["near", "nearest"])
    func kindAllSearchesEveryKind(command: String) throws {
        let db = TestEnvironment.freshDatabase()
        #expect(CLI.test(["import", Self.istanbul, "--kind", "pharmacy", "--db", db]).status == 0)
        let cafes = "id,name,lat,lon\ncafe1,Kahve,41.0882,29.0157\n"
        #expect(CLI.test(["import", "-", "--kind", "cafe", "--db", db], input: cafes).status == 0)
        let outcome = CLI.test([command] + Self.here + ["--kind", "all", "--db", db, "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.isEmpty, "no warning about a kind named all")
        #expect(outcome.standardOutput.contains(#""kind":"cafe""#) && outcome.standardOutput.contains("omur"))
        let text = CLI.test([command] + Self.here + ["--kind", "all", "--db", db])
        #expect(text.standardOutput.contains("places"), "\(text.standardOutput)")
    }

    @Test func aKindNamedAllIsRefusedWhereverPlacesAreWritten() throws {
        let db = TestEnvironment.freshDatabase()
        let option = CLI.test(["import", "-", "--kind", "all", "--db", db], input: "id,name,lat,lon\na,A,1,1\n")
        #expect(option.status == 64)
        #expect(option.standardError.contains(#"kind "all" is reserved: --kind all means every kind"#))
        let column = CLI.test(
            ["import", "-", "--kind", "cafe", "--db", db], input: "id,name,lat,lon,kind\na,A,1,1,all\n")
        #expect(column.status == 65, "\(column.standardError)")
        #expect(column.standardError.contains(#"kind "all" is reserved"#))
        #expect(throws: PlacesError.reservedKind("all")) { try PlaceDirectory.validatePlace(kind: "all", id: "a") }
    }

    // MARK: - Help

    /// Issue 15: `serve --help` showed the thread default twice, "(default: one per core)
    /// (default: 2)".
    @Test func theThreadsDefaultIsShownOnce() throws {
        let help = CLI.test(["serve", "--help"]).standardOutput
        let start = try #require(help.range(of: "--threads <threads>"))
        let rest = help[start.upperBound...]
        let entry = rest.range(of: "\n  -").map { rest[..<$0.lowerBound] } ?? rest
        let words = entry.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words == "Event-loop threads answering clients (default: one per core).", "\(entry)")
        #expect(CLI.serveEventLoopThreads(["--threads", "3"]) == 3)
        #expect(CLI.serveEventLoopThreads([]) == min(256, ProcessInfo.processInfo.activeProcessorCount))
    }
}
