import Foundation
import Places
import Synchronization
import Testing

/// The hand-over between an import's reading and storing threads.
@Suite struct ImportPipelineTests {
    struct Broken: Error {}

    /// Runs `body` on a thread of its own; the returned semaphore is signalled when it ends.
    static func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            ended.signal()
        }
        return ended
    }

    @Test func piecesArriveInOrderAndNeverMoreThanTheCapacityWait() throws {
        let pipeline = ImportPipeline<Int>(capacity: 2)
        let put = Atomic<Int>(0)
        let ended = Self.onThread {
            for piece in 0..<1000 {
                try? pipeline.put(piece)
                put.add(1, ordering: .sequentiallyConsistent)
            }
            pipeline.finish(throwing: nil)
        }
        // Not taking: the reader stops once two pieces wait.
        let start = Date()
        while put.load(ordering: .sequentiallyConsistent) < 2, Date().timeIntervalSince(start) < 60 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(put.load(ordering: .sequentiallyConsistent) == 2)
        var taken: [Int] = []
        while let piece = try pipeline.take() {
            taken.append(piece)
            #expect(put.load(ordering: .sequentiallyConsistent) - taken.count <= 2)
        }
        #expect(ended.wait(timeout: .now() + 60) == .success, "the reader ended")
        #expect(taken == Array(0..<1000))
    }

    @Test func theReadersErrorComesAfterThePiecesBeforeIt() throws {
        let pipeline = ImportPipeline<Int>(capacity: 1)
        let ended = Self.onThread {
            try? pipeline.put(1)
            try? pipeline.put(2)
            pipeline.finish(throwing: Broken())
        }
        #expect(try pipeline.take() == 1)
        #expect(try pipeline.take() == 2)
        #expect(throws: Broken.self) { try pipeline.take() }
        #expect(ended.wait(timeout: .now() + 60) == .success, "the reader ended")
    }

    @Test func cancellingReleasesAWaitingReaderAndStopsIt() throws {
        let pipeline = ImportPipeline<Int>(capacity: 1)
        let refused = Atomic<Int>(0)
        let ended = Self.onThread {
            for piece in 0..<3 {
                do throws(ImportPipeline<Int>.Cancelled) {
                    try pipeline.put(piece)
                } catch {
                    refused.add(1, ordering: .sequentiallyConsistent)
                }
            }
        }
        #expect(try pipeline.take() == 0)
        pipeline.cancel()
        // Ends without anyone taking again: every later put is refused.
        #expect(ended.wait(timeout: .now() + 60) == .success, "the reader ended")
        #expect(refused.load(ordering: .sequentiallyConsistent) >= 1)
    }
}
