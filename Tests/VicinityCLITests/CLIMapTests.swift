import Foundation
import TestSupport
import Testing

@testable import VicinityCLI

/// `vicinity map` end to end, in-process, on the shipped data: the same bytes as the TextMap golden
/// files, the `near --json` document plus cells, and errors that name the value and the range.
@Suite struct CLIMapTests {
    static let istanbul = "Data/pharmacies-istanbul-example.csv"
    static let plain = ["--ascii", "--color", "never", "--width", "80", "--height", "24"]

    /// Runs `vicinity map ARGUMENTS` as `CLI.run` would: standard output, or the error line and its
    /// exit code.
    static func map(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var output = CommandOutput(streaming: false)
        do {
            let command = try MapCommand.parse(CLI.shieldNegativeNumbers(arguments))
            try CLIEnvironment.$current.withValue(TestEnvironment.values) { try command.execute(&output) }
            return (0, output.collected, output.diagnostics)
        } catch let error as CLIError {
            return (error.exitCode, output.collected, "vicinity: \(error.description)\n")
        } catch {
            return (MapCommand.exitCode(for: error).rawValue, "", "vicinity: \(MapCommand.message(for: error))\n")
        }
    }

    /// A golden file of the TextMap tests: the command line must draw exactly what the renderer does.
    static func golden(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TextMapTests/Golden/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test(arguments: [
        (["41.088154", "29.015615", "--radius", "500", "--data", istanbul], "istanbul-500m-80x24-ascii.txt"),
        (["41.088154", "29.015615", "--radius", "100", "--data", istanbul], "istanbul-100m-80x24-ascii.txt"),
        (["51.5152", "-0.1420", "--radius", "500"], "london-oxford-circus-500m-80x24-ascii.txt"),
        (["51.5152", "-0.1420", "--radius", "800"], "london-oxford-circus-800m-80x24-ascii.txt"),
        (["51.5152", "-0.1420", "--large"], "london-oxford-circus-500m-80x24-large-ascii.txt"),
    ])
    func drawsTheGoldenMaps(arguments: [String], golden: String) throws {
        let run = Self.map(arguments + Self.plain)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == (try Self.golden(golden)))
    }

    @Test func unicodeAndColourOnRequest() throws {
        let run = Self.map([
            "41.088154", "29.015615", "--data", Self.istanbul, "--width", "60", "--height", "16", "--color", "always",
        ])
        #expect(run.output == (try Self.golden("istanbul-500m-60x16-color.txt")))
    }

    /// `--json` is `near --json` with each result's cell, plus the grid the cells are counted in.
    @Test func jsonIsTheNearDocumentWithCells() throws {
        let query = ["41.088154", "29.015615", "--radius", "700", "--data", Self.istanbul, "--json"]
        let near = CLI.test(["near"] + query)
        // A 600 m square: Omur is on the map, Emre and Arzu (over 600 m west) are not.
        // 26 lines: a 15-cell map and a quarter of the height for the list.
        let run = Self.map(query + ["--extent", "300", "--width", "80", "--height", "26"])
        #expect(run.status == 0)
        var document = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let grid = try #require(document.removeValue(forKey: "map") as? [String: Any])
        var results = try #require(document["results"] as? [[String: Any]])
        let cells = results.indices.map { results[$0].removeValue(forKey: "cell") }
        // Places are within the radius, so there is no nearest one outside it to name.
        #expect(document.removeValue(forKey: "nearest_outside") is NSNull)
        document["results"] = results
        let expected = try #require(JSONSerialization.jsonObject(with: Data(near.standardOutput.utf8)) as? NSDictionary)
        #expect(NSDictionary(dictionary: document) == expected)
        // Omur, 127.6 m west and 33.4 m south, is 3 cells west and 1 south of the centre cell (7, 7)
        // in 40 m cells.
        #expect(grid["side"] as? Int == 15)
        #expect(grid["cell_m"] as? Double == 40)
        #expect(cells[0] as? [String: Int] == ["column": 4, "row": 8])
        #expect(cells[1] is NSNull && cells[2] is NSNull)
        #expect(run.output.contains(#""cell":null"#))
    }

