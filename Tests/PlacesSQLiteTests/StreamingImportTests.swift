import Foundation
import Geo
import Places
import Testing

@testable import PlacesSQLite

/// An import written piece by piece (`storeStreaming`) stores what the whole-batch import stores,
/// logs the same changes, finds repeated keys across pieces and keeps all or nothing.
@Suite struct StreamingImportTests {
    struct Stop: Error {}

    static func place(_ id: String, kind: String = "pharmacy", name: String? = nil, city: String? = nil) throws -> Place
    {
        let number = Double(id.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) % 1_000 }) / 20
        return Place(
            id: id, kind: kind, name: name ?? "Name \(id)",
            coordinate: try Coordinate(latitude: number - 25, longitude: number * 2 - 50),
            attributes: city.map { ["city": $0] } ?? [:], attributeNames: city == nil ? [] : ["city"])
    }

    static func changes(_ store: SQLitePlaceStore) throws -> [DirectoryChange] {
        guard case .changes(let entries) = try store.changes(after: LogPosition(0), limit: 1_000_000) else {
            Issue.record("log trimmed")
            return []
        }
        return entries.map(\.change)
    }

    /// A store holding some places of two kinds before the import.
    static func seeded() throws -> SQLitePlaceStore {
        let store = try SQLitePlaceStore(path: try SQLitePlaceStoreTests.temporaryDatabase())
        var batch = PlaceImport()
        for number in 0..<50 { try batch.add(try place("old\(number)", city: number % 3 == 0 ? "X" : nil)) }
        for number in 0..<10 { try batch.add(try place("c\(number)", kind: "cafe")) }
        try store.store(batch, replacingKinds: [], progress: nil)
        return store
    }

    /// With and without replacing, and with the places kept in memory or on disk from the first
    /// piece (a budget of 0 bytes).
    @Test(arguments: [false, true], [ImportPartitions.defaultBudget, 0])
    func piecesStoreAndLogWhatOneBatchDoes(replace: Bool, budget: Int) throws {
        var places: [Place] = []
        for number in 0..<700 {
            places.append(
                try Self.place(
                    number < 30 ? "old\(number * 2)" : "n\(number * 7919 % 1_000)",
                    kind: number % 5 == 0 ? "cafe" : "pharmacy",
                    city: number % 4 == 0 ? "İzmir \"q\"" : nil))
        }
        var batch = PlaceImport()
        for place in places { try batch.add(place) }
        let whole = try Self.seeded()
        try whole.store(batch, replacingKinds: replace ? batch.kinds : [], progress: nil)
        let streamed = try Self.seeded()
        streamed.importMemoryBudget.withLock { $0 = budget }
        try streamed.storeStreaming(replacingKinds: [], replacingEveryKindWritten: replace, progress: nil) { sink in
            var start = 0
            while start < places.count {
                let end = min(places.count, start + 97)
                var piece = PlaceImport()
                for place in places[start..<end] { try piece.add(place) }
                let origins = (start..<end).map { Places.SourceLocation(file: "f.csv", position: .line($0 + 2)) }
                #expect(try sink.write(piece, origins: origins).isEmpty)
                start = end
            }
        }
        #expect(try streamed.places() == whole.places())
        // The same changes; their order within the import follows each store's own hash seeds.
        #expect(
            try Self.changes(streamed).map(ChangeCoding.encode).sorted()
                == Self.changes(whole).map(ChangeCoding.encode).sorted())
    }

    @Test func aKeyWrittenTwiceIsLeftOutAndNamesTheFirst() throws {
        let store = try Self.seeded()
        try store.storeStreaming(replacingKinds: [], replacingEveryKindWritten: false, progress: nil) { sink in
            var first = PlaceImport()
            try first.add(try Self.place("a", name: "First"))
            try first.add(try Self.place("b"))
            #expect(
                try sink.write(
                    first,
                    origins: [
                        Places.SourceLocation(file: "one.csv", position: .line(2)),
                        .init(file: "one.csv", position: .line(3)),
                    ]
                ).isEmpty)
            var second = PlaceImport()
            try second.add(try Self.place("c"))
            try second.add(try Self.place("a", name: "Second"))
            try second.add(try Self.place("a", kind: "cafe"))
            try second.add(try Self.place("c"))
            #expect(
                try sink.write(
                    second,
                    origins: [
                        .init(file: "two.json", position: .feature(0)), .init(file: "two.json", position: .feature(1)),
                        .init(file: "two.json", position: .feature(2)), .init(file: "two.json", position: .feature(3)),
                    ]
                ).isEmpty)
            // Found when the pieces are merged, in reading order.
            #expect(
                try sink.finish() == [
                    PlaceRepeat(
                        kind: "pharmacy", id: "a", at: .init(file: "two.json", position: .feature(1)),
                        firstAt: .init(file: "one.csv", position: .line(2))),
                    PlaceRepeat(
                        kind: "pharmacy", id: "c", at: .init(file: "two.json", position: .feature(3)),
                        firstAt: .init(file: "two.json", position: .feature(0))),
                ])
        }
        #expect(try store.places(kind: "pharmacy").first { $0.id == "a" }?.name == "First")
        #expect(try store.places(kind: "cafe").contains { $0.id == "a" })
    }

    /// Repeats of a kind new to the store (whose buckets are made on the merge's thread), with
    /// its places kept in memory or on disk, across pieces and within one.
    @Test(arguments: [ImportPartitions.defaultBudget, 0])
    func repeatsOfANewKindAreLeftOutInReadingOrder(budget: Int) throws {
        let store = try Self.seeded()
        store.importMemoryBudget.withLock { $0 = budget }
        let ids = ["x1", "x2", "x1", "x3", "x2", "x1"]
        try store.storeStreaming(replacingKinds: [], replacingEveryKindWritten: false, progress: nil) { sink in
            for (piece, range) in [0..<3, 3..<6].enumerated() {
                var batch = PlaceImport()
                for offset in range { try batch.add(try Self.place(ids[offset], kind: "bank", name: "N\(offset)")) }
                let origins = range.map { Places.SourceLocation(file: "p\(piece).csv", position: .line($0 + 2)) }
                #expect(try sink.write(batch, origins: origins).isEmpty)
            }
            let line = { (offset: Int) in Places.SourceLocation(file: "p\(offset / 3).csv", position: .line(offset + 2))
            }
            #expect(
                try sink.finish() == [
                    PlaceRepeat(kind: "bank", id: "x1", at: line(2), firstAt: line(0)),
                    PlaceRepeat(kind: "bank", id: "x2", at: line(4), firstAt: line(1)),
                    PlaceRepeat(kind: "bank", id: "x1", at: line(5), firstAt: line(0)),
                ])
        }
        #expect(try store.places(kind: "bank").map { "\($0.id) \($0.name)" }.sorted() == ["x1 N0", "x2 N1", "x3 N3"])
        #expect(try Self.changes(store).suffix(3).count == 3)
    }

    /// A kind replaced by an import that gives none of its places: all of them go, logged as
    /// removals, whole or streamed.
    @Test(arguments: [false, true])
    func aKindReplacedByNothingIsEmptied(streamed: Bool) throws {
        let store = try Self.seeded()
        let before = try store.head().position
        if streamed {
            try store.storeStreaming(replacingKinds: ["cafe"], replacingEveryKindWritten: false, progress: nil) { _ in }
        } else {
            try store.store(PlaceImport(), replacingKinds: ["cafe"], progress: nil)
        }
        #expect(try store.places(kind: "cafe").isEmpty)
        #expect(try store.places(kind: "pharmacy").count == 50)
        #expect(try store.head().position == before + 10)
        let removed = try Self.changes(store).suffix(10).compactMap { change -> String? in
            if case .removePlace(let kind, let id) = change { return "\(kind)/\(id)" }
            return nil
        }
        #expect(removed.sorted() == (0..<10).map { "cafe/c\($0)" }.sorted())
    }

    @Test func aFailureInTheBodyStoresNothingAndIsThrownAsItIs() throws {
        let store = try Self.seeded()
        let before = (try store.places(), try Self.changes(store))
        #expect(throws: Stop.self) {
            try store.storeStreaming(replacingKinds: ["cafe"], replacingEveryKindWritten: true, progress: nil) { sink in
                var piece = PlaceImport()
                for number in 0..<300 { try piece.add(try Self.place("x\(number)")) }
                _ = try sink.write(
                    piece, origins: (0..<300).map { Places.SourceLocation(file: "f", position: .line($0)) })
                throw Stop()
            }
        }
        #expect(try store.places() == before.0)
        #expect(try Self.changes(store) == before.1)
        // And the next import runs (nothing of the failed one is left).
        try store.storeStreaming(replacingKinds: [], replacingEveryKindWritten: false, progress: nil) { sink in
            var piece = PlaceImport()
            try piece.add(try Self.place("x0"))
            #expect(try sink.write(piece, origins: [Places.SourceLocation(file: "f")]).isEmpty)
        }
        #expect(try store.places().count == before.0.count + 1)
    }
}

