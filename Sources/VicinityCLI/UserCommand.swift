import ArgumentParser
import Foundation
import Geo
import Places

/// `vicinity user …`: people on the map, each with their own token.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, move, hide, show, list or remove users, or replace a user's token.",
        discussion: """
            A private user is on no map and in no query but their own; to everyone else they look \
            like a user that does not exist. A user without a location is on no map. Others see a \
            public user only at their precision: the centre of a fixed grid cell of about 100 m \
            (street, the default), 1 km (district) or 10 km (city), or exactly (exact); distances \
            to them are rounded to it. A location not refreshed by a move within --location-ttl \
            (default 12h) is forgotten. Adding a \
            user needs the admin token (vicinity admin-token); changing one needs that user's \
            token or the admin token. Tokens come from --token or $VICINITY_TOKEN (prefer the \
            variable: other users can see command lines in ps).
            """,
        subcommands: [
            UserAddCommand.self, UserMoveCommand.self, UserVisibilityCommand.self, UserPrecisionCommand.self,
            UserShowCommand.self, UserListCommand.self, UserTokenCommand.self, UserRemoveCommand.self,
        ]
    )
}

/// Options every `user` subcommand takes.
struct UserOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Your token (default: $VICINITY_TOKEN).", valueName: "token"))
    var token: String?
    @OptionGroup var database: DatabaseOptions
}

struct UserAddCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a user (admin token) and print their token, once.",
        discussion: """
            The token is printed alone on standard output, so TOKEN=$(vicinity user add ayse) keeps \
            it; it is stored only as a SHA-256 digest and cannot be shown again.
            """)

    @Argument(help: "User id: 1 to 128 characters, no control characters or %, not nearby.") var id: String
    @Option(help: ArgumentHelp("Name shown on maps (default: the id).", valueName: "name")) var name: String?
    @Option(
        name: .customLong("at"), parsing: .upToNextOption,
        help: ArgumentHelp("Where the user is: latitude and longitude in degrees.", valueName: "lat lon"))
    var location: [String] = []
    @Flag(help: "Start private: on no map.") var `private` = false
    @Option(
        help: ArgumentHelp(
            "How precisely others see the user: exact, street (~100 m), district (~1 km) or city (~10 km).",
            valueName: "precision"))
    var precision = LocationPrecision.recommendedText
    @OptionGroup var lifetime: LocationLifetimeOptions
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let coordinate = try UserMoveCommand.coordinate(location, option: "--at") {
            "vicinity user add \(ResultListing.printable(id)) --at \($0) \($1)"
        }
        let user = User(
            id: id, name: name ?? id, location: coordinate, visibility: `private` ? .private : .public,
            precision: try ArgumentValues.parse(precision, Vocabulary.precision))
        let session = try DirectorySession(
            database: options.database, token: options.token, privacy: try lifetime.privacy(), output: &output)
        guard session.principal == .admin else {
            session.close()
            let given = session.principal == .anonymous ? "no token was given" : "the token given is a user's"
            throw CLIError.noPermission(
                "adding a user needs the admin token, and \(given): pass it with --token TOKEN or in "
                    + "$VICINITY_TOKEN (vicinity admin-token creates it)")
        }
        let token = try session.perform(.addUser(user)) ?? ""
        output.line(token)
        output.note(
            "added user \(ResultListing.printable(id)) (\(user.visibility.rawValue), "
                + "\(coordinate.map { "at \($0)" } ?? "no location")); the token above is shown only this once")
    }
}

