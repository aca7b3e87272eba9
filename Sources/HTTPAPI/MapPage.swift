import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The map in the browser (issue 21): `GET /` serves a page that shows the pharmacies around a
/// location and the public users around a signed-in user, over the public HTTP API only.
///
/// The page is HTML, one stylesheet and one script of ours (`/map.css`, `/map.js`, with a small
/// icon), held in the binary, and Leaflet, served from where Debian's `libjs-leaflet` installs it
/// (`/leaflet/…` from `/usr/share/javascript/leaflet`; nothing of Leaflet is in this repository).
/// These routes are not operations of openapi.yaml: they are added to the router beside the
/// generated ones, as files a browser loads rather than an API a client is generated for.
///
/// Every answer of the page carries a strict Content-Security-Policy: scripts and styles from the
/// server only (no inline script or style), images from the server and the tile host, requests
/// to the server only, no framing.
public struct MapPage: Sendable {
    /// The tiles under the map; nil for none.
    public let tiles: TileLayer?
    /// Where Leaflet's files are read from.
    let leafletFolder: String
    /// Seconds between the watch streams' keep-alive comments (`WatchStreamSettings`), more than 0:
    /// the page takes a stream silent for three of them for lost. The server sets it from its own.
    public internal(set) var heartbeatSeconds: Double = WatchStreamSettings().heartbeatSeconds

    /// Where Debian's `libjs-leaflet` installs Leaflet.
    public static let debianLeafletFolder = "/usr/share/javascript/leaflet"

    /// - Parameters:
    ///   - tiles: the tile layer, OpenStreetMap's standard tiles unless told; nil for none.
    ///   - leafletFolder: the folder holding `leaflet.js`, `leaflet.css` and `images/`.
    public init(tiles: TileLayer? = .openStreetMap, leafletFolder: String = MapPage.debianLeafletFolder) {
        self.tiles = tiles
        self.leafletFolder = leafletFolder
    }

    /// This page for a server whose watch streams send a keep-alive every `seconds` (more than 0).
    func with(heartbeatSeconds seconds: Double) -> MapPage {
        var page = self
        page.heartbeatSeconds = seconds
        return page
    }

    /// The Content-Security-Policy of the page and its files.
    var contentSecurityPolicy: String {
        let images = ["'self'"] + (tiles.map { [$0.source] } ?? [])
        return [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src \(images.joined(separator: " "))",
            "connect-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The paths of the page's own files and their content types, as served.
    static let ownFiles: [(path: String, contentType: String)] = [
        ("/", "text/html; charset=utf-8"), ("/map.js", "text/javascript; charset=utf-8"),
        ("/map.css", "text/css; charset=utf-8"), ("/favicon.svg", "image/svg+xml"),
    ]

    /// The Leaflet files the page loads, by their path under `/leaflet/` (the images are those
    /// `leaflet.css` names).
    static let leafletFiles: [String: String] = [
        "leaflet.js": "text/javascript; charset=utf-8", "leaflet.css": "text/css; charset=utf-8",
        "images/layers.png": "image/png", "images/layers-2x.png": "image/png",
        "images/marker-icon.png": "image/png", "images/marker-icon-2x.png": "image/png",
        "images/marker-shadow.png": "image/png",
    ]

    /// The body of one of the page's own files (`ownFiles`).
    func body(of path: String) -> String? {
        switch path {
        case "/": html
        case "/map.js": MapPage.script
        case "/map.css": MapPage.style
        case "/favicon.svg": MapPage.icon
        default: nil
        }
    }

    /// Adds the page's routes to `router` (GET, and HEAD by the router's option) and to `table`.
    func register(on router: Router<VicinityRequestContext>, table: RouteTable) {
        let headers = baseHeaders
        for (path, contentType) in MapPage.ownFiles {
            guard let body = body(of: path) else { continue }
            let buffer = ByteBuffer(string: body)
            table.record(.get, path: path)
            table.record(.head, path: path)
            router.get(RouterPath(path)) { _, _ in
                var fields = headers
                fields[.contentType] = contentType
                return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: buffer))
            }
        }
        let leaflet = LeafletFiles(folder: leafletFolder)
        for (name, contentType) in MapPage.leafletFiles {
            let path = "/leaflet/" + name
            table.record(.get, path: path)
            table.record(.head, path: path)
            router.get(RouterPath(path)) { _, _ in
                guard let buffer = leaflet.contents(of: name) else {
                    return HTTPAPIError.noSuchRoute(path: path).response
                }
                var fields = headers
                fields[.contentType] = contentType
                // Leaflet's files change only with the package: a day in the browser's cache.
                fields[.cacheControl] = "max-age=86400"
                return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: buffer))
            }
        }
    }

    /// The headers every file of the page is served with.
    private var baseHeaders: HTTPFields {
        var fields = HTTPFields()
        fields[.contentSecurityPolicy] = contentSecurityPolicy
        fields[.xContentTypeOptions] = "nosniff"
        fields[.cacheControl] = "no-cache"
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { fields[referrerPolicy] = "no-referrer" }
        return fields
    }
}
