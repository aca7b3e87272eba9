import Geo
import Places
import RedisGeo

/// GEOSEARCH, GEORADIUS and GEORADIUSBYMEMBER, parsed as Redis 7.0's `georadiusGeneric` parses
/// them (the same checks in the same order, so the same error for the same arguments), answered
/// from the grid index: `RedisGeoKeyspace.candidates` fetches every member the shape can hold and
/// `RedisGeoSearch.matches` chooses and orders them exactly as Redis does.
extension LineService {
    /// Which command's arguments are parsed.
    enum RedisSearchForm: Equatable {
        /// GEOSEARCH key FROMMEMBER|FROMLONLAT … BYRADIUS|BYBOX … [options].
        case search
        /// GEOSEARCHSTORE destination key FROMMEMBER|FROMLONLAT … BYRADIUS|BYBOX … [options].
        case searchStore
        /// GEORADIUS key longitude latitude radius unit [options]; `store` allows STORE.
        case radius(store: Bool)
        /// GEORADIUSBYMEMBER key member radius unit [options].
        case member(store: Bool)
    }

    /// What the options of a search asked for.
    private struct SearchOptions {
        var withDistance = false
        var withHash = false
        var withCoordinates = false
        var any = false
        var order = RedisGeoSearch.Order.unsorted
        var count: Int64 = 0
        var fromMember = false
        var fromLocation = false
        var byRadius = false
        var byBox = false
        /// STORE's or STOREDIST's key, GEOSEARCHSTORE's destination.
        var storeKey: String?
        var storeDistance = false
        /// FROMMEMBER's or GEORADIUSBYMEMBER's member: distances from it are rounded as GEODIST's.
        var centerMember: String?
        /// Whether the reply goes to a RESP2 connection (`RESPRows.numbersAsBulkStrings`).
        var forRESP2 = false
    }

    /// What a search comes to: a reply, or members to store into another key.
    enum SearchAnswer {
        case reply(RESPReply)
        /// The members found, in the source key (STORE, GEOSEARCHSTORE).
        case store(destination: String, source: String, members: [String])
    }

    func geoSearch(_ argv: [String], _ session: Session, form: RedisSearchForm) throws(CommandFailure) -> Outcome {
        let (answer, requests) = try redisView(session) { keyspace throws(CommandFailure) in
            let answer = try LineService.geoSearch(
                argv, keyspace, form: form, forRESP2: session.replyFormat == .resp2)
            guard case .store(let destination, let source, let members) = answer else {
                return (answer, [DirectoryRequest]())
            }
            return (answer, try LineService.storeRequests(keyspace, session, destination, source, members))
        }
        switch answer {
        case .reply(let reply): return .reply(reply)
        case .store(_, _, let members):
            return .atomicWrites(requests) { results in LineService.batchReply(results, count: members.count) }
        }
    }

