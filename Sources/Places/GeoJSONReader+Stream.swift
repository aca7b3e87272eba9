import Foundation

extension GeoJSONReader {
    /// The longest feature, and the longest of the collection's other members together, that a
    /// streamed read takes (16 MiB, as a CSV record).
    public static let longestStreamedValueBytes = PlaceCSVReader.longestRecordBytes

    /// Reads a FeatureCollection from `source` feature by feature, calling `body` with up to
    /// `featuresPerPiece` places at a time in file order, so that only one piece and one feature's
    /// bytes are held whatever the file's size.
    ///
    /// Each feature is read as `read(path:)` reads it (same places, origins and messages), and the
    /// document must be valid JSON throughout. Unlike `read(path:)`, a repeated id is not looked
    /// for (the caller finds it, as with `PlaceCSVReader.stream`), and what is wrong late in the
    /// file is found after the pieces before it were given: a caller that must be all-or-nothing
    /// undoes them. A `type` other than `FeatureCollection` written before `features` stops the
    /// read before any piece.
    ///
    /// - Parameter readBytes: bytes read from `source` at a time.
    /// - Throws: the first `PlacesError` (`invalidJSON` naming the byte or feature, also for a
    ///   feature longer than `longestStreamedValueBytes`; `notFeatureCollection`), or what `body`
    ///   throws.
    public func stream(
        _ source: inout PlaceByteSource, file: String, featuresPerPiece: Int = 65_536, readBytes: Int = 1 << 20,
        body: (PlaceFile) throws -> Void
    ) throws {
        var scanner = GeoJSONStreamScanner(
            source, file: file, readBytes: readBytes, longestValueBytes: Self.longestStreamedValueBytes)
        try scanner.skipByteOrderMark()
        try scanner.skipWhiteSpace()
        guard try scanner.take(UInt8(ascii: "{")) else {
            // Valid JSON or not, a document that is not an object is not a FeatureCollection.
            throw try Self.refusal(ofRoot: scanner.value(), file: file)
        }
        // The root's members other than `features`, as JSON text, checked once the root ends.
        var others: [UInt8] = [UInt8(ascii: "{")]
        var sawFeatures = false
        try scanner.skipWhiteSpace()
        if !(try scanner.take(UInt8(ascii: "}"))) {
            while true {
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
                    try features(&scanner, featuresPerPiece: featuresPerPiece, body: body)
                } else {
                    guard let value = try scanner.value(),
                        others.count + keyBytes.count + value.count + 2 <= Self.longestStreamedValueBytes
                    else {
                        throw PlacesError.invalidJSON(
                            file: file,
                            reason: "the members other than \"features\" are longer than "
                                + "\(Self.longestStreamedValueBytes >> 20) MiB")
                    }
                    // A wrong type seen before the features stops the read before any piece.
                    if key == "type", Self.string(value) != "FeatureCollection" {
                        guard
                            (try? JSONSerialization.jsonObject(with: Data(value), options: [.fragmentsAllowed])) != nil
                        else { throw Self.invalid(value, at: "member \"type\"", file: file) }
                        throw PlacesError.notFeatureCollection(file: file)
                    }
                    if others.count > 1 { others.append(UInt8(ascii: ",")) }
                    others += keyBytes
                    others.append(UInt8(ascii: ":"))
                    others += value
                }
                try scanner.skipWhiteSpace()
                if try scanner.take(UInt8(ascii: "}")) { break }
                guard try scanner.take(UInt8(ascii: ",")) else { throw try scanner.unexpected("',' or '}'") }
            }
        }
        try scanner.skipWhiteSpace()
        guard try scanner.peek() == nil else { throw try scanner.unexpected("the end of the file") }
        others.append(UInt8(ascii: "}"))
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(others), options: [])
        } catch {
            throw Self.invalid(others, at: "the members other than \"features\"", file: file)
        }
        guard sawFeatures, let collection = root as? [String: Any], collection["features"] == nil,
            collection["type"] as? String == "FeatureCollection"
        else { throw PlacesError.notFeatureCollection(file: file) }
    }

    /// Reads the `features` array the scanner stands before, giving its places to `body` in
    /// pieces (the last piece when the array ends).
    private func features(
        _ scanner: inout GeoJSONStreamScanner, featuresPerPiece: Int, body: (PlaceFile) throws -> Void
    ) throws {
        let file = scanner.file
        var places: [Place] = []
        var origins: [SourceLocation] = []
        var skipped: [PlacesError] = []
        func give() throws {
            guard !places.isEmpty || !skipped.isEmpty else { return }
            try body(PlaceFile(path: file, places: places, origins: origins, skipped: skipped))
            places.removeAll(keepingCapacity: true)
            origins.removeAll(keepingCapacity: true)
            skipped.removeAll()
        }
        _ = try scanner.take(UInt8(ascii: "["))
        try scanner.skipWhiteSpace()
        if try scanner.take(UInt8(ascii: "]")) { return }
        var index = 0
        while true {
            try scanner.skipWhiteSpace()
            guard let bytes = try scanner.value() else {
                throw PlacesError.invalidJSON(
                    file: file,
                    reason: "feature \(index) is longer than \(Self.longestStreamedValueBytes >> 20) MiB "
                        + "(a string or a bracket never closed?)")
            }
            let element: Any
            do {
                element = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            } catch {
                throw Self.invalid(bytes, at: "feature \(index)", file: file)
            }
            let location = SourceLocation(file: file, position: .feature(index))
            do throws(PlacesError) {
                let wrapped = Array("{\"features\":[".utf8) + bytes + Array("]}".utf8)
                let order = JSONKeyOrder.featureProperties(in: wrapped)?.first
                places.append(try place(element, at: location, propertyOrder: order))
                origins.append(location)
            } catch {
                guard skipInvalid else { throw error }
                skipped.append(error)
            }
            if places.count + skipped.count >= featuresPerPiece { try give() }
            index += 1
            try scanner.skipWhiteSpace()
            if try scanner.take(UInt8(ascii: "]")) { break }
            guard try scanner.take(UInt8(ascii: ",")) else { throw try scanner.unexpected("',' or ']'") }
        }
        try give()
    }

    /// The refusal of a document whose root is not an object: invalid JSON when it is not JSON.
    private static func refusal(ofRoot value: [UInt8]?, file: String) -> PlacesError {
        guard let value else { return .notFeatureCollection(file: file) }
        guard (try? JSONSerialization.jsonObject(with: Data(value), options: [.fragmentsAllowed])) != nil else {
            return invalid(value, at: "the document", file: file)
        }
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
