import Places

/// The scraping limit on the line protocol (`UserQueryLimit`, `--user-query-rate`): every read
/// that answers about other users takes one query from the asker's budget — `NEARBY`, `NEAREST`
/// and `MAP` of kind `user`, `USER.GET` of someone else, the GEO and sorted-set reads of the `user`
/// key, a watch of users (once, as it starts). Inside `MULTI`/`EXEC` and in a pipeline each
/// command counts. `all` names every place kind, never the users, so its queries are not counted.
///
/// A refusal is an ordinary error reply, and the connection stays usable:
/// `-ERR rate limit: too many queries about users: over the rate of 1 a second in bursts of 2
/// (--user-query-rate); retry in 1 s`.
extension LineService {
    /// Takes one query about other users from the session's budget: the admin is never limited,
    /// a user by their id, the anonymous by the connection's IP address.
    static func admitUserQuery(_ session: Session) throws(CommandFailure) {
        do throws(PlacesError) {
            try session.userQueryLimit.admit(session.principal, address: session.clientAddress)
        } catch {
            throw .error("rate limit: " + error.description)
        }
    }

    /// Takes one query when `kind` is the users' (a `NEARBY`, `NEAREST`, `MAP` or watch kind).
    static func admitQuery(ofKind kind: String, _ session: Session) throws(CommandFailure) {
        if kind == PlaceDirectory.userKind { try admitUserQuery(session) }
    }

    /// Whether a Redis GEO or sorted-set read names the `user` key (argv[0] is the command): the
    /// key is the first argument, GEOSEARCHSTORE's source the second, and EXISTS may name several.
    /// The writes (GEOADD, ZREM, DEL) refuse the `user` key and count nothing.
    static func readsUserKey(_ name: String, _ argv: [String]) -> Bool {
        switch name {
        case "GEOADD", "ZREM", "DEL": return false
        case "EXISTS": return argv.dropFirst().contains(PlaceDirectory.userKind)
        case "GEOSEARCHSTORE": return argv.count > 2 && argv[2] == PlaceDirectory.userKind
        default: return argv.count > 1 && argv[1] == PlaceDirectory.userKind
        }
    }
}