    private static func geoSearch(
        _ argv: [String], _ keyspace: RedisGeoKeyspace, form: RedisSearchForm, forRESP2: Bool
    ) throws(CommandFailure) -> SearchAnswer {
        let key = form == .searchStore ? argv[2] : argv[1]
        // Whether the key holds members matters only to the forms centred on a member (Redis
        // looks the member up only in a key that exists): from a position, a missing key finds
        // nothing anyway.
        var knownExists: Bool?
        func exists() throws(CommandFailure) -> Bool {
            if let knownExists { return knownExists }
            do throws(PlacesError) {
                let found = try keyspace.cardinality(key: key) > 0
                knownExists = found
                return found
            } catch {
                throw failure(error)
            }
        }
        var center: (longitude: Double, latitude: Double)?
        var shape: RedisGeoShape?
        var options = SearchOptions()
        options.forRESP2 = forRESP2
        let base: Int
        var allowsStore = false
        switch form {
        case .radius(let store):
            base = 6
            allowsStore = store
            center = try location(argv[2], argv[3])
            shape = try radius(argv[4], argv[5])
        case .member(let store):
            base = 5
            allowsStore = store
            // A missing key still has its options parsed, but not its member or radius.
            if try exists() {
                center = try memberPosition(keyspace, key: key, member: argv[2])
                shape = try radius(argv[3], argv[4])
            }
            options.centerMember = argv[2]
        case .search:
            base = 2
        case .searchStore:
            base = 3
        }
        if form == .searchStore { options.storeKey = argv[1] }
        let isSearch = form == .search || form == .searchStore
        var index = base
        while index < argv.count {
            let argument = argv[index]
            let remaining = argv.count - index
            func keyword(_ name: String) -> Bool { RedisArguments.matches(argument, name) }
            if keyword("withdist") {
                options.withDistance = true
            } else if keyword("withhash") {
                options.withHash = true
            } else if keyword("withcoord") {
                options.withCoordinates = true
            } else if keyword("any") {
                options.any = true
            } else if keyword("asc") {
                options.order = .ascending
            } else if keyword("desc") {
                options.order = .descending
            } else if keyword("count"), remaining > 1 {
                guard let count = RedisArguments.integer(argv[index + 1]) else { throw .notAnInteger }
                guard count > 0 else { throw .redis(RedisGeoMessage.countNotPositive) }
                options.count = count
                index += 1
            } else if allowsStore, keyword("store") || keyword("storedist"), remaining > 1 {
                options.storeKey = argv[index + 1]
                options.storeDistance = keyword("storedist")
                index += 1
            } else if form == .searchStore, keyword("storedist") {
                options.storeDistance = true
            } else if isSearch, keyword("frommember"), remaining > 1, !options.fromLocation {
                if try exists() { center = try memberPosition(keyspace, key: key, member: argv[index + 1]) }
                options.fromMember = true
                options.centerMember = argv[index + 1]
                index += 1
            } else if isSearch, keyword("fromlonlat"), remaining > 2, !options.fromMember {
                center = try location(argv[index + 1], argv[index + 2])
                options.fromLocation = true
                index += 2
            } else if isSearch, keyword("byradius"), remaining > 2, !options.byBox {
                shape = try radius(argv[index + 1], argv[index + 2])
                options.byRadius = true
                index += 2
            } else if isSearch, keyword("bybox"), remaining > 3, !options.byRadius {
                shape = try box(argv[index + 1], argv[index + 2], argv[index + 3])
                options.byBox = true
                index += 3
            } else {
                throw .syntax
            }
            index += 1
        }
        if options.storeKey != nil, options.withDistance || options.withHash || options.withCoordinates {
            let what = form == .searchStore ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS"
            throw .error("\(what) is not compatible with WITHDIST, WITHHASH and WITHCOORD options")
        }
        if isSearch && !(options.fromMember || options.fromLocation) {
            throw .redis(RedisGeoMessage.missingFrom(command: argv[0]))
        }
        if isSearch && !(options.byRadius || options.byBox) {
            throw .redis(RedisGeoMessage.missingBy(command: argv[0]))
        }
        if options.any && options.count == 0 { throw .redis(RedisGeoMessage.anyWithoutCount) }
        if options.storeKey != nil, options.storeDistance {
            // A key's scores are the geohashes of its places' positions: a distance cannot be one.
            throw .error("STOREDIST is not supported by Vicinity: a key's scores are positions; use STORE")
        }
        let centreFound = options.centerMember == nil ? true : try exists()
        guard centreFound, let center, let shape else {
            if let destination = options.storeKey { return .store(destination: destination, source: key, members: []) }
            return .reply(.array([]))
        }
        let (search, hits, candidates) = try search(
            keyspace, key: key, center: center, shape: shape, options: options)
        if let destination = options.storeKey {
            return .store(destination: destination, source: key, members: hits.map { candidates.member($0.position) })
        }
        var precisions: [LocationPrecision?] = []
        if options.withDistance, key == PlaceDirectory.userKind {
            let centerPrecision = options.centerMember.flatMap { keyspace.shownPrecision(key: key, member: $0) }
            precisions = hits.map { hit in
                RedisGeoKeyspace.coarser(
                    keyspace.shownPrecision(key: key, member: candidates.member(hit.position)), centerPrecision)
            }
        }
        return .reply(reply(hits, candidates, precisions: precisions, search: search, options: options))
    }

