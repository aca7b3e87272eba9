import Foundation

@testable import VicinityCLI

/// The environment in-process command lines see: a home folder of this test run's own (its
/// default database created and seeded once, here), so no test touches the real home folder.
enum TestEnvironment {
    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data").path

    static let values: [String: String] = {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("vicinity-cli-home-\(UUID())").path
        let environment = ["HOME": home, "VICINITY_DATA": dataFolder]
        let seeding = CLI.run(["nearest", "0", "0", "--count", "1"], environment: environment)
        precondition(seeding.status == 0, "seeding the test database failed: \(seeding.standardError)")
        return environment
    }()

    /// A fresh database path in a folder of its own.
    static func freshDatabase() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vicinity-cli-db-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("test.sqlite").path
    }
}

extension CLI {
    /// Runs a command line in-process with `TestEnvironment.values`, plus `extra` variables.
    static func test(_ arguments: [String], environment extra: [String: String] = [:]) -> Outcome {
        run(arguments, environment: TestEnvironment.values.merging(extra) { $1 })
    }
}
