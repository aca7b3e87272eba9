import Geo
import NIOCore
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// `NEARBY … OPEN` / `NEAREST … OPEN` and `WHERE name value`: which places pass, what each hit
/// says of its hours in RESP2, RESP3 and JSON, and the messages for bad values.
@Suite struct OpenFilterCommandTests {
    /// Thursday 2026-11-26, 21:00 in Turin.
    static let evening = "2026-11-26T21:00+01:00"
    static let here = (lat: "45.0703", lon: "7.6869")

    /// Five pharmacies due north of `here` (about 111 m per 0.001°) in Turin's zone, and a user.
    struct Fixture {
        let service: LineService
        let session = Session(id: 1)

        init() throws {
            var catalog = try PlaceCatalog()
            let rome = ["tz": "Europe/Rome"]
            let places: [(String, Double, [String: String])] = [
                // Closed at 21:00 on a Thursday, opens Friday 08:30.
                ("centro", 0.001, rome.merging(["opening_hours": "Mo-Fr 08:30-19:30", "dispensing": "yes"]) { $1 }),
                // No hours at all: unknown, never open.
                ("ignoto", 0.0015, ["dispensing": "yes"]),
                // Open until 22:00.
                ("sera", 0.002, rome.merging(["opening_hours": "Mo-Su 08:00-22:00", "dispensing": "no"]) { $1 }),
                // On a duty spell through the night, then open by its hours until Friday 19:30.
                (
                    "turno", 0.003,
                    rome.merging([
                        "opening_hours": "Mo-Fr 08:30-19:30", "duty": "2026-11-26T19:30/2026-11-27T08:30",
                        "dispensing": "yes", "wheelchair": "yes",
                    ]) { $1 }
                ),
                // Always open, 5.5 km away.
                ("lontano", 0.05, rome.merging(["opening_hours": "24/7"]) { $1 }),
            ]
            for (id, offset, attributes) in places {
                try catalog.upsert(
                    Place(
                        id: id, kind: "pharmacy", name: id.capitalized,
                        coordinate: try Coordinate(latitude: 45.0703 + offset, longitude: 7.6869),
                        attributes: attributes))
            }
            var directory = PlaceDirectory(places: catalog)
            _ = try directory.addUser(
                User(id: "ayse", name: "Ayşe", location: try Coordinate(latitude: 45.0704, longitude: 7.6869)),
                by: .admin)
            service = LineService(directory: DurableDirectory(directory, store: MemoryStore()))
        }

        func run(_ arguments: [String]) async -> RESPReply {
            await withCheckedContinuation { continuation in
                service.execute(arguments, session: session) { reply, _ in continuation.resume(returning: reply) }
            }
        }

        /// The ids of a listing, in order.
        func ids(_ arguments: [String]) async -> [String] {
            let reply = await run(arguments)
            guard case .array(let rows) = reply.expanded else { return ["\(reply)"] }
            return rows.map { row in
                guard case .array(let fields) = row, case .bulkText(let id) = fields.first else { return "\(row)" }
                return id
            }
        }
    }

    static func nearby(_ radius: String, _ options: String...) -> [String] {
        ["NEARBY", "pharmacy", here.lat, here.lon, radius] + options
    }

    static func nearest(_ count: String, _ options: String...) -> [String] {
        ["NEAREST", "pharmacy", here.lat, here.lon, count] + options
    }

    static func state(_ fields: KeyValuePairs<String, RESPReply>) -> RESPReply {
        .map(fields.map { RESPReply.MapEntry(key: .bulkString($0.key), value: $0.value) })
    }

