import Dispatch
import Geo
import Synchronization

/// Reads places from RFC 4180 CSV.
///
/// The header must name at least `id`, `name`, `lat` and `lon` (case-sensitive, any order);
/// `lat`/`lon` are WGS84 decimal degrees. A `kind` column sets each row's kind, falling back to
/// `defaultKind` where it is empty. Every other column becomes an attribute, in header order.
/// Each record must have as many fields as the header. Ids must be non-empty and unique per kind.
/// The first problem stops the read with a `PlacesError` naming the line and the value.
///
/// ```swift
/// let file = try PlaceCSVReader(defaultKind: "pharmacy").read(path: "Data/pharmacies-london.csv")
/// print(file.places.count)  // 1737
/// ```
///
/// See `CSVScanner` for the exact dialect (quotes, line breaks, BOM, blank lines) and
/// `DecimalDegrees` for the numbers accepted.
public struct PlaceCSVReader: Sendable {
    /// The columns every header must have.
    public static let requiredColumns = ["id", "name", "lat", "lon"]

    /// The kind of rows without a `kind` column or with an empty `kind` field.
    public var defaultKind: String
    /// Whether a bad record (wrong field count, bad coordinate, empty or repeated id, invalid
    /// UTF-8) is left out and listed in `PlaceFile.skipped` instead of stopping the read. Errors of
    /// the file as a whole (header, an unterminated quote) still stop it.
    public var skipInvalid: Bool

    public init(defaultKind: String, skipInvalid: Bool = false) {
        self.defaultKind = defaultKind
        self.skipInvalid = skipInvalid
    }

    /// Reads and parses the file at `path`; messages name `path` as given.
    public func read(path: String) throws(PlacesError) -> PlaceFile {
        try parse(SourceFile.bytes(atPath: path), file: path)
    }

    /// Parses CSV bytes; `file` names the source in errors and origins.
    ///
    /// A large file is read in two halves on two threads when it splits cleanly (the first half
    /// ends at a record boundary and no id repeats across the halves); otherwise, and whenever
    /// either half meets a problem, it is read from the start in one pass, so results and errors
    /// are exactly those of a single pass.
    public func parse(_ bytes: [UInt8], file: String) throws(PlacesError) -> PlaceFile {
        var scanner = CSVScanner(bytes: bytes, file: file)
        var fields: [CSVScanner.Field] = []
        guard let headerLine = try scanner.next(into: &fields) else { throw .missingHeader(file: file) }
        let header = try Header(
            fields: fields, scanner: scanner, location: SourceLocation(file: file, position: .line(headerLine)))
        if !skipInvalid, bytes.count >= parallelThreshold,
            let halves = parseInHalves(bytes, file: file, header: header, after: scanner)
        {
            return halves
        }
        let part = try records(&scanner, header: header, expectedRows: bytes.count / 64)
        return PlaceFile(path: file, places: part.places, origins: part.origins, skipped: part.skipped)
    }

    /// Files from this size on are read in two halves (4 MiB; tests change it).
    var parallelThreshold = 1 << 22

    /// The records of one part of a file.
    struct Part: Sendable {
        var places: [Place] = []
        var origins: [SourceLocation] = []
        /// The line of each id of the default kind (one string to hash), and of each place of
        /// another kind (from a `kind` column).
        var firstLine: [String: Int] = [:]
        var firstLineOfOtherKinds: [PlaceKey: Int] = [:]
        var skipped: [PlacesError] = []

        /// The line where a place with this kind and id was first read, if any.
        func line(of place: Place, defaultKind: String) -> Int? {
            place.kind == defaultKind
                ? firstLine[place.id] : firstLineOfOtherKinds[PlaceKey(kind: place.kind, id: place.id)]
        }

        mutating func remember(_ place: Place, line: Int, defaultKind: String) {
            if place.kind == defaultKind {
                firstLine[place.id] = line
            } else {
                firstLineOfOtherKinds[PlaceKey(kind: place.kind, id: place.id)] = line
            }
        }
    }

    /// Reads every record `scanner` has left.
    private func records(_ scanner: inout CSVScanner, header: Header, expectedRows: Int) throws(PlacesError) -> Part {
        var part = Part()
        var fields: [CSVScanner.Field] = []
        // A rough guess of the row count from the size saves most regrowth.
        part.places.reserveCapacity(expectedRows)
        part.origins.reserveCapacity(expectedRows)
        part.firstLine.reserveCapacity(expectedRows)
        let file = scanner.file
        while let line = try scanner.next(into: &fields) {
            let location = SourceLocation(file: file, position: .line(line))
            do throws(PlacesError) {
                let place = try self.place(fields, header: header, scanner: scanner, location: location)
                if let first = part.line(of: place, defaultKind: defaultKind) {
                    throw .duplicateID(
                        place.id, at: location, firstAt: SourceLocation(file: file, position: .line(first)))
                }
                part.remember(place, line: line, defaultKind: defaultKind)
                part.places.append(place)
                part.origins.append(location)
            } catch {
                guard skipInvalid else { throw error }
                part.skipped.append(error)
            }
        }
        return part
    }