struct UserMoveCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a user (that user's or the admin token).",
        discussion: "vicinity user move ayse 41.0862 29.0107; --forget removes the location (on no map).")

    @Argument(help: "User id.") var id: String
    @Argument(help: "Latitude and longitude, degrees.") var location: [String] = []
    @Flag(help: "Forget where the user is instead: they leave every map.") var forget = false
    @OptionGroup var lifetime: LocationLifetimeOptions
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        if forget && !location.isEmpty { throw CLIError.usage("give a latitude and longitude, or --forget, not both") }
        let coordinate = try Self.coordinate(location, option: "the location") {
            "vicinity user move \(ResultListing.printable(id)) \($0) \($1)"
        }
        if coordinate == nil && !forget {
            throw CLIError.usage("missing the location: expected LAT LON in degrees, or --forget")
        }
        let session = try DirectorySession(
            database: options.database, token: options.token, privacy: try lifetime.privacy(), output: &output)
        try session.perform(.moveUser(id, to: coordinate))
        output.line("Moved \(ResultListing.printable(id)) \(coordinate.map { "to \($0)" } ?? "off every map").")
    }

    /// Two values as a coordinate; none as nil.
    ///
    /// - Parameter swapped: the command line to suggest when the two look swapped (see
    ///   `ArgumentValues.coordinate`).
    static func coordinate(_ values: [String], option: String, swapped: ((String, String) -> String)? = nil)
        throws(CLIError) -> Coordinate?
    {
        if values.isEmpty { return nil }
        guard values.count == 2 else {
            throw .usage("\(option) takes a latitude and a longitude in degrees, got \(values.count) values")
        }
        return try ArgumentValues.coordinate(latitude: values[0], longitude: values[1], swapped: swapped)
    }
}

struct UserVisibilityCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "visibility",
        abstract: "Make a user public or private (that user's or the admin token).",
        discussion: """
            private --for 3h is ghost mode with a timer: the user turns public again by themselves \
            then (durations: seconds, or numbers with d, h, m, s: 90m, 1d12h; at most 3650d). \
            Without --for, private lasts until changed.
            """)

    @Argument(help: "User id.") var id: String
    @Argument(help: "public or private.") var visibility: String
    @Option(
        name: .customLong("for"),
        help: ArgumentHelp("Private for this long only (e.g. 3h, 24h, 90m).", valueName: "duration"))
    var duration: String?
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let value = try ArgumentValues.parse(visibility, Vocabulary.visibility)
        let seconds = try duration.map { try ArgumentValues.parse($0, Vocabulary.privateSpell) }
        if seconds != nil && value == .public {
            throw CLIError.usage("--for goes with private only: public lasts until changed")
        }
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
        try session.perform(.setVisibility(id, value, forSeconds: seconds))
        let name = ResultListing.printable(id)
        switch (value, seconds) {
        case (.private, let seconds?):
            // The time stored, as the record says it (not the clock read again).
            let stored = try session.read { directory throws(PlacesError) in
                try directory.user(id, as: .admin).privateUntil
            }
            let until = stored ?? Date().addingTimeInterval(Double(seconds))
            output.line(
                "\(name) is private until \(UserShowCommand.timeText(until)): on no map, and invisible to everyone "
                    + "else; public again then.")
        case (.private, nil):
            output.line("\(name) is private: on no map, and invisible to everyone else.")
        case (.public, _):
            output.line("\(name) is public: on the map wherever their location is.")
        }
    }
}

struct UserPrecisionCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "precision",
        abstract: "Set how precisely others see a user (that user's or the admin token).",
        discussion: """
            exact: where the user is. street, district, city: the centre of a fixed grid cell of \
            about 100 m, 1 km or 10 km holding the user's location; distances to the user are \
            rounded to the cell size. The user and the admin still read the exact location.
            """)

    @Argument(help: "User id.") var id: String
    @Argument(help: "exact, street, district or city.") var precision: String
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let value = try ArgumentValues.parse(precision, Vocabulary.precision)
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
        try session.perform(.setPrecision(id, value))
        output.line(
            value == .exact
                ? "Others see \(ResultListing.printable(id)) exactly where they are."
                : "Others see \(ResultListing.printable(id)) at the centre of their \(value.rawValue) cell "
                    + "(about \(Int(value.cellMeters)) m).")
    }
}

/// `--location-ttl`: how long a location set by this command lasts without a move.
struct LocationLifetimeOptions: ParsableArguments {
    @Option(
        name: .customLong("location-ttl"),
        help: ArgumentHelp(
            "How long the location lasts without a move before it is forgotten (e.g. 12h, 8h, 0 for never).",
            valueName: "duration"))
    var locationTTL = "12h"

    /// The recommended rules with this lifetime.
    func privacy() throws -> PrivacySettings {
        var privacy = PrivacySettings.recommended
        privacy.locationTTLSeconds = try ArgumentValues.parse(locationTTL, Vocabulary.locationTTL)
        return privacy
    }
}

