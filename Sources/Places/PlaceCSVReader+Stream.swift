extension PlaceCSVReader {
    /// The most bytes a streamed record may take, 16 MiB. A place's own fields take at most
    /// about 80 KB of UTF-8 (id, name, kind and 32 attributes at their longest), quoting doubles
    /// that at worst, and unused columns rarely add more.
    public static let longestRecordBytes = 16 << 20

    /// Reads CSV piece by piece: memory stays near `pieceBytes` (plus the longest record) whatever
    /// the file's size.
    ///
    /// Each piece is scanned up to its last line feed; a record whose quoted field goes on past it
    /// is kept, with the rest, for the next piece, so records and line breaks are never cut.
    /// `body` gets each piece's places, origins and (with `skipInvalid`) the rows left out, in
    /// file order. Unlike `parse`, repeated ids are **not** looked for: the caller must (an import
    /// lets the database find them).
    ///
    /// A record not ended within `longestRecordBytes` (a quoted field never closed, a file with no
    /// line feed) is refused there and then (`PlacesError.recordTooLong`), instead of holding the
    /// rest of the file in memory to find its end: no valid place comes near that length.
    ///
    /// - Throws: the first `PlacesError` of the file (header, record, unterminated quote, a read
    ///   error), or what `body` throws; the pieces before it have been given to `body`.
    public func stream(
        _ source: inout PlaceByteSource, file: String, pieceBytes: Int = 4 << 20, body: (PlaceFile) throws -> Void
    ) throws {
        var pending: [UInt8] = []
        var line = 1
        var atFileStart = true
        var header: Header?
        var target = pieceBytes
        var fields: [CSVScanner.Field] = []
        while true {
            let ended = try source.fill(&pending, until: target)
            // Whole lines only, until the end: a line break (CR LF) is never cut in two.
            let limit = ended ? pending.count : (pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
            let piece = try scan(
                pending, limit: limit, ended: ended, file: file, line: line, atFileStart: atFileStart, header: &header,
                fields: &fields)
            if !piece.places.isEmpty || !piece.skipped.isEmpty {
                try body(PlaceFile(path: file, places: piece.places, origins: piece.origins, skipped: piece.skipped))
            }
            if ended {
                guard header != nil else { throw PlacesError.missingHeader(file: file) }
                return
            }
            // No whole record in the piece: read a larger one, up to the longest a record may be.
            if piece.kept == 0 && pending.count > Self.longestRecordBytes {
                throw PlacesError.recordTooLong(
                    SourceLocation(file: file, position: .line(line)), limitBytes: Self.longestRecordBytes)
            }
            target =
                piece.kept == 0 ? min(max(pending.count * 2, pieceBytes), Self.longestRecordBytes + 1) : pieceBytes
            pending.removeFirst(piece.kept)
            line = piece.keptLine
            atFileStart = atFileStart && piece.kept == 0
        }
    }

    /// The records of `pending[..<limit]`, the header first if it is not read yet, and where the
    /// bytes not used start (a record cut by the piece's end, or the end).
    ///
    /// Its own function so that the scanner's reference to `pending` ends with it: the caller then
    /// trims `pending` in place instead of copying it.
    private func scan(
        _ pending: [UInt8], limit: Int, ended: Bool, file: String, line: Int, atFileStart: Bool, header: inout Header?,
        fields: inout [CSVScanner.Field]
    ) throws(PlacesError) -> ScannedPiece {
        var scanner = CSVScanner(
            bytes: pending, file: file, start: 0, end: limit, line: line, atFileStart: atFileStart)
        var kept = scanner.offset
        var keptLine = line
        // At most one record a line: room for all of them at once.
        let lines = pending.withUnsafeBufferPointer { bytes in
            bytes[..<limit].reduce(into: 0) { count, byte in count += byte == UInt8(ascii: "\n") ? 1 : 0 }
        }
        var places: [Place] = []
        var origins: [SourceLocation] = []
        var skipped: [PlacesError] = []
        places.reserveCapacity(lines + 1)
        origins.reserveCapacity(lines + 1)
        while true {
            // Where the record itself starts, past blank lines: what is kept for the next piece.
            scanner.skipBlankLines()
            let start = scanner.offset
            let startLine = scanner.currentLine
            let recordLine: Int?
            do throws(PlacesError) {
                recordLine = try scanner.next(into: &fields)
            } catch {
                // A quoted field that goes on in the next piece: read again with the rest.
                if !ended, case .unterminatedQuote = error {
                    kept = start
                    keptLine = startLine
                    break
                }
                throw error
            }
            guard let recordLine else {
                kept = scanner.offset
                keptLine = scanner.currentLine
                break
            }
            kept = scanner.offset
            keptLine = scanner.currentLine
            let location = SourceLocation(file: file, position: .line(recordLine))
            guard let header else {
                header = try Header(fields: fields, scanner: scanner, location: location)
                continue
            }
            do throws(PlacesError) {
                places.append(try place(fields, header: header, scanner: scanner, location: location))
                origins.append(location)
            } catch {
                guard skipInvalid else { throw error }
                skipped.append(error)
            }
        }
        return ScannedPiece(places: places, origins: origins, skipped: skipped, kept: kept, keptLine: keptLine)
    }

    /// What `scan` found in a piece.
    private struct ScannedPiece {
        var places: [Place]
        var origins: [SourceLocation]
        var skipped: [PlacesError]
        /// Where the bytes not used start, and the line there.
        var kept: Int
        var keptLine: Int
    }
}
