import NIOCore
import NIOPosix
import VicinityCLI

// `vicinity serve` runs Swift concurrency on SwiftNIO's event loops instead of the default pool:
// a request's task then resumes on the loop that read it rather than hopping between threads
// (/v1/nearby +12 % under wrk, BENCHMARKS.md "The HTTP API against PostGIS"). NIO allows this
// once, from the main thread, before any task runs: here. The same group, of --threads loops,
// serves both protocols (ServeCommand.eventLoopGroup). Other commands keep the default.
// The cost: a long request (a map, 10,000 places as GeoJSON) now holds up the other connections
// of its loop while another loop may be idle, where the pool would have lent a free thread.
// Nothing the server runs from async code blocks (writes wait on a continuation the writer
// thread resumes).
if CommandLine.arguments.dropFirst().first == "serve" {
    NIOSingletons.groupLoopCountSuggestion = CLI.serveEventLoopThreads(Array(CommandLine.arguments.dropFirst(2)))
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
CLI.main()
