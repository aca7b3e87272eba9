import NIOCore
import NIOPosix
import OpenAPIRuntime
import Places
import ServiceLifecycle
import Synchronization

/// One watch served as Server-Sent Events: a `WatchSubscriber` of its own, and the response body
/// that writes its events (`body`).
///
/// The body is pulled: Hummingbird asks for the next piece only once the previous one is written
/// (`NIOAsyncChannelOutboundWriter` waits while the socket is full), and only then are events
/// taken from the subscriber. A client that reads slowly therefore leaves them in the
/// subscriber's bounded queue, where the directory closes the subscriber once it would hold more
/// than `WatchStreamSettings.queueCapacity`: the stream then sends the final `closed` event and
/// ends. Nothing else waits for it. While the stream has nothing to write it waits on `wake`
/// (an `AsyncStream` holding at most one pending signal) for events, the heartbeat, the client
/// hanging up or the server stopping (seen by a task of its own that lives as long as the stream).
///
/// A timer on the connection's event loop ticks every second (or every heartbeat, when shorter):
/// it wakes the writer for a heartbeat after `heartbeatSeconds` of silence, and closes the
/// connection of a client that reads nothing at all once its subscriber was closed, or the server
/// began to stop, and `stallSeconds` passed (its final events can never reach it).
///
/// However the stream ends — its last event written, the client gone, the server stopping, the
/// body dropped unread (HEAD) — the watch is ended: `finish()` on the way out, and `deinit` for
/// the ways out that never reach it.
final class WatchEventStream: Sendable {
    private struct State {
        /// When the last piece was handed to the writer.
        var lastWrite: NIODeadline
        /// A piece was handed to the writer and it has not asked for the next: it is writing, or
        /// waiting for the client to read.
        var writing = false
        /// When the writer was first seen waiting with the subscriber closed.
        var stalledSince: NIODeadline?
        /// The connection closed (or its client hung up).
        var disconnected = false
        /// The server is shutting down gracefully.
        var stopping = false
        /// The last piece was handed over: nothing follows.
        var finished = false
        /// The watch was ended (`finish`).
        var ended = false
        var timer: RepeatedTask?
    }

    let directory: DurableDirectory
    let subscriber: WatchSubscriber
    let watch: WatchID
    let spec: WatchSpec
    let settings: WatchStreamSettings
    private let channel: (any Channel)?
    private let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation
    /// Finished when the stream ends (the shutdown watcher's wait).
    private let endings = AsyncStream.makeStream(of: Void.self)
    private let state: Mutex<State>

    private init(
        directory: DurableDirectory, subscriber: WatchSubscriber, watch: WatchID, spec: WatchSpec,
        settings: WatchStreamSettings, channel: (any Channel)?,
        signals: (AsyncStream<Void>, AsyncStream<Void>.Continuation)
    ) {
        self.directory = directory
        self.subscriber = subscriber
        self.watch = watch
        self.spec = spec
        self.settings = settings
        self.channel = channel
        (self.signals, self.signal) = signals
        state = Mutex(State(lastWrite: .now()))
    }

    deinit { finish() }

    /// Starts `spec` for a new subscriber (queueing its snapshot, or with `after` what was
    /// missed since that position) and returns the stream that sends it.
    ///
    /// - Parameters:
    ///   - token: who asks, as `DurableDirectory.watch` takes it.
    ///   - channel: the request's connection: its closing ends the stream, and its event loop
    ///     runs the timer; nil (tests without a socket): the stream ends when its reader stops.
    /// - Throws: what `DurableDirectory.watch` throws; nothing is left behind then.
    static func open(
        _ spec: WatchSpec, presenting token: String?, after position: LogPosition?, directory: DurableDirectory,
        settings: WatchStreamSettings, channel: (any Channel)?
    ) throws(PlacesError) -> WatchEventStream {
        let signals = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let signal = signals.continuation
        let subscriber = WatchSubscriber(capacity: settings.queueCapacity) { signal.yield() }
        let watch: WatchID
        do {
            watch = try directory.watch(spec, presenting: token, after: position, for: subscriber)
        } catch {
            directory.unwatchAll(for: subscriber)
            signal.finish()
            throw error
        }
        let stream = WatchEventStream(
            directory: directory, subscriber: subscriber, watch: watch, spec: spec, settings: settings,
            channel: channel, signals: (signals.stream, signal))
        stream.start()
        return stream
    }

    /// The response body: the events as they come, for as long as the stream lasts. Iterated
    /// once.
    var body: HTTPBody { HTTPBody(Pieces(stream: self), length: .unknown, iterationBehavior: .single) }

    // MARK: - Signals (any thread)

