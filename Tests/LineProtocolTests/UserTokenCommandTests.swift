import Places
import TestSupport
import Testing

@testable import LineProtocol

/// `USER.TOKEN id` (issue 15): a user who lost their token gets a new one from the admin, or
/// replaces their own; the old one stops working at once.
@Suite struct UserTokenCommandTests {
    /// Runs one command on `service` as `session` and waits for its reply.
    func run(_ service: LineService, _ arguments: [String], _ session: Session) async -> (RESPReply, Session) {
        await withCheckedContinuation { continuation in
            service.execute(arguments, session: session) { reply, session in
                continuation.resume(returning: (reply, session))
            }
        }
    }

    @Test func replacesAUsersTokenOnTheWire() async throws {
        var directory = PlaceDirectory(places: try PlaceCatalog())
        let admin = directory.rotateAdminToken()
        let ayse = try directory.addUser(User(id: "ayse", name: "Ayşe"), by: .admin)
        let durable = DurableDirectory(directory, store: MemoryStore())
        defer { durable.close() }
        let service = LineService(directory: durable)

        let anonymous = Session(id: 1)
        let (refused, _) = await run(service, ["USER.TOKEN", "ayse"], anonymous)
        #expect(
            refused == .error("NOPERM not allowed: replacing a user's token needs that user's token or the admin token")
        )
        let (wrongArity, _) = await run(service, ["USER.TOKEN"], anonymous)
        guard case .error(let line) = wrongArity else { Issue.record("\(wrongArity)"); return }
        #expect(line.hasPrefix("ERR wrong number of arguments"))

        let (_, asAyse) = await run(service, ["AUTH", ayse], anonymous)
        let (reply, _) = await run(service, ["USER.TOKEN", "ayse"], asAyse)
        guard case .bulkText(let fresh) = reply else { Issue.record("\(reply)"); return }
        #expect(fresh.count == 43 && fresh != ayse)
        let (old, _) = await run(service, ["AUTH", ayse], anonymous)
        guard case .error = old else { Issue.record("the old token still works: \(old)"); return }
        let (new, _) = await run(service, ["AUTH", fresh], anonymous)
        #expect(new == .simpleString("OK"))

        let (_, asAdmin) = await run(service, ["AUTH", admin], anonymous)
        let (byAdmin, _) = await run(service, ["USER.TOKEN", "ayse"], asAdmin)
        guard case .bulkText = byAdmin else { Issue.record("\(byAdmin)"); return }
        #expect(LineService.commandNames.contains("USER.TOKEN"))
    }
}
