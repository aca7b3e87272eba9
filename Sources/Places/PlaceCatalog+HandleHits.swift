import Geo

/// The places of one kind within a radius, by handle: `PlaceCatalog.nearby` without a `Place`
/// made of each hit, for front ends that write the hits' ids, names and coordinates straight into
/// their replies (`PlaceCatalog.nearbyHandles`).
///
/// A value: it keeps the texts and the index it was taken from alive and unchanged, whatever the
/// catalog does afterwards.
public struct PlaceHandleHits: Sendable {
    /// Nearest first; places at exactly the same distance in order of their `id` (as `nearby`).
    public var hits: [GridHit]
    /// The kind searched, as the catalog holds it (the query may name it in another Unicode
    /// form that compares equal).
    public let kind: String
    /// The kind's ids and names, coordinates by handle; empty when the catalog has no such kind
    /// (`hits` is then empty). Not optional, so that a read borrows them instead of copying them
    /// out of an optional first.
    private let texts: PlaceTexts
    private let index: GridIndex

    init(hits: [GridHit], kind: String, texts: PlaceTexts, index: GridIndex) {
        self.hits = hits
        self.kind = kind
        self.texts = texts
        self.index = index
    }

    /// Where every hit's place is, WGS84 degrees, in the order of `hits`.
    public func coordinates() -> [Coordinate] { index.coordinates(of: hits) }

    /// Calls `body` with the UTF-8 bytes of a hit's id (valid only inside `body`).
    ///
    /// - Parameter handle: one of `hits`' handles.
    @inline(__always)
    public func withID<R>(_ handle: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        texts.withID(Int(handle), body)
    }

    /// `withID` for a `body` that returns nothing, as a reply's writer passes: not generic, so
    /// that a caller in another module runs code specialized for it instead of the generic
    /// entry point.
    ///
    /// - Parameter handle: one of `hits`' handles.
    @inline(__always)
    public func withID(_ handle: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        texts.withID(Int(handle), body)
    }

    /// Calls `body` with the bytes of a hit's id and of its name as the catalog holds them (valid
    /// only inside `body`), read from one look-up: for a writer that copies both. The id's bytes
    /// are `withID`'s; the name's are those `name(_:)` makes a `String` of, which may repair them
    /// (a name read from a database row is not checked to be UTF-8).
    ///
    /// - Parameter handle: one of `hits`' handles.
    @inline(__always)
    public func withIDAndName(
        _ handle: UInt32, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        texts.withIDAndName(Int(handle), body)
    }

    /// Reads the start of every hit's id and name from memory, all at once (`PlaceIDs.touch`): call
    /// it before reading them hit by hit, whose cache misses would otherwise come one after
    /// another. Returns a value of no meaning (use it, or the reads may be optimised away).
    public func touchTexts() -> UInt32 {
        guard hits.count > 1 else { return 0 }
        let handles = [UInt32](unsafeUninitializedCapacity: hits.count) { buffer, count in
            for index in hits.indices { buffer[index] = hits[index].handle }
            count = hits.count
        }
        return handles.withUnsafeBufferPointer { texts.touch($0) }
    }

    /// A hit's name.
    ///
    /// - Parameter handle: one of `hits`' handles.
    public func name(_ handle: UInt32) -> String {
        texts.name(Int(handle))
    }
}

extension PlaceCatalog {
    /// `nearby`'s places by handle, in its order, with the same errors.
    ///
    /// - Throws: `PlacesError.geo` for an invalid radius or limit, or a projection failure.
    public func nearbyHandles(
        _ center: Coordinate, radiusMeters: Double, kind: String, model: DistanceModel = .geodesic,
        limit: Int? = nil
    ) throws(PlacesError) -> PlaceHandleHits {
        do throws(GeoError) {
            guard let collection = collections[kind] else {
                _ = try emptyIndex.within(
                    radiusMeters: radiusMeters, of: center, model: model, limit: limit, tieOrder: { _, _ in false })
                return PlaceHandleHits(hits: [], kind: kind, texts: PlaceTexts(), index: emptyIndex)
            }
            let texts = collection.texts
            let hits = try collection.index.within(
                radiusMeters: radiusMeters, of: center, model: model, limit: limit,
                tieOrder: { texts.idPrecedes(Int($0), Int($1)) })
            return PlaceHandleHits(hits: hits, kind: collection.kind, texts: texts, index: collection.index)
        } catch {
            throw .geo(error)
        }
    }
}
