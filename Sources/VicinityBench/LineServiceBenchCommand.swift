import ArgumentParser
import Foundation
import LineProtocol
import NIOCore
import Places
import VicinityCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `vicinity-bench line-service`: the line protocol's commands run in process, one after another,
/// through `LineService.execute` and the RESP2 encoder — what the server does for a request
/// between decoding it and handing its bytes to the socket, without the network, the event loop
/// or a client. The time per call is the server's own cost of a command, reply bytes included;
/// the digest is the FNV-1a of every reply byte of a pass, the same digest `line-bench` prints
/// for a server, so the two can be compared.
struct LineServiceBenchCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "line-service",
        abstract: "Time a file of commands run in process by the line protocol's service.",
        discussion: """
            Loads a place CSV (id,name,lat,lon, as `bench --export-redis` writes it) into memory, \
            then runs the file's commands as an anonymous RESP2 client. Run a release build.
            """)

    @Option(help: "Place CSV to load.") var csv: String
    @Option(help: "Kind of the loaded places (the Redis key).") var kind = "city"
    @Option(help: "File of commands, one per line, words separated by spaces (no quoting).") var file: String
    @Option(help: "Passes over the file; the median pass is reported.") var passes = 3
    @Option(
        help: """
            KiB of memory written between calls, outside the timed part, to push the last \
            call's code and data out of the processor's L2 (more than its size: 2048 on a \
            1.25 MiB L2), as a server's network work and idle time between requests do; the \
            written lines' write-back falls in the next call (0: none).
            """)
    var evict = 0

    func validate() throws {
        guard (1...999).contains(passes) else {
            throw ValidationError("invalid passes \"\(passes)\": expected 1 to 999")
        }
        guard (0...1_048_576).contains(evict) else {
            throw ValidationError("invalid evict \"\(evict)\": expected 0 to 1048576 KiB")
        }
    }

    func execute(_ output: inout CommandOutput) throws {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw CLIError.noInput("cannot read \(file)")
        }
        let commands = text.split(whereSeparator: \.isNewline).map { $0.split(separator: " ").map(String.init) }
        guard !commands.isEmpty else { throw CLIError.data("\(file) holds no command") }
        var catalog = try PlaceCatalog()
        try catalog.add(contentsOf: PlaceCSVReader(defaultKind: kind).read(path: csv))
        let durable = DurableDirectory(PlaceDirectory(places: catalog), store: NullPlaceStore(), position: 0)
        defer { durable.close() }
        let service = LineService(directory: durable)
        guard let session = service.connect(maximumClients: 1) else {
            throw CLIError.internalError("no session")
        }
        let runner = Runner(service: service, session: session, evictBytes: evict * 1024)
        let digest = try runner.pass(commands).digest
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<passes {
            let pass = try runner.pass(commands)
            guard pass.digest == digest else { throw CLIError.internalError("the replies changed between passes") }
            wall.append(pass.wallSeconds)
            cpu.append(pass.cpuSeconds)
        }
        let median = wall.sorted()[wall.count / 2]
        let medianCPU = cpu.sorted()[cpu.count / 2]
        output.line(
            String(
                format: "%d calls/pass, median pass %.3f s: %.1f µs/call (thread cpu %.1f µs/call), digest %016llx",
                commands.count, median, median / Double(commands.count) * 1e6,
                medianCPU / Double(commands.count) * 1e6, digest))
    }

    /// Runs passes over the commands on one session.
    final class Runner {
        let service: LineService
        let session: Session
        private let output = Output()
        /// Memory written between calls: `--evict` × 1024 bytes.
        private let eviction: UnsafeMutableRawBufferPointer

        /// The reply of the call running: its completion writes it, at once, on the calling thread.
        final class Output: @unchecked Sendable {
            var buffer = ByteBuffer()
            var answered = false
        }

        init(service: LineService, session: Session, evictBytes: Int) {
            self.service = service
            self.session = session
            eviction = .allocate(byteCount: evictBytes, alignment: 64)
            eviction.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit { eviction.deallocate() }

        /// Writes a byte of every cache line of `eviction`: not inlined, so that the writes to
        /// memory it was handed are not dropped as never read.
        @inline(never)
        private static func evict(_ bytes: UnsafeMutableRawBufferPointer) {
            for index in stride(from: 0, to: bytes.count, by: 64) {
                bytes[index] &+= 1
            }
        }

        /// One pass: the digest of the replies and the time spent in `execute` and the encoder
        /// (wall and this thread's CPU), the digest's own work left out.
        func pass(_ commands: [[String]]) throws -> (digest: UInt64, wallSeconds: Double, cpuSeconds: Double) {
            var digest: UInt64 = 0xcbf2_9ce4_8422_2325
            var wall: UInt64 = 0
            var cpu = 0.0
            let output = self.output
            for command in commands {
                if !eviction.isEmpty { Self.evict(eviction) }
                output.buffer.clear()
                output.answered = false
                let cpuStart = Self.threadCPUSeconds()
                let start = DispatchTime.now().uptimeNanoseconds
                service.execute(command, session: session) { reply, _ in
                    RESPReplyEncoder.write(reply, format: .resp2, to: &output.buffer)
                    output.answered = true
                }
                wall += DispatchTime.now().uptimeNanoseconds - start
                cpu += Self.threadCPUSeconds() - cpuStart
                guard output.answered else { throw CLIError.internalError("\(command[0]) did not answer at once") }
                for byte in output.buffer.readableBytesView { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            }
            return (digest, Double(wall) / 1e9, cpu)
        }

        /// The CPU time this thread has used, seconds.
        static func threadCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }
}
