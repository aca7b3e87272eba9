import Places

/// `USER.TOKEN id`: a new token for a user (after `AUTH` with that user's token or the admin
/// token), replied as a bulk string once; the old token stops working when the reply is sent.
/// The request log names the command and its outcome, never the token.
extension LineService {
    func userTokenCommand(_ name: String, _ arguments: inout CommandArguments) throws(CommandFailure) -> Outcome? {
        guard name == "USER.TOKEN" else { return nil }
        guard arguments.remaining == 1 else { throw .wrongArity(name) }
        return .write(.replaceUserToken(try arguments.next())) { token in .text(token ?? "") }
    }
}
