/// The map tiles the browser map (`MapPage`) draws under its markers: a URL template as Leaflet
/// reads it (`{z}`, `{x}`, `{y}`, and `{s}` for a subdomain) and the attribution its provider asks
/// for. `vicinity serve --tiles URL` chooses it; `--tiles none` draws no tiles (the ring, the
/// markers, the scale and the list do not need them).
public struct TileLayer: Sendable, Equatable {
    /// The URL of a tile, e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`.
    public let urlTemplate: String
    /// The credit shown in the map's corner, as plain text (never read as HTML).
    public let attribution: String
    /// Where the credit links to; nil for no link.
    public let attributionLink: String?
    /// The origin the tiles come from as a Content-Security-Policy source (`https://*.tile.x.org`
    /// for a `{s}` subdomain), which the page's `img-src` allows.
    public let source: String

    /// OpenStreetMap's standard tiles with the attribution its tile usage policy requires
    /// (https://operations.osmfoundation.org/policies/tiles/).
    public static let openStreetMap = TileLayer(
        checked: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", source: "https://tile.openstreetmap.org",
        attribution: "© OpenStreetMap contributors", attributionLink: "https://www.openstreetmap.org/copyright")

    private init(checked urlTemplate: String, source: String, attribution: String, attributionLink: String?) {
        self.urlTemplate = urlTemplate
        self.source = source
        self.attribution = attribution
        self.attributionLink = attributionLink
    }

    /// A tile layer from a URL template: nil when it is not an `http` or `https` URL holding
    /// `{z}`, `{x}` and `{y}`, whose host is dot-separated labels of letters, digits and `-` after
    /// an optional `{s}.` first label, with an optional port of 1 to 5 digits up to 65535 (anything
    /// else could not be allowed by a Content-Security-Policy source without allowing more).
    ///
    /// - Parameters:
    ///   - urlTemplate: e.g. `https://{s}.tile.example.org/{z}/{x}/{y}.png`.
    ///   - attribution: the credit, plain text; the host's name when empty.
    public init?(urlTemplate: String, attribution: String = "") {
        guard ["{z}", "{x}", "{y}"].allSatisfy(urlTemplate.contains),
            !urlTemplate.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "'" }),
            let schemeEnd = urlTemplate.range(of: "://")
        else { return nil }
        let scheme = urlTemplate[..<schemeEnd.lowerBound]
        guard scheme == "https" || scheme == "http" else { return nil }
        let rest = urlTemplate[schemeEnd.upperBound...]
        var authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        var wildcard = false
        if authority.hasPrefix("{s}.") {
            authority.removeFirst(4)
            wildcard = true
        }
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts[0])
        let label = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(label.contains) }) else { return nil }
        if parts.count == 2 {
            let port = parts[1]
            guard (1...5).contains(port.count), port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber),
                let number = Int(port), number <= 65_535
            else { return nil }
        }
        self.init(
            checked: urlTemplate, source: "\(scheme)://\(wildcard ? "*." : "")\(authority)",
            attribution: attribution.isEmpty ? host : attribution, attributionLink: nil)
    }
}