    @Test func openKeepsThePlacesOpenThenEachSayingUntilWhen() async throws {
        let fixture = try Fixture()
        let reply = await fixture.run(Self.nearby("1000", "OPEN", Self.evening))
        guard case .array(let rows) = reply.expanded, rows.count == 2, case .array(let sera) = rows[0],
            case .array(let turno) = rows[1]
        else {
            Issue.record("\(reply)")
            return
        }
        #expect(sera.first == .text("sera") && sera.count == 5)
        #expect(sera.last == Self.state(["open": .text("open"), "open_until": .text("2026-11-26T22:00+01:00")]))
        #expect(turno.first == .text("turno"))
        #expect(
            turno.last
                == Self.state([
                    "open": .text("open"), "open_until": .text("2026-11-27T19:30+01:00"), "on_duty": .boolean(true),
                ]))
        // The same wall-clock time read in each place's zone, and `now` in any letter case.
        #expect(await fixture.ids(Self.nearby("1000", "open", "2026-11-26T21:00")) == ["sera", "turno"])
        #expect(await fixture.ids(Self.nearby("1000", "OPEN", "2026-11-26T20:00Z")) == ["sera", "turno"])
        guard case .array = await fixture.run(Self.nearby("1000", "OPEN", "Now")) else {
            Issue.record("OPEN Now")
            return
        }
    }

    @Test func withCoordinatesTheStateComesLast() async throws {
        let fixture = try Fixture()
        let reply = await fixture.run(Self.nearby("0.25", "WITHCOORD", "OPEN", Self.evening, "UNIT", "km"))
        #expect(
            reply
                == .array([
                    .array([
                        .text("sera"), .text("Sera"), .doubleText("0.2223"), .doubleText("0.0"),
                        .array([.text("45.072300000000006"), .text("7.6869")]),
                        Self.state(["open": .text("open"), "open_until": .text("2026-11-26T22:00+01:00")]),
                    ])
                ]))
    }

    @Test func whereKeepsThePlacesWithEveryAttributeAndAddsNothingToTheHits() async throws {
        let fixture = try Fixture()
        #expect(await fixture.ids(Self.nearby("1000", "WHERE", "dispensing", "yes")) == ["centro", "ignoto", "turno"])
        #expect(
            await fixture.ids(Self.nearby("1000", "WHERE", "dispensing", "yes", "where", "wheelchair", "yes"))
                == ["turno"])
        #expect(await fixture.ids(Self.nearby("1000", "WHERE", "dispensing", "YES")) == [])
        #expect(await fixture.ids(Self.nearby("1000", "WHERE", "opening_hours", "24/7")) == [])
        #expect(await fixture.ids(Self.nearby("6000", "WHERE", "opening_hours", "24/7")) == ["lontano"])
        // Without OPEN a hit is the four fields it always was.
        let plain = await fixture.run(Self.nearby("1000", "WHERE", "wheelchair", "yes"))
        #expect(
            plain == .array([.array([.text("turno"), .text("Turno"), .doubleText("333.3995"), .doubleText("0.0")])]))
        #expect(
            await fixture.ids(Self.nearby("1000", "OPEN", Self.evening, "WHERE", "dispensing", "yes")) == ["turno"])
    }

    @Test func nearestOpenFindsTheCountNearestOpenHoweverFar() async throws {
        let fixture = try Fixture()
        #expect(await fixture.ids(Self.nearest("2", "OPEN", Self.evening)) == ["sera", "turno"])
        #expect(await fixture.ids(Self.nearest("5", "OPEN", Self.evening)) == ["sera", "turno", "lontano"])
        #expect(await fixture.ids(Self.nearest("5", "OPEN", Self.evening, "MAXDIST", "1000")) == ["sera", "turno"])
        #expect(
            await fixture.ids(Self.nearest("1", "WHERE", "wheelchair", "yes", "OPEN", Self.evening)) == ["turno"])
        let reply = await fixture.run(Self.nearest("5", "OPEN", Self.evening))
        guard case .array(let rows) = reply.expanded, case .array(let far) = rows.last else {
            Issue.record("\(reply)")
            return
        }
        // Open around the clock: no next change to tell.
        #expect(far.last == Self.state(["open": .text("open")]))
        // Friday 08:00: Centro opens at 08:30, Sera has just opened, Turno is still on duty.
        #expect(await fixture.ids(Self.nearest("2", "OPEN", "2026-11-27T08:00+01:00")) == ["sera", "turno"])
        #expect(await fixture.ids(Self.nearest("2", "OPEN", "2026-11-27T08:30+01:00")) == ["centro", "sera"])
    }

    @Test func theStateIsAMapInRESP2RESP3AndJSON() {
        let hit = RESPReply.array([
            .array([
                .text("turno"), .text("Turno"), .doubleText("333.3995"), .doubleText("0.0"),
                LineService.opening(
                    OpeningState(status: .open, onDuty: true, nextChange: 1_795_804_200, nextStatus: .closed)),
            ])
        ])
        let state =
            "$4\r\nopen\r\n$4\r\nopen\r\n$10\r\nopen_until\r\n$22\r\n2026-11-27T18:30+00:00\r\n$7\r\non_duty\r\n"
        let head = "*1\r\n*5\r\n$5\r\nturno\r\n$5\r\nTurno\r\n"
        func written(_ format: RESPReplyEncoder.Format) -> String {
            var buffer = ByteBuffer()
            RESPReplyEncoder.write(hit, format: format, to: &buffer)
            return String(buffer: buffer)
        }
        #expect(written(.resp2) == head + "$8\r\n333.3995\r\n$3\r\n0.0\r\n*6\r\n" + state + ":1\r\n")
        #expect(written(.resp3) == head + ",333.3995\r\n,0.0\r\n%3\r\n" + state + "#t\r\n")
        #expect(
            written(.json)
                == #"{"ok":true,"result":[["turno","Turno",333.3995,0.0,{"open":"open","#
                + #""open_until":"2026-11-27T18:30+00:00","on_duty":true}]]}"# + "\n")
    }

    @Test func closedAndUnknownStates() {
        let closed = OpeningState(
            status: .closed, nextChange: 1_795_764_600, nextStatus: .open, nextChangeOffsetSeconds: 3600)
        #expect(
            LineService.opening(closed)
                == Self.state(["open": .text("closed"), "opens_at": .text("2026-11-27T08:30+01:00")]))
        #expect(LineService.opening(.unknown) == Self.state(["open": .text("unknown")]))
    }

    /// What an open time must be, as `Vocabulary.openingMoment` says it.
    static let momentExpected =
        "expected now, a time with its UTC offset (2026-12-24T22:00+01:00, 2026-12-24T21:00Z) or a local time "
        + "in each place's zone (2026-12-24T22:00): years 1900-9999, hours 00-23, offsets up to ±23:59, seconds "
        + "only with an offset"
    static let usersExpected = "expected a place kind: users have no opening hours or attributes to filter on"
    static let longValue = String(repeating: "x", count: 513)

    static let refusals: [(arguments: [String], message: String)] = [
        (nearby("500", "OPEN", "tonight"), #"ERR invalid open time "tonight": "# + momentExpected),
        (nearest("3", "OPEN", "2026-02-30T10:00Z"), #"ERR invalid open time "2026-02-30T10:00Z": "# + momentExpected),
        (
            nearby("500", "WHERE", "id", "x"),
            #"ERR invalid attribute name "id": expected 1 to 64 characters, no control characters, not id, name, "#
                + "lat, lon or kind"
        ),
        (
            nearby("500", "WHERE", "note", longValue), "ERR " + Vocabulary.attributeValue.message(longValue)
        ),
        (nearby("500", "OPEN", "now", "OPEN", "now"), "ERR OPEN given twice: expected one time"),
        (
            ["NEARBY", "pharmacy", here.lat, here.lon, "500"]
                + Array(Array(repeating: ["WHERE", "country", "IT"], count: 33).joined()),
            "ERR too many WHERE conditions: expected at most 32 (a place has at most 32 attributes)"
        ),
        (nearby("500", "OPEN"), "ERR wrong number of arguments for 'nearby' command"),
        (nearest("3", "WHERE", "dispensing"), "ERR wrong number of arguments for 'nearest' command"),
        (
            ["NEARBY", "user", "45.0703", "7.6869", "500", "OPEN", "now"],
            #"ERR invalid open filter "user": "# + usersExpected
        ),
        (
            ["NEAREST", "user", "45.0703", "7.6869", "3", "WHERE", "dispensing", "yes"],
            #"ERR invalid attribute filter "user": "# + usersExpected
        ),
    ]

    @Test(arguments: refusals)
    func badFiltersAreRefusedWithTheVocabularysMessage(arguments: [String], message: String) async throws {
        let fixture = try Fixture()
        #expect(await fixture.run(arguments) == .error(message))
    }

    @Test func theMapKeepsWhatWhereKeepsAndMarksRatherThanDropsWithOpen() async throws {
        let fixture = try Fixture()
        let map = ["MAP", Self.here.lat, Self.here.lon, "RADIUS", "1000", "HEIGHT", "40"]
        let filtered = await fixture.run(map + ["WHERE", "wheelchair", "yes"])
        guard case .bulkText(let text) = filtered else {
            Issue.record("\(filtered)")
            return
        }
        #expect(text.contains("Turno") && !text.contains("Centro"), "\(text)")
        let marked = await fixture.run(map + ["OPEN", Self.evening])
        guard case .bulkText(let all) = marked else {
            Issue.record("\(marked)")
            return
        }
        for name in ["Centro", "Ignoto", "Sera", "Turno"] { #expect(all.contains(name), "\(name)") }
        #expect(
            await fixture.run(["MAP", Self.here.lat, Self.here.lon, "KIND", "user", "OPEN", "now"])
                == .error(#"ERR invalid open filter "user": "# + Self.usersExpected))
    }

    @Test func commandDocsListTheFilters() async throws {
        let fixture = try Fixture()
        for command in ["NEARBY", "NEAREST", "MAP"] {
            let docs = await fixture.run(["COMMAND", "DOCS", command])
            guard case .map(let entries) = docs, case .map(let fields) = entries.first?.value,
                case .array(let arguments) = fields.first(where: { $0.key == .text("arguments") })?.value
            else {
                Issue.record("\(docs)")
                return
            }
            let open = arguments.first { argument in
                guard case .map(let fields) = argument else { return false }
                return fields.contains { $0.key == .text("token") && $0.value == .text("OPEN") }
            }
            #expect(open != nil, "\(command)")
            let filter = arguments.last { argument in
                guard case .map(let fields) = argument else { return false }
                return fields.contains { $0.key == .text("name") && $0.value == .text("where") }
            }
            guard case .map(let whereFields) = filter else {
                Issue.record("no WHERE in \(command)")
                return
            }
            #expect(
                whereFields.contains {
                    $0.key == .text("flags")
                        && $0.value == .array([.simpleString("optional"), .simpleString("multiple")])
                })
        }
    }
}