    @Test func everyKindAtOnce() throws {
        let folder = try TemporaryDirectory(prefix: "map-kinds")
        defer { folder.remove() }
        let file = try folder.write(
            "kinds.csv", "id,name,lat,lon,kind\np1,Omur,41.087853,29.014096,pharmacy\nu1,Ayse,41.0885,29.0158,user\n")
        let run = Self.map(["41.088154", "29.015615", "--kind", "all", "--data", file] + Self.plain)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("Places within 500 m of 41.088154, 29.015615\n"))
        // Ayse, 41 m away in 92 m cells, is in the centre cell: listed under the merged centre mark.
        #expect(run.output.hasSuffix("&  Ayse (user)       41 m  NNE\n1  Omur (pharmacy)  132 m  WSW\n"))
    }

    @Test(arguments: [
        (["--width", "10"], "invalid width \"10\": expected a whole number of columns from 30 to 1000"),
        (["--width", "80.5"], "invalid width \"80.5\": expected a whole number of columns from 30 to 1000"),
        (["--height", "abc"], "invalid height \"abc\": expected a whole number of lines from 10 to 1000"),
        (["--height", "2000"], "invalid height \"2000\": expected a whole number of lines from 10 to 1000"),
        (["--color", "sometimes"], "invalid color \"sometimes\": expected auto, always or never"),
        (["--extent", "0"], "invalid extent \"0\": expected a number of meters from 1 to 20000000 (20,000 km)"),
        // Regressions: 1e-300 trapped converting the ring's size to Int, 1e-10 allocated 34 GB.
        (
            ["--extent", "1e-300"],
            "invalid extent \"1e-300\": expected a number of meters from 1 to 20000000 (20,000 km)"
        ),
        (
            ["--extent", "1e-10"],
            "invalid extent \"1e-10\": expected a number of meters from 1 to 20000000 (20,000 km)"
        ),
        (["--extent", "nan"], "invalid extent \"nan\": expected a number of meters from 1 to 20000000 (20,000 km)"),
        (["--extent", "3e7"], "invalid extent \"3e7\": expected a number of meters from 1 to 20000000 (20,000 km)"),
        (
            ["--radius", "20000001"],
            "invalid radius \"20000001\": expected 0 to 20000000 meters"
        ),
        (["--radius", "-1"], "invalid radius \"-1\": expected 0 to 20000000 meters"),
    ])
    func badValuesAreNamedWithTheirRange(extra: [String], message: String) {
        let run = Self.map(["41.088154", "29.015615", "--data", Self.istanbul] + extra)
        #expect(run.status == 64)
        #expect(run.error == "vicinity: \(message)\n")
    }

    @Test func sizeComesFromOptionsThenEnvironmentThenTerminal() throws {
        let none: [String: String] = [:]
        #expect(try MapCommand.screenSize(width: nil, height: nil, environment: none, terminal: nil) == (80, 24))
        #expect(
            try MapCommand.screenSize(width: "100", height: "30", environment: none, terminal: (50, 20)) == (100, 30))
        // From a terminal, one line stays free for the prompt; sizes are brought into range.
        #expect(try MapCommand.screenSize(width: nil, height: nil, environment: none, terminal: (132, 43)) == (132, 42))
        let environment = ["COLUMNS": "90", "LINES": "5"]
        #expect(
            try MapCommand.screenSize(width: nil, height: nil, environment: environment, terminal: (132, 43)) == (
                90, 10
            ))
        #expect(
            try MapCommand.screenSize(width: nil, height: nil, environment: ["COLUMNS": "9000"], terminal: nil) == (
                1000, 24
            ))
    }

    @Test func colourAutoOnlyOnATerminalWithoutNoColor() throws {
        #expect(try MapCommand.useColor("auto", environment: [:], isTerminal: true))
        #expect(try !MapCommand.useColor("auto", environment: [:], isTerminal: false))
        #expect(try !MapCommand.useColor("auto", environment: ["NO_COLOR": "1"], isTerminal: true))
        #expect(try MapCommand.useColor("auto", environment: ["NO_COLOR": ""], isTerminal: true))
        #expect(try !MapCommand.useColor("auto", environment: ["TERM": "dumb"], isTerminal: true))
        #expect(try MapCommand.useColor("always", environment: ["NO_COLOR": "1"], isTerminal: false))
        #expect(try !MapCommand.useColor("never", environment: [:], isTerminal: true))
    }

    /// When nothing is within the radius the text names the nearest place; `--json` gives it too.
    @Test func jsonNamesTheNearestPlaceOutsideAnEmptyRadius() throws {
        let run = Self.map(["41.088154", "29.015615", "--radius", "100", "--data", Self.istanbul, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let document = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect((document["results"] as? [Any])?.isEmpty == true)
        let nearest = try #require(document["nearest_outside"] as? [String: Any])
        #expect(nearest["name"] as? String == "Omur")
        #expect(nearest["kind"] as? String == "pharmacy")
        #expect(nearest["id"] is String && nearest["lat"] is Double && nearest["lon"] is Double)
        let distance = try #require(nearest["distance_m"] as? Double)
        let bearing = try #require(nearest["bearing_deg"] as? Double)
        #expect(abs(distance - 131.9) < 0.1 && bearing > 247.5 && bearing < 258.75)
    }

    /// `--radius 1000000 --extent 1` took 20 s walking ring columns off screen.
    @Test func aHugeRingOnATinyMapIsQuick() throws {
        let clock = ContinuousClock()
        var run: (status: Int32, output: String, error: String)?
        let elapsed = clock.measure {
            run = Self.map(["41.088154", "29.015615", "--radius", "1000000", "--extent", "1", "--data", Self.istanbul])
        }
        #expect(run?.status == 0)
        #expect(elapsed < .seconds(5))
    }

    /// With one kind in the data, `--kind all` is a map of that kind: no "(pharmacy)" on every row.
    @Test func everyKindWithOnlyOneKindInTheData() throws {
        let run = Self.map(["41.088154", "29.015615", "--kind", "all", "--data", Self.istanbul] + Self.plain)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("Pharmacies within 500 m of 41.088154, 29.015615\n"))
        #expect(run.output.hasSuffix("1  Omur  132 m  WSW\n"))
        #expect(!run.output.contains("(pharmacy)"))
    }

    /// At `--width 30` the title ran to 42 columns, the empty message to 51, large rows to 37.
    @Test(arguments: [
        ["41.088154", "29.015615", "--data", istanbul],
        ["41.088154", "29.015615", "--radius", "100", "--data", istanbul],
        ["41.088154", "29.015615", "--radius", "100", "--data", istanbul, "--large"],
        ["51.5152", "-0.1420", "--large"],
        ["51.5152", "-0.1420", "--radius", "5000000", "--height", "60"],
    ])
    func narrowTerminalsGetLinesThatFit(arguments: [String]) throws {
        let run = Self.map(arguments + ["--width", "30", "--color", "never"])
        #expect(run.status == 0, "\(run.error)")
        // The shipped names are one column a character (TextMapTests cover wide ones).
        for line in run.output.split(separator: "\n") {
            #expect(line.count <= 30, "\(line)")
        }
    }
}
