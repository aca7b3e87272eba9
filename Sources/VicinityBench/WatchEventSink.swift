import Foundation
import Places
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The consumer side of `vicinity-bench watches`: subscribers whose `wake` marks them ready, and
/// one thread that takes their events and counts them — discarding them, or formatting each as a
/// front end would (`measure()`, then a line of text) — and optionally keeps the `enter`, `exit`
/// and `move` events for a comparison.
final class WatchEventSink: @unchecked Sendable {
    /// Counters of what the consumer took, read from any thread.
    struct Counts: Sendable {
        var events = 0
        var byKind: [WatchEvent.Kind: Int] = [:]
        var formattedBytes = 0
        /// The consumer thread's CPU time so far, seconds (user + system).
        var cpuSeconds = 0.0
    }

    /// One kept event: the change's position, the watch, the object's id, and the kind.
    struct Kept: Hashable, Sendable {
        var position: LogPosition
        var watch: WatchID
        var object: String
        var kind: WatchEvent.Kind
    }

    /// Whether the consumer formats each event (`measure()` and a line of text) or only counts it.
    let formatting = Atomic<Bool>(false)
    /// Whether the consumer keeps `enter`/`exit`/`move` events (`kept`).
    let keeping = Atomic<Bool>(false)
    private(set) var subscribers: [WatchSubscriber] = []
    private let ready = Mutex<[Int]>([])
    private let signal = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let state = Mutex(Counts())
    private let keptEvents = Mutex<[Kept]>([])
    private let finished = DispatchSemaphore(value: 0)

    /// Whether `wake` signals the consumer thread (a semaphore: a system call on the applying
    /// thread whenever the consumer sleeps) or only marks the subscriber, the consumer looking
    /// every `pollInterval` seconds.
    let signalling: Bool
    static let pollInterval = 0.001

    /// - Parameters:
    ///   - subscribers: how many subscribers to make, 1 or more.
    ///   - capacity: each one's queue capacity, events.
    ///   - signalling: whether a wake-up signals the consumer, or it polls every millisecond.
    init(subscribers count: Int, capacity: Int, signalling: Bool) {
        self.signalling = signalling
        for index in 0..<max(1, count) {
            subscribers.append(
                WatchSubscriber(capacity: capacity) { [weak self] in
                    guard let self else { return }
                    self.ready.withLock { $0.append(index) }
                    if self.signalling { self.signal.signal() }
                })
        }
        let thread = Thread { [self] in run() }
        thread.name = "watch-consumer"
        thread.start()
    }

    var counts: Counts { state.withLock { $0 } }

    /// The kept events so far, taken (the list starts empty again).
    func takeKept() -> [Kept] {
        keptEvents.withLock { kept in
            defer { kept = [] }
            return kept
        }
    }

    /// Stops the consumer thread once it has taken what is queued now.
    func stop() {
        stopping.store(true, ordering: .releasing)
        signal.signal()
        finished.wait()
    }

    private func run() {
        var line = ""
        line.reserveCapacity(256)
        while true {
            if signalling {
                signal.wait()
            } else {
                Thread.sleep(forTimeInterval: Self.pollInterval)
            }
            let indices = ready.withLock { ready in
                defer { ready = [] }
                return ready
            }
            var taken = 0
            var byKind: [WatchEvent.Kind: Int] = [:]
            var bytes = 0
            let format = formatting.load(ordering: .relaxed)
            let keep = keeping.load(ordering: .relaxed)
            var kept: [Kept] = []
            for index in Set(indices) {
                while true {
                    let events = subscribers[index].take()
                    if events.isEmpty { break }
                    taken += events.count
                    for event in events {
                        byKind[event.kind, default: 0] += 1
                        if format { bytes += Self.format(event, into: &line) }
                        if keep, let object = event.object, [.enter, .exit, .move].contains(event.kind) {
                            kept.append(
                                Kept(position: event.position, watch: event.watch, object: object.id, kind: event.kind))
                        }
                    }
                }
            }
            if !kept.isEmpty { keptEvents.withLock { $0 += kept } }
            let cpu = Self.threadCPUSeconds()
            state.withLock { counts in
                counts.events += taken
                counts.byKind.merge(byKind, uniquingKeysWith: +)
                counts.formattedBytes += bytes
                counts.cpuSeconds = cpu
            }
            if stopping.load(ordering: .acquiring) && ready.withLock({ $0.isEmpty }) { break }
        }
        finished.signal()
    }

    /// What a front end does with an event before sending it: the distance and bearing
    /// (`measure()`, exact, from the watch's centre) and one line of text with the kind, the
    /// position, the object's id and name, the distance to 4 decimals and the bearing to 1.
    /// Returns the line's length in bytes.
    static func format(_ event: WatchEvent, into line: inout String) -> Int {
        line.removeAll(keepingCapacity: true)
        line += event.kind.rawValue
        line += " "
        line += String(event.position)
        if let object = event.object {
            line += " "
            line += object.id
            line += " "
            line += object.name
            if let (distance, bearing) = event.measure() {
                line += " "
                line += fixed(distance, decimals: 4)
                line += " "
                line += fixed(bearing, decimals: 1)
            }
        }
        return line.utf8.count
    }

    /// `value` with `decimals` digits after the point, without Foundation's `String(format:)`.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        var digits = String(fraction)
        while digits.count < decimals { digits = "0" + digits }
        return (value < 0 ? "-" : "") + String(whole) + "." + digits
    }

    /// The calling thread's CPU time, user + system, in seconds (the kernel's per-thread CPU clock).
    static func threadCPUSeconds() -> Double { cpuSeconds(CLOCK_THREAD_CPUTIME_ID) }

    /// The whole process's CPU time, every thread's user + system, in seconds (the same as
    /// `getrusage(RUSAGE_SELF)`, to the nanosecond).
    static func processCPUSeconds() -> Double { cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) }

    private static func cpuSeconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
