import Foundation
import Testing

@testable import HTTPAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The browser map's files on a real socket: what `/` and its files answer, their security
/// headers, Leaflet from its folder, and the tile URLs `--tiles` accepts. The page itself is
/// driven by headless Chromium (scripts/browser-tests.sh).
@Suite(.timeLimit(.minutes(10))) struct MapPageTests {
    /// A folder standing in for Debian's `libjs-leaflet`.
    static func leafletFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leaflet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data("/* leaflet */".utf8).write(to: folder.appendingPathComponent("leaflet.js"))
        return folder
    }

    @Test func servesThePageItsFilesAndLeafletWithAStrictPolicy() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let leaflet = try Self.leafletFolder()
        defer { try? FileManager.default.removeItem(at: leaflet) }
        let page = MapPage(tiles: .openStreetMap, leafletFolder: leaflet.path)
        let server = HTTPServer(directory: fixture.api.directory, host: "127.0.0.1", port: 0, page: page)
        let port = try await server.start()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))

        let html = try await HTTPServerTests.request("GET", base)
        #expect(html.status == 200 && html.headers["content-type"] == "text/html; charset=utf-8")
        #expect(html.body.contains(#"<script src="/map.js" defer></script>"#))
        let tiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        #expect(html.body.contains(#"<meta name="vicinity-tiles" content="\#(tiles)">"#))
        #expect(!html.body.contains("<script>") && !html.body.contains("<style") && !html.body.contains("style="))
        // The token is kept for the tab only: no password manager is invited to store it.
        #expect(html.body.contains(#"type="password" autocomplete="off""#) && !html.body.contains("current-password"))
        let policy = try #require(html.headers["content-security-policy"])
        #expect(policy.contains("script-src 'self'") && policy.contains("style-src 'self'"))
        #expect(policy.contains("img-src 'self' https://tile.openstreetmap.org;"))
        #expect(policy.contains("connect-src 'self'") && policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe") && html.headers["x-content-type-options"] == "nosniff")

        var total = 0
        for (path, contentType) in MapPage.ownFiles {
            let answer = try await HTTPServerTests.request("GET", try #require(URL(string: path, relativeTo: base)))
            #expect(answer.status == 200 && answer.headers["content-type"] == contentType, "\(path)")
            #expect(answer.headers["content-security-policy"] == policy, "\(path)")
            total += answer.body.utf8.count
            let head = try await HTTPServerTests.request("HEAD", try #require(URL(string: path, relativeTo: base)))
            #expect(head.status == 200 && head.body.isEmpty, "\(path)")
        }
        #expect(total < 50_000, "the page's own files: \(total) bytes")

        let script = try await HTTPServerTests.request("GET", base.appendingPathComponent("leaflet/leaflet.js"))
        #expect(script.status == 200 && script.body == "/* leaflet */")
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        // Leaflet is cached a day (it changes only with the package); the page's own files never are.
        #expect(script.headers["cache-control"] == "max-age=86400" && html.headers["cache-control"] == "no-cache")
        // A file of the list that the folder lacks, and one not in the list.
        let missing = try await HTTPServerTests.request("GET", base.appendingPathComponent("leaflet/leaflet.css"))
        #expect(missing.status == 404 && missing.headers["content-type"] == "application/problem+json")
        // A file in Leaflet's folder but not in the list is not served.
        try Data("secret".utf8).write(to: leaflet.appendingPathComponent("notes.txt"))
        let other = try await HTTPServerTests.request("GET", base.appendingPathComponent("leaflet/notes.txt"))
        #expect(other.status == 404 && !other.body.contains("secret"))
        let post = try await HTTPServerTests.request("POST", base)
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
        await server.shutdown()
    }

    @Test func thePageWaitsForTheKeepAlivesOfItsServersStreams() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let server = HTTPServer(
            directory: fixture.api.directory, host: "127.0.0.1", port: 0,
            watchStreams: WatchStreamSettings(heartbeatSeconds: 90), page: MapPage(tiles: nil))
        let port = try await server.start()
        let html = try await HTTPServerTests.request("GET", try #require(URL(string: "http://127.0.0.1:\(port)/")))
        #expect(html.body.contains(#"<meta name="vicinity-heartbeat" content="90.0">"#))
        #expect(MapPage.script.contains("Number(meta('vicinity-heartbeat'))"))
        await server.shutdown()
    }

    @Test func leafletIsServedMinifiedWhenThePackageHasItsMinifiedFile() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let leaflet = try Self.leafletFolder()
        defer { try? FileManager.default.removeItem(at: leaflet) }
        try Data("/*min*/".utf8).write(to: leaflet.appendingPathComponent("leaflet.min.js"))
        let page = MapPage(tiles: nil, leafletFolder: leaflet.path)
        let server = HTTPServer(directory: fixture.api.directory, host: "127.0.0.1", port: 0, page: page)
        let port = try await server.start()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/leaflet/leaflet.js"))
        let script = try await HTTPServerTests.request("GET", url)
        #expect(script.status == 200 && script.body == "/*min*/")
        await server.shutdown()
    }

    @Test func withoutTilesThePageAllowsImagesFromItselfOnly() {
        let page = MapPage(tiles: nil)
        #expect(page.contentSecurityPolicy.contains("img-src 'self';"))
        #expect(page.html.contains(#"<meta name="vicinity-tiles" content="">"#))
    }

    @Test(arguments: [
        ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", "https://tile.openstreetmap.org"),
        ("https://{s}.tile.example.org/{z}/{x}/{y}.png", "https://*.tile.example.org"),
        ("http://127.0.0.1:8081/tiles/{z}/{x}/{y}.png", "http://127.0.0.1:8081"),
    ])
    func aTileURLAllowsItsOriginOnly(url: String, source: String) throws {
        let layer = try #require(TileLayer(urlTemplate: url))
        #expect(layer.source == source)
        #expect(MapPage(tiles: layer).contentSecurityPolicy.contains("img-src 'self' \(source);"))
    }

    @Test(arguments: [
        "https://tile.example.org/{z}/{x}.png", "ftp://tile.example.org/{z}/{x}/{y}.png",
        "https://tile.example.org;script-src */{z}/{x}/{y}", "https://a b/{z}/{x}/{y}", "https:///{z}/{x}/{y}",
        "https://x.org/{z}/{x}/{y}\"><script>", "https://*.x.org/{z}/{x}/{y}",
        // A colon is only the port's, and a port is 1 to 5 digits up to 65535; labels are not empty.
        "https://a:b:c/{z}/{x}/{y}", "https://host:abc/{z}/{x}/{y}", "https://host:70000/{z}/{x}/{y}",
        "https://host:/{z}/{x}/{y}", "https://a..b/{z}/{x}/{y}", "https://:80/{z}/{x}/{y}",
    ])
    func aTileURLThatAPolicyCouldNotNameExactlyIsRefused(url: String) {
        #expect(TileLayer(urlTemplate: url) == nil)
    }

    @Test func theAttributionIsAnAttributeValueNeverMarkup() {
        let layer = TileLayer(urlTemplate: "https://t.example.org/{z}/{x}/{y}.png", attribution: #"<b>"A&B"</b>"#)
        let html = MapPage(tiles: layer).html
        #expect(html.contains(#"content="&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;""#))
    }
}
