import Foundation
import Synchronization

/// The `Date` header's text (RFC 9110 §5.6.7, IMF-fixdate: `Thu, 26 Nov 2026 11:53:05 GMT`), as
/// Hummingbird adds it to every answer; made once a second.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current second's text.
    static var now: String {
        let second = Int(time(nil))
        return cache.withLock { cache in
            if cache.second != second { cache = (second, text(secondsSince1970: second)) }
            return cache.text
        }
    }

    /// The text of a moment, whole seconds since 1970-01-01T00:00:00Z.
    static func text(secondsSince1970 seconds: Int) -> String {
        var moment = time_t(seconds)
        var parts = tm()
        gmtime_r(&moment, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
