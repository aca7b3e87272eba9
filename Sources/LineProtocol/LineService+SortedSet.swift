import Foundation
import Places
import RedisGeo

/// The sorted-set reads Redis users run on GEO keys: ZRANGE (by index or BYSCORE, REV, LIMIT,
/// WITHSCORES), ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZREVRANGE, ZSCORE, ZRANK, ZREVRANK and ZCOUNT,
/// parsed and answered as Redis 7.0's `src/t_zset.c` does (`zrangeGenericCommand`,
/// `zslParseRange`, `zrankGenericCommand`).
///
/// A member's score is its 52-bit geohash (`RedisGeoKeyspace.score`), printed as Redis prints
/// doubles, `%.17g` (`addReplyDouble`); members of equal score are in byte order. BYLEX is
/// refused: GEO keys are not ordered by member.
extension LineService {
    /// The sorted-set reads this file answers.
    static let sortedSetCommands: Set<String> = [
        "ZRANGE", "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZREVRANGE", "ZSCORE", "ZRANK", "ZREVRANK", "ZCOUNT",
    ]

    func sortedSetCommand(_ name: String, _ arguments: inout CommandArguments, _ session: Session)
        throws(CommandFailure) -> Outcome?
    {
        guard LineService.sortedSetCommands.contains(name) else { return nil }
        let argv = try LineService.argv(name, &arguments)
        if LineService.readsUserKey(name, argv) { try LineService.admitUserQuery(session) }
        let protocolVersion = session.protocolVersion
        return .reply(
            try redisView(session) { keyspace throws(CommandFailure) in
                switch name {
                case "ZSCORE":
                    return keyspace.score(key: argv[1], member: argv[2]).map { .doubleText(Self.scoreText($0)) }
                        ?? .nullBulk
                case "ZRANK", "ZREVRANK":
                    guard let score = keyspace.score(key: argv[1], member: argv[2]) else { return .nullBulk }
                    let members = try Self.sortedMembers(keyspace, argv[1])
                    let rank = members.count { Self.precedes($0, (score, argv[2])) }
                    return .integer(name == "ZRANK" ? rank : members.count - 1 - rank)
                case "ZCOUNT":
                    guard let range = ScoreRange(minimum: argv[2], maximum: argv[3]) else {
                        throw .error("min or max is not a float")
                    }
                    return .integer(try Self.sortedMembers(keyspace, argv[1]).count { range.contains($0.score) })
                default:
                    return try Self.range(name, argv, keyspace, resp3: protocolVersion == 3)
                }
            })
    }

    /// A member and its score.
    typealias ScoredMember = (score: Double, member: String)

    /// Redis's sorted-set order: by score, then by the member's bytes.
    static func precedes(_ a: ScoredMember, _ b: ScoredMember) -> Bool {
        a.score != b.score ? a.score < b.score : a.member.utf8.lexicographicallyPrecedes(b.member.utf8)
    }

    /// Every member of a key with its score, in sorted-set order.
    static func sortedMembers(_ keyspace: RedisGeoKeyspace, _ key: String) throws(CommandFailure) -> [ScoredMember] {
        var members: [ScoredMember] = []
        do throws(PlacesError) {
            if key == PlaceDirectory.userKind {
                // A search around one centre may miss its antipode (rounding at the reach's end):
                // two antipodal centres miss nothing together.
                var seen = Set<String>()
                for longitude in [0.0, 180.0] {
                    let candidates = try keyspace.candidates(
                        key: key, longitude: longitude, latitude: 0, reachMeters: RedisGeoKeyspace.maximumReachMeters)
                    for (position, score) in candidates.scores.enumerated() {
                        let member = candidates.member(position)
                        if seen.insert(member).inserted { members.append((score, member)) }
                    }
                }
            } else {
                for id in try keyspace.placeIDs(kind: key) {
                    if let score = keyspace.score(key: key, member: id) { members.append((score, id)) }
                }
            }
        } catch {
            throw failure(error)
        }
        return members.sorted(by: precedes)
    }

    /// `%.17g`, as Redis 7.0's `addReplyDouble` prints a score.
    static func scoreText(_ score: Double) -> String { String(format: "%.17g", score) }

