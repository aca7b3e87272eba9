import Geo
import Places
import RedisGeo

/// Redis 7.0's GEO commands and the sorted-set and key commands around them, answering byte for
/// byte as `redis-server` 7.0.15 does on the same data (`scripts/redis-compat.py` proves it):
/// GEOADD, GEOSEARCH, GEORADIUS, GEORADIUSBYMEMBER (and their `_RO` forms), GEODIST, GEOPOS,
/// GEOHASH, ZREM, ZCARD, DEL, EXISTS, TYPE.
///
/// A key is a place kind and a member a place id; see `RedisGeoKeyspace` for the quantized view,
/// the `user` key and places beyond latitude ±85.05112878. Where Vicinity differs on purpose:
///
/// - GEOADD, ZREM and DEL need the admin token (`NOPERM …` otherwise), and refuse the `user` key
///   with `ERR key 'user' is read-only …` (users move with USER.MOVE).
/// - GEOADD stores the exact position given (the name of a new place is the member); it keeps an
///   existing place's name and attributes, and writes nothing when the score would not change.
///   Kinds and ids must be valid Vicinity kinds and ids (`ERR invalid kind …` otherwise).
/// - GEOSEARCHSTORE and GEORADIUS … STORE write into another key, another place kind, as the admin
///   (the rules of GEOADD): the destination's places become copies of the places found (name and
///   attributes kept, the kind changed; a user found becomes a place named after their id), the
///   others of that kind are removed, all in one transaction, and the reply is the count as
///   Redis's. STOREDIST is refused: a key's scores are its places' positions, not distances.
/// - In the `user` key, users other than the asker are at their published locations, for the
///   admin too, and GEODIST and WITHDIST round distances to them to their precision's cell size
///   (meters, before the unit): between two users to the coarser precision; the asker's own
///   member is exact. The places' keys answer Redis's exact bytes.
/// - The counts GEOADD, ZREM and DEL reply are computed when the command runs; a write another
///   connection makes before these commit is not seen (one connection's commands are in order).
extension LineService {
    func redisGeoCommand(_ name: String, _ arguments: inout CommandArguments, _ session: Session)
        throws(CommandFailure) -> Outcome?
    {
        guard LineService.redisGeoCommands.contains(name) else { return nil }
        let argv = try LineService.argv(name, &arguments)
        if LineService.readsUserKey(name, argv) { try LineService.admitUserQuery(session) }
        switch name {
        case "GEOADD": return try geoAdd(argv, session)
        case "ZREM": return try zRem(argv, session)
        case "DEL": return try del(argv, session)
        case "GEOSEARCH":
            return try geoSearch(argv, session, form: .search)
        case "GEOSEARCHSTORE":
            return try geoSearch(argv, session, form: .searchStore)
        case "GEORADIUS", "GEORADIUS_RO":
            return try geoSearch(argv, session, form: .radius(store: name == "GEORADIUS"))
        case "GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO":
            return try geoSearch(argv, session, form: .member(store: name == "GEORADIUSBYMEMBER"))
        default:
            return .reply(try redisRead(name, argv, session))
        }
    }

    /// The Redis GEO and keyspace commands this file answers.
    static let redisGeoCommands: Set<String> = [
        "GEOADD", "GEOSEARCH", "GEOSEARCHSTORE", "GEORADIUS", "GEORADIUS_RO",
        "GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO", "GEODIST", "GEOPOS", "GEOHASH",
        "ZREM", "ZCARD", "DEL", "EXISTS", "TYPE",
    ]

    /// The arguments as Redis numbers them (argv[0] is the command as typed), refused with the
    /// wrong-arity error unless their count fits the command's arity in `CommandTable` (Redis
    /// 7.0's). `execute` checks the same before dispatch; runs that bypass it (pipelined write
    /// groups, EXEC's commands) are checked here.
    static func argv(_ name: String, _ arguments: inout CommandArguments) throws(CommandFailure) -> [String] {
        var argv = [arguments.command]
        while !arguments.isAtEnd { argv.append(try arguments.next()) }
        // `checks` holds every command this service runs, each behind one reference: no copy of a
        // `CommandDescription` (and of its arrays) a call. `CommandTable` answers for a name it
        // lacks, which no caller gives today.
        let accepts =
            LineService.checks[name]?.accepts(wordCount: argv.count)
            ?? CommandTable.byName[name]?.accepts(wordCount: argv.count)
        guard accepts == true else { throw .wrongArity(name) }
        return argv
    }

