import Testing

@testable import HTTPAPI

/// The query items `QueryTextMiddleware` checks: split on `&` and the first `=`, decoded only
/// where a `+` or `%` asks for it.
@Suite struct QueryTextItemsTests {
    @Test func itemsByNameInOrder() {
        let items = QueryTextMiddleware.items(of: "/v1/nearby?lat=41.3&lon=28.9&lat=0x10&&flag&kind=&=x&q=a=b")
        #expect(items["lat"] == ["41.3", "0x10"])
        #expect(items["lon"] == ["28.9"])
        #expect(items["flag"] == [""])
        #expect(items["kind"] == [""])
        #expect(items[""] == ["x"])
        #expect(items["q"] == ["a=b"])
        #expect(items.count == 6)
    }

    @Test func plusIsASpaceAndPercentEscapesAreDecoded() {
        let items = QueryTextMiddleware.items(of: "/v1/nearby?kind=night+pharmacy&lon=%2B181&na%6De=%C5%9Eifa&bad=%zz")
        #expect(items["kind"] == ["night pharmacy"])
        #expect(items["lon"] == ["+181"])
        #expect(items["name"] == ["Şifa"])
        // Not a valid escape: the text as it came (the parameter's check then names it).
        #expect(items["bad"] == ["%zz"])
    }

    @Test func noQuery() {
        #expect(QueryTextMiddleware.items(of: "/v1/nearby").isEmpty)
        #expect(QueryTextMiddleware.items(of: "/v1/nearby?").isEmpty)
    }

    /// `crs` is read, undeclared, by the four query operations only (`/v1/distance` declares it).
    @Test func theOperationsThatReadCRS() {
        #expect(
            CompatibilityParameters.crsOperations == [
                "findNearby", "findNearbyGeoJSON", "findNearest", "findNearestGeoJSON",
            ])
    }
}
