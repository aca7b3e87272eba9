import Geo

/// Every error the `Places` module throws.
///
/// Messages are one line and start with where the problem is (`SourceLocation`): `FILE`,
/// `FILE:LINE` (CSV, 1-based physical line) or `FILE: feature N` (GeoJSON, 0-based index into
/// `features`). A value from the file is named as written: a CSV field's text in double quotes
/// (`"abc"`, `""` for an empty field), a GeoJSON value as JSON text (`200`, `"abc"`, `null`).
/// Quotes, backslashes and control characters inside a quoted value are escaped, and values
/// longer than 80 characters are cut short with `…`, so that a message is always one line.
public enum PlacesError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file cannot be opened or read; `reason` is the system's text (`strerror`), e.g.
    /// "No such file or directory".
    case cannotRead(file: String, reason: String)
    /// A CSV file with no header line: it is empty or holds only blank lines.
    case missingHeader(file: String)
    /// A CSV header without one of `PlaceCSVReader.requiredColumns` (names are case-sensitive).
    case missingColumn(file: String, column: String)
    /// Two CSV header columns with the same name.
    case duplicateColumn(SourceLocation, column: String)
    /// A CSV header column with an empty name, often from a trailing comma; `column` is 1-based.
    case emptyColumnName(SourceLocation, column: Int)
    /// A CSV record whose number of fields differs from the header's.
    case wrongFieldCount(SourceLocation, expected: Int, found: Int)
    /// A quoted CSV field that runs to the end of the file; located at its opening quote.
    case unterminatedQuote(SourceLocation)
    /// A CSV record that a streamed read gave up on at `limitBytes` without finding its end
    /// (`PlaceCSVReader.longestRecordBytes`): most often a quoted field never closed.
    case recordTooLong(SourceLocation, limitBytes: Int)
    /// Something other than a comma or a line break after a quoted CSV field's closing quote, as in
    /// `"a"b`; `field` is 1-based.
    case textAfterQuote(SourceLocation, field: Int)
    /// A CSV field that is not valid UTF-8 (often a Latin-1 or Windows-1252 export); 1-based.
    case invalidUTF8(SourceLocation, field: Int)
    /// A latitude that is not a decimal number of degrees in -90...90 (NaN, infinities, hex floats
    /// and trailing garbage are all rejected; surrounding spaces are allowed in CSV).
    case invalidLatitude(SourceLocation, value: String)
    /// A longitude that is not a decimal number of degrees in -180...180.
    case invalidLongitude(SourceLocation, value: String)
    /// A GeoJSON Point whose `coordinates` is not an array of at least two elements.
    case invalidCoordinates(SourceLocation, value: String)
    /// An empty id: every place needs one.
    case emptyID(SourceLocation)
    /// A GeoJSON feature with neither a feature `id` nor an `id` property.
    case missingID(SourceLocation)
    /// A GeoJSON numeric id too long to keep exactly (beyond 2^53); it must be written as a string.
    case numericIDTooLong(SourceLocation, value: String)
    /// A GeoJSON id that is neither a string nor a number.
    case invalidID(SourceLocation, value: String)
    /// A second place with the same kind and id, in the same file or across files of a catalog.
    /// Either location is nil for a place added in code.
    case duplicateID(String, at: SourceLocation?, firstAt: SourceLocation?)
    /// A file that `JSONSerialization` cannot parse; `reason` is its debug description.
    case invalidJSON(file: String, reason: String)
    /// Valid JSON whose top level is not an object with `"type": "FeatureCollection"` and a
    /// `features` array.
    case notFeatureCollection(file: String)
    /// An element of `features` that is not an object with `"type": "Feature"` and an object or
    /// null `properties`.
    case notFeature(SourceLocation)
    /// A feature whose `geometry` is null or missing (RFC 7946 allows that; a place needs a point).
    case missingGeometry(SourceLocation)
    /// A feature whose geometry is not a Point; `type` is the geometry's type as written.
    case unexpectedGeometry(SourceLocation, type: String)
    /// An error from `Geo`: an invalid query coordinate, radius, count or cell size.
    case geo(GeoError)
    /// A user id that is empty, longer than 128 characters, holds control characters or `%`, or
    /// is `nearby` (`Vocabulary.userID`).
    case invalidUserID(String)
    /// Adding a user whose id is taken.
    case userExists(String)
    /// A user that does not exist, or that the principal may not see (a private user looks exactly
    /// like a missing one to everybody else, so that its existence does not leak).
    case noSuchUser(String)
    /// An action the principal's token does not allow; `action` says what needs which token.
    case forbidden(action: String)
    /// A token that is neither the admin's nor any user's.
    case invalidToken
    /// A value that breaks its rule in `Vocabulary` (a radius of `inf`, a count of 0, a name of
    /// 300 characters…): the value as given, what messages call it and the valid values in words.
    case invalidValue(noun: String, value: String, expected: String)
    /// A place kind that is empty, longer than 64 characters or holds spaces or control characters.
    case invalidKind(String)
    /// A kind that names something other than places (`user` is the people's collection).
    case reservedKind(String)
    /// A place id that is empty, longer than 128 characters or holds control characters.
    case invalidPlaceID(String)
    /// A place that does not exist.
    case noSuchPlace(kind: String, id: String)
    /// The store refused the write (a full disk, a read-only file); nothing of it was kept.
    case storeFailed(String)
    /// A write that arrived while the directory was closing; it was not made.
    case closed
    /// The database cannot be reached (a node that lost PostgreSQL): the reason says whether the
    /// write was not stored (the usual case) or whether that is unknown (the connection broke during
    /// its commit; if it was stored, every node applies it from the log). Reads still answer from
    /// memory. Try again later.
    case storeUnavailable(String)
    /// A watch beyond a limit: `scope` names which (`this connection`, `this server`) and
    /// `flag` the server flag that sets it.
    case tooManyWatches(limit: Int, scope: String, flag: String)
    /// A query about users beyond the asker's budget (`UserQueryLimit`, `--user-query-rate`):
    /// `perSecond` on average, in bursts of `burst`; it may go ahead in `retryAfterSeconds`.
    case tooManyQueries(perSecond: Int, burst: Int, retryAfterSeconds: Int)

    public var description: String {
        switch self {
        case .cannotRead(let file, let reason):
            return "\(file): cannot read: \(reason)"
        case .missingHeader(let file):
            return "\(file): no header line (the header needs \(PlacesError.requiredList))"
        case .missingColumn(let file, let column):
            return "\(file): missing required column \(PlacesError.quoted(column)) "
                + "(the header needs \(PlacesError.requiredList))"
        case .duplicateColumn(let location, let column):
            return "\(location): duplicate column \(PlacesError.quoted(column)) in the header"
        case .emptyColumnName(let location, let column):
            return "\(location): empty name for column \(column) in the header"
        case .wrongFieldCount(let location, let expected, let found):
            return "\(location): expected \(expected) fields as in the header, found \(found)"
        case .unterminatedQuote(let location):
            return "\(location): unterminated quoted field"
        case .recordTooLong(let location, let limit):
            return "\(location): a record longer than \(limit >> 20) MiB, so it was not read to its end "
                + "(a quoted field never closed?)"
        case .textAfterQuote(let location, let field):
            return "\(location): text after the closing quote of field \(field): "
                + "expected a comma or the end of the line"
        case .invalidUTF8(let location, let field):
            return "\(location): field \(field) is not valid UTF-8"
        case .invalidLatitude(let location, let value):
            return "\(location): invalid latitude \(PlacesError.show(value, at: location)): "
                + "expected a number of degrees from -90 to 90"
        case .invalidLongitude(let location, let value):
            return "\(location): invalid longitude \(PlacesError.show(value, at: location)): "
                + "expected a number of degrees from -180 to 180"
        case .invalidCoordinates(let location, let value):
            return "\(location): invalid coordinates \(PlacesError.show(value, at: location)): "
                + "expected [longitude, latitude] in degrees"
        case .emptyID(let location):
            return "\(location): empty id"
        case .missingID(let location):
            return "\(location): no id (expected \"id\" on the feature or in its properties)"
        case .numericIDTooLong(let location, let value):
            return "\(location): id \(value) has more digits than a JSON number keeps exactly: write it as a string"
        case .invalidID(let location, let value):
            return "\(location): invalid id \(PlacesError.show(value, at: location)): expected a string or a number"
        case .duplicateID(let id, let location, let first):
            let prefix = location.map { "\($0): " } ?? ""
            return "\(prefix)duplicate id \(PlacesError.quoted(id)) (\(PlacesError.firstAt(first, from: location)))"
        case .invalidJSON(let file, let reason):
            return "\(file): invalid JSON: \(PlacesError.oneLine(reason))"
        case .notFeatureCollection(let file):
            return "\(file): not a GeoJSON FeatureCollection"
        case .notFeature(let location):
            return "\(location): not a GeoJSON Feature"
        case .missingGeometry(let location):
            return "\(location): no geometry, expected Point"
        case .unexpectedGeometry(let location, let type):
            return "\(location): geometry is \(PlacesError.oneLine(type)), expected Point"
        case .geo(let error):
            return error.description
        case .invalidUserID(let id):
            return Vocabulary.userID.message(id)
        case .userExists(let id):
            return "user \(PlacesError.quoted(id)) already exists"
        case .noSuchUser(let id):
            return "no user \(PlacesError.quoted(id)) that you can see"
        case .forbidden(let action):
            return "not allowed: \(action)"
        case .invalidToken:
            return "the token matches no user and is not the admin token (tokens are shown once, when created)"
        case .invalidValue(let noun, let value, let expected):
            return "invalid \(noun) \(PlacesError.quoted(value)): expected \(expected)"
        case .invalidKind(let kind):
            return Vocabulary.placeKind.message(kind)
        case .reservedKind(let kind) where kind == Vocabulary.everyKind:
            return "kind \(PlacesError.quoted(kind)) is reserved: --kind all means every kind, so no place may have it"
        case .reservedKind(let kind):
            return "kind \(PlacesError.quoted(kind)) is reserved for people: users are added with their own token "
                + "(`vicinity user add`), not as places"
        case .invalidPlaceID(let id):
            return Vocabulary.placeID.message(id)
        case .noSuchPlace(let kind, let id):
            return "no place \(PlacesError.quoted(id)) of kind \(PlacesError.quoted(kind))"
        case .storeFailed(let reason):
            // The whole cause: a store's reason is what an operator needs to act on (a full disk).
            return "the write was not stored, and nothing of it was made: \(PlacesError.oneLine(reason, cut: false))"
        case .closed:
            return "the directory is closing; the write was not made"
        case .storeUnavailable(let reason):
            return "the database cannot be reached; try again in a few seconds ("
                + PlacesError.oneLine(reason, cut: false) + ")"
        case .tooManyWatches(let limit, let scope, let flag):
            return "too many watches: \(scope) holds \(limit), the most it may (\(flag)); end one first"
        case .tooManyQueries(let perSecond, let burst, let retry):
            return
                "too many queries about users: over the rate of \(perSecond) a second in bursts of \(burst) "
                + "(--user-query-rate); retry in \(retry) s"
        }
    }

    /// `id,name,lat,lon`.
    private static let requiredList = PlaceCSVReader.requiredColumns.joined(separator: ",")

    /// Longest value shown in a message, in characters, before it is cut short with `…`.
    static let maximumShownLength = 80

    /// A CSV value in double quotes; a GeoJSON value (already JSON text) as it is.
    private static func show(_ value: String, at location: SourceLocation) -> String {
        if case .feature = location.position { return oneLine(value) }
        return quoted(value)
    }

    /// `"text"` with quotes, backslashes and control characters (C0, DEL and C1) escaped, cut to
    /// `maximumShownLength` characters, so that a message naming a value stays one line whatever
    /// the value holds. The HTTP API words its messages with it too.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in shortened(text).unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The text with line breaks replaced by spaces, cut to `maximumShownLength` characters unless
    /// `cut` is false.
    private static func oneLine(_ text: String, cut: Bool = true) -> String {
        String((cut ? shortened(text) : text).map { $0.isNewline ? " " : $0 })
    }

    private static func shortened(_ text: String) -> String {
        guard text.count > maximumShownLength else { return text }
        return String(text.prefix(maximumShownLength - 1)) + "…"
    }

    /// `first at line 2` in the same file, `first at a.csv:2` in another, or `already present`.
    private static func firstAt(_ first: SourceLocation?, from location: SourceLocation?) -> String {
        guard let first else { return "already present" }
        if let location, location.file == first.file, let position = first.positionDescription {
            return "first at \(position)"
        }
        return "first at \(first)"
    }
}
