import Places
import Testing

@testable import HTTPAPI

/// Every operation with every kind of token: none, one that names no one, another user's, the
/// user's own, the admin's. Writes need a token before anything else; a token that names no one
/// is a 401 wherever a token is taken; another user's token is a 403 on a public user's record
/// and a 404 on a private one's.
@Suite(.timeLimit(.minutes(10))) struct TokenMatrixTests {
    enum Token: String, CaseIterable, Sendable {
        case none, stranger, otherUser, ownUser, admin

        func value(in fixture: APIFixture) -> String? {
            switch self {
            case .none: return nil
            case .stranger: return APIFixture.strangerToken
            case .otherUser: return fixture.zeynep
            case .ownUser: return fixture.ayse
            case .admin: return fixture.admin
            }
        }
    }

    enum Operation: String, CaseIterable, Sendable {
        case findNearby, findNearest, measureDistance, getPlace, putPlace, deletePlace, registerUser
        case findNearbyUsers, getUser, deleteUser, moveUser, forgetUserLocation, setUserVisibility
        case renderMap, getHealth, getMetrics
        /// The same writes on Mehmet, who is private.
        case movePrivateUser, deletePrivateUser

        /// Calls the operation on the fixture (Ayşe's record for user operations).
        func call(_ api: VicinityAPI) async throws {
            let here = APIFixture.here
            switch self {
            case .findNearby: _ = try await api.findNearby(QueryOperationTests.nearby(kind: "user"))
            case .findNearest:
                _ = try await api.findNearest(.init(query: .init(lat: here.lat, lon: here.lon, kind: "user")))
            case .measureDistance:
                _ = try await api.measureDistance(.init(query: .init(fromLat: 0, fromLon: 0, toLat: 1, toLon: 1)))
            case .getPlace: _ = try await api.getPlace(.init(path: .init(kind: "pharmacy", id: "omur")))
            case .putPlace:
                _ = try await api.putPlace(PlaceOperationTests.put("new", .init(lat: 41.08, lon: 29.01)))
            case .deletePlace: _ = try await api.deletePlace(.init(path: .init(kind: "pharmacy", id: "omur")))
            case .registerUser: _ = try await api.registerUser(.init(body: .json(.init(id: "new"))))
            case .findNearbyUsers: _ = try await api.findNearbyUsers(UserOperationTests.nearbyUsers())
            case .getUser: _ = try await api.getUser(UserOperationTests.getUser("ayse"))
            case .deleteUser: _ = try await api.deleteUser(.init(path: .init(id: "ayse")))
            case .moveUser:
                _ = try await api.moveUser(.init(path: .init(id: "ayse"), body: .json(.init(lat: 41, lon: 29))))
            case .forgetUserLocation: _ = try await api.forgetUserLocation(.init(path: .init(id: "ayse")))
            case .setUserVisibility:
                _ = try await api.setUserVisibility(
                    .init(path: .init(id: "ayse"), body: .json(._private(.init(visibility: ._private)))))
            case .renderMap: _ = try await api.renderMap(.init(query: .init(lat: here.lat, lon: here.lon)))
            case .getHealth: _ = try await api.getHealth(.init())
            case .getMetrics: _ = try await api.getMetrics(.init())
            case .movePrivateUser:
                _ = try await api.moveUser(.init(path: .init(id: "mehmet"), body: .json(.init(lat: 41, lon: 29))))
            case .deletePrivateUser: _ = try await api.deleteUser(.init(path: .init(id: "mehmet")))
            }
        }

        /// The HTTP status expected for `token`: 200 for success.
        func expectedStatus(_ token: Token) -> Int {
            switch self {
            case .measureDistance, .getPlace, .getHealth, .getMetrics:
                return 200  // No token is taken, none is looked at.
            case .findNearby, .findNearest, .findNearbyUsers, .getUser, .renderMap:
                return token == .stranger ? 401 : 200
            case .putPlace, .deletePlace, .registerUser:
                switch token {
                case .none, .stranger: return 401
                case .otherUser, .ownUser: return 403
                case .admin: return 200
                }
            case .deleteUser, .moveUser, .forgetUserLocation, .setUserVisibility:
                switch token {
                case .none, .stranger: return 401
                case .otherUser: return 403
                case .ownUser, .admin: return 200
                }
            case .movePrivateUser, .deletePrivateUser:
                switch token {
                case .none, .stranger: return 401
                case .otherUser, .ownUser: return 404  // Mehmet looks like no one to Ayşe and Zeynep.
                case .admin: return 200
                }
            }
        }
    }

    @Test(arguments: Operation.allCases, Token.allCases)
    func everyOperationWithEveryToken(operation: Operation, token: Token) async throws {
        let fixture = try await APIFixture()
        defer { fixture.close() }
        var status = 200
        do {
            try await fixture.callAs(token.value(in: fixture)) { try await operation.call(fixture.api) }
        } catch let error as HTTPAPIError {
            status = error.httpStatus.code
            if status == 401 {
                #expect(error == (token == .none ? .missingToken : .places(.invalidToken)))
            }
        }
        #expect(status == operation.expectedStatus(token), "\(operation) with \(token)")
    }
}
