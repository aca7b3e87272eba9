import Foundation
import NIOCore
import Synchronization

/// Leaflet's files, read from their folder when first asked for and kept (a few hundred KB).
final class LeafletFiles: Sendable {
    let folder: String
    private let cache = Mutex<[String: ByteBuffer]>([:])

    init(folder: String) { self.folder = folder }

    /// The files served in place of others of the same content, smaller: `leaflet.min.js` (141 KB in
    /// Debian's libjs-leaflet 1.9) for `leaflet.js` (431 KB), when the folder has it.
    static let minified = ["leaflet.js": "leaflet.min.js"]

    /// The file's bytes (its minified form's, when the folder has one); nil when it cannot be read
    /// (the package is not installed).
    func contents(of name: String) -> ByteBuffer? {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let read = { (file: String) in FileManager.default.contents(atPath: self.folder + "/" + file) }
        guard let data = LeafletFiles.minified[name].flatMap(read) ?? read(name) else { return nil }
        let buffer = ByteBuffer(bytes: data)
        cache.withLock { $0[name] = buffer }
        return buffer
    }
}
