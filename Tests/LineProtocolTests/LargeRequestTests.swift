import Foundation
import TestSupport
import Testing

@testable import LineProtocol

/// Issue 15: the server took at most 1,024 arguments a request and reset the connection past
/// them; Redis 7.0's `unit/geo.tcl` fuzz tests send GEOADD with 20,000 members (60,002 arguments).
@Suite(.serialized, .timeLimit(.minutes(10))) struct LargeRequestTests {
    @Test func aGeoaddOfTwentyThousandMembersIsTakenWhole() async throws {
        let fixture = try await LineServerTests.Fixture.start()
        let client = try fixture.client()
        client.send(LineServerTests.resp(["AUTH", fixture.admin]))
        #expect(client.receive(replies: 1) == "+OK\r\n")
        var arguments = ["GEOADD", "fuzz"]
        for index in 0..<20_000 {
            arguments += [String(-179 + Double(index % 358)), String(-80 + Double(index % 160)), "place:\(index)"]
        }
        client.send(LineServerTests.resp(arguments))
        #expect(client.receive(replies: 1) == ":20000\r\n")
        client.send(LineServerTests.resp(["ZCARD", "fuzz"]))
        #expect(client.receive(replies: 1) == ":20000\r\n")
        await fixture.server.shutdown()
    }
}
