import Testing

@testable import LineProtocol

@Suite struct LineProtocolErrorTests {
    @Test func protocolErrorsReadAsRedisWritesThem() {
        #expect(
            LineProtocolError.protocolError("invalid multibulk length").description
                == "Protocol error: invalid multibulk length")
    }
}
