import Foundation
import Geo
import Places
import TestSupport
import Testing

@testable import HTTPAPI

/// `/v1/nearby` and `/v1/nearest` lists written by hand (`HitsJSONMiddleware`, `JSONText`) read back
/// to exactly the documents the generated encoder would have written, for every model, limit and
/// kind, with names that need escaping.
@Suite(.timeLimit(.minutes(10))) struct HitsJSONTests {
    /// Names a JSON writer can get wrong.
    static let names = [
        "Omur", "Eczane \"Şifa\"", #"back\slash"#, "tab\there", "line\nbreak", "\u{1}\u{1F}\u{7F}", "日本薬局 💊",
        "\u{2028}\u{2029}", "</script>", "", "a/b",
    ]

    /// The generated server's encoder settings, for a byte comparison.
    static var generatedEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// 600 places within ~3 km of Levent, Istanbul, and the handler over them.
    static func api() throws -> VicinityAPI {
        var catalog = try PlaceCatalog()
        var random = SplitMix64(seed: 42)
        for index in 0..<600 {
            let coordinate = try Coordinate(
                latitude: 41.088154 + (random.nextUnit() - 0.5) * 0.05,
                longitude: 29.015615 + (random.nextUnit() - 0.5) * 0.07)
            let name = names[index % names.count] + (index % 3 == 0 ? "" : " \(index)")
            try catalog.upsert(Place(id: "p\(index)", kind: "pharmacy", name: name, coordinate: coordinate))
        }
        return VicinityAPI(directory: DurableDirectory(PlaceDirectory(places: catalog), store: MemoryStore()))
    }

    @Test func handWrittenListsReadBackAsTheGeneratedDocuments() async throws {
        let api = try Self.api()
        defer { api.directory.close() }
        let transport = RecordingTransport()
        try api.registerHandlers(
            on: transport, configuration: HTTPServer.configuration, middlewares: HTTPServer.middlewares(for: api))
        var random = SplitMix64(seed: 7)
        let models: [Components.Schemas.DistanceModelName?] = [nil, .geodesic, .haversine, .projected]
        var results = 0
        for step in 0..<120 {
            let lat = 41.088154 + (random.nextUnit() - 0.5) * 0.04
            let lon = 29.015615 + (random.nextUnit() - 0.5) * 0.05
            let model = models[step % models.count]
            let modelText = model.map { "&model=\($0.rawValue)" } ?? ""
            if step % 2 == 0 {
                let radius = (random.nextUnit() * 3_000).rounded()
                let limit = step % 3 == 0 ? Int(random.next() % 50) + 1 : nil
                let limitText = limit.map { "&limit=\($0)" } ?? ""
                let served = try await transport.send(
                    .get, "/v1/nearby?lat=\(lat)&lon=\(lon)&radius=\(radius)\(limitText)\(modelText)")
                let expected = try await api.findNearby(
                    .init(query: .init(lat: lat, lon: lon, radius: radius, limit: limit, model: model))
                ).ok.body.json
                #expect(served.status == 200, "\(served.body)")
                // Byte for byte what the generated encoder writes, served numbers included.
                #expect(Array(served.body.utf8) == Array(try Self.generatedEncoder.encode(expected)))
                let decoded = try JSONDecoder().decode(
                    Components.Schemas.NearbyResult.self, from: Data(served.body.utf8))
                #expect(decoded == expected)
                results += expected.results.count
            } else {
                let count = Int(random.next() % 40) + 1
                let maximum = step % 3 == 0 ? (random.nextUnit() * 2_000).rounded() : nil
                let maximumText = maximum.map { "&max_distance=\($0)" } ?? ""
                let served = try await transport.send(
                    .get, "/v1/nearest?lat=\(lat)&lon=\(lon)&count=\(count)\(maximumText)\(modelText)")
                let expected = try await api.findNearest(
                    .init(query: .init(lat: lat, lon: lon, count: count, maxDistance: maximum, model: model))
                ).ok.body.json
                #expect(served.status == 200, "\(served.body)")
                #expect(Array(served.body.utf8) == Array(try Self.generatedEncoder.encode(expected)))
                let decoded = try JSONDecoder().decode(
                    Components.Schemas.NearestResult.self, from: Data(served.body.utf8))
                #expect(decoded == expected)
                results += expected.results.count
            }
        }
        #expect(results > 5_000)
    }

    /// Keys come in the order the generated encoder writes them (sorted), so the lists read like
    /// every other answer.
    @Test func keysAreSortedAsTheGeneratedEncoderSortsThem() async throws {
        let api = try Self.api()
        defer { api.directory.close() }
        let nearbyQuery = Operations.FindNearby.Input.Query(
            lat: 41.088154, lon: 29.015615, radius: 400, model: .haversine)
        let nearestQuery = Operations.FindNearest.Input.Query(
            lat: 41.088154, lon: 29.015615, count: 3, maxDistance: 900, model: .projected)
        guard case .list(let nearby) = try api.nearbyReply(nearbyQuery, accept: []),
            case .list(let nearest) = try api.nearestReply(nearestQuery, accept: [])
        else {
            Issue.record("a 303 to GeoJSON")
            return
        }
        #expect(nearby.hits.count > 3 && nearest.hits.count == 3)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for (handWritten, generated) in [
            (nearby.jsonBytes, try encoder.encode(nearby.document)),
            (nearest.jsonBytes, try encoder.encode(nearest.document)),
        ] {
            #expect(Self.keys(in: handWritten) == Self.keys(in: Array(generated)))
        }
    }

    /// Users seen by others end with `precision`, `exact` included, as the generated encoder writes
    /// it.
    @Test func userHitsCarryTheirPrecisionAsTheGeneratedEncoderWritesIt() async throws {
        let fixture = try await PrivacyFixture()
        defer { fixture.close() }
        _ = try await fixture.api.directory.perform(
            .addUser(User(id: "ece", name: "Ece", location: PrivacyFixture.insideCell[1], precision: .exact)),
            by: .admin)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for target in [
            "/v1/nearby?\(UserPrivacyTests.here)&radius=2000&kind=user",
            "/v1/nearest?\(UserPrivacyTests.here)&kind=user",
        ] {
            let served = try await fixture.send(nil, target)
            #expect(served.status == 200, "\(served.body)")
            if target.hasPrefix("/v1/nearby?") {
                let decoded = try JSONDecoder().decode(
                    Components.Schemas.NearbyResult.self, from: Data(served.body.utf8))
                #expect(
                    decoded.results.map { "\($0.id) \($0.precision?.rawValue ?? "-")" } == [
                        "ece exact", "kerem street",
                    ])
                #expect(Array(try encoder.encode(decoded)) == Array(served.body.utf8))
            } else {
                let decoded = try JSONDecoder().decode(
                    Components.Schemas.NearestResult.self, from: Data(served.body.utf8))
                #expect(
                    decoded.results.map { "\($0.id) \($0.precision?.rawValue ?? "-")" } == [
                        "ece exact", "kerem street",
                    ])
                #expect(Array(try encoder.encode(decoded)) == Array(served.body.utf8))
            }
        }
    }

    /// The object keys of a JSON text in the order they appear (a key is a string followed by `:`).
    static func keys(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var keys: [String] = []
        var current = ""
        var inString = false
        var escaped = false
        var last = ""
        for character in text {
            if inString {
                if escaped {
                    escaped = false
                    current.append(character)
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    last = current
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                inString = true
                current = ""
            } else if character == ":" {
                keys.append(last)
            }
        }
        return keys
    }

    @Test func stringsReadBackUnchanged() throws {
        var text = (0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }.map(String.init).joined()
        text += "Şifa 日本 💊 \u{2028} \u{FEFF}"
        for candidate in Self.names + [text] {
            var json = JSONText(capacity: 64)
            json.string(candidate)
            #expect(try JSONDecoder().decode(String.self, from: Data(json.bytes)) == candidate)
        }
    }

    @Test func numbersReadBackToTheSameDouble() throws {
        var random = SplitMix64(seed: 9)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e-7, 123_456_789, 0x1p53, 0x1p53 + 2, 1e300, -1e-300, 5e-324]
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            if value.isFinite { values.append(value) }
            values.append((random.nextUnit() - 0.5) * 1_000)
        }
        for value in values {
            var json = JSONText(capacity: 32)
            json.number(value)
            #expect(try JSONDecoder().decode(Double.self, from: Data(json.bytes)) == value, "\(value)")
            // The very text JSONEncoder writes: integral values below 2^53 as integers, others as
            // Swift's shortest `description`.
            let expected = value == value.rounded(.towardZero) && abs(value) < 0x1p53 ? String(Int(value)) : "\(value)"
            #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
        }
    }

    /// Served numbers (`ServedPrecision`) written with fixed decimals are the very text the
    /// generated encoder (`JSONEncoder`) writes for them: distances, bearings, and coordinates of
    /// every magnitude, those below 1e-4 (written in exponent form) included.
    @Test func servedNumbersAreWrittenAsJSONEncoderWritesThem() throws {
        var random = SplitMix64(seed: 13)
        var values: [(Double, Int)] = [(0, 3), (-0.0, 7), (1e-7, 7), (-9.99e-5, 7), (0.0001, 7), (359.996, 2)]
        for index in 0..<60_000 {
            switch index % 5 {
            case 0: values.append((random.nextUnit() * 20_003_931.5, ServedPrecision.distanceDecimals))
            case 1: values.append((random.nextUnit() * 360, ServedPrecision.bearingDecimals))
            case 2: values.append(((random.nextUnit() - 0.5) * 360, ServedPrecision.coordinateDecimals))
            case 3: values.append(((random.nextUnit() - 0.5) * 0.001, ServedPrecision.coordinateDecimals))
            default: values.append((pow(10, -9 * random.nextUnit()) * 5, Int(random.next() % 8)))
            }
        }
        let served = values.map { ServedPrecision.rounded($0.0, decimals: $0.1) }
        let encoded = String(decoding: try JSONEncoder().encode(served), as: UTF8.self)
        let expected = encoded.dropFirst().dropLast().split(separator: ",").map(String.init)
        #expect(expected.count == values.count)
        for ((value, decimals), (rounded, text)) in zip(values, zip(served, expected)) {
            var json = JSONText(capacity: 32)
            json.decimal(value, decimals: decimals)
            #expect(String(decoding: json.bytes, as: UTF8.self) == text, "\(value) at \(decimals): \(rounded)")
            var again = JSONText(capacity: 32)
            again.decimal(rounded, decimals: decimals)
            #expect(again.bytes == json.bytes, "\(value) rounded twice")
        }
    }

    @Test func numbersIntoAGrowingBuffer() {
        var random = SplitMix64(seed: 11)
        var json = JSONText(capacity: 1)
        var expected = ""
        for index in 0..<2_000 {
            let value = (random.nextUnit() - 0.5) * 1e6
            if index > 0 {
                json.raw(",")
                expected += ","
            }
            json.number(value)
            expected += "\(value)"
        }
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
    }

    @Test func integersAndAGrowingBuffer() {
        var json = JSONText(capacity: 1)
        let values = [0, 7, -7, 10, 99, 100, Int.max, Int.min, -1_000_000]
        for (index, value) in values.enumerated() {
            if index > 0 { json.raw(",") }
            json.integer(value)
        }
        #expect(String(decoding: json.bytes, as: UTF8.self) == values.map(String.init).joined(separator: ","))
    }

    /// `isPlainASCII`, eight bytes at a time, against the byte-by-byte rule, on random texts of 0
    /// to 40 bytes that mix printable ASCII with the bytes at the edges of the rule (control
    /// characters, `"`, `\\`, DEL, 0x80 and up); `plainString` writes what `string` writes.
    @Test func plainASCIIIsFoundEightBytesAtATime() {
        let edges: [UInt8] = [
            0, 1, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x81, 0xC3, 0xFF,
        ]
        var random = SplitMix64(seed: 0xA5C11)
        var plain = 0
        for _ in 0..<100_000 {
            let count = Int(random.next() % 41)
            let bytes = (0..<count).map { _ in
                random.next() % 10 == 0
                    ? edges[Int(random.next() % UInt64(edges.count))] : UInt8(0x20 + random.next() % 95)
            }
            bytes.withUnsafeBufferPointer { buffer in
                let expected = buffer.allSatisfy(JSONText.isPlainByte)
                #expect(JSONText.isPlainASCII(buffer) == expected, "\(bytes)")
                guard expected else { return }
                plain += 1
                var fast = JSONText(capacity: 1)
                fast.plainString(utf8: buffer)
                var checked = JSONText(capacity: 1)
                checked.string(utf8: buffer)
                #expect(fast.bytes == checked.bytes)
            }
        }
        #expect(plain > 5_000)
    }
}
