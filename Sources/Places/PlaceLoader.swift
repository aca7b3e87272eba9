/// Reads a place file, choosing the reader from the file name or, failing that, the content.
///
/// `.csv` is read as CSV, `.geojson` and `.json` as GeoJSON (extensions in any letter case). Any
/// other name is sniffed: a file whose first byte other than white space (after an optional UTF-8
/// byte order mark) is `{` is GeoJSON, anything else CSV.
///
/// ```swift
/// let file = try PlaceLoader.load(path: "Data/pharmacies-london.csv", defaultKind: "pharmacy")
/// ```
public enum PlaceLoader {
    /// A place file format.
    public enum Format: String, Sendable, CaseIterable {
        /// RFC 4180 CSV with an `id,name,lat,lon` header; see `PlaceCSVReader`.
        case csv
        /// A GeoJSON FeatureCollection of Points; see `GeoJSONReader`.
        case geoJSON = "geojson"
    }

    /// Reads the places in the file at `path`.
    ///
    /// - Parameters:
    ///   - path: the file; messages and origins name it as given.
    ///   - defaultKind: the kind of places whose row or feature does not set one.
    ///   - format: the format, or nil to choose by name and content.
    ///   - skipInvalid: leave bad rows or features out (listed in `PlaceFile.skipped`) instead of
    ///     stopping at the first.
    public static func load(path: String, defaultKind: String, format: Format? = nil, skipInvalid: Bool = false)
        throws(PlacesError) -> PlaceFile
    {
        try load(
            bytes: SourceFile.bytes(atPath: path), name: path, defaultKind: defaultKind, format: format,
            skipInvalid: skipInvalid)
    }

    /// Reads places from bytes already in memory (standard input, a request body).
    ///
    /// - Parameters:
    ///   - name: what messages and origins call the source (`<stdin>`); its extension, if any,
    ///     chooses the format as a file name would.
    ///   - defaultKind, format, skipInvalid: as for `load(path:defaultKind:format:skipInvalid:)`.
    public static func load(
        bytes: [UInt8], name: String, defaultKind: String, format: Format? = nil, skipInvalid: Bool = false
    ) throws(PlacesError) -> PlaceFile {
        switch format ?? detectFormat(path: name, bytes: bytes) {
        case .csv:
            return try PlaceCSVReader(defaultKind: defaultKind, skipInvalid: skipInvalid).parse(bytes, file: name)
        case .geoJSON:
            return try GeoJSONReader(defaultKind: defaultKind, skipInvalid: skipInvalid).parse(bytes, file: name)
        }
    }

    /// The format for a file, by extension first and then by its first significant byte.
    public static func detectFormat(path: String, bytes: [UInt8]) -> Format {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: ".") {
            switch name[name.index(after: dot)...].lowercased() {
            case "csv": return .csv
            case "geojson", "json": return .geoJSON
            default: break
            }
        }
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let whiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        let first = content.first { !whiteSpace.contains($0) }
        return first == UInt8(ascii: "{") ? .geoJSON : .csv
    }
}
