import Foundation
import Testing

@testable import PlacesSQLite

/// The import's temporary file: what is written reads back at its offset, from another thread
/// too, and the file has no name on disk from the start.
@Suite struct SpillFileTests {
    @Test func whatIsWrittenReadsBackAndTheFileHasNoName() async throws {
        let file = try SpillFile()
        var offsets: [Int] = []
        var chunks: [[UInt8]] = []
        for length in [0, 1, 4_095, 65_537, 3] {
            let chunk = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
            offsets.append(try chunk.withUnsafeBytes { try file.append($0) })
            chunks.append(chunk)
        }
        #expect(offsets == [0, 0, 1, 4_096, 69_633])
        #expect(file.size == 69_636)
        let read = { @Sendable (offset: Int, count: Int) throws -> [UInt8] in
            var bytes = [UInt8](repeating: 0, count: count)
            try bytes.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
            return bytes
        }
        for (offset, chunk) in zip(offsets, chunks).reversed() { #expect(try read(offset, chunk.count) == chunk) }
        let (offset, count) = (offsets[3], chunks[3].count)
        let elsewhere = Task.detached { try read(offset, count) }
        #expect(try await elsewhere.value == chunks[3])
        // Past the end is an error that says so, not a short read.
        #expect(throws: SQLiteStoreError.self) { try read(69_630, 10) }
        // Unlinked at once.
        #expect(file.isUnlinked)
    }
}
