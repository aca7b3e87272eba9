import Foundation
import GRDB
import Geo
import Places
import TestSupport
import Testing

@testable import PlacesSQLite

/// The place buckets against a plain dictionary: random edits, imports (upserting, replacing,
/// streamed with repeats) and reopenings keep exactly the model's places, the loaded catalog holds
/// them, and the change log replayed from the start rebuilds them.
@Suite struct BucketStoreModelTests {
    struct Key: Hashable {
        var kind: String
        var id: String
    }

    static func place(_ id: String, kind: String, _ generator: inout some RandomNumberGenerator) throws -> Place {
        let attributes = Int.random(in: 0..<5, using: &generator) == 0
        return Place(
            id: id, kind: kind, name: "N \(id) \(Int.random(in: 0..<100, using: &generator))",
            coordinate: try Coordinate(
                latitude: Double.random(in: -90...90, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator)),
            attributes: attributes ? ["city": "İzmir\t\"\(id)\""] : [:], attributeNames: attributes ? ["city"] : [])
    }

    static func apply(_ change: DirectoryChange, to model: inout [Key: Place]) {
        switch change {
        case .putPlace(let place): model[Key(kind: place.kind, id: place.id)] = place
        case .removePlace(let kind, let id): model[Key(kind: kind, id: id)] = nil
        default: break
        }
    }

    static func sorted(_ model: [Key: Place]) -> [Place] {
        model.values.sorted { a, b in
            a.kind != b.kind
                ? a.kind.utf8.lexicographicallyPrecedes(b.kind.utf8) : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    @Test(arguments: [1, 2, 3])
    func editsAndImportsKeepTheModelsPlaces(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        var store = try SQLitePlaceStore(path: path)
        // Imports with seed 2 set their places aside on disk from the first piece.
        let budget = seed == 2 ? 0 : ImportPartitions.defaultBudget
        store.importMemoryBudget.withLock { $0 = budget }
        var model: [Key: Place] = [:]
        let kinds = ["pharmacy", "cafe", "ü"]
        func randomID() -> String { "id\(Int.random(in: 0..<4_000, using: &generator))" }
        for step in 0..<40 {
            let kind = kinds.randomElement(using: &generator)!
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                // Many single puts in one transaction: buckets split as the kind grows.
                var places: [Place] = []
                for _ in 0..<Int.random(in: 1...600, using: &generator) {
                    places.append(try Self.place(randomID(), kind: kind, &generator))
                }
                try store.upsert(places)
                for place in places { model[Key(kind: kind, id: place.id)] = place }
            case 1:
                // Removals, of stored places and of absent ones.
                for _ in 0..<Int.random(in: 1...30, using: &generator) {
                    let id = randomID()
                    let key = Key(kind: kind, id: id)
                    if model[key] != nil {
                        _ = try store.commit([.removePlace(kind: kind, id: id)])
                        model[key] = nil
                    } else {
                        #expect(throws: PlacesError.self) { _ = try store.commit([.removePlace(kind: kind, id: id)]) }
                    }
                }
            case 2, 3:
                // A whole import, upserting or replacing its kind.
                let replacing = Bool.random(using: &generator)
                var batch = PlaceImport()
                var seen: Set<String> = []
                for _ in 0..<Int.random(in: 0...3_000, using: &generator) {
                    let id = randomID()
                    guard seen.insert(id).inserted else { continue }
                    try batch.add(try Self.place(id, kind: kind, &generator))
                }
                try store.store(batch, replacingKinds: replacing ? [kind] : [], progress: nil)
                if replacing { model = model.filter { $0.key.kind != kind } }
                for place in batch.places { model[Key(kind: kind, id: place.id)] = place }
            case 4:
                // A streamed import of two kinds with repeats: the first read of each is kept.
                let other = kinds.randomElement(using: &generator)!
                var kept: [Key: Place] = [:]
                var expected: [PlaceRepeat] = []
                var firstAt: [Key: Places.SourceLocation] = [:]
                var line = 0
                var found: [PlaceRepeat] = []
                try store.storeStreaming(replacingKinds: [], replacingEveryKindWritten: false, progress: nil) { sink in
                    for _ in 0..<Int.random(in: 1...4, using: &generator) {
                        var piece = PlaceImport()
                        var origins: [Places.SourceLocation] = []
                        for _ in 0..<Int.random(in: 0...800, using: &generator) {
                            let place = try Self.place(
                                randomID(), kind: Bool.random(using: &generator) ? kind : other, &generator)
                            guard !piece.places.contains(where: { $0.kind == place.kind && $0.id == place.id })
                            else { continue }
                            line += 1
                            let origin = Places.SourceLocation(file: "f.csv", position: .line(line))
                            let key = Key(kind: place.kind, id: place.id)
                            if let first = firstAt[key] {
                                expected.append(PlaceRepeat(kind: place.kind, id: place.id, at: origin, firstAt: first))
                            } else {
                                firstAt[key] = origin
                                kept[key] = place
                            }
                            try piece.add(place)
                            origins.append(origin)
                        }
                        #expect(try sink.write(piece, origins: origins).isEmpty)
                    }
                    found = try sink.finish()
                }
                #expect(found == expected)
                model.merge(kept) { $1 }
            default:
                store = try SQLitePlaceStore(path: path)
                store.importMemoryBudget.withLock { $0 = budget }
            }
            #expect(try store.places() == Self.sorted(model), "after step \(step)")
        }
        // The catalog holds every place once.
        let catalog = try store.loadSnapshot().directory.places
        for kind in kinds {
            let ofKind = model.values.filter { $0.kind == kind }
            #expect(catalog.count(kind: kind) == ofKind.count)
            for place in ofKind.prefix(50) { #expect(catalog.place(kind: kind, id: place.id) == place) }
        }
        // The log rebuilds the state.
        guard case .changes(let entries) = try store.changes(after: LogPosition(0), limit: 10_000_000) else {
            Issue.record("the log was trimmed")
            return
        }
        var replayed: [Key: Place] = [:]
        for entry in entries { Self.apply(entry.change, to: &replayed) }
        #expect(Self.sorted(replayed) == Self.sorted(model))
        #expect(try store.integrityCheck() == "ok")
    }

    /// A database of the row schema (v4) is moved into buckets when opened: every place, its
    /// attributes (in both stored forms) and its texts as they were.
    @Test func rowsOfTheOldSchemaMoveIntoBuckets() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let queue = try DatabaseQueue(path: path)
        try SQLitePlaceStore.migrator.migrate(queue, upTo: "v4: people's privacy")
        var generator = SeededGenerator(seed: 9)
        var expected: [Place] = []
        try queue.write { db in
            for number in 0..<5_000 {
                let kind = number % 3 == 0 ? "cafe" : "pharmacy"
                let place = try Self.place("p\(number)", kind: kind, &generator)
                expected.append(place)
                try db.execute(
                    sql: "INSERT INTO place (kind, id, name, lat, lon, attributes) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        kind, place.id, place.name, place.coordinate.latitude, place.coordinate.longitude,
                        place.attributeNames.isEmpty ? (number % 2 == 0 ? "{}" : "[]") : AttributeCoding.encode(place),
                    ])
            }
        }
        try queue.close()
        let store = try SQLitePlaceStore(path: path)
        let model = Dictionary(uniqueKeysWithValues: expected.map { (Key(kind: $0.kind, id: $0.id), $0) })
        #expect(try store.places() == Self.sorted(model))
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(!tables.contains("place"))
        #expect(tables.contains("place_bucket"))
    }

