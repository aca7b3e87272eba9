import Foundation
import Geo
import Places
import Testing

/// `PlaceDirectory.applyDueTimers`: a reader of a database no server keeps (the command line) sees
/// an expired location as forgotten and an ended private spell as over, at the time and not before.
@Suite struct ReadDueTimersTests {
    @Test func timersDueByTheClockAreReadAsRun() throws {
        let clock = ManualClock()
        var directory = PlaceDirectory(places: try PlaceCatalog())
        directory.privacy = PrivacySettings(defaultPrecision: .street, locationTTLSeconds: 3600, now: { clock.now })
        let here = try Coordinate(latitude: 41.0885, longitude: 29.0158)
        try directory.addUser(User(id: "ayse", name: "Ayşe", location: here), by: .admin)
        try directory.addUser(User(id: "ali", name: "Ali", location: here), by: .admin)
        try directory.perform(.setVisibility("ali", .private, forSeconds: 1800), by: .admin)
        #expect(directory.nextUserTimer == clock.now.addingTimeInterval(1800))

        clock.advance(1799)
        var read = directory
        read.applyDueTimers()
        #expect(try read.user("ali", as: .admin).visibility == .private)
        #expect(try read.user("ayse", as: .admin).location == here)

        clock.advance(1)
        read = directory
        read.applyDueTimers()
        #expect(try read.user("ali", as: .admin).visibility == .public, "public again at the time")
        #expect(try read.user("ali", as: .admin).privateUntil == nil)
        #expect(read.publicUserCount == 2)

        clock.advance(1800)
        read = directory
        read.applyDueTimers()
        for id in ["ayse", "ali"] {
            #expect(try read.user(id, as: .admin).location == nil, "\(id)'s location is forgotten after an hour")
        }
        #expect(try read.nearbyUsers(here, radiusMeters: 1000, as: .anonymous).isEmpty)
        #expect(read.nextUserTimer == nil)
    }
}
