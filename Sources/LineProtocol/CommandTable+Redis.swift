/// Redis 7.0's commands that Vicinity runs or will run, with Redis 7.0.15's facts
/// (`src/commands/*.json`; `SETINFO` from 7.2, which redis-py 5+ sends).
extension CommandTable {
    static let redis: [CommandDescription] = connection + server + keyspace + geo + sortedSet + transactions

    static let connection: [CommandDescription] = [
        command(
            "PING", arity: -1, flags: "fast sentinel", acl: "@connection",
            tips: "request_policy:all_shards response_policy:all_succeeded", since: "1.0.0", group: "connection",
            summary: "Ping the server", syntax: "[message]"),
        command(
            "ECHO", arity: 2, flags: "fast", acl: "@connection", since: "1.0.0", group: "connection",
            summary: "Echo the given string", syntax: "message"),
        command(
            "QUIT", arity: -1, flags: "allow_busy noscript loading stale fast no_auth", acl: "@connection",
            since: "1.0.0", group: "connection", summary: "Close the connection"),
        command(
            "AUTH", arity: -2, flags: "noscript loading stale fast no_auth sentinel allow_busy", acl: "@connection",
            since: "1.0.0", group: "connection",
            complexity: "O(N) where N is the number of passwords defined for the user",
            summary: "Authenticate to the server", syntax: "[username] password"),
        command(
            "HELLO", arity: -1, flags: "noscript loading stale fast no_auth sentinel allow_busy", acl: "@connection",
            since: "6.0.0", group: "connection", summary: "Handshake with Redis",
            syntax: "[@arguments protover:integer [@username_password AUTH=username password] [SETNAME=clientname]]"),
        command(
            "SELECT", arity: 2, flags: "loading stale fast", acl: "@connection", since: "1.0.0",
            group: "connection", summary: "Change the selected database for the current connection",
            syntax: "index:integer"),
        command(
            "CLIENT", arity: -2, flags: "", acl: "@connection", since: "2.4.0", group: "connection",
            complexity: depends, summary: "A container for client connection commands",
            subcommands: [
                sub(
                    "list", arity: -2, flags: "admin noscript loading stale sentinel", acl: "@connection",
                    tips: "nondeterministic_output", since: "2.4.0",
                    complexity: "O(N) where N is the number of client connections",
                    summary: "Get the list of client connections",
                    syntax: "[TYPE=client-type:string] [ID=client-id:integer ...]"),
                sub(
                    "info", arity: 2, flags: "noscript loading stale sentinel", acl: "@connection",
                    tips: "nondeterministic_output", since: "6.2.0",
                    summary: "Returns information about the current client connection."),
                sub(
                    "kill", arity: -3, flags: "admin noscript loading stale sentinel", acl: "@connection",
                    since: "2.4.0", complexity: "O(N) where N is the number of client connections",
                    summary: "Kill the connection of a client",
                    syntax:
                        "(@filter old-format | (@new-format (@filter ID=client-id:integer | ADDR=addr | LADDR=laddr "
                        + "| SKIPME=yes/no) ...))"),
                sub(
                    "setname", arity: 3, flags: "noscript loading stale sentinel", acl: "@connection",
                    since: "2.6.9", summary: "Set the current connection name", syntax: "connection-name"),
                sub(
                    "getname", arity: 2, flags: "noscript loading stale sentinel", acl: "@connection",
                    since: "2.6.9", summary: "Get the current connection name"),
                sub(
                    "id", arity: 2, flags: "noscript loading stale sentinel", acl: "@connection", since: "5.0.0",
                    summary: "Returns the client ID for the current connection"),
                sub(
                    "no-evict", arity: 3, flags: "admin noscript loading stale", acl: "@connection", since: "7.0.0",
                    summary: "Set client eviction mode for the current connection", syntax: "(@enabled ON | OFF)"),
                sub(
                    "setinfo", arity: 4, flags: "noscript loading stale sentinel", acl: "@connection",
                    tips: "request_policy:all_nodes response_policy:all_succeeded", since: "7.2.0",
                    summary: "Set client or connection specific info",
                    syntax: "(@attr LIB-NAME=libname | LIB-VER=libver)"),
                sub(
                    "help", arity: 2, flags: "loading stale sentinel", acl: "@connection", since: "5.0.0",
                    summary: help),
            ]),
    ]

