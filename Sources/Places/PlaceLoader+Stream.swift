extension PlaceLoader {
    /// How many places a GeoJSON file gives its caller at a time when streamed.
    static let featuresPerPiece = 65_536

    /// Reads a place file piece by piece, calling `body` with each piece's places in file order.
    ///
    /// Neither format is held whole, and repeated ids are left to the caller to find: CSV is read
    /// in pieces of about `pieceBytes` (`PlaceCSVReader.stream`), GeoJSON feature by feature and
    /// given to `body` in pieces of at most 65,536 features and about `pieceBytes`
    /// (`GeoJSONReader.stream`). The format is chosen as `load` chooses it, from `source`'s name
    /// and then its first piece.
    ///
    /// - Throws: the file's first `PlacesError`, or what `body` throws.
    public static func stream(
        _ source: inout PlaceByteSource, defaultKind: String, format: Format? = nil, skipInvalid: Bool = false,
        pieceBytes: Int = 4 << 20, body: (PlaceFile) throws -> Void
    ) throws {
        let name = source.name
        var chosen = format
        if chosen == nil {
            var first: [UInt8] = []
            _ = try source.fill(&first, until: 4096)
            chosen = detectFormat(path: name, bytes: first)
            source = source.withPrefix(first)
        }
        switch chosen ?? .csv {
        case .csv:
            try PlaceCSVReader(defaultKind: defaultKind, skipInvalid: skipInvalid).stream(
                &source, file: name, pieceBytes: pieceBytes, body: body)
        case .geoJSON:
            try GeoJSONReader(defaultKind: defaultKind, skipInvalid: skipInvalid).stream(
                &source, file: name, featuresPerPiece: featuresPerPiece, pieceBytes: pieceBytes, body: body)
        }
    }
}
