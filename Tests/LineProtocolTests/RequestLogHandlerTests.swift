import Logging
import NIOCore
import TestSupport
import Testing

@testable import LineProtocol

/// The request log of the line protocol: one line per request with its command, client, outcome
/// and duration, and never a token, whatever the log level.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RequestLogHandlerTests {
    @Test func everyRequestIsLoggedWithoutItsArguments() async throws {
        let capture = LogCapture()
        let fixture = try await LineServerTests.Fixture.start(logger: capture.logger(level: .trace))
        let client = try fixture.client()
        client.send("PING\r\nNEARBY pharmacy 41.088154 29.015615 700\r\nAUTH wrong\r\n")
        _ = client.receive(replies: 3)
        await fixture.server.shutdown()
        let text = capture.text
        #expect(text.contains("info request command=PING duration_ms="), "\(text)")
        #expect(text.contains("command=NEARBY"), "\(text)")
        #expect(text.contains("command=AUTH") && text.contains("outcome=error WRONGPASS"), "\(text)")
        #expect(text.contains("peer=127.0.0.1:"), "\(text)")
        #expect(text.contains("debug connection opened"), "\(text)")
        #expect(!text.contains("29.015615"), "arguments are not logged")
    }

    /// Must show (issue 14): neither AUTH's token, HELLO's AUTH password, nor the token USER.ADD
    /// answers, nor a token sent on its own as if it were a command, reaches the log.
    @Test func noTokenIsEverLogged() async throws {
        let capture = LogCapture()
        let fixture = try await LineServerTests.Fixture.start(logger: capture.logger(level: .trace))
        let client = try fixture.client()
        client.send(
            LineServerTests.resp(["AUTH", fixture.admin])
                + LineServerTests.resp(["USER.ADD", "deniz", "AT", "41.0886", "29.0157"]))
        let replies = client.receive(replies: 2)
        let added = try #require(replies.split(separator: "\r\n").last.map(String.init))
        #expect(added.utf8.count == 43, "\(replies)")
        let other = try fixture.client()
        other.send(
            LineServerTests.resp(["HELLO", "3", "AUTH", "default", fixture.ayse]) + "\(fixture.mehmet)\r\n"
                + "AUTH \(added)\r\n")
        _ = other.receive(replies: 3)
        await fixture.server.shutdown()
        let text = capture.text
        #expect(text.contains("command=USER.ADD") && text.contains("command=HELLO"), "\(text)")
        #expect(text.contains("command=unknown"), "a token sent as a command is logged as unknown")
        for token in [fixture.admin, fixture.ayse, fixture.mehmet, added] {
            #expect(!text.contains(token), "a token in the log: \(text)")
        }
    }

    @Test(arguments: [
        ("+OK\r\n", "ok"), ("-NOPERM not allowed\r\n", "error NOPERM"), ("-ERR unknown command 'x'\r\n", "error ERR"),
        (#"{"ok":false,"err":"ERR x"}"# + "\n", "error"), (#"{"ok":true,"result":1}"# + "\n", "ok"),
    ])
    func outcomesNameTheErrorCodeOnly(reply: String, outcome: String) {
        #expect(RequestLogHandler.outcome(of: ByteBuffer(string: reply)) == outcome)
    }
}
