import Testing

@testable import LineProtocol

/// `CommandTable` against the commands `LineService` runs: every name has an entry, every
/// entry's arity agrees with its arguments and with what the handler reads, and `COMMAND`'s
/// replies have Redis 7.0's shapes.
@Suite struct CommandTableTests {
    typealias Fixture = RedisGeoCommandTests.Fixture

    /// Every command `LineService` runs, a container by its subcommands (`client|kill`).
    static let runnable: [CommandDescription] = LineService.commandNames.compactMap { CommandTable.byName[$0] }
        .flatMap { $0.subcommands.isEmpty ? [$0] : $0.subcommands }

    @Test func everyCommandNameHasAnEntry() {
        for name in LineService.commandNames { #expect(CommandTable.byName[name] != nil, "\(name)") }
        #expect(Self.runnable.count > LineService.commandNames.count)
    }

    /// The fewest words the arguments allow, with a plausible value for each.
    static func minimalWords(_ arguments: [CommandArgument]) -> [String] {
        arguments.filter { !$0.optional }.flatMap { argument -> [String] in
            switch argument.kind {
            case .pureToken: return [argument.token ?? argument.name]
            case .oneOf:
                let shortest = argument.arguments.min { $0.minimumWords < $1.minimumWords }
                return minimalWords(shortest.map { [$0] } ?? [])
            case .block: return (argument.token.map { [$0] } ?? []) + minimalWords(argument.arguments)
            case .integer, .double: return (argument.token.map { [$0] } ?? []) + ["1"]
            case .key: return (argument.token.map { [$0] } ?? []) + ["pharmacy"]
            default: return (argument.token.map { [$0] } ?? []) + ["x"]
            }
        }
    }

    /// The words a (sub)command is called with: `client|kill` is `CLIENT KILL`.
    static func words(_ entry: CommandDescription) -> [String] {
        entry.name.split(separator: "|").map { $0.uppercased() }
    }

    @Test(arguments: runnable.map(\.name))
    func arityAgreesWithTheArgumentsAndTheHandler(name: String) async throws {
        let entry = try #require(CommandTable.entry(name))
        let minimal = Self.words(entry) + Self.minimalWords(entry.arguments)
        #expect(minimal.count == abs(entry.arity), "\(minimal)")
        let fixture = try Fixture()
        let wrongArity = RESPReply.error("ERR wrong number of arguments for '\(entry.name)' command")
        // The handler reads every word of the shortest call without running out.
        #expect(await fixture.run(minimal) != wrongArity, "\(minimal)")
        if minimal.count > Self.words(entry).count {
            #expect(await fixture.run(Array(minimal.dropLast())) == wrongArity)
        }
        if entry.arity > 0 { #expect(await fixture.run(minimal + ["extra"]) == wrongArity) }
    }

    @Test func commandInfoHasRedisSevenTenFields() async throws {
        let fixture = try Fixture()
        let all = await fixture.run(["COMMAND"])
        guard case .array(let entries) = all else { Issue.record("\(all)"); return }
        #expect(entries.count == LineService.commandNames.count)
        for entry in entries {
            guard case .array(let fields) = entry else { Issue.record("\(entry)"); continue }
            #expect(fields.count == 10)
        }
        let geoadd = await fixture.run(["COMMAND", "INFO", "geoadd", "nosuch"])
        #expect(
            geoadd
                == .array([
                    .array([
                        .text("geoadd"), .integer(-5), .array([.simpleString("write"), .simpleString("denyoom")]),
                        .integer(1), .integer(1), .integer(1),
                        .array([.simpleString("@write"), .simpleString("@geo"), .simpleString("@slow")]), .array([]),
                        .array([
                            .map([
                                "flags": .array([.simpleString("RW"), .simpleString("update")]),
                                "begin_search": .map(["type": .text("index"), "spec": .map(["index": .integer(1)])]),
                                "find_keys": .map([
                                    "type": .text("range"),
                                    "spec": .map(["lastkey": .integer(0), "keystep": .integer(1), "limit": .integer(0)]
                                    ),
                                ]),
                            ])
                        ]), .array([]),
                    ]), .nullArray,
                ]))
        #expect(await fixture.run(["COMMAND", "COUNT"]) == .integer(LineService.commandNames.count))
    }

    @Test func commandDocsDescribeVicinitysOwnCommands() async throws {
        let fixture = try Fixture()
        let docs = await fixture.run(["COMMAND", "DOCS", "NEARBY"])
        guard case .map(let entries) = docs, let nearby = entries.first, case .map(let fields) = nearby.value else {
            Issue.record("\(docs)")
            return
        }
        #expect(nearby.key == .text("nearby"))
        let keys = fields.map(\.key)
        for key in ["summary", "since", "group", "complexity", "arguments"] { #expect(keys.contains(.text(key))) }
        guard case .array(let arguments) = fields.first(where: { $0.key == .text("arguments") })?.value else {
            Issue.record("no arguments")
            return
        }
        // kind, latitude, longitude, radius, UNIT, LIMIT, MODEL, WITHCOORD, OPEN, WHERE.
        #expect(arguments.count == 10)
        #expect(
            arguments.first
                == .map([
                    "name": .text("kind"), "type": .text("key"), "display_text": .text("kind"),
                    "key_spec_index": .integer(0),
                ]))
        let client = await fixture.run(["COMMAND", "DOCS", "client"])
        guard case .map(let clientEntries) = client, case .map(let clientFields) = clientEntries.first?.value,
            case .map(let subcommands) = clientFields.last?.value
        else {
            Issue.record("\(client)")
            return
        }
        #expect(subcommands.map(\.key).contains(.text("client|kill")))
    }

    @Test func commandListFiltersAndGetKeysFindsKeys() async throws {
        let fixture = try Fixture()
        #expect(
            await fixture.run(["COMMAND", "LIST", "FILTERBY", "PATTERN", "user.*"])
                == .array(
                    [
                        "user.add", "user.move", "user.visibility", "user.precision", "user.get", "user.del",
                        "user.token",
                    ].map {
                        .text($0)
                    }
                ))
        guard case .array(let sortedSet) = await fixture.run(["COMMAND", "LIST", "FILTERBY", "ACLCAT", "sortedset"])
        else { return }
        #expect(
            sortedSet
                == [
                    "zrem", "zcard", "zrange", "zrangebyscore", "zrevrangebyscore", "zrevrange", "zscore", "zrank",
                    "zrevrank", "zcount",
                ].map { .text($0) })
        #expect(
            await fixture.run(["COMMAND", "GETKEYS", "GEORADIUS", "src", "1", "2", "3", "km", "STORE", "dst"])
                == .array([.text("src"), .text("dst")]))
        #expect(await fixture.run(["COMMAND", "GETKEYS", "DEL", "a", "b"]) == .array([.text("a"), .text("b")]))
        #expect(await fixture.run(["COMMAND", "GETKEYS", "PING"]) == .error("ERR The command has no key arguments"))
        #expect(await fixture.run(["COMMAND", "GETKEYS", "NOPE"]) == .error("ERR Invalid command specified"))
    }

    /// The transaction branch's commands are described already, with Redis 7.0's arities (but
    /// UNWATCH's: it takes a watch's id, `UNWATCH id`, in Vicinity).
    @Test(arguments: [
        ("MULTI", 1), ("EXEC", 1), ("DISCARD", 1), ("WATCH", -2), ("UNWATCH", -1), ("GEOSEARCHSTORE", -8),
        ("ZRANGE", -4), ("ZRANGEBYSCORE", -4), ("ZSCORE", 3), ("ZRANK", 3), ("ZREVRANK", 3), ("ZCOUNT", 4),
    ])
    func comingCommandsHaveEntries(name: String, arity: Int) throws {
        let entry = try #require(CommandTable.byName[name])
        #expect(entry.arity == arity)
        #expect((Self.words(entry) + Self.minimalWords(entry.arguments)).count == abs(arity))
    }
}

extension RedisGeoCommandTests.Fixture {
    func run(_ arguments: [String], as session: Session? = nil) async -> RESPReply {
        let session = session ?? admin
        return await withCheckedContinuation { continuation in
            service.execute(arguments, session: session) { reply, _ in continuation.resume(returning: reply) }
        }
    }
}