    private static func search(
        _ keyspace: RedisGeoKeyspace, key: String, center: (longitude: Double, latitude: Double),
        shape: RedisGeoShape, options: SearchOptions
    ) throws(CommandFailure) -> (search: RedisGeoSearch, hits: [RedisGeoHit], candidates: RedisGeoCandidates) {
        let hits: [RedisGeoHit]
        let candidates: RedisGeoCandidates
        let search: RedisGeoSearch
        do {
            search = try RedisGeoSearch(longitude: center.longitude, latitude: center.latitude, shape: shape)
            // Every point of Redis's box is within half the height (along the centre's meridian)
            // plus half the width (along the point's parallel) of the centre, by the triangle
            // inequality; half the diagonal would not be a bound on the sphere.
            let half = shape.halfExtents
            let reach = shape.isBox ? half.height + half.width : half.height
            let limit = Int(clamping: options.count)
            if limit > 0, !options.any, options.order != .descending,
                let nearest = try nearestFirst(
                    limit, search: search, keyspace: keyspace, key: key, center: center, reachMeters: reach)
            {
                (hits, candidates) = nearest
            } else {
                var fetched = try keyspace.candidates(
                    key: key, longitude: center.longitude, latitude: center.latitude, reachMeters: reach)
                // Without COUNT the reply holds the candidates inside the shape (most of them for a
                // radius, fewer for a box): their ids are asked for now and arrive while the
                // search runs.
                if limit == 0 { fetched.prefetchIDs() }
                candidates = fetched
                let count: RedisGeoSearch.Count = limit == 0 ? .all : (options.any ? .any(limit) : .first(limit))
                // Distances to users are rounded to their precision: from the exact ones.
                hits = try search.hits(
                    candidates: candidates.scores, centres: candidates.centres, order: options.order, count: count,
                    membersPrecede: { candidates.memberPrecedes($0, $1) }, estimating: key != PlaceDirectory.userKind)
            }
        } catch let error as PlacesError {
            throw failure(error)
        } catch {
            throw .error(String(describing: error))
        }
        return (search, hits, candidates)
    }

    /// The reply of a search that stores nothing: members, with what WITHDIST, WITHHASH and
    /// WITHCOORD ask, as rows written straight into one buffer.
    ///
    /// - Parameter precisions: hit for hit, what WITHDIST rounds the distance to (nil: not
    ///   rounded); empty when no distance is rounded (places).
    private static func reply(
        _ hits: [RedisGeoHit], _ candidates: RedisGeoCandidates, precisions: [LocationPrecision?],
        search: RedisGeoSearch,
        options: SearchOptions
    ) -> RESPReply {
        var columns: [RESPRows.Column] = [.text]
        var rowBytes = 12
        if options.withDistance {
            // Redis 7.0 sends distances as bulk strings in RESP3 too (`addReplyDoubleDistance`).
            columns.append(.text)
            rowBytes += 16
        }
        if options.withHash {
            columns.append(.integer)
            rowBytes += 17
        }
        if options.withCoordinates {
            columns.append(.numberPair)
            rowBytes += 44
        }
        let unit = search.shape.unit
        var rows = RESPRows(columns: columns, numbersAsBulkStrings: options.forRESP2)
        rows.reserveCapacity(rows: hits.count, bytes: hits.count * rowBytes)
        guard options.withDistance || options.withHash || options.withCoordinates else {
            candidates.appendMembers(hits, to: &rows)
            return .rows(rows)
        }
        if options.withDistance, !options.withHash, !options.withCoordinates, precisions.isEmpty {
            candidates.appendMemberDistances(hits, to: &rows, RedisGeoDistanceWriter(search: search))
            return .rows(rows)
        }
        let distances = RedisGeoDistanceWriter(search: search)
        candidates.appendRows(hits, to: &rows) { offset, rows in
            let hit = hits[offset]
            if options.withDistance {
                if !precisions.isEmpty {
                    let meters = RedisGeoKeyspace.shown(distanceMeters: hit.distanceMeters, precisions[offset])
                    rows.appendText(RedisGeoText.distance(meters: meters, unit: unit))
                } else {
                    rows.appendValue(capacity: RedisGeoDistanceWriter.room) { out in distances.write(hit, to: out) }
                }
            }
            if options.withHash {
                let hash = RedisGeoText.hashInteger(score: hit.score)
                if hash >= 0 {
                    rows.appendValue(capacity: 20) { out in FixedDecimal.writeDecimal(UInt64(hash), to: out) }
                } else {
                    rows.appendText(String(hash))
                }
            }
            if options.withCoordinates {
                appendCoordinate(hit.longitude, to: &rows)
                appendCoordinate(hit.latitude, to: &rows)
            }
        }
        return .rows(rows)
    }

