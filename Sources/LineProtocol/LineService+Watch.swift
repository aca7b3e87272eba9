import Geo
import NIOCore
import Places

/// Watches on the line protocol: standing `NEARBY` queries whose changes the connection is sent
/// as they happen (`DurableDirectory.watch`).
///
/// - `WATCH NEARBY kind lat lon radius [UNIT m|km|ft|mi] [MODEL geodesic|haversine]` and
///   `WATCH NEARBY kind USER id radius [UNIT u] [MODEL m]` (roaming: around the user, wherever
///   the user goes; that user's token or the admin's): answered with the watch's id (an integer).
///   The arguments are checked as `NEARBY` checks them, and the connection's `AUTH` token decides
///   what it may see, as for `NEARBY`. `WATCH` is a geo watch when its first argument is `NEARBY`
///   and five or more arguments follow `WATCH`; every other `WATCH` watches Redis keys for `EXEC`.
/// - `UNWATCH id` ends one watch (`:1`). Plain `UNWATCH` forgets the Redis keys watched, as in
///   Redis; in watch mode (RESP2) it also ends every geo watch, leaving watch mode.
/// - `SUBSCRIBE channel …` where a channel spells a watch, `NEARBY kind lat lon radius …` or
///   `NEARBY kind USER id radius …` (the arguments of `WATCH` after it, separated by spaces): for
///   pub/sub clients (redis-cli, which keeps reading only after `SUBSCRIBE`; redis-py's
///   `PubSub`). Answered as Redis answers it, `["subscribe", channel, watches]` per channel;
///   `UNSUBSCRIBE [channel …]` ends them (`["unsubscribe", channel, watches left]` each).
///
/// Events go out between replies, each as Redis sends a pub/sub message: `["message", channel,
/// event]`, an array in RESP2 and a push (`>`) in RESP3, where `channel` is the `SUBSCRIBE` channel
/// (for `WATCH`: `NEARBY` and its arguments, separated by spaces) and `event` one JSON object; after
/// `OUTPUT json` the JSON object alone, one a line (`WatchEventText`).
///
/// In RESP3 (and after `OUTPUT json`) the connection keeps running every command. In RESP2, a
/// connection holding a watch is in watch mode, as `SUBSCRIBE` puts a Redis connection: only
/// `WATCH`, `UNWATCH`, `SUBSCRIBE`, `UNSUBSCRIBE`, `PING` (answered `["pong", text]`) and `QUIT`
/// run until its last watch ends.
extension LineService {
    /// The commands a RESP2 connection in watch mode may run.
    static let watchModeCommands: Set<String> = ["WATCH", "UNWATCH", "SUBSCRIBE", "UNSUBSCRIBE", "PING", "QUIT"]

    /// Whether the session is in watch mode: RESP2 replies and a geo watch held.
    static func inWatchMode(_ session: Session) -> Bool {
        session.protocolVersion == 2 && !session.outputJSON && (session.watches?.count ?? 0) > 0
    }

    /// Whether a `WATCH` command is a geo watch (`WATCH NEARBY kind …` with at least five arguments).
    static func isGeoWatch(_ arguments: [String]) -> Bool {
        arguments.count >= 6 && arguments[1].uppercased() == "NEARBY"
    }

