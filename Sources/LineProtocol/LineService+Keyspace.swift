import Places

/// `SCAN`, `KEYS` and `MEMORY USAGE` over the keys a client can see: every place kind, and
/// `user` while a public user is on a map (as `DBSIZE` counts them); a private user is in none.
extension LineService {
    /// The visible keys, sorted (a cursor is a position in this order).
    func visibleKeys() throws(CommandFailure) -> [String] {
        try read { directory in
            directory.places.kinds + (directory.publicUserCount > 0 ? [PlaceDirectory.userKind] : [])
        }.sorted()
    }

    /// `SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]`, as Redis 7.0's `scanGenericCommand`:
    /// `COUNT` keys (10 by default) from the cursor, then `MATCH` and `TYPE` filter them, so a page
    /// may hold fewer; the next cursor is 0 when the scan is complete. Every key is a `zset`.
    func scan(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure) -> RESPReply {
        let cursorText = try arguments.next()
        guard let cursor = UInt64(cursorText) else { throw .error("invalid cursor") }
        var count = 10
        var pattern: KeyPattern?
        var type: String?
        while let option = arguments.option() {
            switch option {
            case "MATCH": pattern = KeyPattern(try arguments.next())
            case "COUNT":
                guard let number = Int(try arguments.next()) else {
                    throw .error("value is not an integer or out of range")
                }
                guard number >= 1 else { throw .syntax }
                count = number
            case "TYPE": type = try arguments.next().lowercased()
            default: throw .syntax
            }
        }
        let keys = try visibleKeys()
        let start = Int(clamping: cursor)
        guard start < keys.count else { return .array([.text("0"), .array([])]) }
        let end = min(keys.count, start + count)
        let page = keys[start..<end].filter { key in
            (pattern?.matches(key) ?? true) && (type == nil || type == "zset")
        }
        return .array([.text(end == keys.count ? "0" : String(end)), .array(page.map { .text($0) })])
    }

    /// `MEMORY USAGE key [SAMPLES count]`: an estimate in bytes of what the key would take in Redis
    /// 7.0 as a sorted set of more than 128 members (skiplist and dict encoding): 64 bytes for the
    /// key plus 80 per member (a one-level skiplist node with its score, its dict entry, and an id of
    /// up to 16 bytes). Nil for a key the client cannot see. `SAMPLES` is accepted and ignored: the
    /// member count is exact.
    func memory(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure) -> RESPReply {
        let typed = try arguments.next()
        switch typed.uppercased() {
        case "USAGE":
            let key = try arguments.next()
            if arguments.take("SAMPLES") {
                guard let samples = Int(try arguments.next()), samples >= 0 else {
                    throw .error("value is not an integer or out of range")
                }
                _ = samples
            }
            guard arguments.isAtEnd else { throw .syntax }
            guard try visibleKeys().contains(key) else { return .nullBulk }
            let members = try redisView(session) { keyspace throws(CommandFailure) in
                do throws(PlacesError) { return try keyspace.cardinality(key: key) } catch {
                    throw LineService.failure(error)
                }
            }
            return .integer(64 + 80 * members)
        case "HELP":
            return LineService.help(for: "MEMORY")
        default:
            throw CommandFailure(line: LineService.unknownSubcommand(typed, of: "MEMORY"))
        }
    }
}
