import Foundation

/// A fresh directory for one test's fixture files, removed when the body returns.
struct TemporaryDirectory {
    let path: String

    /// Runs `body` with a new, empty directory and removes it afterwards.
    static func with<Result>(_ body: (TemporaryDirectory) throws -> Result) throws -> Result {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("PlacesTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(TemporaryDirectory(path: path))
    }

    /// Writes `bytes` to `name` in the directory and returns the file's path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes UTF-8 `text` to `name` in the directory and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }
}

/// The package's `Data` directory, found from this source file's path.
enum ShippedData {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data").path

    static func path(_ name: String) -> String { directory + "/" + name }
}
