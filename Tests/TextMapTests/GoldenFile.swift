import Foundation
import Testing

/// Golden files: committed expected output in `Golden/`, compared byte for byte.
///
/// `VICINITY_UPDATE_GOLDEN=1 swift test --filter MapGoldenTests` (or the older `UPDATE_GOLDEN=1`)
/// rewrites them in the source tree from the current output instead of comparing (see
/// `Golden/README.md`); review the diff before committing.
enum GoldenFile {
    /// The source-tree folder of the golden files, for rewriting them.
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// A file of the `Golden` resource folder in the test bundle.
    static func resource(_ name: String) throws -> String {
        guard let folder = Bundle.module.url(forResource: "Golden", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Whether this run rewrites the golden files instead of comparing.
    static var updating: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["VICINITY_UPDATE_GOLDEN"] == "1" || environment["UPDATE_GOLDEN"] == "1"
    }

    /// Expects `actual` to equal the golden file `name`, or rewrites the file with
    /// `VICINITY_UPDATE_GOLDEN=1`.
    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if updating {
            let url = sourceFolder.appendingPathComponent(name)
            #expect(throws: Never.self, sourceLocation: sourceLocation) {
                try actual.write(to: url, atomically: true, encoding: .utf8)
            }
            return
        }
        let expected = try? resource(name)
        #expect(
            expected != nil, "missing golden file \(name): run with VICINITY_UPDATE_GOLDEN=1",
            sourceLocation: sourceLocation)
        guard let expected else { return }
        #expect(
            actual == expected, "output differs from Golden/\(name):\n\(actual)\n--- expected ---\n\(expected)",
            sourceLocation: sourceLocation)
    }
}
