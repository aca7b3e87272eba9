import Foundation
import TestSupport

@testable import VicinityCLI

/// The environment in-process command lines see: a home folder of this test run's own (its
/// default database created and seeded once, here), so no test touches the real home folder.
enum TestEnvironment {
    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data").path

    static let values: [String: String] = {
        guard let home = try? TemporaryDirectory(prefix: "vicinity-cli-home").path else {
            preconditionFailure("cannot create a home folder for the tests")
        }
        let environment = ["HOME": home, "VICINITY_DATA": dataFolder]
        let seeding = CLI.run(["nearest", "0", "0", "--count", "1"], environment: environment)
        precondition(seeding.status == 0, "seeding the test database failed: \(seeding.standardError)")
        return environment
    }()

    /// A fresh database path in a folder of its own.
    static func freshDatabase() -> String {
        guard let folder = try? TemporaryDirectory(prefix: "vicinity-cli-db") else {
            preconditionFailure("cannot create a folder for a test database")
        }
        return folder.file("test.sqlite")
    }
}

extension CLI {
    /// Runs a command line in-process with `TestEnvironment.values`, plus `extra` variables, and
    /// `input` as its standard input (`-`).
    static func test(_ arguments: [String], environment extra: [String: String] = [:], input: String? = nil)
        -> Outcome
    {
        run(
            arguments, environment: TestEnvironment.values.merging(extra) { $1 },
            standardInput: input.map { Array($0.utf8) })
    }
}
