import Foundation

extension GeoJSONReader {
    /// The longest feature, and the longest of the collection's other members together, that a
    /// streamed read takes (16 MiB, as a CSV record; a value is measured when a read of the
    /// source ends, so one up to a read's size longer may pass).
    public static let longestStreamedValueBytes = PlaceCSVReader.longestRecordBytes

    /// Reads a FeatureCollection from `source` feature by feature, calling `body` with a piece of
    /// places at a time in file order (up to `featuresPerPiece` features, and no more once their
    /// bytes pass `pieceBytes`), so that only one piece is held whatever the file's size.
    ///
    /// Each feature is read as `read(path:)` reads it (same places, origins and messages), and the
    /// document must be valid JSON throughout; trailing commas (`[…,]`, `{…,}`) are taken, as
    /// `JSONSerialization` takes them. Unlike `read(path:)`, a repeated id is not looked for (the
    /// caller finds it, as with `PlaceCSVReader.stream`), and what is wrong late in the file is
    /// found after the pieces before it were given: a caller that must be all-or-nothing undoes
    /// them. Each member of the collection other than `features` is checked where it stands, and
    /// a `type` other than `FeatureCollection` written before `features` stops the read before
    /// any piece.
    ///
    /// - Parameter readBytes: bytes read from `source` at a time.
    /// - Throws: the first `PlacesError` (`invalidJSON` naming the byte, member or feature, also for
    ///   a feature longer than `longestStreamedValueBytes`; `notFeatureCollection`), or what `body`
    ///   throws.
    public func stream(
        _ source: inout PlaceByteSource, file: String, featuresPerPiece: Int = 65_536, pieceBytes: Int = 4 << 20,
        readBytes: Int = 1 << 20, body: (PlaceFile) throws -> Void
    ) throws {
        var scanner = GeoJSONStreamScanner(
            source, file: file, readBytes: readBytes, longestValueBytes: Self.longestStreamedValueBytes)
        try scanner.skipByteOrderMark()
        try scanner.skipWhiteSpace()
        guard try scanner.take(UInt8(ascii: "{")) else { throw try Self.refusal(ofRoot: &scanner) }
        // The root's members other than `features`, as JSON text, read as a whole at the end.
        var others: [UInt8] = [UInt8(ascii: "{")]
        var sawFeatures = false
        try scanner.skipWhiteSpace()
        var ended = try scanner.take(UInt8(ascii: "}"))
        while !ended {
            try scanner.skipWhiteSpace()
            guard try scanner.peek() == UInt8(ascii: "\""), let keyBytes = try scanner.value(),
                let key = Self.string(keyBytes)
            else { throw try scanner.unexpected("a member name") }
            try scanner.skipWhiteSpace()
            guard try scanner.take(UInt8(ascii: ":")) else { throw try scanner.unexpected("':'") }
            try scanner.skipWhiteSpace()
            if key == "features", try scanner.peek() == UInt8(ascii: "[") {
                guard !sawFeatures else {
                    throw PlacesError.invalidJSON(file: file, reason: "\"features\" is given twice")
                }
                sawFeatures = true
                try features(&scanner, featuresPerPiece: featuresPerPiece, pieceBytes: pieceBytes, body: body)
            } else {
                try Self.member(key: key, keyBytes: keyBytes, value: scanner.value(), into: &others, file: file)
            }
            try scanner.skipWhiteSpace()
            if try scanner.take(UInt8(ascii: "}")) { break }
            guard try scanner.take(UInt8(ascii: ",")) else { throw try scanner.unexpected("',' or '}'") }
            try scanner.skipWhiteSpace()
            ended = try scanner.take(UInt8(ascii: "}"))
        }
        try scanner.skipWhiteSpace()
        guard try scanner.peek() == nil else { throw try scanner.unexpected("the end of the file") }
        others.append(UInt8(ascii: "}"))
        let root = try? JSONSerialization.jsonObject(with: Data(others), options: [])
        guard sawFeatures, let collection = root as? [String: Any], collection["features"] == nil,
            collection["type"] as? String == "FeatureCollection"
        else { throw PlacesError.notFeatureCollection(file: file) }
    }

