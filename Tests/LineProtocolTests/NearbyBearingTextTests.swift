import Geo
import NIOCore
import PlaceQueries
import Testing

@testable import LineProtocol

/// `NEARBY`'s and `NEAREST`'s bearings to 0.1°: one that rounds up to 360.0 is north, written
/// `0.0` (as the HTTP API serves it), whichever way the listing is written.
@Suite struct NearbyBearingTextTests {
    @Test func aBearingThatRoundsTo360IsWrittenAsNorth() {
        #expect(LineService.bearingText(359.97) == "0.0")
        #expect(LineService.bearingText(359.951) == "0.0")
        #expect(LineService.bearingText(359.94) == "359.9")
        #expect(LineService.bearingText(0.04) == "0.0")
        #expect(LineService.bearingText(12.26) == "12.3")
    }

    @Test func listingsWriteNorthAsZeroInRowsAndInArrays() throws {
        let here = try Coordinate(latitude: 41.088154, longitude: 29.015615)
        let hits = [359.97, 359.94, 180.0].enumerated().map { index, bearing in
            QueryHit(
                id: "p\(index)", name: "P\(index)", kind: "pharmacy", coordinate: here, distanceMeters: 10,
                bearingDegrees: bearing)
        }
        for withOpening in [false, true] {
            var out = ByteBuffer()
            let reply = LineService.listing(hits, unit: .meters, withCoordinates: false, withOpening: withOpening)
            RESPReplyEncoder.write(reply, format: .resp2, to: &out)
            let text = String(buffer: out)
            #expect(!text.contains("360.0"), "\(text)")
            #expect(text.contains("$2\r\np0\r\n$2\r\nP0\r\n$7\r\n10.0000\r\n$3\r\n0.0\r\n"), "\(text)")
            #expect(text.contains("$5\r\n359.9\r\n") && text.contains("$5\r\n180.0\r\n"), "\(text)")
        }
    }
}
