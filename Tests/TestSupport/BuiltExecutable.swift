import Foundation

/// The executables of this package as `swift build --build-tests` leaves them, beside the test
/// bundle (`vicinity`, `vicinity-bench`), for tests that run them as processes.
public enum BuiltExecutable {
    /// The executable `name` next to the test bundle, or nil when it was not built.
    public static func url(_ name: String) -> URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
        ]
        return candidates.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
