import Foundation
import Testing

/// The README's map examples are the golden files, so they cannot drift from what is drawn; and it
/// tells `redis-cli` users to ask for `--raw`, without which `MAP` prints as one quoted line of
/// `\n` and `\xe2\x94\x8c` escapes.
@Suite struct ReadmeMapTests {
    static func readme() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test(arguments: [
        ("vicinity map 41.088154 29.015615 --ascii ", "istanbul-500m-80x24-ascii.txt"),
        (
            "vicinity map 41.088154 29.015615 --data crowded.csv --ascii --width 60 --height 20",
            "crowded-500m-60x20-ascii.txt"
        ),
    ])
    func mapExamplesAreTheGoldenFiles(command: String, golden: String) throws {
        let readme = try Self.readme()
        let start = try #require(readme.range(of: "$ " + command))
        let example = readme[start.upperBound...].drop { $0 != "\n" }.dropFirst()
        let end = try #require(example.range(of: "```"))
        #expect(String(example[..<end.lowerBound]) == (try GoldenFile.resource(golden)))
    }

    @Test func redisCliIsToldToUseRaw() throws {
        let readme = try Self.readme()
        #expect(readme.contains("$ redis-cli -p 7878 --raw MAP 41.088154 29.015615"))
        #expect(readme.contains("so ask it for the raw bytes with `--raw`"))
    }
}