    /// Appends a longitude or latitude as WITHCOORD prints it.
    private static func appendCoordinate(_ degrees: Double, to rows: inout RESPRows) {
        let written = rows.appendIfWritten(capacity: FixedDecimal.maximumSmallLength) { out in
            RedisGeoText.writeCoordinate(degrees, to: out)
        }
        if !written { rows.appendText(RedisGeoText.coordinate(degrees)) }
    }

    /// COUNT n (ASC or unordered, without ANY) from the n + 1 nearest members instead of every
    /// member in the shape — Redis scans them all; the index finds the nearest directly.
    ///
    /// Let k be the distance, between exact positions, to the (n + 1)-th nearest member in reach.
    /// Every member whose Redis distance (between decoded positions) is at most k + m, with m the
    /// quantization margin, lies within k + 2m of the exact centre, so the candidates fetched within
    /// k + 2m hold all of them — among them the n + 1 nearest by exact position, whose Redis
    /// distances are at most k + m. If the search reports at least n + 1 members within k + m, and
    /// the first n + 1 distances strictly increase, then no member Redis might scan ties with or
    /// precedes them, and any sort Redis uses puts exactly these n first, in this order. Otherwise
    /// (ties, duplicates from overlapping cells, members outside the shape or the scanned cells)
    /// the answer is nil and the caller runs the full search.
    private static func nearestFirst(
        _ limit: Int, search: RedisGeoSearch, keyspace: RedisGeoKeyspace, key: String,
        center: (longitude: Double, latitude: Double), reachMeters: Double
    ) throws(PlacesError) -> (hits: [RedisGeoHit], candidates: RedisGeoCandidates)? {
        let margin = RedisGeoKeyspace.quantizationMarginMeters
        guard limit < 1_000_000,
            let kth = try keyspace.distanceToNearest(
                rank: limit + 1, key: key, longitude: center.longitude, latitude: center.latitude,
                reachMeters: reachMeters),
            kth + margin < reachMeters
        else { return nil }
        // `candidates` adds the margin once more: k + 2m in all.
        let candidates = try keyspace.candidates(
            key: key, longitude: center.longitude, latitude: center.latitude, reachMeters: kth + margin)
        let sorted: [RedisGeoHit]
        do {
            sorted = try search.hits(
                candidates: candidates.scores, centres: candidates.centres, order: .ascending, count: .all,
                membersPrecede: { candidates.memberPrecedes($0, $1) })
        } catch {
            return nil
        }
        guard sorted.count > limit, sorted[limit].distanceMeters <= kth + margin,
            sorted[0].distanceMeters.isFinite,
            (0..<limit).allSatisfy({ sorted[$0].distanceMeters < sorted[$0 + 1].distanceMeters })
        else { return nil }
        return (Array(sorted.prefix(limit)), candidates)
    }

    /// Redis `extractLongLatOrReply`: both numbers read, then the pair checked.
    private static func location(_ longitudeText: String, _ latitudeText: String) throws(CommandFailure)
        -> (longitude: Double, latitude: Double)
    {
        guard let longitude = RedisArguments.double(longitudeText) else { throw .notAFloat }
        guard let latitude = RedisArguments.double(latitudeText) else { throw .notAFloat }
        guard GeoHash.isEncodable(longitude: longitude, latitude: latitude) else {
            throw .redis(RedisGeoMessage.invalidPair(longitude: longitude, latitude: latitude))
        }
        return (longitude, latitude)
    }