    /// The watch commands, and watch mode's refusals; nil for a command they leave to the rest.
    func watchStep(_ name: String, _ arguments: [String], _ session: inout Session) throws(CommandFailure)
        -> RESPReply?
    {
        let watchMode = LineService.inWatchMode(session)
        if watchMode, !LineService.watchModeCommands.contains(name) {
            // Redis 7.0's words (`processCommand`), with this mode's commands.
            throw .error(
                "Can't execute '\(arguments[0].lowercased())': only WATCH / UNWATCH / SUBSCRIBE / UNSUBSCRIBE / "
                    + "PING / QUIT are allowed in this context")
        }
        switch name {
        case "PING" where watchMode:
            guard arguments.count <= 2 else { throw .wrongArity(name) }
            return .array([.text("pong"), .text(arguments.count == 2 ? arguments[1] : "")])
        case "WATCH" where LineService.isGeoWatch(arguments):
            // Inside MULTI: refused by the transaction step, as every WATCH.
            guard session.transaction == nil else { return nil }
            let channel = arguments.dropFirst().joined(separator: " ")
            var rest = CommandArguments(command: "watch", values: Array(arguments.dropFirst(2)))
            let spec = try LineService.watchSpec(&rest)
            try LineService.admitQuery(ofKind: spec.kind, session)
            let id = try startWatch(spec, channel: channel, session)
            return .integer(Int(id))
        case "UNWATCH" where arguments.count > 1:
            try refuseInTransaction(name, &session)
            guard arguments.count == 2 else { throw .wrongArity(name) }
            guard let id = WatchID(arguments[1]) else {
                throw .error("invalid watch id \(PlacesError.quoted(arguments[1])): expected a number WATCH answered")
            }
            guard endWatch(id, session) != nil else { throw .error("no watch \(id) on this connection") }
            return .integer(1)
        case "UNWATCH" where watchMode && session.transaction == nil:
            session.watchedKeys = [:]
            _ = endWatches(nil, session)
            return .simpleString("OK")
        case "SUBSCRIBE":
            try refuseInTransaction(name, &session)
            var specs: [(channel: String, spec: WatchSpec)] = []
            for channel in arguments.dropFirst() {
                specs.append((channel, try LineService.watchSpec(channel: channel)))
            }
            var confirmations: [RESPReply] = []
            var started: [WatchID] = []
            for (channel, spec) in specs {
                // A channel subscribed already is confirmed again, not watched twice (as in Redis).
                if session.watches?.all.contains(where: { $0.channel == channel }) != true {
                    do {
                        try LineService.admitQuery(ofKind: spec.kind, session)
                        started.append(try startWatch(spec, channel: channel, session))
                    } catch {
                        // All or none: the channels before it are not left watched unconfirmed.
                        for id in started { endWatch(id, session) }
                        throw error
                    }
                }
                let count = session.watches?.count ?? 0
                confirmations.append(.push([.text("subscribe"), .text(channel), .integer(count)]))
            }
            return .sequence(confirmations)
        case "UNSUBSCRIBE":
            try refuseInTransaction(name, &session)
            // As Redis: one confirmation per channel named (a channel not subscribed too, with the
            // count); without a channel one per watch ended, or a null channel when none was held.
            var confirmations: [RESPReply] = []
            func confirm(_ channel: RESPReply, _ remaining: Int) {
                confirmations.append(.push([.text("unsubscribe"), channel, .integer(remaining)]))
            }
            if arguments.count == 1 {
                for ended in endWatches(nil, session) { confirm(.text(ended.channel), ended.remaining) }
                if confirmations.isEmpty { confirm(.nullBulk, session.watches?.count ?? 0) }
            } else {
                for channel in arguments.dropFirst() {
                    let ended = endWatches([channel], session)
                    if ended.isEmpty { confirm(.text(channel), session.watches?.count ?? 0) }
                    for watch in ended { confirm(.text(watch.channel), watch.remaining) }
                }
            }
            return .sequence(confirmations)
        default:
            return nil
        }
    }

    /// Refuses a watch command inside `MULTI` (and fails the transaction, as Redis does).
    private func refuseInTransaction(_ name: String, _ session: inout Session) throws(CommandFailure) {
        guard session.transaction != nil else { return }
        session.transaction?.failed = true
        throw .error("\(name) inside MULTI is not allowed")
    }

    /// Starts a watch for the session's connection, as its token allows.
    @discardableResult
    private func startWatch(_ spec: WatchSpec, channel: String, _ session: Session) throws(CommandFailure) -> WatchID {
        guard let watches = session.watches else { throw .error("watches need a connection of their own") }
        let subscriber = watches.subscriber()
        do {
            let id = try directory.watch(spec, presenting: session.token, for: subscriber)
            _ = watches.add(id, channel: channel)
            return id
        } catch {
            if case .error(let line) = LineService.reply(for: error) { throw CommandFailure(line: line) }
            throw .places(error)
        }
    }

    /// Ends one watch of the session's connection; its channel and the watches left, nil when the
    /// connection holds no such watch.
    @discardableResult
    private func endWatch(_ id: WatchID, _ session: Session) -> (channel: String, remaining: Int)? {
        guard let watches = session.watches, watches.channel(of: id) != nil, let subscriber = watches.current else {
            return nil
        }
        directory.unwatch(id, for: subscriber)
        return watches.remove(id)
    }

    /// Ends the watches on `channels` (every watch when nil); each one's channel and the watches
    /// left after it, in the order they were made.
    private func endWatches(_ channels: Set<String>?, _ session: Session) -> [(channel: String, remaining: Int)] {
        guard let watches = session.watches else { return [] }
        return watches.all.filter { channels?.contains($0.channel) ?? true }.compactMap { endWatch($0.id, session) }
    }

    /// A `SUBSCRIBE` channel that spells a watch: `NEARBY` and the arguments of `WATCH NEARBY`,
    /// separated by spaces or tabs.
    static func watchSpec(channel: String) throws(CommandFailure) -> WatchSpec {
        let words = channel.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.count >= 5, words[0].uppercased() == "NEARBY" else {
            throw .error(
                "channel \(PlacesError.quoted(channel)) is not a watch: expected \"NEARBY kind lat lon radius "
                    + "[UNIT u] [MODEL m]\" or \"NEARBY kind USER id radius [UNIT u] [MODEL m]\"")
        }
        var arguments = CommandArguments(command: "subscribe", values: Array(words.dropFirst()))
        return try watchSpec(&arguments)
    }

