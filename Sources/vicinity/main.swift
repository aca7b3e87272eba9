import NIOCore
import NIOPosix
import VicinityCLI

#if canImport(Glibc)
    import Glibc
#endif

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
// A file-size limit (`ulimit -f`, systemd's `LimitFSIZE=`) would kill the process with SIGXFSZ on
// the write that crosses it, acknowledged writes safe but the server gone without a word. Ignored,
// the write fails with EFBIG instead: SQLite rolls its transaction back and the write is refused
// like any other ("disk I/O error …: File too large"), and the server goes on.
signal(SIGXFSZ, SIG_IGN)
CLI.main()
