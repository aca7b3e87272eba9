import Foundation
import Geo
import PlaceQueries
import Places
import RedisGeo
import TextMap

/// Vicinity's own commands: latitude first, meters unless `UNIT` says otherwise, the WGS84
/// geodesic unless `MODEL` says otherwise.
///
/// Replies: a hit is an array `[id, name, distance, bearing]` (distance in the query's unit with
/// 4 decimals, bearing in degrees clockwise from north with 1 decimal; bulk strings in RESP2 as
/// Redis writes numbers, doubles in RESP3 and numbers in `OUTPUT json`), plus `[lat, lon]` with
/// `WITHCOORD`, plus a map of its opening state with `OPEN` (`QueryFilters`, `opening(_:)`); records (`PLACE.GET`, `USER.GET`) are maps as `HGETALL` gives: flat field/value
/// arrays in RESP2, RESP3 maps, JSON objects. Hits are `PlaceDirectory.answer`'s, printed as
/// they are: a user others see at a precision is at their published location, and the distance
/// to them is rounded to its cell size in meters before it is converted to the unit.
extension LineService {
    func vicinityCommand(_ name: String, _ arguments: inout CommandArguments, _ session: Session)
        throws(CommandFailure) -> Outcome?
    {
        switch name {
        case "NEARBY": return .reply(try nearby(&arguments, session))
        case "NEAREST": return .reply(try nearest(&arguments, session))
        case "DIST": return .reply(try dist(&arguments))
        case "PLACE.SET": return try placeSet(&arguments)
        case "PLACE.GET":
            guard arguments.remaining == 2 else { throw .wrongArity(name) }
            let kind = try arguments.next()
            let id = try arguments.next()
            let place = try read { directory throws(PlacesError) in try directory.place(kind: kind, id: id) }
            return .reply(LineService.record(place))
        case "PLACE.DEL":
            guard arguments.remaining == 2 else { throw .wrongArity(name) }
            let kind = try arguments.next()
            let id = try arguments.next()
            return .write(.removePlace(kind: kind, id: id)) { _ in .integer(1) }
        case "MAP": return .reply(try map(&arguments, session))
        default: return nil
        }
    }

    // MARK: - Queries

    private func nearby(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure) -> RESPReply {
        guard arguments.remaining >= 4 else { throw .wrongArity("nearby") }
        let kind = try arguments.value(Vocabulary.queryKind)
        let center = try arguments.coordinate()
        let radiusText = try arguments.next()
        var unit = DistanceUnit.meters
        var limit: Int?
        var model = DistanceModel.geodesic
        var withCoordinates = false
        var filters = QueryFilters()
        while let option = arguments.option() {
            switch option {
            case "UNIT": unit = try arguments.value(Vocabulary.unit)
            case "LIMIT": limit = try arguments.value(Vocabulary.limit)
            case "MODEL": model = try arguments.model()
            case "WITHCOORD": withCoordinates = true
            default:
                guard try filters.read(option, &arguments) else {
                    throw .unexpected(
                        arguments.previous, after: "the radius",
                        expected: ["UNIT", "LIMIT", "MODEL", "WITHCOORD"] + QueryFilters.options,
                        hints: LineService.redisOptionHints)
                }
            }
        }
        let radius: Double
        do { radius = try Vocabulary.distance("radius", unit: unit).parse(radiusText) } catch { throw .places(error) }
        let query = filters.applied(
            to: PlaceQuery(
                kind: kind, center: center, reach: .within(radiusMeters: radius, limit: limit), model: model,
                principal: session.principal, countsAll: false))
        try LineService.admitQuery(ofKind: kind, session)
        let answer = try read { directory throws(PlacesError) in try directory.answer(query) }
        return LineService.listing(
            answer.hits, unit: unit, withCoordinates: withCoordinates, withOpening: filters.showsOpening)
    }

