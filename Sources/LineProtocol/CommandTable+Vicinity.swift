/// Vicinity's own commands: latitude before longitude, meters unless `UNIT` says otherwise (see
/// `LineService+Vicinity.swift` for what each answers).
extension CommandTable {
    private static let unitOption = "[@unit UNIT=unit:string]"
    private static let modelOption = "[@model MODEL (@model GEODESIC | HAVERSINE | PROJECTED)]"
    /// `OPEN now|TIME` and `WHERE name value` (repeatable): `QueryFilters`.
    private static let filterOptions = "[OPEN=time:string] [@where WHERE (@where name value)] ..."
    private static let precisionOption = "[@precision PRECISION (@precision EXACT | STREET | DISTRICT | CITY)]"
    private static let radiusComplexity =
        "O(N+log(M)) where N is the number of places in the grid cells covering the circle and M the number "
        + "of places of the kind"

    static let vicinity: [CommandDescription] = [
        command(
            "NEARBY", arity: -5, flags: "readonly", keys: (1, 1, 1), acl: "@geo", specs: [spec("RO ACCESS", at: 1)],
            since: vicinitySince, group: "geo", complexity: radiusComplexity,
            summary:
                "Places (or users) of a kind within a radius of a point, nearest first, each with its distance and "
                + "bearing; OPEN now or a time (2026-12-24T22:00+01:00, or local in each place's zone without an "
                + "offset) keeps the places open then, each saying until when; WHERE name value keeps those with "
                + "that attribute",
            syntax:
                "kind:key latitude:double longitude:double radius:double \(unitOption) [LIMIT=count:integer] "
                + "\(modelOption) [WITHCOORD] \(filterOptions)"),
        command(
            "NEAREST", arity: -5, flags: "readonly", keys: (1, 1, 1), acl: "@geo",
            specs: [spec("RO ACCESS", at: 1)], since: vicinitySince, group: "geo",
            complexity: "O(K log(M)) where K is the count and M the number of places of the kind",
            summary:
                "The count places (or users) of a kind nearest to a point, with distance and bearing; with OPEN, "
                + "the count nearest open at that time however far, and WHERE as for NEARBY",
            syntax:
                "kind:key latitude:double longitude:double count:integer [MAXDIST=distance:double] \(unitOption) "
                + "\(modelOption) [WITHCOORD] \(filterOptions)"),
        command(
            "DIST", arity: -5, flags: "readonly fast", acl: "@geo", since: vicinitySince, group: "geo",
            summary: "The distance between two points by a distance model (WGS84 geodesic unless MODEL says)",
            syntax:
                "(@from latitude1:double longitude1:double) (@to latitude2:double longitude2:double) \(modelOption) "
                + unitOption),
        command(
            "MAP", arity: -3, flags: "readonly", acl: "@geo", since: vicinitySince, group: "geo",
            complexity: radiusComplexity,
            summary:
                "A text map of the places around a point; OPEN marks each place's state at that time, WHERE name "
                + "value keeps those with that attribute",
            syntax:
                "latitude:double longitude:double [RADIUS=meters:double] [WIDTH=columns:integer] "
                + "[HEIGHT=rows:integer] [KIND=kind] \(filterOptions)"),
        command(
            "PLACE.SET", arity: -5, flags: "write denyoom", keys: (1, 1, 1), acl: "@geo",
            specs: [spec("RW UPDATE", at: 1)], since: vicinitySince, group: "geo", complexity: "O(log(M))",
            summary: "Add or replace a place (admin token)",
            syntax:
                "kind:key id latitude:double longitude:double [NAME=name] "
                + "[@attribute ATTR (@attribute name value)] ..."),
        command(
            "PLACE.GET", arity: 3, flags: "readonly fast", keys: (1, 1, 1), acl: "@geo", specs: [spec("RO", at: 1)],
            since: vicinitySince, group: "geo", summary: "A place's fields and attributes", syntax: "kind:key id"),
        command(
            "PLACE.DEL", arity: 3, flags: "write", keys: (1, 1, 1), acl: "@geo", specs: [spec("RW DELETE", at: 1)],
            since: vicinitySince, group: "geo", complexity: "O(log(M))", summary: "Remove a place (admin token)",
            syntax: "kind:key id"),
        command(
            "USER.ADD", arity: -2, flags: "write denyoom", acl: "@geo", since: vicinitySince, group: "geo",
            summary:
                "Add a user; the reply is the user's token, shown once (admin token); without PRECISION the "
                + "server's default precision applies",
            syntax:
                "id [NAME=name] [AT (@at latitude:double longitude:double)] [@visibility PRIVATE | PUBLIC] "
                + precisionOption),
        command(
            "USER.MOVE", arity: -3, flags: "write denyoom", acl: "@geo", since: vicinitySince, group: "geo",
            complexity: "O(log(M))", summary: "Move a user to a point, or off the map with NONE",
            syntax: "id (@location (@point latitude:double longitude:double) | NONE)"),
        command(
            "USER.VISIBILITY", arity: -3, flags: "write", acl: "@geo", since: vicinitySince, group: "geo",
            summary:
                "Make a user public (on everybody's map) or private; private FOR a duration (3h, 90m, 1d12h or "
                + "seconds, 1s to 3650d) turns public again by itself (that user or the admin)",
            syntax: "id (@visibility PUBLIC | PRIVATE) [FOR=duration]"),
        command(
            "USER.PRECISION", arity: 3, flags: "write", acl: "@geo", since: vicinitySince, group: "geo",
            summary:
                "How precisely others see a user: exact, or the centre of a cell of about 100 m (street), 1 km "
                + "(district) or 10 km (city) (that user or the admin)",
            syntax: "id (@precision EXACT | STREET | DISTRICT | CITY)"),
        command(
            "USER.GET", arity: 2, flags: "readonly fast", acl: "@geo", since: vicinitySince, group: "geo",
            summary:
                "A user's fields, for whoever may see the user: others get the published location; the user and "
                + "the admin the exact one and the timers (location_expires_at, private_until)",
            syntax: "id"),
        command(
            "USER.TOKEN", arity: 2, flags: "write", acl: "@geo", since: vicinitySince, group: "geo",
            summary: "A new token for a user (that user or the admin); the old one stops working", syntax: "id"),
        command(
            "USER.DEL", arity: 2, flags: "write", acl: "@geo", since: vicinitySince, group: "geo",
            complexity: "O(log(M))", summary: "Remove a user", syntax: "id"),
        command(
            "OUTPUT", arity: 2, flags: "fast loading stale", acl: "@connection", since: vicinitySince,
            group: "connection", summary: "Replies as RESP (the default) or as one JSON object per line",
            syntax: "(@mode JSON | RESP)"),
        command(
            "POSITION", arity: 1, flags: "fast loading stale", acl: "@connection", since: vicinitySince,
            group: "connection",
            summary:
                "Change-log positions: this connection's last write (0 before one), what this server has applied, "
                + "and the newest the database holds"),
        command(
            "WAITPOS", arity: 3, flags: "noscript", acl: "@connection", since: vicinitySince, group: "connection",
            summary:
                "Wait until this server has applied a change-log position (a write made here or on another server), "
                + "up to timeout milliseconds",
            syntax: "position:integer timeout:integer"),
        command(
            "NODE.STATE", arity: 1, flags: "readonly admin", acl: "@admin", since: vicinitySince, group: "server",
            summary:
                "Everything this server holds in memory, one change-log line per record, with the position it "
                + "reflects: byte for byte `vicinity export --state` of the database at that position (admin token)"),
    ]
}