    private func start() {
        let loop = channel?.eventLoop ?? MultiThreadedEventLoopGroup.singleton.any()
        let period = TimeAmount.nanoseconds(Int64(min(settings.heartbeatSeconds, 1) * 1e9))
        let timer = loop.scheduleRepeatedTask(initialDelay: period, delay: period) { [weak self] task in
            guard let self else { return task.cancel() }
            self.tick()
        }
        let ended = state.withLock { state in
            state.timer = timer
            return state.ended
        }
        if ended { timer.cancel() }
        channel?.closeFuture.whenComplete { [weak self] _ in self?.hangUp() }
        // The server's graceful shutdown, seen by a task that lives as long as the stream (it
        // inherits the request's task-local shutdown context): the writer may be blocked on a
        // client that reads nothing, and the server waits for every response to end.
        // The task holds the stream weakly: its end (`finish`, from `deinit` at the latest) ends the task.
        let ending = endings.stream
        let stop: @Sendable () -> Void = { [weak self] in self?.stop() }
        Task {
            await withGracefulShutdownHandler {
                for await _ in ending {}
            } onGracefulShutdown: {
                stop()
            }
        }
    }

    /// The timer: a heartbeat owed, or a connection to close.
    private func tick() {
        let now = NIODeadline.now()
        let closed = subscriber.isClosed
        let heartbeat = TimeAmount.nanoseconds(Int64(settings.heartbeatSeconds * 1e9))
        let stall = TimeAmount.nanoseconds(Int64(settings.stallSeconds * 1e9))
        let (wakeWriter, closeConnection) = state.withLock { state -> (Bool, Bool) in
            guard state.writing else { return (now - state.lastWrite >= heartbeat, false) }
            // A client that reads nothing can take neither its final events nor the server's
            // `closed`: its connection is closed once `stallSeconds` have passed.
            guard closed || state.stopping else {
                state.stalledSince = nil
                return (false, false)
            }
            let since = state.stalledSince ?? now
            state.stalledSince = since
            return (false, now - since >= stall)
        }
        if wakeWriter { signal.yield() }
        if closeConnection { channel?.close(promise: nil) }
    }

    /// The connection closed: the stream ends.
    private func hangUp() {
        state.withLock { $0.disconnected = true }
        signal.yield()
    }

    /// The server is stopping: the stream sends `closed` and ends.
    func stop() {
        state.withLock { $0.stopping = true }
        signal.yield()
    }

    /// Ends the watch, the timer and the signals (once; later calls do nothing).
    func finish() {
        let timer = state.withLock { state -> RepeatedTask?? in
            guard !state.ended else { return nil }
            state.ended = true
            state.finished = true
            return .some(state.timer)
        }
        guard let timer else { return }
        timer?.cancel()
        signal.finish()
        endings.continuation.finish()
        directory.unwatchAll(for: subscriber)
    }

    // MARK: - The writer

    /// What the writer does next.
    enum Step {
        case send(ArraySlice<UInt8>)
        case wait
        case end
    }

    /// The writer has written the last piece it was given and asks for the next.
    func written() {
        state.withLock { state in
            state.writing = false
            state.stalledSince = nil
        }
    }

    /// The next piece to write, if any: the events queued (the stream's last when they end it),
    /// a heartbeat, or nothing yet.
    func step() -> Step {
        // Read before taking: a subscriber closed after the take still has its final events queued.
        let closedBefore = subscriber.isClosed
        let (finished, disconnected, stopping) = state.withLock { ($0.finished, $0.disconnected, $0.stopping) }
        if finished || disconnected { return .end }
        if stopping {
            directory.unwatchAll(for: subscriber)
            let last = WatchEvent(
                watch: watch, kind: .closed, position: directory.appliedPosition, model: spec.model,
                message: "the server is stopping")
            return handOver(WatchEventText.stream([last], kind: spec.kind), last: true)
        }
        let events = subscriber.take()
        if !events.isEmpty {
            let last = closedBefore || events.contains { $0.kind == .closed }
            return handOver(WatchEventText.stream(events, kind: spec.kind), last: last)
        }
        if closedBefore { return .end }
        let heartbeat = TimeAmount.nanoseconds(Int64(settings.heartbeatSeconds * 1e9))
        let due = state.withLock { NIODeadline.now() - $0.lastWrite >= heartbeat }
        return due ? handOver(WatchEventText.keepAlive, last: false) : .wait
    }

    private func handOver(_ piece: ArraySlice<UInt8>, last: Bool) -> Step {
        state.withLock { state in
            state.lastWrite = .now()
            state.writing = true
            if last { state.finished = true }
        }
        return .send(piece)
    }

    /// Waits for a signal; false when there will be none (the stream finished, the task was
    /// cancelled).
    func wait(on signals: inout AsyncStream<Void>.Iterator) async -> Bool {
        await signals.next() != nil
    }

    /// The body's bytes: `step` by `step`.
    struct Pieces: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        let stream: WatchEventStream

        func makeAsyncIterator() -> Iterator { Iterator(stream: stream, signals: stream.signals.makeAsyncIterator()) }

        struct Iterator: AsyncIteratorProtocol {
            let stream: WatchEventStream
            var signals: AsyncStream<Void>.Iterator

            mutating func next() async -> ArraySlice<UInt8>? {
                stream.written()
                while true {
                    switch stream.step() {
                    case .send(let piece):
                        return piece
                    case .end:
                        stream.finish()
                        return nil
                    case .wait:
                        guard await stream.wait(on: &signals) else {
                            stream.finish()
                            return nil
                        }
                    }
                }
            }
        }
    }
}