/// An import's log rows are written as the merge makes them, before their number is known: a
/// reader still gets the import whole, from any position inside it, and the head moves once.
@Suite struct ImportLogRowsTests {
    @Test func aReaderGetsTheWholeImportFromAnyPositionInIt() throws {
        let store = try StreamingImportTests.seeded()
        let before = try store.head().position
        let count = 3 * SQLitePlaceStore.changesPerRow + 17
        try store.storeStreaming(replacingKinds: [], replacingEveryKindWritten: false, progress: nil) { sink in
            var piece = PlaceImport()
            for number in 0..<count {
                try piece.add(try StreamingImportTests.place("new\(number)", kind: number % 2 == 0 ? "bank" : "atm"))
            }
            _ = try sink.write(
                piece, origins: (0..<count).map { SourceLocation(file: "f.csv", position: .line($0 + 2)) })
        }
        let end = before + LogPosition(count)
        #expect(try store.head().position == end)
        let rows = try PackedChangeLogTests.rows(store).filter { $0[0] > Int64(before) }
        #expect(rows.count >= 4)
        #expect(rows.last?[2] == Int64(end))
        #expect(rows.dropLast().allSatisfy { $0[2] == SQLitePlaceStore.transactionContinues })
        // Rows follow each other without a gap.
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0[1] + 1 == $1[0] })
        for start in [before, before + 1, before + 4_000, before + 4_096, end - 1] {
            guard case .changes(let read) = try store.changes(after: start, limit: 1) else {
                Issue.record("log trimmed")
                continue
            }
            #expect(read.map(\.position) == Array((start + 1)...end))
        }
        guard case .changes(let whole) = try store.changes(after: before, limit: 1) else { return }
        let ids = whole.compactMap { change -> String? in
            if case .putPlace(let place) = change.change { return place.kind + "/" + place.id }
            return nil
        }
        #expect(ids.count == count)
        #expect(Set(ids).count == count)
    }
}