    /// Redis `longLatFromMember`: the member's decoded position.
    private static func memberPosition(_ keyspace: RedisGeoKeyspace, key: String, member: String)
        throws(CommandFailure) -> (longitude: Double, latitude: Double)
    {
        guard let score = keyspace.score(key: key, member: member) else {
            throw .redis(RedisGeoMessage.memberNotFound)
        }
        return GeoHash.decode(score: score)
    }

    /// Redis `extractDistanceOrReply`: the number, its sign, then the unit.
    private static func radius(_ text: String, _ unitText: String) throws(CommandFailure) -> RedisGeoShape {
        guard let radius = RedisArguments.double(text) else { throw .redis(RedisGeoMessage.radiusNotNumeric) }
        guard radius >= 0 else { throw .redis(RedisGeoMessage.negativeRadius) }
        guard let unit = RedisGeoUnit(argument: unitText) else { throw .redis(RedisGeoMessage.unsupportedUnit) }
        return .radius(radius, unit: unit)
    }

    /// Redis `extractBoxOrReply`: both numbers, their signs, then the unit.
    private static func box(_ widthText: String, _ heightText: String, _ unitText: String) throws(CommandFailure)
        -> RedisGeoShape
    {
        guard let width = RedisArguments.double(widthText) else { throw .redis(RedisGeoMessage.widthNotNumeric) }
        guard let height = RedisArguments.double(heightText) else { throw .redis(RedisGeoMessage.heightNotNumeric) }
        guard width >= 0, height >= 0 else { throw .redis(RedisGeoMessage.negativeBox) }
        guard let unit = RedisGeoUnit(argument: unitText) else { throw .redis(RedisGeoMessage.unsupportedUnit) }
        return .box(width: width, height: height, unit: unit)
    }
}

extension RedisGeoShape {
    /// Whether the shape is BYBOX.
    fileprivate var isBox: Bool {
        if case .box = self { return true }
        return false
    }

    /// Half the height and half the width in meters (both the radius for a circle).
    fileprivate var halfExtents: (height: Double, width: Double) {
        switch self {
        case .radius(let radius, let unit): return (radius * unit.metersPerUnit, radius * unit.metersPerUnit)
        case .box(let width, let height, let unit):
            return (height / 2 * unit.metersPerUnit, width / 2 * unit.metersPerUnit)
        }
    }
}

extension LineService {
    /// The writes that make `destination` hold copies of `members` of `source` and nothing else
    /// Redis sees (Redis `georadiusGeneric` replaces the destination key, or deletes it when
    /// nothing was found). Copies equal to what the destination holds already are not written.
    static func storeRequests(
        _ keyspace: RedisGeoKeyspace, _ session: Session, _ destination: String, _ source: String, _ members: [String]
    ) throws(CommandFailure) -> [DirectoryRequest] {
        try refuseUserKey(destination)
        try requireAdmin(session, action: "changing a place needs the admin token")
        let directory = keyspace.directory
        let kept = Set(members)
        var requests: [DirectoryRequest] = []
        let present: [String]
        do throws(PlacesError) { present = try keyspace.placeIDs(kind: destination) } catch { throw failure(error) }
        for id in present where !kept.contains(id) { requests.append(.removePlace(kind: destination, id: id)) }
        for member in members {
            var place: Place
            if source == PlaceDirectory.userKind {
                // Where the key holds the user (the published location), as its score says.
                guard let location = keyspace.userOnMap(member)?.location else { continue }
                place = Place(id: member, kind: destination, name: member, coordinate: location)
            } else {
                guard let found = directory.places.place(kind: source, id: member) else { continue }
                place = found
                place.kind = destination
            }
            if directory.places.place(kind: destination, id: member) == place { continue }
            requests.append(.setPlace(place))
        }
        return requests
    }
}
