import CHeapStats
import Foundation
import Places

/// `INFO` and `CONFIG`, with the fields `redis-cli --stat/--bigkeys/--memkeys` and exporters
/// such as redis_exporter read, next to Vicinity's own.
extension LineService {
    /// `INFO [section …]` as Redis 7.0 answers it: no section (or `default`) gives server, clients,
    /// memory, persistence, stats, replication, keyspace and watches; `commandstats` the
    /// per-command counters; `all` and `everything` every section; names are case-insensitive, unknown ones give nothing, sections
    /// are separated by an empty line.
    func info(sections asked: [String], admin: Bool = false) -> String {
        let all = [
            "server", "clients", "memory", "persistence", "stats", "replication", "keyspace", "watches",
            "commandstats",
        ]
        var wanted = Set<String>()
        for name in asked.isEmpty ? ["default"] : asked {
            switch name {
            case "default": wanted.formUnion(all.dropLast())
            case "all", "everything": wanted.formUnion(all)
            default: wanted.insert(name)
            }
        }
        var text: [[String]] = []
        for section in all where wanted.contains(section) {
            switch section {
            case "server":
                text.append([
                    "# Server", "vicinity_version:\(LineService.version)", "redis_version:7.0.15",
                    "redis_mode:standalone", "process_id:\(ProcessInfo.processInfo.processIdentifier)",
                    "uptime_in_seconds:\(Int(Date().timeIntervalSince(started)))",
                    "uptime_in_days:\(Int(Date().timeIntervalSince(started)) / 86_400)",
                ])
            case "clients":
                text.append([
                    "# Clients", "connected_clients:\(connectedClients)", "blocked_clients:0", "tracking_clients:0",
                ])
            case "memory":
                text.append(memoryLines())
            case "persistence":
                // Every acknowledged write is committed to SQLite before its reply (ARCHITECTURE.md):
                // there is no background save and nothing waits to be saved.
                text.append([
                    "# Persistence", "loading:0", "rdb_changes_since_last_save:0", "rdb_bgsave_in_progress:0",
                    "aof_enabled:0", "aof_rewrite_in_progress:0",
                ])
            case "stats":
                let store = directory.statistics
                let now = DispatchTime.now().uptimeNanoseconds
                text.append([
                    "# Stats", "total_connections_received:\(clients.totalAccepted)",
                    "total_commands_processed:\(commandsProcessed)",
                    "instantaneous_ops_per_sec:\(operationRate.perSecond(now: now, total: commandsProcessed))",
                    "rejected_connections:0", "expired_keys:0", "evicted_keys:0", "commits:\(store.commits)",
                    "committed_changes:\(store.changes)",
                ])
            case "replication":
                text.append(replicationLines(admin: admin))
            case "keyspace":
                let (places, kinds, publicUsers, keys) = directory.read {
                    ($0.places.count, $0.places.kinds.count, $0.publicUserCount, LineService.keyCount($0))
                }
                var lines = ["# Keyspace", "places:\(places)", "place_kinds:\(kinds)", "public_users:\(publicUsers)"]
                if keys > 0 { lines.append("db0:keys=\(keys),expires=0,avg_ttl=0") }
                text.append(lines)
            case "watches":
                text.append(watchLines())
            default:
                text.append(["# Commandstats"] + statistics.infoLines)
            }
        }
        return text.map { $0.joined(separator: "\r\n") + "\r\n" }.joined(separator: "\r\n")
    }

    /// `# Watches` (`WATCH NEARBY`, `SUBSCRIBE`, and the HTTP API's streams): what the directory
    /// holds now, its limits, and counters since start.
    private func watchLines() -> [String] {
        let statistics = directory.watchStatistics
        let limits = directory.watchLimits
        return [
            "# Watches", "watches:\(statistics.watches)", "watch_subscribers:\(statistics.subscribers)",
            "watch_events_queued:\(statistics.eventsQueued)",
            "watch_subscribers_dropped:\(statistics.subscribersDropped)",
            "watch_changes_evaluated:\(statistics.changesEvaluated)",
            "watch_evaluation_seconds:\(LineService.fixed(statistics.evaluationSeconds, decimals: 6))",
            "max_watches:\(limits.maximumWatches)", "max_watches_per_client:\(limits.maximumPerSubscriber)",
            "watch_history:\(limits.historyChanges)",
        ]
    }