    private func nearest(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure) -> RESPReply {
        guard arguments.remaining >= 4 else { throw .wrongArity("nearest") }
        let kind = try arguments.value(Vocabulary.queryKind)
        let center = try arguments.coordinate()
        let count = try arguments.value(Vocabulary.count)
        var unit = DistanceUnit.meters
        var model = DistanceModel.geodesic
        var withCoordinates = false
        var maximumText: String?
        var filters = QueryFilters()
        while let option = arguments.option() {
            switch option {
            case "MAXDIST": maximumText = try arguments.next()
            case "UNIT": unit = try arguments.value(Vocabulary.unit)
            case "MODEL": model = try arguments.model()
            case "WITHCOORD": withCoordinates = true
            default:
                guard try filters.read(option, &arguments) else {
                    throw .unexpected(
                        arguments.previous, after: "the count",
                        expected: ["MAXDIST", "UNIT", "MODEL", "WITHCOORD"] + QueryFilters.options,
                        hints: LineService.redisOptionHints.filter { $0.key != "COUNT" })
                }
            }
        }
        var maximum: Double?
        if let maximumText {
            do { maximum = try Vocabulary.distance("max distance", unit: unit).parse(maximumText) } catch {
                throw .places(error)
            }
        }
        let query = filters.applied(
            to: PlaceQuery(
                kind: kind, center: center, reach: .nearest(count: count, maxDistanceMeters: maximum), model: model,
                principal: session.principal))
        try LineService.admitQuery(ofKind: kind, session)
        let answer = try read { directory throws(PlacesError) in try directory.answer(query) }
        return LineService.listing(
            answer.hits, unit: unit, withCoordinates: withCoordinates, withOpening: filters.showsOpening)
    }

    private func dist(_ arguments: inout CommandArguments) throws(CommandFailure) -> RESPReply {
        guard arguments.remaining == 4 || arguments.remaining == 6 || arguments.remaining == 8 else {
            throw .wrongArity("dist")
        }
        let from = try arguments.coordinate()
        let to = try arguments.coordinate()
        var model = DistanceModel.geodesic
        var unit = DistanceUnit.meters
        while let option = arguments.option() {
            switch option {
            case "MODEL": model = try arguments.model()
            case "UNIT": unit = try arguments.value(Vocabulary.unit)
            default: throw .unexpected(arguments.previous, after: "the two points", expected: ["MODEL", "UNIT"])
            }
        }
        do {
            return .doubleText(LineService.fixed(try model.distance(from, to) / unit.meters, decimals: 4))
        } catch {
            throw .error(error.description)
        }
    }

    /// A hit is `[id, name, distance, bearing]`, plus `[lat, lon]` with `WITHCOORD`, plus its
    /// opening state (`opening(_:)`) with `withOpening`. Without the opening state the hits are
    /// rows written straight into one buffer (`RESPRows`): no reply per value.
    static func listing(
        _ hits: [QueryHit], unit: DistanceUnit, withCoordinates: Bool, withOpening: Bool = false
    ) -> RESPReply {
        guard !withOpening else {
            return .array(
                hits.map { hit in
                    var row: [RESPReply] = [
                        .text(hit.id), .text(hit.name),
                        .doubleText(fixed(hit.distanceMeters / unit.meters, decimals: 4)),
                        .doubleText(bearingText(hit.bearingDegrees)),
                    ]
                    if withCoordinates {
                        row.append(
                            .array([
                                .text(NumberText.plain(hit.coordinate.latitude)),
                                .text(NumberText.plain(hit.coordinate.longitude)),
                            ]))
                    }
                    row.append(opening(hit.opening ?? .unknown))
                    return .array(row)
                })
        }
        var rows = RESPRows(
            columns: withCoordinates ? [.text, .text, .number, .number, .textPair] : [.text, .text, .number, .number])
        rows.reserveCapacity(rows: hits.count, bytes: hits.count * (withCoordinates ? 80 : 40))
        for hit in hits {
            rows.appendText(hit.id)
            rows.appendText(hit.name)
            appendFixed(hit.distanceMeters / unit.meters, decimals: 4, to: &rows)
            if hit.bearingDegrees < 359.9 {
                appendFixed(hit.bearingDegrees, decimals: 1, to: &rows)
            } else {
                rows.appendText(bearingText(hit.bearingDegrees))
            }
            if withCoordinates {
                rows.appendText(NumberText.plain(hit.coordinate.latitude))
                rows.appendText(NumberText.plain(hit.coordinate.longitude))
            }
        }
        return .rows(rows)
    }

    /// Appends `fixed(value, decimals:)`, printed straight into the rows.
    private static func appendFixed(_ value: Double, decimals: Int, to rows: inout RESPRows) {
        let written = rows.appendIfWritten(capacity: FixedDecimal.maximumSmallLength) { out in
            FixedDecimal.write(value, fractionDigits: decimals, trimmingZeros: false, to: out)
        }
        if !written { rows.appendText(fixed(value, decimals: decimals)) }
    }

    /// A hit's opening state as a map (a flat field/value array in RESP2, an object in JSON):
    /// `open` (`open`, `closed` or `unknown`), then `open_until` (an open place) or `opens_at` (a
    /// closed one) when the next change is known — the place's local time with its UTC offset,
    /// minutes, `2026-11-26T19:30+01:00` — and `on_duty` (true) when a duty-rota spell opens it.
    static func opening(_ state: OpeningState) -> RESPReply {
        var fields: [RESPReply.MapEntry] = [.init(key: .text("open"), value: .text(state.status.rawValue))]
        if let until = state.openUntil { fields.append(.init(key: .text("open_until"), value: .text(until))) }
        if let opens = state.opensAt { fields.append(.init(key: .text("opens_at"), value: .text(opens))) }
        if state.onDuty { fields.append(.init(key: .text("on_duty"), value: .boolean(true))) }
        return .map(fields)
    }