extension LocationPrecision {
    /// The default of `--precision` and `--user-precision`, as written.
    static let recommendedText = PrivacySettings.recommended.defaultPrecision.rawValue
}

struct UserShowCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a user: anyone sees a public user; a private one only with their own or the admin token.")

    @Argument(help: "User id.") var id: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
        defer { session.close() }
        let principal = session.principal
        let user = try session.read { directory throws(PlacesError) in try directory.user(id, as: principal) }
        if json {
            output.line(try JSONOutput.encode(UserDocument(user)))
            return
        }
        let owns = principal == .admin || principal == .user(user.id)
        output.line("id:         \(ResultListing.printable(user.id))")
        output.line("name:       \(ResultListing.printable(user.name))")
        output.line("location:   \(user.location.map { "\($0)" } ?? "unknown (on no map)")")
        output.line(
            "visibility: \(user.visibility.rawValue)\(user.privateUntil.map { " until \(Self.timeText($0))" } ?? "")")
        output.line("precision:  \(user.effectivePrecision.rawValue)")
        if owns, user.effectivePrecision != .exact, let published = user.publishedLocation {
            output.line("others see: \(published) (the centre of the \(user.effectivePrecision.rawValue) cell)")
        }
        if owns, user.location != nil {
            output.line("forgotten:  \(user.locationExpiresAt.map(Self.timeText) ?? "never") (unless the user moves)")
        }
    }

    /// A time as every surface writes it: RFC 3339, UTC, whole seconds (`2026-11-26T18:00:00Z`).
    static func timeText(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeZone(
                separator: .omitted))
    }

    /// `{"id", "name", "lat", "lon", "visibility", "precision", "location_expires_at",
    /// "private_until"}`: lat/lon null when unknown, the times null when not set (and for a
    /// reader who may not see them).
    struct UserDocument: Encodable {
        var id: String
        var name: String
        var lat: Double?
        var lon: Double?
        var visibility: String
        var precision: String
        var locationExpiresAt: String?
        var privateUntil: String?

        init(_ user: User) {
            id = user.id
            name = user.name
            lat = user.location?.latitude
            lon = user.location?.longitude
            visibility = user.visibility.rawValue
            precision = user.effectivePrecision.rawValue
            locationExpiresAt = user.locationExpiresAt.map(UserShowCommand.timeText)
            privateUntil = user.privateUntil.map(UserShowCommand.timeText)
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(lat, forKey: .lat)
            try container.encode(lon, forKey: .lon)
            try container.encode(visibility, forKey: .visibility)
            try container.encode(precision, forKey: .precision)
            try container.encode(locationExpiresAt, forKey: .locationExpiresAt)
            try container.encode(privateUntil, forKey: .privateUntil)
        }

        enum CodingKeys: String, CodingKey {
            case id, name, lat, lon, visibility, precision
            case locationExpiresAt = "location_expires_at"
            case privateUntil = "private_until"
        }
    }
}

struct UserRemoveCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a user and their token (that user's or the admin token).")

    @Argument(help: "User id.") var id: String
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
        try session.perform(.removeUser(id))
        output.line("Removed \(ResultListing.printable(id)).")
    }
}

/// `vicinity admin-token`: the operator's token, for adding users and changing places.
struct AdminTokenCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-token",
        abstract: "Create the admin token (or replace it with --rotate) and print it, once.",
        discussion: """
            Whoever can write the database file is its operator, so this asks no token. The token \
            is printed alone on standard output and stored only as a SHA-256 digest: it cannot be \
            shown again; --rotate makes a new one and the old one stops working.
            """)

    @Flag(help: "Replace the existing admin token.") var rotate = false
    @OptionGroup var database: DatabaseOptions

    func execute(_ output: inout CommandOutput) throws {
        let session = try DirectorySession(database: database, token: nil, operator: true, output: &output)
        if try session.read({ $0.hasAdminToken }) && !rotate {
            session.close()
            throw CLIError.usage(
                "an admin token exists and tokens are shown only once: --rotate replaces it (the old one stops working)"
            )
        }
        let token = try session.perform(.rotateAdminToken) ?? ""
        output.line(token)
        output.note("\(rotate ? "replaced the" : "created an") admin token; the token above is shown only this once")
    }
}