    /// A `min`/`max` pair of a score range (Redis `zslParseRange`): a number as C's `strtod` reads
    /// it (`inf`, `-inf` included), `(` in front for an exclusive bound.
    struct ScoreRange {
        var minimum: Double
        var maximum: Double
        var excludesMinimum = false
        var excludesMaximum = false

        init?(minimum: String, maximum: String) {
            guard let low = Self.bound(minimum), let high = Self.bound(maximum) else { return nil }
            (self.minimum, excludesMinimum) = low
            (self.maximum, excludesMaximum) = high
        }

        func contains(_ score: Double) -> Bool {
            (excludesMinimum ? score > minimum : score >= minimum)
                && (excludesMaximum ? score < maximum : score <= maximum)
        }

        private static func bound(_ text: String) -> (Double, Bool)? {
            let exclusive = text.hasPrefix("(")
            let number = exclusive ? String(text.dropFirst()) : text
            // strtod over the whole text, as Redis: leading spaces and an empty text (0) pass.
            let value: Double? = number.withCString { start in
                var end: UnsafeMutablePointer<CChar>?
                let value = strtod(start, &end)
                guard let end, end.pointee == 0, !value.isNaN else { return nil }
                return value
            }
            return value.map { ($0, exclusive) }
        }
    }

    /// ZRANGE, ZREVRANGE, ZRANGEBYSCORE and ZREVRANGEBYSCORE (Redis `zrangeGenericCommand`).
    private static func range(_ name: String, _ argv: [String], _ keyspace: RedisGeoKeyspace, resp3: Bool)
        throws(CommandFailure) -> RESPReply
    {
        var byScore = name.hasSuffix("BYSCORE")
        var reverse = name.hasPrefix("ZREV")
        let general = name == "ZRANGE"
        var withScores = false
        var offset: Int64 = 0
        var limit: Int64 = -1
        var index = 4
        while index < argv.count {
            let option = argv[index]
            if RedisArguments.matches(option, "withscores") {
                withScores = true
            } else if RedisArguments.matches(option, "limit"), argv.count - index - 1 >= 2 {
                guard let given = RedisArguments.integer(argv[index + 1]) else { throw .notAnInteger }
                guard let count = RedisArguments.integer(argv[index + 2]) else { throw .notAnInteger }
                (offset, limit) = (given, count)
                index += 2
            } else if general, !reverse, RedisArguments.matches(option, "rev") {
                reverse = true
            } else if general, !byScore, RedisArguments.matches(option, "byscore") {
                byScore = true
            } else if general, !byScore, RedisArguments.matches(option, "bylex") {
                throw .error("BYLEX is not supported by Vicinity: GEO keys are ordered by score")
            } else {
                throw .syntax
            }
            index += 1
        }
        if limit != -1, !byScore {
            throw .error("syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")
        }
        // REV with BYSCORE, and ZREVRANGEBYSCORE, give the range as max then min.
        let (first, second) = byScore && reverse ? (argv[3], argv[2]) : (argv[2], argv[3])
        var members: [ScoredMember]
        if byScore {
            guard let range = ScoreRange(minimum: first, maximum: second) else {
                throw .error("min or max is not a float")
            }
            members = try sortedMembers(keyspace, argv[1]).filter { range.contains($0.score) }
            if reverse { members.reverse() }
            // Redis walks `offset` members, then takes `limit` (a negative limit: all); a negative
            // offset walks off the end.
            guard offset >= 0, offset < members.count else { return .array([]) }
            members = Array(members.dropFirst(Int(offset)))
            if limit >= 0, limit < members.count { members = Array(members.prefix(Int(limit))) }
        } else {
            guard var start = RedisArguments.integer(first), var end = RedisArguments.integer(second) else {
                throw .notAnInteger
            }
            members = try sortedMembers(keyspace, argv[1])
            let count = Int64(members.count)
            if start < 0 { start += count }
            if end < 0 { end += count }
            if start < 0 { start = 0 }
            guard start <= end, start < count else { return .array([]) }
            if end >= count { end = count - 1 }
            if reverse { members.reverse() }
            members = Array(members[Int(start)...Int(end)])
        }
        guard withScores else { return .array(members.map { .text($0.member) }) }
        if resp3 {
            return .array(members.map { .array([.text($0.member), .doubleText(scoreText($0.score))]) })
        }
        return .array(members.flatMap { [.text($0.member), .doubleText(scoreText($0.score))] })
    }
}
