import Foundation
import NIOCore
import NIOPosix

extension ServeCommand {
    /// `--threads`, else one per core.
    var threadCount: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }

    /// The one event-loop group both protocols answer on, of `threads` loops: NIO's singleton
    /// group when it has that many (in the `vicinity` process it does, and runs Swift concurrency
    /// too: `CLI.serveEventLoopThreads`), else a group of its own that the caller shuts down.
    static func eventLoopGroup(threads: Int) -> (group: MultiThreadedEventLoopGroup, owned: Bool) {
        if NIOSingletons.groupLoopCountSuggestion == threads { return (.singleton, false) }
        return (MultiThreadedEventLoopGroup(numberOfThreads: threads), true)
    }
}

extension CLI {
    /// How many event loops `vicinity serve` with these arguments (those after `serve`) asks for
    /// with `--threads`: one per core unless told, and the default when the arguments do not parse
    /// (the command then reports them).
    ///
    /// `main.swift` sizes NIO's singleton group with it before anything uses the group, so that
    /// both protocols and Swift concurrency share `--threads` loops.
    public static func serveEventLoopThreads(_ arguments: [String]) -> Int {
        let requested = (try? ServeCommand.parse(shieldNegativeNumbers(arguments)))?.threadCount
        return min(256, max(1, requested ?? ProcessInfo.processInfo.activeProcessorCount))
    }
}
