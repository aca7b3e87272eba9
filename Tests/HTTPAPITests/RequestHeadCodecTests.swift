import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing

@testable import HTTPAPI

/// `RequestHeadCodec` makes the request `HTTP1ToHTTPServerCodec` makes of every head: targets in
/// origin form by its own cut, the others (absolute URLs, `*`) by the library's conversion.
@Suite struct RequestHeadCodecTests {
    static let targets = [
        "/", "/v1/nearby?lat=41.088154&lon=29.015615&radius=500", "/v1/nearby?", "//double/slash?x=1",
        "/a:b/c?d=e:f", "/%7Euser?q=%20+", "http://example.com/v1/nearby?lat=1&lon=2", "http://example.com",
        "*", "example.com:443", "",
    ]

    @Test(arguments: targets) func theRequestIsTheLibrarys(target: String) throws {
        for method in [HTTPMethod.GET, .HEAD, .POST, .RAW(value: "PURGE")] {
            var headers = HTTPHeaders([("Host", "127.0.0.1:8080"), ("Accept", "application/json")])
            if method == .POST { headers.add(name: "Content-Length", value: "0") }
            let head = HTTPRequestHead(version: .http1_1, method: method, uri: target, headers: headers)
            let library = Result { try HTTPRequest(head, secure: false, splitCookie: false) }
            let ours = Result { try RequestHeadCodec.request(head) }
            switch (library, ours) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(method) \(target)")
            case (.failure, .failure): break
            default: Issue.record("\(method) \(target): library \(library), ours \(ours)")
            }
        }
    }

    @Test func aMethodTheHTTPTypesDoNotTakeFailsAsInTheLibrary() {
        let head = HTTPRequestHead(version: .http1_1, method: .RAW(value: "BAD METHOD"), uri: "/", headers: [:])
        #expect(throws: (any Error).self) { try RequestHeadCodec.request(head) }
        #expect(throws: (any Error).self) { try HTTPRequest(head, secure: false, splitCookie: false) }
    }
}
