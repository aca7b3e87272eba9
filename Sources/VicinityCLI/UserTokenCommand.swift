import ArgumentParser
import Places

/// `vicinity user token`: a new token for a user who lost theirs.
struct UserTokenCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Give a user a new token and print it, once; the old one stops working at once.",
        discussion: """
            Needs that user's token or the admin token. The token is printed alone on standard \
            output (TOKEN=$(vicinity user token ayse)) and stored only as a SHA-256 digest.
            """)

    @Argument(help: "User id.") var id: String
    @OptionGroup var options: UserOptions

    func execute(_ output: inout CommandOutput) throws {
        let session = try DirectorySession(database: options.database, token: options.token, output: &output)
        let token = try session.perform(.replaceUserToken(id)) ?? ""
        output.line(token)
        output.note(
            "replaced the token of \(ResultListing.printable(id)); the old one no longer works and the token above "
                + "is shown only this once")
    }
}
