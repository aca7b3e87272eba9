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
            like a user that does not exist. A user without a location is on no map. Adding a \
            user needs the admin token (vicinity admin-token); changing one needs that user's \
            token or the admin token. Tokens come from --token or $VICINITY_TOKEN (prefer the \
            variable: other users can see command lines in ps).
            """,
        subcommands: [
            UserAddCommand.self, UserMoveCommand.self, UserVisibilityCommand.self, UserShowCommand.self,
            UserListCommand.self, UserTokenCommand.self, UserRemoveCommand.self,
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

    @Argument(help: "User id: 1 to 128 characters, no control characters.") var id: String
    @Option(help: ArgumentHelp("Name shown on maps (default: the id).", valueName: "name")) var name: String?
    @Option(
        name: .customLong("at"), parsing: .upToNextOption,
        help: ArgumentHelp("Where the user is: latitude and longitude in degrees.", valueName: "lat lon"))
    var location: [String] = []
    @Flag(help: "Start private: on no map.") var `private` = false
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let coordinate = try UserMoveCommand.coordinate(location, option: "--at") {
            "vicinity user add \(ResultListing.printable(id)) --at \($0) \($1)"
        }
        let user = User(
            id: id, name: name ?? id, location: coordinate, visibility: `private` ? .private : .public)
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
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
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        if forget && !location.isEmpty { throw CLIError.usage("give a latitude and longitude, or --forget, not both") }
        let coordinate = try Self.coordinate(location, option: "the location") {
            "vicinity user move \(ResultListing.printable(id)) \($0) \($1)"
        }
        if coordinate == nil && !forget {
            throw CLIError.usage("missing the location: expected LAT LON in degrees, or --forget")
        }
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
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
        abstract: "Make a user public or private (that user's or the admin token).")

    @Argument(help: "User id.") var id: String
    @Argument(help: "public or private.") var visibility: String
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let value = try ArgumentValues.parse(visibility, Vocabulary.visibility)
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
        try session.perform(.setVisibility(id, value))
        output.line(
            value == .private
                ? "\(ResultListing.printable(id)) is private: on no map, and invisible to everyone else."
                : "\(ResultListing.printable(id)) is public: on the map wherever their location is.")
    }
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
        output.line("id:         \(ResultListing.printable(user.id))")
        output.line("name:       \(ResultListing.printable(user.name))")
        output.line("location:   \(user.location.map { "\($0)" } ?? "unknown (on no map)")")
        output.line("visibility: \(user.visibility.rawValue)")
    }

    /// `{"id", "name", "lat", "lon", "visibility"}`, lat/lon null when unknown.
    struct UserDocument: Encodable {
        var id: String
        var name: String
        var lat: Double?
        var lon: Double?
        var visibility: String

        init(_ user: User) {
            id = user.id
            name = user.name
            lat = user.location?.latitude
            lon = user.location?.longitude
            visibility = user.visibility.rawValue
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(lat, forKey: .lat)
            try container.encode(lon, forKey: .lon)
            try container.encode(visibility, forKey: .visibility)
        }

        enum CodingKeys: String, CodingKey { case id, name, lat, lon, visibility }
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
