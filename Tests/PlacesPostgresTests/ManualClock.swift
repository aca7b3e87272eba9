import Foundation
import Places
import Synchronization

/// A clock a test sets by hand (`PrivacySettings.now`), so timers fall due without sleeping.
final class ManualClock: Sendable {
    private let time: Mutex<Date>

    /// - Parameter start: seconds since 1970; whole, as stored timers are.
    init(start: Double = 1_800_000_000) { time = Mutex(Date(timeIntervalSince1970: start)) }

    var now: Date { time.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    func advance(_ seconds: Double) { time.withLock { $0 += seconds } }

    /// The time `seconds` after now.
    func inSeconds(_ seconds: Double) -> Date { now.addingTimeInterval(seconds) }

    /// Privacy settings that read this clock.
    func privacy(_ precision: LocationPrecision = .street, locationTTLSeconds: Int = 3_600) -> PrivacySettings {
        PrivacySettings(defaultPrecision: precision, locationTTLSeconds: locationTTLSeconds, now: { self.now })
    }
}
