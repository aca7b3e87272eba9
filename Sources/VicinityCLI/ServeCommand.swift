import ArgumentParser
import Dispatch
import Foundation
import HTTPAPI
import LineProtocol
import Logging
import NIOCore
import NIOPosix
import Places
import PlacesSQLite
import ServiceLifecycle
import Synchronization

/// `vicinity serve`: the line protocol and the HTTP API, one process over one store.
struct ServeCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the database over the line protocol (RESP and inline lines: redis-cli, nc) and HTTP.",
        discussion: """
            Both protocols answer from the same places and users in memory, and their writes share \
            one group commit and one set of event loops (--threads). Listens on 127.0.0.1 unless \
            --host says otherwise. SIGTERM or SIGINT: stop accepting, answer what clients have \
            sent, commit, exit 0. The server follows the database's change log: what other \
            processes write to it (vicinity import, user, admin-token) is served within about 10 ms, \
            without a restart. The HTTP port also serves a map for a browser at / (the pharmacies \
            around a location, the public users around a signed-in user), with Leaflet from \
            Debian's libjs-leaflet. Logs go to standard error: at --log-level info or lower \
            one line per request (command or method and path, client, outcome, milliseconds), \
            never a token.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port of the line protocol (RESP and inline).") var linePort = 7878
    @Option(help: "Port of the HTTP API (openapi.yaml); 0 lets the system choose.") var httpPort = 8080
    @Flag(help: "Serve the line protocol only.") var noHttp = false
    @Flag(help: "Let anyone register a user (POST /v1/users, USER.ADD) without the admin token.")
    var openRegistration = false
    @Option(help: "HTTP requests a second per client address before 429 Too Many Requests; 0 for no limit.")
    var httpRateLimit = 0
    @Option(
        help: ArgumentHelp(
            "How precisely others see a new user who names no precision: exact, street (~100 m), district (~1 km), city (~10 km).",
            valueName: "precision"))
    var userPrecision = LocationPrecision.recommendedText
    @Option(
        help: ArgumentHelp(
            "How long a user's location lasts without a move before it is forgotten (e.g. 12h, 8h, 30m; 0 for never).",
            valueName: "duration"))
    var userLocationTtl = "12h"
    @Option(
        help:
            "Queries about users a second per client (a user by their token, the anonymous by address), in bursts of 10 seconds' worth, before -ERR rate / 429; 0 for no limit."
    )
    var userQueryRate = 20
    @Option(help: "Clients connected at once, on each protocol.") var maxClients = 10_000
    /// Nil for one per core: a default computed on this machine would be printed in help as if it
    /// were the same everywhere.
    @Option(help: "Event-loop threads answering clients (default: one per core).") var threads: Int?
    @Option(help: "Seconds without a request before a client is closed (line protocol and HTTP); 0 for never.")
    var idleTimeout = 300
    @Option(
        help: "Seconds a client may leave replies unread before it is closed (line protocol and HTTP); 0 for never."
    )
    var outputStallTimeout = 30
    @Option(
        help: "Seconds without an event before an HTTP watch stream (Server-Sent Events) gets a keep-alive comment.")
    var sseHeartbeat = 15.0
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Answer /v1/nearby, /v1/nearest and /v1/users/nearby by the hand-written routes.",
            discussion:
                "The same answers as the routes generated from openapi.yaml, for less CPU a request; --no-hot-routes answers them by the generated routes, as every other operation."
        ))
    var hotRoutes = true
    @Option(
        help: ArgumentHelp(
            "Tiles under the browser map at / (a URL with {z}, {x}, {y}, and {s} for a subdomain); none for none.",
            valueName: "url"))
    var tiles = TileLayer.openStreetMap.urlTemplate
    @Option(help: ArgumentHelp("The credit --tiles' provider asks for, shown on the map.", valueName: "text"))
    var tilesAttribution: String?
    @Option(help: "Least severe messages logged: trace, debug, info (a line per request), notice, warning, error.")
    var logLevel = "notice"
    @Option(help: "Longest inline line, bytes.") var maxInlineBytes = ProtocolLimits.default.maximumInlineBytes
    @Option(help: "Longest bulk argument, bytes.") var maxBulkBytes = ProtocolLimits.default.maximumBulkBytes
    @Option(help: "Most bytes of one request, its arguments together.")
    var maxRequestBytes = ProtocolLimits.default.maximumRequestBytes
    @Option(help: "Change-log entries always kept, counted back from the newest (followers further behind reload).")
    var logKeepChanges = 1_000_000
    @Option(help: "Hours a change-log entry is always kept.") var logKeepHours = 24.0
    @Option(help: "Watches held at once on this server (line protocol and HTTP together).")
    var maxWatches = WatchLimits().maximumWatches
    @Option(help: "Watches one client (a connection, an HTTP stream) holds at once.")
    var maxWatchesPerClient = WatchLimits().maximumPerSubscriber
    @Option(help: "Watch events queued for one line-protocol connection before one that does not read them is closed.")
    var watchQueue = ServerConfiguration().watchQueue
    @Option(help: "Latest changes remembered to resume a watch from a log position; 0: a resume starts afresh.")
    var watchHistory = WatchLimits().historyChanges
    @Option(help: "Most objects one watch holds: a watch asked with more is refused, one growing beyond it ends.")
    var maxWatchObjects = WatchLimits().maximumObjects
    @Option(
        help: ArgumentHelp(
            "Folder of holiday calendars NAME.txt for opening hours' PH rules (default: the shipped Data/holidays).",
            valueName: "folder"))
    var holidays: String?
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard (0...65_535).contains(linePort) else {
            throw ValidationError("invalid line port \"\(linePort)\": expected 0 to 65535")
        }
        guard (0...65_535).contains(httpPort) else {
            throw ValidationError("invalid HTTP port \"\(httpPort)\": expected 0 to 65535")
        }
        _ = try tileLayer()
        guard (0...1_000_000).contains(httpRateLimit) else {
            throw ValidationError(
                "invalid HTTP rate limit \"\(httpRateLimit)\": expected 0 (no limit) to 1000000 requests a second")
        }
        do {
            _ = try privacy()
        } catch {
            throw ValidationError(CLIError.reason(error))
        }
        guard (0...1_000_000).contains(userQueryRate) else {
            throw ValidationError(
                "invalid user query rate \"\(userQueryRate)\": expected 0 (no limit) to 1000000 queries a second")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError(
                "invalid log level \"\(logLevel)\": expected "
                    + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard (1...256).contains(threadCount) else {
            throw ValidationError("invalid thread count \"\(threadCount)\": expected 1 to 256")
        }
        guard sseHeartbeat.isFinite, sseHeartbeat >= 0.01, sseHeartbeat <= 3_600 else {
            throw ValidationError("invalid SSE heartbeat \"\(sseHeartbeat)\": expected 0.01 to 3600 seconds")
        }
        guard logKeepChanges >= 0, logKeepHours >= 0, logKeepHours.isFinite else {
            throw ValidationError(
                "invalid change-log retention: --log-keep-changes and --log-keep-hours must be 0 or more")
        }
        guard maxClients >= 1, idleTimeout >= 0, outputStallTimeout >= 0, maxInlineBytes >= 1, maxBulkBytes >= 1,
            maxRequestBytes >= 1, maxWatches >= 1, maxWatchesPerClient >= 1, watchQueue >= 1, watchHistory >= 0,
            maxWatchObjects >= 1
        else { throw ValidationError("limits must be 1 or more (timeouts and --watch-history 0 or more)") }
    }

    func execute(_ output: inout CommandOutput) throws {
        let level = Logger.Level(rawValue: logLevel) ?? .notice
        if let warning = ServeCommand.raiseOpenFileLimit(
            wanted: noHttp ? maxClients : 2 * maxClients, needed: maxClients)
        {
            FileHandle.standardError.write(Data("vicinity: \(warning)\n".utf8))
        }
        var logger = Logger(label: "vicinity", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = level
        let store = try database.openStore(output: &output)
        let durable: DurableDirectory
        do {
            let privacy = try privacy()
            let calendars = try ShippedData.holidays(folder: holidays)
            if calendars.calendars.isEmpty {
                output.warning(
                    "no holiday calendars found (Data/holidays, or --holidays FOLDER): hours with PH rules are unknown")
            }
            durable = try DurableDirectory(loading: store) { [openRegistration] in
                $0.openRegistration = openRegistration
                $0.privacy = privacy
                $0.holidays = calendars
            }
        } catch {
            throw CLIError.data("\(store.name): \(CLIError.reason(error))")
        }
        durable.follow(
            pollInterval: 1,
            retention: LogRetention(changes: UInt64(logKeepChanges), seconds: logKeepHours * 3600))
        // Both protocols' watches share these limits.
        durable.watchLimits = lineConfiguration.watchLimits
        // Locations that expired and private spells that ended while no server ran are over
        // before anyone is answered; from then on they end on time.
        _ = try ServeCommand.blocking { await durable.runDueUserTimers() }
        let timers = Task { await durable.runUserTimers() }
        defer { timers.cancel() }
        // Every way out commits what was acknowledged (closing twice is harmless).
        defer { durable.close() }
        let (eventLoops, ownsEventLoops) = ServeCommand.eventLoopGroup(threads: threadCount)
        defer { if ownsEventLoops { try? eventLoops.syncShutdownGracefully() } }
        // One budget of queries about users for both protocols: a scraper gains nothing by using two.
        let userQueryLimit = UserQueryLimit(perSecond: userQueryRate)
        var configuration = lineConfiguration
        configuration.userQueryLimit = userQueryLimit
        let line = LineServer(
            service: LineService(directory: durable), configuration: configuration, eventLoopGroup: eventLoops,
            logger: logger)
        let bound: SocketAddress
        do {
            bound = try ServeCommand.blocking { try await line.start() }
        } catch {
            throw CLIError.usage(
                "cannot serve the line protocol on \(host):\(linePort): \(ServeCommand.reason(error)) "
                    + "(choose another --line-port)")
        }
        let lineAddress = "\(bound.ipAddress ?? host):\(bound.port ?? linePort) (line protocol)"
        let serving = "serving \(durable.read { $0.places.count }) places from \(store.name) on \(lineAddress)"
        // Services shut down last to first: the notice, then HTTP, then the line protocol.
        var services: [any Service] = [line]
        let httpListening = RaisedFlag()
        if !noHttp {
            let http = HTTPServer(
                directory: durable, host: host, port: httpPort, rateLimit: httpRateLimit,
                idleTimeoutSeconds: idleTimeout, maximumConnections: maxClients, outputStallSeconds: outputStallTimeout,
                eventLoopGroup: eventLoops,
                logger: logger,
                // One queue size for a client of either protocol (a connection, an SSE stream).
                watchStreams: WatchStreamSettings(heartbeatSeconds: sseHeartbeat, queueCapacity: watchQueue),
                userQueryLimit: userQueryLimit, hotRoutes: hotRoutes, page: MapPage(tiles: try tileLayer()))
            let host = self.host
            services.append(
                ClosureService {
                    try await http.run { port in
                        httpListening.set()
                        ServeCommand.announce(serving + " and \(bound.ipAddress ?? host):\(port) (HTTP)")
                    }
                })
        }
        let noHttp = self.noHttp
        services.append(
            ClosureService {
                // The group traps the signals before it runs its services: from here on, one is
                // a graceful shutdown rather than the end of the process.
                if noHttp { ServeCommand.announce(serving) }
                // Cancelled (the HTTP port in use): nothing was served, nothing to stop.
                do { try await gracefulShutdown() } catch { return }
                ServeCommand.announce("stopping: answering what clients sent, then closing")
            })
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try ServeCommand.blocking { try await group.run() }
        } catch  where !noHttp && !httpListening.isSet {
            // The line protocol has stopped with the group: one process serves both or neither.
            throw CLIError.usage(
                "cannot serve HTTP on \(host):\(httpPort): \(ServeCommand.reason(error)) "
                    + "(choose another --http-port, or --no-http)")
        }
        durable.close()
        ServeCommand.announce("stopped")
    }

    /// The browser map's tiles from `--tiles` and `--tiles-attribution`: nil for `none`.
    func tileLayer() throws -> TileLayer? {
        if tiles == "none" { return nil }
        if tiles == TileLayer.openStreetMap.urlTemplate && tilesAttribution == nil { return .openStreetMap }
        guard let layer = TileLayer(urlTemplate: tiles, attribution: tilesAttribution ?? "") else {
            throw ValidationError(
                "invalid tile URL \"\(tiles)\": expected http(s)://host/…{z}…{x}…{y}… (a host of letters, digits, "
                    + "- and ., {s}. first for a subdomain) or none")
        }
        return layer
    }

    /// The privacy rules from `--user-precision` and `--user-location-ttl`.
    func privacy() throws -> PrivacySettings {
        var privacy = PrivacySettings.recommended
        privacy.defaultPrecision = try ArgumentValues.parse(userPrecision, Vocabulary.precision)
        privacy.locationTTLSeconds = try ArgumentValues.parse(
            userLocationTtl, Vocabulary.locationTTL)
        return privacy
    }

    /// The line protocol's settings from the options.
    var lineConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = linePort
        configuration.maximumClients = maxClients
        configuration.idleTimeoutSeconds = idleTimeout
        configuration.outputStallSeconds = outputStallTimeout
        configuration.limits.maximumInlineBytes = maxInlineBytes
        configuration.limits.maximumBulkBytes = maxBulkBytes
        configuration.limits.maximumRequestBytes = maxRequestBytes
        configuration.watchLimits = WatchLimits(
            maximumWatches: maxWatches, maximumPerSubscriber: maxWatchesPerClient, historyChanges: watchHistory,
            maximumObjects: maxWatchObjects)
        configuration.watchQueue = watchQueue
        return configuration
    }

    /// Writes `vicinity: <text>` on standard error, where `serve` tells how it is doing.
    @Sendable static func announce(_ text: String) {
        FileHandle.standardError.write(Data("vicinity: \(text)\n".utf8))
    }

    /// Raises the soft limit of open files towards the hard one so that `wanted` connections (both
    /// protocols full) and the process's own files fit: a limit of 1,024 would refuse connections
    /// with "too many open files" long before `--max-clients`.
    ///
    /// - Returns: a warning when even the hard limit cannot hold `needed` connections (one
    ///   protocol full) and the process's own files.
    static func raiseOpenFileLimit(wanted: Int, needed: Int) -> String? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let room = 256
        if limit.rlim_cur < rlim_t(wanted + room) {
            limit.rlim_cur = min(rlim_t(wanted + room), limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        guard limit.rlim_cur < rlim_t(needed + room) else { return nil }
        return "the open-file limit (\(limit.rlim_cur)) cannot hold the \(needed) clients of --max-clients: "
            + "connections beyond it are refused by the system (raise it with ulimit -n, or lower --max-clients)"
    }

    /// Why an address could not be bound, in words: "Address already in use" rather than
    /// `bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`.
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }

    /// Runs async work from this synchronous command and waits for it.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}

/// A flag one task raises and others read: whether the HTTP server got to listen.
private final class RaisedFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    var isSet: Bool { raised.load(ordering: .acquiring) }
    func set() { raised.store(true, ordering: .releasing) }
}

/// Carries a result across the semaphore in `ServeCommand.blocking`.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
