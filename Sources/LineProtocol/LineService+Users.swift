import Foundation
import Geo
import Places

/// The users' commands: `USER.ADD`, `USER.MOVE`, `USER.VISIBILITY`, `USER.PRECISION`, `USER.GET`
/// and `USER.DEL` (`USER.TOKEN` is in `LineService+UserTokens.swift`).
///
/// - `USER.ADD id [NAME name] [AT lat lon] [PRIVATE|PUBLIC] [PRECISION exact|street|district|city]`
///   (admin): the reply is the user's token. Without `PRECISION` the server's default applies
///   (`PrivacySettings.defaultPrecision`, `--user-precision`).
/// - `USER.VISIBILITY id public|private [FOR duration]` (that user or admin): `FOR` only with
///   `private` (ghost mode with a timer: public again by themselves after `3h`, `90m`, `1d12h` or
///   plain seconds, 1 s to 3650 d); without it, until changed. `+OK`.
/// - `USER.PRECISION id exact|street|district|city` (that user or admin): how precisely others
///   see the user. `+OK`.
/// - `USER.GET id`: `id`, `name`, `lat`, `lon`, `visibility`, `precision`; others read the
///   published location (`PlaceDirectory.user(_:as:)`), the user themselves and the admin the
///   exact one and also `location_expires_at` and `private_until` (RFC 3339 UTC, or null when
///   not set).
extension LineService {
    func userCommand(_ name: String, _ arguments: inout CommandArguments, _ session: Session)
        throws(CommandFailure) -> Outcome?
    {
        switch name {
        case "USER.ADD": return try userAdd(&arguments)
        case "USER.MOVE":
            let id = try arguments.next()
            if arguments.remaining == 1, arguments.take("NONE") {
                return .write(.moveUser(id, to: nil)) { _ in .simpleString("OK") }
            }
            let location = try arguments.coordinate()
            guard arguments.isAtEnd else { throw .wrongArity(name) }
            return .write(.moveUser(id, to: location)) { _ in .simpleString("OK") }
        case "USER.VISIBILITY":
            guard arguments.remaining == 2 || arguments.remaining == 4 else { throw .wrongArity(name) }
            let id = try arguments.next()
            let visibility = try arguments.value(Vocabulary.visibility)
            var seconds: Int?
            if let option = arguments.option() {
                guard option == "FOR" else {
                    throw .unexpected(arguments.previous, after: "the visibility", expected: ["FOR"])
                }
                seconds = try arguments.value(Vocabulary.privateSpell)
            }
            // `FOR` with `public` is refused by the directory, in the words every surface uses.
            return .write(.setVisibility(id, visibility, forSeconds: seconds)) { _ in .simpleString("OK") }
        case "USER.PRECISION":
            guard arguments.remaining == 2 else { throw .wrongArity(name) }
            let id = try arguments.next()
            let precision = try arguments.value(Vocabulary.precision)
            return .write(.setPrecision(id, precision)) { _ in .simpleString("OK") }
        case "USER.GET":
            guard arguments.remaining == 1 else { throw .wrongArity(name) }
            let id = try arguments.next()
            let principal = session.principal
            if principal != .user(id) { try LineService.admitUserQuery(session) }
            let user = try read { directory throws(PlacesError) in try directory.user(id, as: principal) }
            let whole = principal == .admin || principal == .user(id)
            return .reply(LineService.record(user, withTimers: whole))
        case "USER.DEL":
            guard arguments.remaining == 1 else { throw .wrongArity(name) }
            return .write(.removeUser(try arguments.next())) { _ in .integer(1) }
        default: return nil
        }
    }

    private func userAdd(_ arguments: inout CommandArguments) throws(CommandFailure) -> Outcome {
        let id = try arguments.next()
        // Precision nil: the directory gives the server's default.
        var user = User(id: id, name: id)
        while let option = arguments.option() {
            switch option {
            case "NAME": user.name = try arguments.next()
            case "AT": user.location = try arguments.coordinate()
            case "PRIVATE": user.visibility = .private
            case "PUBLIC": user.visibility = .public
            case "PRECISION": user.precision = try arguments.value(Vocabulary.precision)
            default:
                throw .unexpected(
                    arguments.previous, after: "the id", expected: ["NAME", "AT", "PRIVATE", "PUBLIC", "PRECISION"])
            }
        }
        return .write(.addUser(user)) { token in .text(token ?? "") }
    }

    /// A user's record as `USER.GET` answers it; `withTimers` (the user themselves, the admin) adds
    /// `location_expires_at` and `private_until`.
    static func record(_ user: User, withTimers: Bool) -> RESPReply {
        var fields: [(String, RESPReply)] = [("id", .text(user.id)), ("name", .text(user.name))]
        fields.append(("lat", user.location.map { .text(NumberText.plain($0.latitude)) } ?? .nullBulk))
        fields.append(("lon", user.location.map { .text(NumberText.plain($0.longitude)) } ?? .nullBulk))
        fields.append(("visibility", .text(user.visibility.rawValue)))
        fields.append(("precision", .text(user.effectivePrecision.rawValue)))
        if withTimers {
            fields.append(("location_expires_at", user.locationExpiresAt.map { .text(timestamp($0)) } ?? .nullBulk))
            fields.append(("private_until", user.privateUntil.map { .text(timestamp($0)) } ?? .nullBulk))
        }
        return .map(fields.map { RESPReply.MapEntry(key: .text($0.0), value: $0.1) })
    }

    /// A time as RFC 3339 in UTC to the second (`2026-11-26T18:00:00Z`), as timers are stored.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }
}
