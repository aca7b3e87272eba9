import OpenAPIRuntime
import Testing

@testable import HTTPAPI

/// `findNearby`, `findNearest` and `measureDistance`, called directly on the handler.
@Suite(.timeLimit(.minutes(10))) struct QueryOperationTests {
    typealias Nearby = Operations.FindNearby
    typealias Nearest = Operations.FindNearest

    static func nearby(
        radius: Double? = nil, kind: String? = nil, limit: Int? = nil,
        model: Components.Schemas.DistanceModelName? = nil,
        format: Components.Schemas.ResultFormat? = nil,
        accept: [AcceptHeaderContentType<Nearby.AcceptableContentType>] = .defaultValues(),
        lat: Double = APIFixture.here.lat, lon: Double = APIFixture.here.lon
    ) -> Nearby.Input {
        Nearby.Input(
            query: .init(
                lat: lat, lon: lon, radius: radius, kind: kind, limit: limit, model: model, format: format),
            headers: .init(accept: accept))
    }

    /// The app labelled them "100 / 400 / 450 meters away": measured on WGS84 they are 131.9 m,
    /// 662.5 m and 681.9 m, and only Omur is within 500 m.
    @Test func nearbyMeasuresTheOriginalAppsExample() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let output = try await fixture.api.findNearby(Self.nearby(radius: 700))
        let result = try output.ok.body.json
        #expect(result.results.map(\.id) == ["omur", "emre", "arzu"])
        // Served to the millimetre and to 0.01° (`ServedPrecision`): exactly these doubles.
        #expect(result.results.map(\.distanceM) == [131.936, 662.546, 681.935])
        #expect(result.results[0].bearingDeg == 255.32)
        #expect(result.results[0].lat == 41.087853 && result.results[0].lon == 29.014096)
        #expect(result.total == 3)
        #expect(result.query.radiusM == 700 && result.query.limit == 1000 && result.query.model == .geodesic)
        #expect(result.query.crs == nil && result.query.sphereRadiusM == nil)
        #expect(try output.ok.headers.vary == "Accept")

        let within500 = try await fixture.api.findNearby(Self.nearby()).ok.body.json
        #expect(within500.results.map(\.id) == ["omur"] && within500.query.radiusM == 500)
    }

    @Test func limitCutsTheListButTotalCountsEveryPlace() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let result = try await fixture.api.findNearby(Self.nearby(radius: 700, limit: 1)).ok.body.json
        #expect(result.results.map(\.id) == ["omur"])
        #expect(result.total == 3)
    }

    @Test func geoJSONWithLongitudeFirstAndTheOldWaysSentOnToIt() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let here = APIFixture.here
        let collection = try await fixture.api.findNearbyGeoJSON(.init(query: .init(lat: here.lat, lon: here.lon)))
            .ok.body.applicationGeoJson
        #expect(collection._type == .featureCollection && collection.total == 1)
        #expect(collection.features.first?.geometry.coordinates == [29.014096, 41.087853])
        #expect(collection.features.first?.id == "omur" && collection.features.first?._type == .feature)

        let byFormat = try await fixture.api.findNearby(Self.nearby(format: .geojson)).seeOther.headers
        #expect(byFormat.location == "/v1/nearby.geojson?lat=41.088154&lon=29.015615")
        let byAccept = try await fixture.api.findNearby(
            Self.nearby(accept: [.init(contentType: .other("application/geo+json"))]))
        #expect(try byAccept.seeOther.headers.location == byFormat.location)

        // `format` wins over `Accept`; JSON is preferred when it ranks higher.
        let formatWins = try await fixture.api.findNearby(
            Self.nearby(format: .json, accept: [.init(contentType: .other("application/geo+json"))]))
        #expect(try formatWins.ok.body.json.total == 1)
        let ranked = try await fixture.api.findNearby(
            Self.nearby(accept: [
                .init(contentType: .other("application/geo+json"), quality: 0.5),
                .init(contentType: .json, quality: 0.9),
            ]))
        #expect(try ranked.ok.body.json.total == 1)
    }

    @Test func modelsEchoTheirCRSOrSphere() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let projected = try await fixture.api.findNearby(Self.nearby(model: .projected)).ok.body.json
        #expect(projected.query.crs == "EPSG:32635")
        #expect(projected.results[0].distanceM == 131.93)
        let haversine = try await fixture.api.findNearby(Self.nearby(model: .haversine)).ok.body.json
        #expect(haversine.query.sphereRadiusM == 6_371_008.8)
        #expect(haversine.results[0].distanceM == 131.63)
    }

    @Test(arguments: [
        (
            Double.nan, 29.0,
            HTTPAPIError.invalidParameter(
                name: "lat", in: .query, noun: "latitude", value: "nan", expected: "a number of degrees from -90 to 90")
        ),
        (
            91, 29,
            .invalidParameter(
                name: "lat", in: .query, noun: "latitude", value: "91", expected: "a number of degrees from -90 to 90")
        ),
        (
            -Double.infinity, 29,
            .invalidParameter(
                name: "lat", in: .query, noun: "latitude", value: "-inf", expected: "a number of degrees from -90 to 90"
            )
        ),
        (
            41, 180.5,
            .invalidParameter(
                name: "lon", in: .query, noun: "longitude", value: "180.5",
                expected: "a number of degrees from -180 to 180")
        ),
    ])
    func badCoordinatesNameTheValueAndTheRange(lat: Double, lon: Double, error: HTTPAPIError) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        await #expect(throws: error) { try await fixture.api.findNearby(Self.nearby(lat: lat, lon: lon)) }
        #expect(error.httpStatus == .badRequest)
    }

    @Test func theLatitudeMessageIsTheLineProtocolsWording() {
        let error = QueryParameter.latitude("lat").invalid("95")
        #expect(error.description == #"invalid latitude "95": expected a number of degrees from -90 to 90"#)
    }

    @Test func badRadiusLimitKindAndCRSAreRefused() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let api = fixture.api
        await #expect(throws: QueryParameter.radius.invalid("-1")) { try await api.findNearby(Self.nearby(radius: -1)) }
        await #expect(throws: QueryParameter.radius.invalid("30000000")) {
            try await api.findNearby(Self.nearby(radius: 30_000_000))
        }
        await #expect(throws: QueryParameter.limit.invalid("0")) { try await api.findNearby(Self.nearby(limit: 0)) }
        await #expect(throws: QueryParameter.limit.invalid("10001")) {
            try await api.findNearby(Self.nearby(limit: 10_001))
        }
        await #expect(throws: HTTPAPIError.self) { try await api.findNearby(Self.nearby(kind: "two words")) }
        let crs = HTTPAPIError.conflictingParameter(
            name: "crs", detail: #"crs applies only to model=projected (model is "geodesic")"#)
        // `crs` is read from the query for first-version clients (`CompatibilityParameters`).
        await #expect(throws: crs) {
            try await CompatibilityParameters.$crs.withValue("EPSG:32635") { try await api.findNearby(Self.nearby()) }
        }
        await #expect(throws: HTTPAPIError.self) {
            try await CompatibilityParameters.$crs.withValue("EPSG:4326") {
                try await api.findNearby(Self.nearby(model: .projected))
            }
        }
    }

    @Test func aKindWithNoPlacesIsAnEmptyList() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let result = try await fixture.api.findNearby(Self.nearby(kind: "bakery")).ok.body.json
        #expect(result.results.isEmpty && result.total == 0)
    }

    @Test func aProjectionThatCannotRepresentThePointIsA422() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        _ = try await fixture.callAs(fixture.admin) {
            try await fixture.api.putPlace(
                .init(path: .init(kind: "buoy", id: "far-east"), body: .json(.init(lat: 0, lon: 95))))
        }
        // UTM zone 30N (EPSG:32630) cannot represent a point at 95° E.
        let error = await #expect(throws: HTTPAPIError.self) {
            try await CompatibilityParameters.$crs.withValue("EPSG:32630") {
                try await fixture.api.findNearby(
                    Self.nearby(radius: 5000, kind: "buoy", model: .projected, lat: 0, lon: 94.99))
            }
        }
        #expect(error?.httpStatus == .unprocessableContent)
        #expect(error?.description.hasPrefix("cannot project") == true)
    }

    @Test func nearestCountsAndStopsAtMaxDistance() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let here = APIFixture.here
        let two = try await fixture.api.findNearest(.init(query: .init(lat: here.lat, lon: here.lon, count: 2)))
        #expect(try two.ok.body.json.results.map(\.id) == ["omur", "emre"])
        let bounded = try await fixture.api.findNearest(
            .init(query: .init(lat: here.lat, lon: here.lon, count: 5, maxDistance: 500)))
        let result = try bounded.ok.body.json
        #expect(result.results.map(\.id) == ["omur"] && result.query.maxDistanceM == 500 && result.query.count == 5)
        let geo = try await fixture.api.findNearestGeoJSON(.init(query: .init(lat: here.lat, lon: here.lon)))
        #expect(try geo.ok.body.applicationGeoJson.features.map(\.id) == ["omur", "emre", "arzu"])
        await #expect(throws: QueryParameter.count.invalid("0")) {
            try await fixture.api.findNearest(.init(query: .init(lat: here.lat, lon: here.lon, count: 0)))
        }
        await #expect(throws: QueryParameter.maxDistance.invalid("nan")) {
            try await fixture.api.findNearest(.init(query: .init(lat: here.lat, lon: here.lon, maxDistance: .nan)))
        }
    }

    @Test func distanceUnderAllThreeModels() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let output = try await fixture.api.measureDistance(
            .init(query: .init(fromLat: 41.088154, fromLon: 29.015615, toLat: 41.087853, toLon: 29.014096)))
        let result = try output.ok.body.json
        // Served to the millimetre and to 0.01° (`ServedPrecision`): exactly these doubles.
        #expect(result.geodesicM == 131.936)
        #expect(result.haversineM == 131.63)
        #expect(result.projectedM == 131.93)
        #expect(result.crs == "EPSG:32635" && result.projectedError == nil && result.sphereRadiusM == 6_371_008.8)
        #expect(result.bearingDeg == 255.32)
        #expect(result.from.lat == 41.088154 && result.to.lon == 29.014096)
    }

    @Test func aPointTheCRSCannotRepresentLeavesOutOnlyTheProjectedDistance() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        let output = try await fixture.api.measureDistance(
            .init(query: .init(fromLat: 51.508039, fromLon: -0.128069, toLat: 0, toLon: 95)))
        let result = try output.ok.body.json
        #expect(result.projectedM == nil)
        #expect(result.crs == "EPSG:32630")
        #expect(result.projectedError?.hasPrefix("cannot project 0, 95 to EPSG:32630") == true)
        #expect(result.geodesicM == 10_364_202.849)
    }

    @Test func distanceRefusesBadPointsNamingTheParameter() async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        await #expect(throws: QueryParameter.latitude("to_lat").invalid("-90.5")) {
            try await fixture.api.measureDistance(.init(query: .init(fromLat: 0, fromLon: 0, toLat: -90.5, toLon: 0)))
        }
        await #expect(throws: QueryParameter.longitude("from_lon").invalid("nan")) {
            try await fixture.api.measureDistance(.init(query: .init(fromLat: 0, fromLon: .nan, toLat: 0, toLon: 0)))
        }
    }
}