    /// A kind to replace given in another spelling (decomposed) replaces the stored kind, which is
    /// kept composed: one kind, loadable, holding only the import's places.
    @Test func aReplacedKindSpelledDecomposedReplacesTheStoredKind() throws {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        var generator = SeededGenerator(seed: 4)
        let composed = "caf\u{E9}"
        var old = PlaceImport()
        for number in 0..<300 { try old.add(try Self.place("o\(number)", kind: composed, &generator)) }
        try store.store(old, replacingKinds: [], progress: nil)
        try store.storeStreaming(replacingKinds: ["cafe\u{301}"], replacingEveryKindWritten: false, progress: nil) {
            sink in
            var piece = PlaceImport()
            for number in 0..<20 { try piece.add(try Self.place("n\(number)", kind: composed, &generator)) }
            _ = try sink.write(
                piece, origins: (0..<20).map { Places.SourceLocation(file: "f", position: .line($0 + 2)) })
        }
        #expect(try store.places().map(\.id).sorted() == (0..<20).map { "n\($0)" }.sorted())
        #expect(try store.loadSnapshot().directory.places.count(kind: composed) == 20)
    }

    /// Rows of two spellings of one kind (stored before kinds were composed) stay two kinds of
    /// their own bytes when moved into buckets: no place is lost.
    @Test func twoSpellingsOfAKindMoveIntoBucketsApart() throws {
        let path = try SQLitePlaceStoreTests.temporaryDatabase()
        let queue = try DatabaseQueue(path: path)
        try SQLitePlaceStore.migrator.migrate(queue, upTo: "v4: people's privacy")
        try queue.write { db in
            for (kind, id) in [
                ("caf\u{E9}", "a"), ("caf\u{E9}", "same"), ("cafe\u{301}", "b"), ("cafe\u{301}", "same"),
            ] {
                try db.execute(
                    sql: "INSERT INTO place (kind, id, name, lat, lon) VALUES (?, ?, 'N', 1, 2)", arguments: [kind, id])
            }
        }
        try queue.close()
        let places = try SQLitePlaceStore(path: path).places()
        #expect(places.count == 4)
        #expect(Set(places.map { Array($0.kind.utf8) }).count == 2)
    }

    @Test func aPlaceWithoutAnIdIsRefused() throws {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        let place = Place(id: "", kind: "pharmacy", name: "N", coordinate: try Coordinate(latitude: 1, longitude: 2))
        #expect(throws: SQLiteStoreError.self) { try store.upsert([place]) }
        #expect(try store.places().isEmpty)
    }
}

/// SplitMix64: a repeatable random sequence for a seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