    /// Runs `body` on the directory as Redis sees it for this session.
    func redisView<T>(_ session: Session, _ body: (RedisGeoKeyspace) throws(CommandFailure) -> T)
        throws(CommandFailure) -> T
    {
        let principal = session.principal
        return try directory.read { directory throws(CommandFailure) in
            try body(RedisGeoKeyspace(directory: directory, principal: principal))
        }
    }

    /// The reply line of a façade error.
    static func failure(_ error: PlacesError) -> CommandFailure {
        if case .error(let line) = reply(for: error) { return CommandFailure(line: line) }
        return .error(error.description)
    }

    // MARK: - Reads

    private func redisRead(_ name: String, _ argv: [String], _ session: Session) throws(CommandFailure)
        -> RESPReply
    {
        try redisView(session) { keyspace throws(CommandFailure) in
            func cardinality(_ key: String) throws(CommandFailure) -> Int {
                do throws(PlacesError) { return try keyspace.cardinality(key: key) } catch {
                    throw LineService.failure(error)
                }
            }
            switch name {
            case "GEODIST":
                var unit = RedisGeoUnit.meters
                if argv.count == 5 {
                    guard let named = RedisGeoUnit(argument: argv[4]) else {
                        throw .redis(RedisGeoMessage.unsupportedUnit)
                    }
                    unit = named
                } else if argv.count > 5 {
                    throw .syntax
                }
                guard let first = keyspace.score(key: argv[1], member: argv[2]),
                    let second = keyspace.score(key: argv[1], member: argv[3])
                else { return .nullBulk }
                let a = GeoHash.decode(score: first)
                let b = GeoHash.decode(score: second)
                let meters = RedisGeo.distance(
                    longitude1: a.longitude, latitude1: a.latitude, longitude2: b.longitude, latitude2: b.latitude)
                // Between two users, rounded to the coarser precision (the asker's own member is exact).
                let precision = RedisGeoKeyspace.coarser(
                    keyspace.shownPrecision(key: argv[1], member: argv[2]),
                    keyspace.shownPrecision(key: argv[1], member: argv[3]))
                let shown = RedisGeoKeyspace.shown(distanceMeters: meters, precision)
                return .text(RedisGeoText.distance(meters: shown, unit: unit))
            case "GEOPOS":
                return .array(
                    argv.dropFirst(2).map { member in
                        guard let score = keyspace.score(key: argv[1], member: member) else { return .nullArray }
                        let position = GeoHash.decode(score: score)
                        return .array([
                            .doubleText(RedisGeoText.coordinate(position.longitude)),
                            .doubleText(RedisGeoText.coordinate(position.latitude)),
                        ])
                    })
            case "GEOHASH":
                return .array(
                    argv.dropFirst(2).map { member in
                        keyspace.score(key: argv[1], member: member).map { .text(GeoHash.string(score: $0)) }
                            ?? .nullBulk
                    })
            case "ZCARD":
                return .integer(try cardinality(argv[1]))
            case "EXISTS":
                var count = 0
                for key in argv.dropFirst() where try cardinality(key) > 0 { count += 1 }
                return .integer(count)
            default:  // TYPE
                return .simpleString(try cardinality(argv[1]) > 0 ? "zset" : "none")
            }
        }
    }

    // MARK: - Writes

    /// The refusal of a write to the `user` key.
    static func refuseUserKey(_ key: String) throws(CommandFailure) {
        guard key != PlaceDirectory.userKind else {
            throw .error("key 'user' is read-only: it holds Vicinity's users (use USER.MOVE and USER.DEL)")
        }
    }

    static func requireAdmin(_ session: Session, action: String) throws(CommandFailure) {
        guard session.principal == .admin else { throw failure(.forbidden(action: action)) }
    }

