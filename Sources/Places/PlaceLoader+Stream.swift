extension PlaceLoader {
    /// How many places a GeoJSON file gives its caller at a time when streamed.
    static let featuresPerPiece = 65_536

    /// Reads a place file piece by piece, calling `body` with each piece's places in file order.
    ///
    /// CSV is read in pieces of about `pieceBytes` and never held whole (see
    /// `PlaceCSVReader.stream`: repeated ids are left to the caller to find); GeoJSON is read
    /// whole, as `load` does, and given to `body` in pieces of 65,536 features. The format is chosen
    /// as `load` chooses it, from `source`'s name and then its first piece.
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
            var bytes: [UInt8] = []
            while !(try source.fill(&bytes, until: bytes.count + (1 << 24))) {}
            let file = try GeoJSONReader(defaultKind: defaultKind, skipInvalid: skipInvalid).parse(bytes, file: name)
            bytes = []
            if !file.skipped.isEmpty {
                try body(PlaceFile(path: name, places: [], origins: [], skipped: file.skipped))
            }
            var start = 0
            while start < file.places.count {
                let end = min(start + featuresPerPiece, file.places.count)
                try body(
                    PlaceFile(
                        path: name, places: Array(file.places[start..<end]), origins: Array(file.origins[start..<end])))
                start = end
            }
        }
    }
}
