import OpenAPIRuntime
import Testing

@testable import HTTPAPI

/// `renderMap`: the text map of the command line and the line protocol, over the façade.
@Suite(.timeLimit(.minutes(10))) struct MapOperationTests {
    static func map(
        radius: Double? = nil, kind: String? = nil, width: Int? = nil, height: Int? = nil, ascii: Bool? = nil
    ) -> Operations.RenderMap.Input {
        .init(
            query: .init(
                lat: APIFixture.here.lat, lon: APIFixture.here.lon, radius: radius, kind: kind, width: width,
                height: height, ascii: ascii))
    }

    static func text(_ output: Operations.RenderMap.Output) async throws -> String {
        guard case .plainText(let body) = try output.ok.body else { return "" }
        return try await String(collecting: body, upTo: 1 << 20)
    }

    @Test func theMapListsThePlacesWithinTheRadius() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let text = try await Self.text(try await fixture.api.renderMap(Self.map()))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Pharmacies within 500 m of 41.088154, 29.015615")
        #expect(lines.contains("1  Omur  132 m  WSW"))
        #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
        #expect(text.contains("┌") && !text.contains("\u{1B}"), "box drawing, no colour")
    }

    @Test func withNothingInTheRadiusItNamesTheNearestPlace() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let text = try await Self.text(try await fixture.api.renderMap(Self.map(radius: 100, ascii: true)))
        #expect(text.contains("No pharmacy within 100 m. Nearest: Omur, 132 m WSW."))
        #expect(text.unicodeScalars.allSatisfy(\.isASCII) && text.contains("+---"))
    }

    @Test func aPrivateUserIsOnNoOneElsesMap() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        for token in [nil, fixture.ayse, fixture.zeynep] {
            let text = try await fixture.callAs(token) {
                try await Self.text(try await fixture.api.renderMap(Self.map(kind: "user")))
            }
            #expect(text.contains("Ayşe") && !text.contains("Mehmet"))
        }
        let own = try await fixture.callAs(fixture.mehmet) {
            try await Self.text(try await fixture.api.renderMap(Self.map(kind: "user")))
        }
        #expect(own.contains("Mehmet"))
    }

    /// `/v1/map?width=60&height=20` drew a 33-column map with one result and a 29-column map with
    /// two: the list took the map's lines. Width × height is the whole text, the map's size the
    /// same whatever is found.
    @Test func theMapKeepsTheSizeAskedForWhateverTheResults() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        var frames: Set<Int> = []
        for radius in [100.0, 500, 700] {
            let text = try await Self.text(
                try await fixture.api.renderMap(Self.map(radius: radius, width: 60, height: 20)))
            let lines = text.split(separator: "\n")
            frames.insert(lines[1].count)
            #expect(lines.count <= 20 && lines.allSatisfy { $0.count <= 60 }, "\(text)")
        }
        #expect(frames.count == 1, "frame widths \(frames)")
    }

    @Test func sizesOutsideTheRenderersRangeAreRefused() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        await #expect(throws: QueryParameter.width.invalid("29")) {
            try await fixture.api.renderMap(Self.map(width: 29))
        }
        await #expect(throws: QueryParameter.height.invalid("1001")) {
            try await fixture.api.renderMap(Self.map(height: 1001))
        }
        await #expect(throws: QueryParameter.radius.invalid("20000001")) {
            try await fixture.api.renderMap(Self.map(radius: 20_000_001))
        }
    }
}