    /// `kind lat lon radius [UNIT u] [MODEL m]` or `kind USER id radius [UNIT u] [MODEL m]`, read
    /// with `NEARBY`'s rules and messages.
    static func watchSpec(_ arguments: inout CommandArguments) throws(CommandFailure) -> WatchSpec {
        guard arguments.remaining >= 4 else { throw .wrongArity(arguments.command) }
        let kind = try arguments.value(Vocabulary.queryKind)
        let center: WatchSpec.Center
        if arguments.take("USER") {
            center = .user(try arguments.next())
        } else {
            center = .point(try arguments.coordinate())
        }
        let radiusText = try arguments.next()
        var unit = DistanceUnit.meters
        var model = DistanceModel.geodesic
        while let option = arguments.option() {
            switch option {
            case "UNIT": unit = try arguments.value(Vocabulary.unit)
            case "MODEL":
                model = try arguments.model()
                if case .projected = model {
                    throw .error("invalid model \"projected\" for a watch: expected geodesic or haversine")
                }
            default:
                var hints = redisOptionHints
                hints["LIMIT"] = "a watch reports every place within the radius"
                hints["WITHCOORD"] = "every event has the coordinates"
                throw .unexpected(arguments.previous, after: "the radius", expected: ["UNIT", "MODEL"], hints: hints)
            }
        }
        let radius: Double
        do { radius = try Vocabulary.distance("radius", unit: unit).parse(radiusText) } catch { throw .places(error) }
        return WatchSpec(kind: kind, center: center, radiusMeters: radius, model: model)
    }
}

/// How a watch's event is written: one JSON object, alone on a line after `OUTPUT json`, else the
/// payload of a pub/sub message `["message", channel, json]` (an array in RESP2, a push in RESP3).
///
/// `{"watch":7,"event":"enter","position":42,"id":"omur","name":"Omur","lat":41.087853,
/// "lon":29.014096,"distance":131.9361,"bearing":252.1}`: `position` is the change-log position
/// that caused it; `distance` meters from the centre with 4 decimals and `bearing` degrees
/// clockwise from north with 1 decimal, as `NEARBY` prints them (under the watch's model); `ready`
/// has no object; `center` (a roaming watch's centre moved) has the new centre's `lat` and `lon`
/// (null when the user has no location); `reset` and `closed` have a `message`.
enum WatchEventText {
    /// The event as one JSON object (no line end).
    static func json(_ event: WatchEvent) -> ByteBuffer {
        var out = ByteBuffer()
        out.reserveCapacity(192)
        out.writeString("{\"watch\":\(event.watch),\"event\":\"\(event.kind.rawValue)\",\"position\":\(event.position)")
        if let object = event.object {
            out.writeStaticString(",\"id\":")
            RESPReplyEncoder.writeJSONString(object.id.utf8, to: &out)
            out.writeStaticString(",\"name\":")
            RESPReplyEncoder.writeJSONString(object.name.utf8, to: &out)
            out.writeString(
                ",\"lat\":\(NumberText.plain(object.coordinate.latitude)),\"lon\":"
                    + NumberText.plain(object.coordinate.longitude))
            if let (distance, bearing) = event.measure() {
                out.writeString(
                    ",\"distance\":\(LineService.fixed(distance, decimals: 4)),\"bearing\":"
                        + LineService.bearingText(bearing))
            }
        } else if event.kind == .center {
            if let center = event.center {
                out.writeString(
                    ",\"lat\":\(NumberText.plain(center.latitude)),\"lon\":\(NumberText.plain(center.longitude))")
            } else {
                out.writeStaticString(",\"lat\":null,\"lon\":null")
            }
        }
        if let message = event.message {
            out.writeStaticString(",\"message\":")
            RESPReplyEncoder.writeJSONString(message.utf8, to: &out)
        }
        out.writeStaticString("}")
        return out
    }

    /// The bytes to write for the event on a connection in `format`.
    static func write(_ event: WatchEvent, channel: String, format: RESPReplyEncoder.Format, to out: inout ByteBuffer) {
        var payload = json(event)
        if format == .json {
            payload.writeStaticString("\n")
            out.writeImmutableBuffer(payload)
            return
        }
        RESPReplyEncoder.write(
            .push([.text("message"), .text(channel), .bulkString(payload)]), format: format, to: &out)
    }
}