    /// Redis options our commands name otherwise, and what to use instead.
    static let redisOptionHints = [
        "COUNT": "LIMIT caps the number of hits", "WITHDIST": "every hit has its distance and bearing",
        "ASC": "hits are always nearest first", "DESC": "hits are always nearest first",
    ]

    static func fixed(_ value: Double, decimals: Int) -> String { FixedDecimal.format(value, fractionDigits: decimals) }

    /// A bearing in degrees, [0, 360), to 0.1°: one that rounds to 360.0 is north, `0.0` (as the
    /// HTTP API serves it).
    static func bearingText(_ degrees: Double) -> String {
        let text = fixed(degrees, decimals: 1)
        return text == "360.0" ? "0.0" : text
    }

    // MARK: - Writes

    private func placeSet(_ arguments: inout CommandArguments) throws(CommandFailure) -> Outcome {
        guard arguments.remaining >= 4 else { throw .wrongArity("place.set") }
        let kind = try arguments.next()
        let id = try arguments.next()
        let coordinate = try arguments.coordinate()
        var name = id
        var names: [String] = []
        var values: [String] = []
        while let option = arguments.option() {
            switch option {
            case "NAME": name = try arguments.next()
            case "ATTR":
                names.append(try arguments.next())
                values.append(try arguments.next())
            default: throw .unexpected(arguments.previous, after: "the coordinates", expected: ["NAME", "ATTR"])
            }
        }
        let place = Place(
            id: id, kind: kind, name: name, coordinate: coordinate, attributeNames: names, attributeValues: values)
        return .write(.setPlace(place)) { _ in .simpleString("OK") }
    }

    // MARK: - Records and maps

    static func record(_ place: Place) -> RESPReply {
        var fields: [(String, String)] = [
            ("id", place.id), ("kind", place.kind), ("name", place.name),
            ("lat", NumberText.plain(place.coordinate.latitude)), ("lon", NumberText.plain(place.coordinate.longitude)),
        ]
        fields += place.orderedAttributes.map { ($0.name, $0.value) }
        return .map(fields.map { RESPReply.MapEntry(key: .text($0.0), value: .text($0.1)) })
    }

    /// `MAP lat lon [RADIUS r] [WIDTH w] [HEIGHT h] [KIND k] [OPEN t] [WHERE name value …]`: the
    /// text map as one bulk string, `w` × `h` (default 80 × 24) the whole text's size, laid out by
    /// `MapRenderer` as `vicinity map` and `GET /v1/map` are. `WHERE` keeps the places with those
    /// attributes; `OPEN` keeps them all, each with its state then (`QueryFilters.marking`).
    private func map(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure) -> RESPReply {
        guard arguments.remaining >= 2 else { throw .wrongArity("map") }
        let center = try arguments.coordinate()
        var radius = 500.0
        var width = 80
        var height = 24
        var kind = "pharmacy"
        var filters = QueryFilters()
        while let option = arguments.option() {
            switch option {
            case "RADIUS": radius = try arguments.value(Vocabulary.radius)
            case "WIDTH": width = try arguments.value(Vocabulary.mapWidth)
            case "HEIGHT": height = try arguments.value(Vocabulary.mapHeight)
            case "KIND": kind = try arguments.value(Vocabulary.queryKind)
            default:
                guard try filters.read(option, &arguments) else {
                    throw .unexpected(
                        arguments.previous, after: "the coordinates",
                        expected: ["RADIUS", "WIDTH", "HEIGHT", "KIND"] + QueryFilters.options)
                }
            }
        }
        let query = filters.marking(
            PlaceQuery(
                kind: kind, center: center, reach: .within(radiusMeters: radius, limit: nil),
                principal: session.principal, namesNearestBeyond: true))
        try LineService.admitQuery(ofKind: kind, session)
        let answer = try read { directory throws(PlacesError) in try directory.answer(query) }
        do {
            let model = try MapView.model(answer, center: center, radiusMeters: radius, kind: kind)
            let style = MapStyle(characters: .unicode, color: false)
            let rendered = try MapRenderer(width: width, height: height, style: style).render(model)
            return .text(rendered.lines.joined(separator: "\n") + "\n")
        } catch {
            throw .error(String(describing: error))
        }
    }
}
