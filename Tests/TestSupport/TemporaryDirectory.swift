import Foundation

/// A new, empty folder of a test's own in the system's temporary folder, named
/// `<prefix>-<UUID>` so parallel tests never share one.
public struct TemporaryDirectory: Sendable {
    /// The folder's absolute path.
    public let path: String

    /// The folder as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Creates the folder; it stays until `remove()` (or the system clears its temporary folder).
    ///
    /// - Parameter prefix: the start of the folder's name, saying which test made it.
    public init(prefix: String = "vicinity-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Runs `body` with a new, empty folder and removes the folder afterwards.
    @discardableResult
    public static func with<Result>(prefix: String = "vicinity-test", _ body: (TemporaryDirectory) throws -> Result)
        throws -> Result
    {
        let directory = try TemporaryDirectory(prefix: prefix)
        defer { directory.remove() }
        return try body(directory)
    }

    /// Deletes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The path of the file `name` in the folder (the file need not exist).
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` in the folder and returns the file's path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes UTF-8 `text` to `name` in the folder and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }
}