    static let server: [CommandDescription] = [
        command(
            "COMMAND", arity: -1, flags: "loading stale sentinel", acl: "@connection",
            tips: "nondeterministic_output_order", since: "2.8.13", group: "server",
            complexity: "O(N) where N is the total number of Redis commands",
            summary: "Get array of Redis command details",
            subcommands: [
                sub(
                    "count", arity: 2, flags: "loading stale sentinel", acl: "@connection", since: "2.8.13",
                    summary: "Get total number of Redis commands"),
                sub(
                    "docs", arity: -2, flags: "loading stale sentinel", acl: "@connection",
                    tips: "nondeterministic_output_order", since: "7.0.0",
                    complexity: "O(N) where N is the number of commands to look up",
                    summary: "Get array of specific Redis command documentation", syntax: "[command-name ...]"),
                sub(
                    "info", arity: -2, flags: "loading stale sentinel", acl: "@connection",
                    tips: "nondeterministic_output_order", since: "2.8.13",
                    complexity: "O(N) where N is the number of commands to look up",
                    summary: "Get array of specific Redis command details, or all when no argument is given.",
                    syntax: "[command-name ...]"),
                sub(
                    "list", arity: -2, flags: "loading stale sentinel", acl: "@connection",
                    tips: "nondeterministic_output_order", since: "7.0.0",
                    complexity: "O(N) where N is the total number of Redis commands",
                    summary: "Get an array of Redis command names",
                    syntax:
                        "[@filterby FILTERBY (@filterby MODULE=module-name | ACLCAT=category | PATTERN=pattern:pattern)]"
                ),
                sub(
                    "getkeys", arity: -3, flags: "loading stale sentinel", acl: "@connection", since: "2.8.13",
                    complexity: "O(N) where N is the number of arguments to the command",
                    summary: "Extract keys given a full Redis command", syntax: "command [arg ...]"),
                sub(
                    "help", arity: 2, flags: "loading stale sentinel", acl: "@connection", since: "5.0.0",
                    summary: help),
            ]),
        command(
            "INFO", arity: -1, flags: "loading stale sentinel", acl: "@dangerous",
            tips: "nondeterministic_output request_policy:all_shards response_policy:special", since: "1.0.0",
            group: "server", summary: "Get information and statistics about the server", syntax: "[section ...]"),
        command(
            "CONFIG", arity: -2, flags: "", since: "2.0.0", group: "server", complexity: depends,
            summary: "A container for server configuration commands",
            subcommands: [
                sub(
                    "get", arity: -3, flags: "admin noscript loading stale", since: "2.0.0",
                    complexity: "O(N) when N is the number of configuration parameters provided",
                    summary: "Get the values of configuration parameters", syntax: "parameter ..."),
                sub(
                    "set", arity: -4, flags: "admin noscript loading stale",
                    tips: "request_policy:all_nodes response_policy:all_succeeded", since: "2.0.0",
                    complexity: "O(N) when N is the number of configuration parameters provided",
                    summary: "Set configuration parameters to the given values",
                    syntax: "(@data parameter value) ..."),
                sub(
                    "resetstat", arity: 2, flags: "admin noscript loading stale",
                    tips: "request_policy:all_nodes response_policy:all_succeeded", since: "2.0.0",
                    summary: "Reset the stats returned by INFO"),
                sub("help", arity: 2, flags: "loading stale", since: "5.0.0", summary: help),
            ]),
        command(
            "DBSIZE", arity: 1, flags: "readonly fast", acl: "@keyspace",
            tips: "request_policy:all_shards response_policy:agg_sum", since: "1.0.0", group: "server",
            summary: "Return the number of keys in the selected database"),
        command(
            "MONITOR", arity: 1, flags: "admin noscript loading stale", since: "1.0.0", group: "server",
            complexity: "", summary: "Listen for all requests received by the server in real time"),
        command(
            "SLOWLOG", arity: -2, flags: "", since: "2.2.12", group: "server", complexity: depends,
            summary: "A container for slow log commands",
            subcommands: [
                sub(
                    "get", arity: -2, flags: "admin loading stale",
                    tips: "request_policy:all_nodes nondeterministic_output", since: "2.2.12",
                    complexity: "O(N) where N is the number of entries returned",
                    summary: "Get the slow log's entries", syntax: "[count:integer]"),
                sub(
                    "len", arity: 2, flags: "admin loading stale",
                    tips: "request_policy:all_nodes response_policy:agg_sum nondeterministic_output",
                    since: "2.2.12", summary: "Get the slow log's length"),
                sub(
                    "reset", arity: 2, flags: "admin loading stale",
                    tips: "request_policy:all_nodes response_policy:all_succeeded", since: "2.2.12",
                    complexity: "O(N) where N is the number of entries in the slowlog",
                    summary: "Clear all entries from the slow log"),
                sub("help", arity: 2, flags: "loading stale", since: "6.2.0", summary: help),
            ]),
        command(
            "MEMORY", arity: -2, flags: "", since: "4.0.0", group: "server", complexity: depends,
            summary: "A container for memory diagnostics commands",
            subcommands: [
                sub(
                    "usage", arity: -3, flags: "readonly", keys: (2, 2, 1), specs: [spec("RO", at: 2)],
                    since: "4.0.0", complexity: "O(N) where N is the number of samples.",
                    summary: "Estimate the memory usage of a key", syntax: "key [SAMPLES=count:integer]"),
                sub("help", arity: 2, flags: "loading stale", since: "4.0.0", summary: help),
            ]),
    ]