    /// `# Memory`: `used_memory` is the bytes glibc's allocator has handed out (`mallinfo2`: in-use
    /// chunks plus mmapped blocks), `used_memory_rss` the resident set from `/proc/self/statm`.
    private func memoryLines() -> [String] {
        let used = Int(vicinity_heap_in_use())
        var lines = ["# Memory", "used_memory:\(used)", "used_memory_human:\(LineService.humanBytes(used))"]
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        {
            let rss = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
            lines += ["used_memory_rss:\(rss)", "used_memory_rss_human:\(LineService.humanBytes(rss))"]
        }
        lines += ["maxmemory:0", "maxmemory_human:0B", "maxmemory_policy:noeviction"]
        return lines
    }

    /// Bytes as Redis writes them for people (`bytesToHuman`): `512B`, `1.50K`, `2.00M`, `1.00G`.
    static func humanBytes(_ bytes: Int) -> String {
        let value = Double(bytes)
        for (index, suffix) in ["K", "M", "G", "T", "P"].enumerated() {
            let unit = pow(1024.0, Double(index + 1))
            if value < unit * 1024 || suffix == "P" {
                return value < unit && index == 0 ? "\(bytes)B" : String(format: "%.2f%@", value / unit, suffix)
            }
        }
        return "\(bytes)B"
    }

    /// The parameters `CONFIG GET` answers and `CONFIG SET` changes (Redis's names and defaults).
    private static let configurable = ["slowlog-log-slower-than", "slowlog-max-len"]

    /// `CONFIG GET pattern…` (the matching parameters and their values, a map), `CONFIG SET
    /// parameter value …` and `CONFIG RESETSTAT` (both admin only: they change what every client
    /// sees), `CONFIG HELP`.
    func config(_ arguments: inout CommandArguments, _ session: Session) throws(CommandFailure) -> RESPReply {
        let typed = try arguments.next()
        switch typed.uppercased() {
        case "GET":
            var patterns: [KeyPattern] = []
            while !arguments.isAtEnd { patterns.append(KeyPattern(try arguments.next().lowercased())) }
            let values = [slowLog.threshold.load(ordering: .relaxed), slowLog.maximumLength.load(ordering: .relaxed)]
            return .map(
                zip(LineService.configurable, values).filter { name, _ in patterns.contains { $0.matches(name) } }
                    .map { RESPReply.MapEntry(key: .text($0.0), value: .text(String($0.1))) })
        case "SET":
            try LineService.requireAdmin(session, action: "changing the configuration needs the admin token")
            guard arguments.remaining % 2 == 0 else { throw .wrongArity("config|set") }
            var changes: [(String, Int)] = []
            while !arguments.isAtEnd {
                let name = try arguments.next()
                let value = try arguments.next()
                guard LineService.configurable.contains(name.lowercased()) else {
                    throw .error("Unknown option or number of arguments for CONFIG SET - '\(name)'")
                }
                guard let number = Int(value), name.lowercased() != "slowlog-max-len" || number >= 0 else {
                    throw .error(
                        "Invalid argument '\(value)' for CONFIG SET '\(name)' - argument couldn't be parsed into an "
                            + "integer")
                }
                changes.append((name.lowercased(), number))
            }
            for (name, value) in changes {
                if name == "slowlog-max-len" {
                    slowLog.maximumLength.store(value, ordering: .relaxed)
                } else {
                    slowLog.threshold.store(value, ordering: .relaxed)
                }
            }
            return .simpleString("OK")
        case "RESETSTAT":
            try LineService.requireAdmin(session, action: "resetting the statistics needs the admin token")
            resetStatistics()
            return .simpleString("OK")
        case "HELP":
            return LineService.help(for: "CONFIG")
        default:
            throw CommandFailure(line: LineService.unknownSubcommand(typed, of: "CONFIG"))
        }
    }
}
