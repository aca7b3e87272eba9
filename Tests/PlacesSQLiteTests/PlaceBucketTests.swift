import Foundation
import GRDB
import Geo
import Places
import TestSupport
import Testing

@testable import PlacesSQLite

/// The bucket blobs and their layout: stable hashes, contiguous key ranges, splits that move only
/// the split bucket's places, and blobs that read back as written or are refused.
@Suite struct PlaceBucketTests {
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        var text = text
        return text.withUTF8 { PlaceBucket.hash($0, seed: seed) }
    }

    /// The hash decides where places are stored: it must never change between versions.
    @Test func theHashIsPinned() {
        let pinned: [(String, UInt64, UInt64)] = [
            ("", 0, 0),
            ("p1234567", 0, 3_263_535_430_162_878_804),
            ("p1234567", 42, 2_075_621_736_416_551_646),
            ("eczane-ümraniye-0001", 7, 17_908_296_098_167_640_704),
        ]
        for (text, seed, value) in pinned {
            #expect(Self.hash(text, seed: seed) == value, "hash of \"\(text)\" under seed \(seed)")
        }
        #expect(Self.hash("a", seed: 1) != Self.hash("a", seed: 2))
        #expect(Self.hash("abcdefgh", seed: 1) != Self.hash("abcdefgh\u{0}", seed: 1))
    }

    @Test func bitsReverse() {
        #expect(UInt64(1).bitsReversed == 1 << 63)
        #expect(UInt64(0x0123_4567_89AB_CDEF).bitsReversed.bitsReversed == 0x0123_4567_89AB_CDEF)
        #expect(UInt32(6).bitsReversed == 0x6000_0000)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let value = generator.next() as UInt64
            var slow: UInt64 = 0
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { slow |= 1 << UInt64(63 - bit) }
            #expect(value.bitsReversed == slow)
        }
    }

    /// Under every layout, each bucket holds one contiguous range of order keys, and the buckets'
    /// row keys ascend with it; a split moves places from the split bucket to its sibling only.
    @Test(arguments: [1, 2, 3, 5, 8, 13, 64, 100, 257, 1_000])
    func bucketsAreContiguousRangesOfOrderKeys(buckets: Int) {
        var generator = SystemRandomNumberGenerator()
        let layout = BucketLayout(buckets: buckets)
        var grown = layout
        grown.grow()
        let split = layout.nextSplit
        let hashes = (0..<5_000).map { _ in generator.next() as UInt64 }.sorted {
            PlaceBucket.orderKey($0) < PlaceBucket.orderKey($1)
        }
        var seen: Set<Int> = []
        var last = -1
        var lastKey = Int64.min
        for hash in hashes {
            let address = layout.address(hash)
            #expect(address >= 0 && address < buckets)
            if address != last {
                #expect(seen.insert(address).inserted, "bucket \(address) of \(buckets) is not one range")
                let key = PlaceBucket.key(kind: 3, address: address)
                #expect(key > lastKey)
                #expect(PlaceBucket.address(ofKey: key) == address)
                lastKey = key
                last = address
            }
            let after = grown.address(hash)
            #expect(after == address || (address == split.bucket && after == split.sibling))
        }
    }

    @Test func anImportsLayoutIsAPowerOfTwoOfAFewDozenPlacesABucket() {
        #expect(BucketLayout(forCount: 0).buckets == 1)
        #expect(BucketLayout(forCount: 1).buckets == 1)
        for count in [10, 100, 1_000, 65_536, 1_000_000, 20_000_000] {
            let layout = BucketLayout(forCount: count)
            #expect(layout.buckets & (layout.buckets - 1) == 0)
            let average = Double(count) / Double(layout.buckets)
            #expect(average <= Double(PlaceBucket.placesPerBucket) * 0.75)
            #expect(count < 48 || average >= Double(PlaceBucket.placesPerBucket) * 0.375 - 1e-9)
            #expect(!layout.isCrowded(count: count))
        }
    }

    static func randomText(_ generator: inout some RandomNumberGenerator, maximum: Int) -> String {
        let alphabet = Array("abcXYZ019 \t\n\\\"é€😀")
        return String(
            (0..<Int.random(in: 0...maximum, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        )
    }

    @Test func blobsReadBackAsWrittenAndBrokenOnesAreRefused() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var writer = BucketWriter()
            var written: [(String, String, Double, Double, String)] = []
            for _ in 0..<Int.random(in: 0...70, using: &generator) {
                var id = "i" + Self.randomText(&generator, maximum: Bool.random() ? 5 : 200)
                var name = Self.randomText(&generator, maximum: 30)
                var attributes =
                    Bool.random() ? "" : #"[["city",""# + Self.randomText(&generator, maximum: 140) + #""]]"#
                let latitude = Double.random(in: -90...90, using: &generator)
                let longitude = Double.random(in: -180...180, using: &generator)
                id.withUTF8 { id in
                    name.withUTF8 { name in
                        attributes.withUTF8 { attributes in
                            writer.append(
                                id: id, name: name, latitude: latitude, longitude: longitude, attributes: attributes)
                        }
                    }
                }
                written.append((id, name, latitude, longitude, attributes))
            }
            let blob = writer.finished()
            var read: [(String, String, Double, Double, String)] = []
            try blob.withUnsafeBytes { raw in
                var reader = try BucketReader(raw)
                while let entry = try reader.next() {
                    read.append(
                        (
                            String(decoding: entry.id, as: UTF8.self), String(decoding: entry.name, as: UTF8.self),
                            entry.latitude, entry.longitude, String(decoding: entry.attributes, as: UTF8.self)
                        ))
                }
            }
            #expect(read.count == written.count)
            for (a, b) in zip(read, written) {
                #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4)
            }
            guard !written.isEmpty else { continue }
            // Cut short anywhere, or with a byte after the end: refused, never read past the blob.
            for broken in [Array(blob.dropLast(Int.random(in: 1..<(blob.count - 5)))), blob + [0]] {
                #expect(throws: SQLiteStoreError.self) {
                    try broken.withUnsafeBytes { raw in
                        var reader = try BucketReader(raw)
                        while try reader.next() != nil {}
                    }
                }
            }
        }
        #expect(throws: SQLiteStoreError.self) {
            try [UInt8]([2, 0, 0, 0, 0]).withUnsafeBytes { _ = try BucketReader($0) }
        }
    }

    /// The import's sort of a partition agrees with a comparison sort: by order key, then id,
    /// then start, with equal order keys (same ids, or rare collisions), whatever the bits the
    /// partition's keys share.
    @Test(arguments: [0, 1, 2, 7, 100, 5_000])
    func theImportsSortAgreesWithAComparisonSort(count: Int) throws {
        var generator = SeededGenerator(seed: UInt64(count))
        for shared in [0, ImportPartitions.bits, 40] {
            let prefix = ((generator.next() as UInt64) >> UInt64(64 - max(shared, 1))) << UInt64(64 - max(shared, 1))
            let ids = (0..<count).map { _ in Int.random(in: 0..<50, using: &generator) }
            let keys = (0..<count).map { start in
                let low =
                    Bool.random(using: &generator)
                    ? generator.next() as UInt64 : UInt64.random(in: 0..<4, using: &generator) << UInt64(62 - shared)
                return (order: (shared == 0 ? 0 : prefix) | (low >> UInt64(shared)), start: start)
            }
            let expected = keys.sorted { a, b in
                if a.order != b.order { return a.order < b.order }
                return ids[a.start] != ids[b.start] ? ids[a.start] < ids[b.start] : a.start < b.start
            }
            let sorted = try PartitionMerge.sort(keys.shuffled(using: &generator), below: shared) { a, b in
                ids[a] < ids[b]
            }
            #expect(sorted == expected.map(\.start))
        }
    }
}