    /// GEOADD key [NX|XX] [CH] longitude latitude member … (Redis `geoaddCommand`, then
    /// `zaddGenericCommand` member by member).
    private func geoAdd(_ argv: [String], _ session: Session) throws(CommandFailure) -> Outcome {
        let key = argv[1]
        try LineService.refuseUserKey(key)
        try LineService.requireAdmin(session, action: "changing a place needs the admin token")
        var onlyNew = false
        var onlyExisting = false
        var changes = false
        var index = 2
        while index < argv.count {
            let option = argv[index]
            if RedisArguments.matches(option, "nx") {
                onlyNew = true
            } else if RedisArguments.matches(option, "xx") {
                onlyExisting = true
            } else if RedisArguments.matches(option, "ch") {
                changes = true
            } else {
                break
            }
            index += 1
        }
        // Redis words NX with XX, and a count that is not triples, as a syntax error; no triples
        // at all is ZADD's syntax error.
        guard (argv.count - index) % 3 == 0, !(onlyNew && onlyExisting), index < argv.count else { throw .syntax }
        var points: [(coordinate: Coordinate, member: String)] = []
        while index < argv.count {
            guard let longitude = RedisArguments.double(argv[index]),
                let latitude = RedisArguments.double(argv[index + 1])
            else { throw .notAFloat }
            guard GeoHash.isEncodable(longitude: longitude, latitude: latitude) else {
                throw .redis(RedisGeoMessage.invalidPair(longitude: longitude, latitude: latitude))
            }
            let coordinate: Coordinate
            do { coordinate = try Coordinate(latitude: latitude, longitude: longitude) } catch {
                throw .error(error.description)
            }
            points.append((coordinate, argv[index + 2]))
            index += 3
        }
        let (places, count) = try redisView(session) { keyspace throws(CommandFailure) in
            var added = 0
            var updated = 0
            var pending: [String: Place] = [:]
            var order: [String] = []
            for (coordinate, member) in points {
                do throws(PlacesError) { try PlaceDirectory.validatePlace(kind: key, id: member) } catch {
                    throw LineService.failure(error)
                }
                let current = pending[member] ?? keyspace.directory.places.place(kind: key, id: member)
                let currentScore = current.flatMap { RedisGeoKeyspace.score($0.coordinate) }
                let score = RedisGeoKeyspace.score(coordinate)
                var place: Place
                if let current, currentScore != nil {
                    guard !onlyNew, currentScore != score else { continue }
                    place = current
                    updated += 1
                } else {
                    guard !onlyExisting else { continue }
                    // A place beyond the latitude limit is not in the key: GEOADD adds it anew.
                    place = current ?? Place(id: member, kind: key, name: member, coordinate: coordinate)
                    added += 1
                }
                place.coordinate = coordinate
                if pending.updateValue(place, forKey: member) == nil { order.append(member) }
            }
            return (order.compactMap { pending[$0] }, changes ? added + updated : added)
        }
        return .writes(places.map { DirectoryRequest.setPlace($0) }) { results in
            LineService.batchReply(results, count: count)
        }
    }

    /// ZREM key member …: removes the places the key holds, counting each once.
    private func zRem(_ argv: [String], _ session: Session) throws(CommandFailure) -> Outcome {
        let key = argv[1]
        try LineService.refuseUserKey(key)
        try LineService.requireAdmin(session, action: "removing a place needs the admin token")
        let members = try redisView(session) { keyspace in
            var seen = Set<String>()
            return argv.dropFirst(2).filter { member in
                keyspace.score(key: key, member: member) != nil && seen.insert(member).inserted
            }
        }
        return .writes(members.map { .removePlace(kind: key, id: $0) }) { results in
            LineService.batchReply(results, count: members.count)
        }
    }

    /// DEL key …: removes every place of each kind Redis sees, counting each key once.
    private func del(_ argv: [String], _ session: Session) throws(CommandFailure) -> Outcome {
        let keys = Array(argv.dropFirst())
        for key in keys { try LineService.refuseUserKey(key) }
        try LineService.requireAdmin(session, action: "removing a place needs the admin token")
        let (requests, count) = try redisView(session) { keyspace throws(CommandFailure) in
            var requests: [DirectoryRequest] = []
            var count = 0
            var seen = Set<String>()
            for key in keys where seen.insert(key).inserted {
                let ids: [String]
                do throws(PlacesError) { ids = try keyspace.placeIDs(kind: key) } catch {
                    throw LineService.failure(error)
                }
                if !ids.isEmpty { count += 1 }
                requests += ids.map { .removePlace(kind: key, id: $0) }
            }
            return (requests, count)
        }
        return .writes(requests) { results in LineService.batchReply(results, count: count) }
    }

    /// `count`, or the error of the first write refused.
    static func batchReply(_ results: [Result<String?, PlacesError>], count: Int) -> RESPReply {
        for case .failure(let error) in results { return reply(for: error) }
        return .integer(count)
    }
}
