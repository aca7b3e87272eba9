import Foundation

/// A one-line progress bar on standard error, redrawn in place: done/total, rows per second and
/// the time left. Drawn only when standard error is a terminal; otherwise it says nothing.
final class ProgressBar {
    private let total: Int
    private let label: String
    private let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDrawn: UInt64 = 0

    /// Whether the total is known; without it the bar shows the count and the rate alone.
    private let known: Bool

    /// A bar for `total` rows (0 or less: not known in advance).
    init(total: Int, label: String, enabled: Bool) {
        known = total > 0
        self.total = max(total, 1)
        self.label = label
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Redraws at most ten times a second, and always at the end.
    func update(_ done: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard (known && done >= total) || now - lastDrawn > 100_000_000 else { return }
        lastDrawn = now
        let seconds = max(Double(now - start) / 1e9, 1e-3)
        let rate = Double(done) / seconds
        guard known else {
            let line = "\r\(label) \(done) rows, \(Int(rate)) rows/s, \(String(format: "%.1f", seconds)) s\u{1B}[K"
            FileHandle.standardError.write(Data(line.utf8))
            return
        }
        let fraction = min(1, Double(done) / Double(total))
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let left = rate > 0 ? Double(total - done) / rate : 0
        let line =
            "\r\(label) \(bar) \(Int(fraction * 100))% \(done)/\(total) rows, \(Int(rate)) rows/s, "
            + (done >= total ? "done in \(String(format: "%.1f", seconds)) s" : "ETA \(String(format: "%.0f", left)) s")
            + "\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Ends the bar's line.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
