/// Redis 7.0's GEO and sorted-set commands (`src/commands/geo*.json`, `z*.json`, 7.0.15).
extension CommandTable {
    /// The options GEORADIUS and its kin share (`src/commands/georadius.json`).
    private static let radiusOptions =
        "[WITHCOORD] [WITHDIST] [WITHHASH] [@count-block COUNT=count:integer [ANY]] [@order ASC | DESC]"
    private static let radiusStore = " [@store STORE=key:key#1 | STOREDIST=key:key#2]"
    private static let units = "@unit M | KM | FT | MI"
    private static let searchShape =
        "(@from FROMMEMBER=member | FROMLONLAT (@fromlonlat longitude:double latitude:double)) "
        + "(@by (@circle BYRADIUS=radius:double (\(units))) | (@box BYBOX=width:double height:double (\(units))))"
    private static let radiusComplexity =
        "O(N+log(M)) where N is the number of elements inside the bounding box of the circular area delimited "
        + "by center and radius and M is the number of items inside the index."
    private static let searchComplexity =
        "O(N+log(M)) where N is the number of elements in the grid-aligned bounding box area around the shape "
        + "provided as the filter and M is the number of items inside the shape"
    private static let perMember =
        "O(log(N)) for each member requested, where N is the number of elements in the sorted set."
    private static let storeSpecs = [
        spec("RO ACCESS", at: 1), spec("OW UPDATE", after: "STORE", from: 6),
        spec("OW UPDATE", after: "STOREDIST", from: 6),
    ]

    static let geo: [CommandDescription] = [
        command(
            "GEOADD", arity: -5, flags: "write denyoom", keys: (1, 1, 1), acl: "@geo",
            specs: [spec("RW UPDATE", at: 1)], since: "3.2.0", group: "geo",
            complexity: "O(log(N)) for each item added, where N is the number of elements in the sorted set.",
            summary: "Add one or more geospatial items in the geospatial index represented using a sorted set",
            syntax: "key [@condition NX | XX] [@change CH] (@data longitude:double latitude:double member) ..."),
        command(
            "GEODIST", arity: -4, flags: "readonly", keys: (1, 1, 1), acl: "@geo", specs: [spec("RO ACCESS", at: 1)],
            since: "3.2.0", group: "geo", complexity: "O(log(N))",
            summary: "Returns the distance between two members of a geospatial index",
            syntax: "key member1 member2 [\(units)]"),
        command(
            "GEOHASH", arity: -2, flags: "readonly", keys: (1, 1, 1), acl: "@geo", specs: [spec("RO ACCESS", at: 1)],
            since: "3.2.0", group: "geo", complexity: perMember,
            summary: "Returns members of a geospatial index as standard geohash strings", syntax: "key [member ...]"),
        command(
            "GEOPOS", arity: -2, flags: "readonly", keys: (1, 1, 1), acl: "@geo", specs: [spec("RO ACCESS", at: 1)],
            since: "3.2.0", group: "geo", complexity: perMember,
            summary: "Returns longitude and latitude of members of a geospatial index", syntax: "key [member ...]"),
        command(
            "GEORADIUS", arity: -6, flags: "write denyoom movablekeys", keys: (1, 1, 1), acl: "@geo",
            specs: storeSpecs, since: "3.2.0", group: "geo", complexity: radiusComplexity,
            summary:
                "Query a sorted set representing a geospatial index to fetch members matching a given maximum "
                + "distance from a point",
            syntax: "key longitude:double latitude:double radius:double (\(units)) " + radiusOptions + radiusStore),
        command(
            "GEORADIUS_RO", arity: -6, flags: "readonly", keys: (1, 1, 1), acl: "@geo",
            specs: [spec("RO ACCESS", at: 1)], since: "3.2.10", group: "geo", complexity: radiusComplexity,
            summary: "A read-only variant for GEORADIUS",
            syntax: "key longitude:double latitude:double radius:double (\(units)) " + radiusOptions),
        command(
            "GEORADIUSBYMEMBER", arity: -5, flags: "write denyoom movablekeys", keys: (1, 1, 1), acl: "@geo",
            specs: storeSpecs, since: "3.2.0", group: "geo", complexity: radiusComplexity,
            summary:
                "Query a sorted set representing a geospatial index to fetch members matching a given maximum "
                + "distance from a member",
            syntax: "key member radius:double (\(units)) " + radiusOptions + radiusStore),
        command(
            "GEORADIUSBYMEMBER_RO", arity: -5, flags: "readonly", keys: (1, 1, 1), acl: "@geo",
            specs: [spec("RO ACCESS", at: 1)], since: "3.2.10", group: "geo", complexity: radiusComplexity,
            summary: "A read-only variant for GEORADIUSBYMEMBER",
            syntax: "key member radius:double (\(units)) " + radiusOptions),
        command(
            "GEOSEARCH", arity: -7, flags: "readonly", keys: (1, 1, 1), acl: "@geo",
            specs: [spec("RO ACCESS", at: 1)], since: "6.2.0", group: "geo", complexity: searchComplexity,
            summary:
                "Query a sorted set representing a geospatial index to fetch members inside an area of a box or "
                + "a circle.",
            syntax:
                "key \(searchShape) [@order ASC | DESC] [@count-block COUNT=count:integer [ANY]] [WITHCOORD] "
                + "[WITHDIST] [WITHHASH]"),
        command(
            "GEOSEARCHSTORE", arity: -8, flags: "write denyoom", keys: (1, 2, 1), acl: "@geo",
            specs: [spec("OW UPDATE", at: 1), spec("RO ACCESS", at: 2)], since: "6.2.0", group: "geo",
            complexity: searchComplexity,
            summary:
                "Query a sorted set representing a geospatial index to fetch members inside an area of a box or "
                + "a circle, and store the result in another key.",
            syntax:
                "destination:key#0 source:key#1 \(searchShape) [@order ASC | DESC] "
                + "[@count-block COUNT=count:integer [ANY]] [STOREDIST]"),
    ]