    static let keyspace: [CommandDescription] = [
        command(
            "DEL", arity: -2, flags: "write", keys: (1, -1, 1), acl: "@keyspace",
            tips: "request_policy:multi_shard response_policy:agg_sum", specs: [spec("RM DELETE", at: 1, last: -1)],
            since: "1.0.0", group: "generic",
            complexity: "O(N) where N is the number of keys that will be removed.", summary: "Delete a key",
            syntax: "key ..."),
        command(
            "EXISTS", arity: -2, flags: "readonly fast", keys: (1, -1, 1), acl: "@keyspace",
            tips: "request_policy:multi_shard response_policy:agg_sum", specs: [spec("RO", at: 1, last: -1)],
            since: "1.0.0", group: "generic", complexity: "O(N) where N is the number of keys to check.",
            summary: "Determine if a key exists", syntax: "key ..."),
        command(
            "TYPE", arity: 2, flags: "readonly fast", keys: (1, 1, 1), acl: "@keyspace", specs: [spec("RO", at: 1)],
            since: "1.0.0", group: "generic", summary: "Determine the type stored at key", syntax: "key"),
        command(
            "SCAN", arity: -2, flags: "readonly", acl: "@keyspace",
            tips: "nondeterministic_output request_policy:special", since: "2.8.0", group: "generic",
            complexity:
                "O(1) for every call. O(N) for a complete iteration, including enough command calls for the "
                + "cursor to return back to 0. N is the number of elements inside the collection.",
            summary: "Incrementally iterate the keys space",
            syntax: "cursor:integer [MATCH=pattern:pattern] [COUNT=count:integer] [TYPE=type]"),
        command(
            "KEYS", arity: 2, flags: "readonly", acl: "@keyspace @dangerous",
            tips: "request_policy:all_shards nondeterministic_output_order", since: "1.0.0", group: "generic",
            complexity:
                "O(N) with N being the number of keys in the database, under the assumption that the key names "
                + "in the database and the given pattern have limited length.",
            summary: "Find all keys matching the given pattern", syntax: "pattern:pattern"),
    ]

    static let transactions: [CommandDescription] = [
        command(
            "MULTI", arity: 1, flags: "noscript loading stale fast allow_busy", acl: "@transaction", since: "1.2.0",
            group: "transactions", summary: "Mark the start of a transaction block"),
        command(
            "EXEC", arity: 1, flags: "noscript loading stale skip_slowlog", acl: "@transaction", since: "1.2.0",
            group: "transactions", complexity: "Depends on commands in the transaction",
            summary: "Execute all commands issued after MULTI"),
        command(
            "DISCARD", arity: 1, flags: "noscript loading stale fast allow_busy", acl: "@transaction",
            since: "2.0.0", group: "transactions", complexity: "O(N), when N is the number of queued commands",
            summary: "Discard all commands issued after MULTI"),
        command(
            "WATCH", arity: -2, flags: "noscript loading stale fast allow_busy", keys: (1, -1, 1),
            acl: "@transaction", specs: [spec("RO", at: 1, last: -1)], since: "2.2.0", group: "transactions",
            complexity: "O(1) for every key.",
            summary:
                "Watch the given keys to determine execution of the MULTI/EXEC block. Vicinity: WATCH NEARBY kind "
                + "latitude longitude radius [UNIT unit] [MODEL geodesic|haversine], or WATCH NEARBY kind USER id "
                + "radius [UNIT unit] [MODEL model] (roaming), starts a live radius query and answers its id; its "
                + "events are pushed as [message, channel, JSON event]. WATCH is a watch when its first argument "
                + "is NEARBY and five or more arguments follow WATCH, else it watches keys",
            syntax: "key ..."),
        command(
            "UNWATCH", arity: -1, flags: "noscript loading stale fast allow_busy", acl: "@transaction",
            since: "2.2.0", group: "transactions",
            summary:
                "Forget about all watched keys. Vicinity: UNWATCH id ends one watch; plain UNWATCH in watch mode "
                + "(RESP2) also ends every watch",
            syntax: "[id:integer]"),
        command(
            "SUBSCRIBE", arity: -2, flags: "pubsub noscript loading stale", acl: "@pubsub", since: "2.0.0",
            group: "pubsub", complexity: "O(N) where N is the number of channels to subscribe to.",
            summary:
                "Listen for messages published to the given channels. Vicinity: a channel spells a watch, "
                + "\"NEARBY kind latitude longitude radius [UNIT unit] [MODEL model]\" or \"NEARBY kind USER id "
                + "radius …\"; its events arrive as messages on that channel",
            syntax: "channel ..."),
        command(
            "UNSUBSCRIBE", arity: -1, flags: "pubsub noscript loading stale", acl: "@pubsub", since: "2.0.0",
            group: "pubsub", complexity: "O(N) where N is the number of clients already subscribed to a channel.",
            summary: "Stop listening for messages posted to the given channels (Vicinity: end those watches)",
            syntax: "[channel ...]"),
    ]
}
