import Geo
import Testing

@testable import Places

/// The text chunks against an array of (id, name) pairs: entries found by skipping within their
/// block stay right through appends, renames, removals (the last handle moved into the hole),
/// compactions, chunk boundaries and copies changed apart.
@Suite struct PlaceTextsTests {
    /// Checks every handle of `texts` against `model` through each reader (`id`, `name`,
    /// `withIDAndName`, `forEachID` over the handles shuffled and repeated, after `touch` and
    /// `prefetch`), and the bytes held
    /// against the entries' lengths.
    private func expectSame(_ texts: PlaceTexts, _ model: [(id: String, name: String)]) {
        #expect(texts.count == model.count)
        var liveBytes = 0
        for (handle, entry) in model.enumerated() {
            #expect(texts.id(handle) == entry.id)
            #expect(texts.name(handle) == entry.name)
            texts.withIDAndName(handle) { id, name in
                #expect(String(decoding: id, as: UTF8.self) == entry.id)
                #expect(String(decoding: name, as: UTF8.self) == entry.name)
            }
            let id = entry.id.utf8.count
            let name = entry.name.utf8.count
            liveBytes += id + name + lengthBytes(id) + lengthBytes(name)
        }
        #expect(texts.usedBytes - texts.garbageBytes == liveBytes)
        var random = SplitMix64(seed: UInt64(model.count))
        let handles = (model.indices.map { UInt32($0) } + model.indices.map { UInt32($0) }).shuffled(using: &random)
        var seen = 0
        handles.withUnsafeBufferPointer { buffer in
            _ = texts.touch(buffer)
            // A hint only: the ids read after it are the same.
            texts.prefetch(buffer)
            texts.forEachID(buffer) { index, id in
                #expect(index == seen)
                #expect(String(decoding: id, as: UTF8.self) == model[Int(buffer[index])].id)
                seen += 1
            }
        }
        #expect(seen == handles.count)
    }

    /// Bytes of a length written as LEB128.
    private func lengthBytes(_ length: Int) -> Int {
        var bytes = 1
        var rest = length >> 7
        while rest > 0 {
            bytes += 1
            rest >>= 7
        }
        return bytes
    }

    private func text(_ random: inout SplitMix64, _ prefix: String) -> String {
        switch random.next() % 10 {
        case 0: prefix + String(repeating: "é", count: 100 + Int(random.next() % 200))
        case 1: prefix + "ş\(random.next() % 1_000)"
        default: prefix + "\(random.next() % 100_000)"
        }
    }

    @Test(arguments: [1, 2, 3])
    func randomEditsKeepEveryEntry(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var texts = PlaceTexts()
        var model: [(id: String, name: String)] = []
        var copies: [(texts: PlaceTexts, model: [(id: String, name: String)])] = []
        for step in 0..<30_000 {
            let roll = random.next() % 100
            if roll < 55 || model.isEmpty {
                let entry = (id: text(&random, "p\(step)-"), name: text(&random, "Eczane "))
                texts.append(id: entry.id, name: entry.name)
                model.append(entry)
            } else if roll < 75 {
                let handle = Int(random.next() % UInt64(model.count))
                let entry = (id: model[handle].id, name: text(&random, "renamed "))
                texts.replace(handle, id: entry.id, name: entry.name)
                model[handle] = entry
            } else {
                // Removals near the end too, where the moved entry and the hole share a block.
                let handle =
                    random.next() % 2 == 0
                    ? Int(random.next() % UInt64(model.count))
                    : max(0, model.count - 1 - Int(random.next() % 6))
                texts.moveLast(to: handle)
                model[handle] = model[model.count - 1]
                model.removeLast()
            }
            if step % 2_999 == 0 { copies.append((texts, model)) }
            if step % 7_919 == 0 { texts = texts.compacted() }
        }
        expectSame(texts, model)
        for copy in copies { expectSame(copy.texts, copy.model) }
        let compacted = texts.compacted()
        #expect(compacted.garbageBytes == 0)
        expectSame(compacted, model)
    }

