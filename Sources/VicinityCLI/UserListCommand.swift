import ArgumentParser
import Foundation
import Places

/// `vicinity user list`: every user, for the admin.
struct UserListCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every user, public and private, with their locations (admin token).",
        discussion: """
            One line a user, in id order: id, visibility, precision, location, name. --json: an \
            array of the documents user show --json prints (with when each location expires).
            """)

    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
        defer { session.close() }
        let principal = session.principal
        let users = try session.read { directory throws(PlacesError) in try directory.users(as: principal) }
        if json {
            output.line(try JSONOutput.encode(users.map(UserShowCommand.UserDocument.init)))
            return
        }
        if users.isEmpty {
            output.line("No users.")
            return
        }
        let idWidth = min(40, users.map { ResultListing.printable($0.id).count }.max() ?? 0)
        for user in users {
            let id = ResultListing.printable(user.id)
            let location = user.location.map { "\($0)" } ?? "(no location)"
            output.line(
                id + String(repeating: " ", count: max(0, idWidth - id.count)) + "  "
                    + user.visibility.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + "  "
                    + user.effectivePrecision.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + "  "
                    + location.padding(toLength: max(24, location.count), withPad: " ", startingAt: 0) + "  "
                    + ResultListing.printable(user.name))
        }
    }
}
