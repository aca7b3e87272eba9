import Foundation

/// The package's `Data` directory, found from this source file's path.
enum ShippedData {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data").path

    static func path(_ name: String) -> String { directory + "/" + name }
}