    /// Renames alone pile up garbage until it outweighs the live entries; the texts then compact
    /// themselves, handles unchanged.
    @Test func garbageIsCompactedByItself() {
        var texts = PlaceTexts()
        var model: [(id: String, name: String)] = []
        let long = String(repeating: "n", count: 100)
        for number in 0..<20_000 {
            texts.append(id: "p\(number)", name: "\(long) \(number)")
            model.append((id: "p\(number)", name: "\(long) \(number)"))
        }
        var sawCompaction = false
        var largestGarbage = 0
        for round in 0..<3 {
            for handle in model.indices {
                let name = "\(long) \(round)-\(handle)"
                texts.replace(handle, id: model[handle].id, name: name)
                model[handle].name = name
                largestGarbage = max(largestGarbage, texts.garbageBytes)
                if texts.garbageBytes == 0 { sawCompaction = true }
            }
        }
        #expect(sawCompaction)
        #expect(largestGarbage > 1 << 21)
        #expect(texts.garbageBytes <= max(1 << 22, texts.usedBytes / 2))
        expectSame(texts, model)
    }

    /// A copy taken for a transaction and the value it came from append, rename and remove apart:
    /// neither sees the other's entries.
    @Test func copiesChangeApart() {
        var live = PlaceTexts()
        var liveModel: [(id: String, name: String)] = []
        for number in 0..<4_006 {
            live.append(id: "p\(number)", name: "Eczane \(number)")
            liveModel.append((id: "p\(number)", name: "Eczane \(number)"))
        }
        var copy = live
        var copyModel = liveModel
        for number in 0..<50 {
            copy.append(id: "c\(number)", name: "copy \(number)")
            copyModel.append((id: "c\(number)", name: "copy \(number)"))
            live.append(id: "l\(number)", name: "live \(number)")
            liveModel.append((id: "l\(number)", name: "live \(number)"))
        }
        copy.replace(4_005, id: "p4005", name: "renamed in the copy")
        copyModel[4_005].name = "renamed in the copy"
        live.moveLast(to: 4_004)
        let moved = liveModel.removeLast()
        liveModel[4_004] = moved
        expectSame(live, liveModel)
        expectSame(copy, copyModel)
    }

    /// Blocks that cross the end of a chunk, and entries longer than a chunk, get chunks of their
    /// own; the ids around them are still found.
    @Test func entriesAroundChunkEnds() {
        var texts = PlaceTexts()
        var model: [(id: String, name: String)] = []
        let long = String(repeating: "x", count: PlaceTexts.chunkSize / 3 + 17)
        for number in 0..<40 {
            let name = number % 5 == 2 ? long + "\(number)" : "n\(number)"
            texts.append(id: "p\(number)", name: name)
            model.append((id: "p\(number)", name: name))
        }
        let huge = String(repeating: "y", count: PlaceTexts.chunkSize + 5)
        texts.append(id: "huge", name: huge)
        model.append((id: "huge", name: huge))
        texts.append(id: "after", name: "after")
        model.append((id: "after", name: "after"))
        texts.replace(1, id: "p1", name: huge)
        model[1].name = huge
        expectSame(texts, model)
        expectSame(texts.compacted(), model)
    }

    /// Renumbering gives each entry to its new handle, whatever the texts hold (garbage, entries
    /// longer than a chunk, non-ASCII), in groups of any allowed size; a copy taken before keeps
    /// the old numbering, and the renumbered texts take appends and removals.
    @Test(arguments: [4, 8, 1_024, PlaceTexts.renumberingGroupSize])
    func renumberingMovesEveryEntry(groupSize: Int) {
        var random = SplitMix64(seed: UInt64(groupSize))
        var texts = PlaceTexts()
        var model: [(id: String, name: String)] = []
        for step in 0..<9_001 {
            let entry = (id: text(&random, "p\(step)-"), name: text(&random, "Eczane "))
            texts.append(id: entry.id, name: entry.name)
            model.append(entry)
            if step % 7 == 3 {
                let handle = Int(random.next() % UInt64(model.count))
                model[handle].name = text(&random, "renamed ")
                texts.replace(handle, id: model[handle].id, name: model[handle].name)
            }
        }
        let huge = String(repeating: "y", count: PlaceTexts.chunkSize + 5)
        texts.append(id: "huge", name: huge)
        model.append((id: "huge", name: huge))
        let before = texts
        let newHandles = (0..<UInt32(model.count)).shuffled(using: &random)
        newHandles.withUnsafeBufferPointer { texts.renumber($0, groupSize: groupSize) }
        var renumbered = model
        for (old, new) in newHandles.enumerated() { renumbered[Int(new)] = model[old] }
        expectSame(texts, renumbered)
        expectSame(before, model)
        texts.append(id: "new", name: "after renumbering")
        renumbered.append((id: "new", name: "after renumbering"))
        texts.moveLast(to: 5)
        renumbered[5] = renumbered.removeLast()
        expectSame(texts, renumbered)
    }
}