    /// Checks a member of the collection other than `features` and appends it to `others`.
    private static func member(
        key: String, keyBytes: [UInt8], value: [UInt8]?, into others: inout [UInt8], file: String
    ) throws(PlacesError) {
        guard let value, others.count + keyBytes.count + value.count + 2 <= longestStreamedValueBytes else {
            throw .invalidJSON(
                file: file,
                reason: "the members other than \"features\" are longer than \(longestStreamedValueBytes >> 20) MiB")
        }
        let member = keyBytes + [UInt8(ascii: ":")] + value
        let object = [UInt8(ascii: "{")] + member + [UInt8(ascii: "}")]
        guard (try? JSONSerialization.jsonObject(with: Data(object), options: [])) != nil else {
            throw invalid(object, at: "member \(PlacesError.quoted(key))", file: file)
        }
        // A wrong type seen before the features stops the read before any piece.
        if key == "type", string(value) != "FeatureCollection" { throw .notFeatureCollection(file: file) }
        if others.count > 1 { others.append(UInt8(ascii: ",")) }
        others += member
    }

    /// Reads the `features` array the scanner stands before, giving its places to `body` in
    /// pieces (the last piece when the array ends).
    private func features(
        _ scanner: inout GeoJSONStreamScanner, featuresPerPiece: Int, pieceBytes: Int, body: (PlaceFile) throws -> Void
    ) throws {
        let file = scanner.file
        var places: [Place] = []
        var origins: [SourceLocation] = []
        var skipped: [PlacesError] = []
        var bytesInPiece = 0
        func give() throws {
            guard !places.isEmpty || !skipped.isEmpty else { return }
            try body(PlaceFile(path: file, places: places, origins: origins, skipped: skipped))
            places.removeAll(keepingCapacity: true)
            origins.removeAll(keepingCapacity: true)
            skipped.removeAll()
            bytesInPiece = 0
        }
        _ = try scanner.take(UInt8(ascii: "["))
        try scanner.skipWhiteSpace()
        var ended = try scanner.take(UInt8(ascii: "]"))
        var index = 0
        while !ended {
            try scanner.skipWhiteSpace()
            guard let bytes = try scanner.value() else {
                throw PlacesError.invalidJSON(
                    file: file,
                    reason: "feature \(index) is longer than \(Self.longestStreamedValueBytes >> 20) MiB "
                        + "(a string or a bracket never closed?)")
            }
            // Read inside an object and an array, as in the whole file: the same nesting limit, and
            // no encoding guessed from the feature's own first bytes.
            let wrapped = Array("{\"features\":[".utf8) + bytes + Array("]}".utf8)
            let root = try? JSONSerialization.jsonObject(with: Data(wrapped), options: [])
            guard let elements = (root as? [String: Any])?["features"] as? [Any], elements.count == 1 else {
                throw Self.invalid(wrapped, at: "feature \(index)", file: file)
            }
            bytesInPiece += bytes.count
            let location = SourceLocation(file: file, position: .feature(index))
            do throws(PlacesError) {
                let order = JSONKeyOrder.featureProperties(in: wrapped)?.first
                places.append(try place(elements[0], at: location, propertyOrder: order))
                origins.append(location)
            } catch {
                guard skipInvalid else { throw error }
                skipped.append(error)
            }
            if places.count + skipped.count >= featuresPerPiece || bytesInPiece >= pieceBytes { try give() }
            index += 1
            try scanner.skipWhiteSpace()
            if try scanner.take(UInt8(ascii: "]")) { break }
            guard try scanner.take(UInt8(ascii: ",")) else { throw try scanner.unexpected("',' or ']'") }
            try scanner.skipWhiteSpace()
            ended = try scanner.take(UInt8(ascii: "]"))
        }
        try give()
    }

    /// The refusal of a document whose root is not an object: not a FeatureCollection when it is
    /// one JSON value, invalid JSON otherwise.
    private static func refusal(ofRoot scanner: inout GeoJSONStreamScanner) throws(PlacesError) -> PlacesError {
        let file = scanner.file
        guard let value = try scanner.value() else { return .notFeatureCollection(file: file) }
        guard (try? JSONSerialization.jsonObject(with: Data(value), options: [.fragmentsAllowed])) != nil else {
            return invalid(value, at: "the document", file: file)
        }
        try scanner.skipWhiteSpace()
        guard try scanner.peek() == nil else { return try scanner.unexpected("the end of the file") }
        return .notFeatureCollection(file: file)
    }

    /// `invalidJSON` for a value `JSONSerialization` refuses, with its reason.
    private static func invalid(_ bytes: [UInt8], at what: String, file: String) -> PlacesError {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return .invalidJSON(file: file, reason: "\(what) is not valid JSON")
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return .invalidJSON(file: file, reason: "\(what): \(reason ?? error.localizedDescription)")
        }
    }

    /// The text of a JSON string literal's bytes, nil when they are not one.
    private static func string(_ bytes: [UInt8]) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) as? String
    }
}