    private static let rangeComplexity =
        "O(log(N)+M) with N being the number of elements in the sorted set and M the number of elements returned."

    static let sortedSet: [CommandDescription] = [
        command(
            "ZREM", arity: -3, flags: "write fast", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RW DELETE", at: 1)], since: "1.2.0", group: "sorted_set",
            complexity:
                "O(M*log(N)) with N being the number of elements in the sorted set and M the number of elements to "
                + "be removed.",
            summary: "Remove one or more members from a sorted set", syntax: "key member ..."),
        command(
            "ZCARD", arity: 2, flags: "readonly fast", keys: (1, 1, 1), acl: "@sortedset", specs: [spec("RO", at: 1)],
            since: "1.2.0", group: "sorted_set", summary: "Get the number of members in a sorted set", syntax: "key"),
        command(
            "ZRANGE", arity: -4, flags: "readonly", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "1.2.0", group: "sorted_set", complexity: rangeComplexity,
            summary: "Return a range of members in a sorted set",
            syntax:
                "key start stop [@sortby BYSCORE | BYLEX] [REV] [@limit LIMIT (@limit offset:integer count:integer)] "
                + "[WITHSCORES]"),
        command(
            "ZRANGEBYSCORE", arity: -4, flags: "readonly", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "1.0.5", group: "sorted_set", complexity: rangeComplexity,
            summary: "Return a range of members in a sorted set, by score",
            syntax: "key min:double max:double [WITHSCORES] [@limit LIMIT (@limit offset:integer count:integer)]"),
        command(
            "ZREVRANGE", arity: -4, flags: "readonly", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "1.2.0", group: "sorted_set", complexity: rangeComplexity,
            summary: "Return a range of members in a sorted set, by index, with scores ordered from high to low",
            syntax: "key start:integer stop:integer [WITHSCORES]"),
        command(
            "ZREVRANGEBYSCORE", arity: -4, flags: "readonly", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "2.2.0", group: "sorted_set", complexity: rangeComplexity,
            summary: "Return a range of members in a sorted set, by score, with scores ordered from high to low",
            syntax: "key max:double min:double [WITHSCORES] [@limit LIMIT (@limit offset:integer count:integer)]"),
        command(
            "ZSCORE", arity: 3, flags: "readonly fast", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "1.2.0", group: "sorted_set",
            summary: "Get the score associated with the given member in a sorted set", syntax: "key member"),
        command(
            "ZRANK", arity: 3, flags: "readonly fast", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "2.0.0", group: "sorted_set", complexity: "O(log(N))",
            summary: "Determine the index of a member in a sorted set", syntax: "key member"),
        command(
            "ZREVRANK", arity: 3, flags: "readonly fast", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "2.0.0", group: "sorted_set", complexity: "O(log(N))",
            summary: "Determine the index of a member in a sorted set, with scores ordered from high to low",
            syntax: "key member"),
        command(
            "ZCOUNT", arity: 4, flags: "readonly fast", keys: (1, 1, 1), acl: "@sortedset",
            specs: [spec("RO ACCESS", at: 1)], since: "2.0.0", group: "sorted_set", complexity: "O(log(N))",
            summary: "Count the members in a sorted set with scores within the given values",
            syntax: "key min:double max:double"),
    ]
}