    /// Both halves read at once, or nil when the split is not clean or either half has a problem.
    private func parseInHalves(_ bytes: [UInt8], file: String, header: Header, after headerScanner: CSVScanner)
        -> PlaceFile?
    {
        let start = headerScanner.offset
        // The first line break after the middle: a record boundary unless it lies inside a quoted
        // field, which the first half then reports as unterminated (and the split is abandoned).
        guard let newline = bytes[(start + bytes.count) / 2..<bytes.count].firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        let split = newline + 1
        let secondLine = 1 + bytes[..<split].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let expected = bytes.count / 128
        let results = PartResults()
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            var scanner = headerScanner
            if half == 0 {
                scanner.stop(at: split)
            } else {
                scanner = CSVScanner(bytes: bytes, file: file, start: split, end: bytes.count, line: secondLine)
            }
            let part = try? records(&scanner, header: header, expectedRows: expected)
            results.set(half, part)
        }
        guard var first = results.parts[0], let second = results.parts[1] else { return nil }
        for (offset, place) in second.places.enumerated() {
            guard first.line(of: place, defaultKind: defaultKind) == nil else { return nil }
            first.places.append(place)
            first.origins.append(second.origins[offset])
        }
        return PlaceFile(path: file, places: first.places, origins: first.origins)
    }
    /// The place one record describes.
    func place(
        _ fields: [CSVScanner.Field], header: Header, scanner: CSVScanner, location: SourceLocation
    ) throws(PlacesError) -> Place {
        guard fields.count == header.names.count else {
            throw .wrongFieldCount(location, expected: header.names.count, found: fields.count)
        }
        func text(_ column: Int) throws(PlacesError) -> String {
            guard let value = scanner.string(fields[column]) else {
                throw .invalidUTF8(location, field: column + 1)
            }
            return value
        }
        let id = try text(header.id)
        guard !id.isEmpty else { throw .emptyID(location) }
        let name = try text(header.name)
        let coordinate = try self.coordinate(
            latitude: fields[header.latitude], longitude: fields[header.longitude], scanner: scanner,
            location: location)
        var kind = defaultKind
        if let column = header.kind {
            let value = try text(column)
            if !value.isEmpty { kind = value }
        }
        var values: [String] = []
        values.reserveCapacity(header.attributeColumns.count)
        for column in header.attributeColumns { values.append(try text(column)) }
        return Place(
            id: id, kind: kind, name: name, coordinate: coordinate, values: values, checkedNames: header.attributeNames)
    }

    /// Validates the `lat` and `lon` fields, naming the text as written if either is wrong.
    private func coordinate(
        latitude: CSVScanner.Field, longitude: CSVScanner.Field, scanner: CSVScanner, location: SourceLocation
    ) throws(PlacesError) -> Coordinate {
        func shown(_ field: CSVScanner.Field) -> String {
            scanner.string(field) ?? String(decoding: scanner.bytes[field.start..<field.end], as: UTF8.self)
        }
        guard let latitudeValue = scanner.rawBytes(latitude).flatMap(DecimalNumber.parse) else {
            throw .invalidLatitude(location, value: shown(latitude))
        }
        guard let longitudeValue = scanner.rawBytes(longitude).flatMap(DecimalNumber.parse) else {
            throw .invalidLongitude(location, value: shown(longitude))
        }
        do {
            return try Coordinate(latitude: latitudeValue, longitude: longitudeValue)
        } catch .invalidLongitude {
            throw .invalidLongitude(location, value: shown(longitude))
        } catch {
            throw .invalidLatitude(location, value: shown(latitude))
        }
    }
}

extension PlaceCSVReader {
    /// The column layout a header describes.
    struct Header: Sendable {
        var names: [String] = []
        var id = 0
        var name = 0
        var latitude = 0
        var longitude = 0
        var kind: Int?
        /// Columns kept as attributes, in header order, and their names.
        var attributeColumns: [Int] = []
        var attributeNames: [String] = []

        init(fields: [CSVScanner.Field], scanner: CSVScanner, location: SourceLocation) throws(PlacesError) {
            var seen = Set<String>()
            for (offset, field) in fields.enumerated() {
                guard let name = scanner.string(field) else { throw .invalidUTF8(location, field: offset + 1) }
                guard !name.isEmpty else { throw .emptyColumnName(location, column: offset + 1) }
                guard seen.insert(name).inserted else { throw .duplicateColumn(location, column: name) }
                names.append(name)
            }
            func column(_ required: String) throws(PlacesError) -> Int {
                guard let index = names.firstIndex(of: required) else {
                    throw .missingColumn(file: location.file, column: required)
                }
                return index
            }
            id = try column("id")
            name = try column("name")
            latitude = try column("lat")
            longitude = try column("lon")
            kind = names.firstIndex(of: "kind")
            let reserved: Set<Int> = [id, name, latitude, longitude, kind ?? -1]
            attributeColumns = names.indices.filter { !reserved.contains($0) }
            attributeNames = attributeColumns.map { names[$0] }
        }
    }
}

/// The two halves' results, written from two threads.
private final class PartResults: Sendable {
    private let storage = Mutex<[PlaceCSVReader.Part?]>([nil, nil])

    func set(_ half: Int, _ part: PlaceCSVReader.Part?) { storage.withLock { $0[half] = part } }

    var parts: [PlaceCSVReader.Part?] { storage.withLock { $0 } }
}
