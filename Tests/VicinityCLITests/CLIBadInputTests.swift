import Foundation
import TestSupport
import Testing

@testable import VicinityCLI

/// Bad command lines and bad data files: each gives exactly one line on standard error, naming
/// the value and the valid range, and the sysexits code (64 usage, 65 data, 66 no input).
@Suite struct CLIBadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let istanbul = "Data/pharmacies-istanbul-example.csv"

    static let usageCases: [Case] = [
        Case(
            arguments: ["near", "91", "29"], status: 64,
            message: "invalid latitude \"91\": expected a number of degrees from -90 to 90; "
                + "did you swap latitude and longitude? try `vicinity near 29 91`"),
        Case(
            arguments: ["near", "91", "129"], status: 64,
            message: "invalid latitude \"91\": expected a number of degrees from -90 to 90"),
        Case(
            arguments: ["near", "-90.0001", "129"], status: 64,
            message: "invalid latitude \"-90.0001\": expected a number of degrees from -90 to 90"),
        Case(
            arguments: ["near", "abc", "29"], status: 64,
            message: "invalid latitude \"abc\": expected a number of degrees from -90 to 90"),
        Case(
            arguments: ["near", "nan", "29"], status: 64,
            message: "invalid latitude \"nan\": expected a number of degrees from -90 to 90"),
        Case(
            arguments: ["near", "-inf", "29"], status: 64,
            message: "invalid latitude \"-inf\": expected a number of degrees from -90 to 90"),
        Case(
            arguments: ["near", "0x1p5", "29"], status: 64,
            message: "invalid latitude \"0x1p5\": expected a number of degrees from -90 to 90"),
        Case(
            arguments: ["near", "41", "180.5"], status: 64,
            message: "invalid longitude \"180.5\": expected a number of degrees from -180 to 180"),
        Case(
            arguments: ["near", "41", "29,5"], status: 64,
            message: "invalid longitude \"29,5\": expected a number of degrees from -180 to 180"),
        Case(
            arguments: ["near", "41", "1e400"], status: 64,
            message: "invalid longitude \"1e400\": expected a number of degrees from -180 to 180"),
        Case(
            arguments: ["near", "41", "29", "--radius", "-5"], status: 64,
            message: "invalid radius \"-5\": expected 0 to 20000000 meters"),
        Case(
            arguments: ["near", "41", "29", "--radius", "inf"], status: 64,
            message: "invalid radius \"inf\": expected 0 to 20000000 meters"),
        Case(
            arguments: ["near", "41", "29", "--radius", "500m"], status: 64,
            message: "invalid radius \"500m\": expected 0 to 20000000 meters"),
        Case(
            arguments: ["near", "41", "29", "--limit", "0"], status: 64,
            message: "invalid limit \"0\": expected a whole number from 1 to 10000"),
        Case(
            arguments: ["nearest", "41", "29", "--count", "2.5"], status: 64,
            message: "invalid count \"2.5\": expected a whole number from 1 to 10000"),
        Case(
            arguments: ["nearest", "41", "29", "--max-distance", "-1"], status: 64,
            message: "invalid max distance \"-1\": expected 0 to 20000000 meters"),
        Case(
            arguments: ["near", "41", "29", "--model", "flat"], status: 64,
            message: "invalid model \"flat\": expected geodesic, haversine or projected"),
        Case(
            arguments: ["near", "41", "29", "--model", "haversine", "--sphere-radius", "0"], status: 64,
            message: "invalid sphere radius \"0\": expected 1 to 10000000 meters"),
        Case(
            arguments: ["near", "41", "29", "--model", "haversine", "--sphere-radius", "1e-155"], status: 64,
            message: "invalid sphere radius \"1e-155\": expected 1 to 10000000 meters"),
        Case(
            arguments: ["near", "41", "29", "--crs", "EPSG:3857"], status: 64,
            message: "--crs applies only to --model projected"),
        Case(
            arguments: ["near", "41", "29", "--sphere-radius", "6372797.560856"], status: 64,
            message: "--sphere-radius applies only to --model haversine"),
        Case(
            arguments: ["near", "41", "29", "--kind", ""], status: 64,
            message: "invalid kind \"\": expected 1 to 64 characters, no spaces or control characters"),
        Case(
            arguments: ["near", "41", "29", "--model", "projected", "--crs", "EPSG:4326"], status: 64,
            message:
                "CRS \"EPSG:4326\" is not a projected CRS: expected auto or a projected CRS such as EPSG:32635"),
        Case(
            arguments: ["near", "41", "29", "--model", "projected", "--crs", "EPSG:999999"], status: 64,
            message:
                "unknown CRS \"EPSG:999999\": not recognized by PROJ (expected auto or a projected CRS such as EPSG:32635)"
        ),
        Case(
            arguments: ["dist", "41", "29", "41", "200"], status: 64,
            message: "invalid longitude \"200\": expected a number of degrees from -180 to 180"),
        Case(arguments: ["near", "41"], status: 64, message: "missing expected argument '<longitude>'"),
        Case(arguments: ["near", "41", "29", "30"], status: 64, message: "unexpected argument '30'"),
        Case(
            arguments: ["near", "41", "29", "--radios", "5"], status: 64,
            message: "unknown option '--radios'. Did you mean '--radius'?"),
        Case(
            arguments: ["near", "41", "29", "--data", "/nonexistent/places.csv"], status: 66,
            message: "/nonexistent/places.csv: cannot read: No such file or directory"),
    ]

    @Test(arguments: usageCases)
    func usageErrors(_ test: Case) {
        let outcome = CLI.test(test.arguments)
        #expect(outcome.status == test.status)
        #expect(outcome.standardError == "vicinity: \(test.message)\n")
        #expect(outcome.standardOutput.isEmpty)
    }

    /// Bad rows in a data file: `file:line:` then the value and the valid range.
    static let dataCases: [(name: String, content: String, message: String)] = [
        (
            "latitude out of range", "id,name,lat,lon\na,A,41,29\nb,B,95,29\n",
            ":3: invalid latitude \"95\": expected a number of degrees from -90 to 90"
        ),
        (
            "longitude not a number", "id,name,lat,lon\na,A,41,east\n",
            ":2: invalid longitude \"east\": expected a number of degrees from -180 to 180"
        ),
        (
            "NaN latitude", "id,name,lat,lon\na,A,NaN,29\n",
            ":2: invalid latitude \"NaN\": expected a number of degrees from -90 to 90"
        ),
        (
            "empty longitude", "id,name,lat,lon\na,A,41,\n",
            ":2: invalid longitude \"\": expected a number of degrees from -180 to 180"
        ),
        ("short row", "id,name,lat,lon\na,A,41\n", ":2: expected 4 fields as in the header, found 3"),
        (
            "missing column", "id,name,latitude,lon\na,A,41,29\n",
            ": missing required column \"lat\" (the header needs id,name,lat,lon)"
        ),
        ("duplicate id", "id,name,lat,lon\na,A,41,29\na,B,41,29\n", ":3: duplicate id \"a\" (first at line 2)"),
        ("empty id", "id,name,lat,lon\n,A,41,29\n", ":2: empty id"),
        ("unterminated quote", "id,name,lat,lon\na,\"A,41,29\n", ":2: unterminated quoted field"),
    ]

    @Test(arguments: dataCases.indices)
    func dataErrors(_ position: Int) throws {
        let test = CLIBadInputTests.dataCases[position]
        let folder = try TemporaryDirectory(prefix: "vicinity-bad")
        defer { folder.remove() }
        let path = try folder.write("bad-\(position).csv", test.content)
        let outcome = CLI.test(["near", "41", "29", "--data", path])
        #expect(outcome.status == 65, "\(test.name)")
        #expect(outcome.standardError == "vicinity: \(path)\(test.message)\n", "\(test.name)")
        #expect(outcome.standardOutput.isEmpty)
    }
}
