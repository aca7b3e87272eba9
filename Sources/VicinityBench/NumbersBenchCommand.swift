import ArgumentParser
import Geo
import PlaceQueries
import VicinityCLI

/// `vicinity-bench bench-numbers`: what writing a served number costs, the shortest round-trip
/// text against the fixed-decimal writer, in the same run.
struct NumbersBenchCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-numbers",
        abstract: "Benchmark writing served numbers: shortest round-trip text against fixed decimals.",
        discussion: """
            The numbers are those of a 5 km answer: distances (0 to 5,000 m, 3 decimals), \
            bearings (0 to 360°, 2 decimals), coordinates (near 41° N 29° E, 7 decimals), in turn. \
            Each row writes all of them as ASCII into one buffer, as /v1/nearby does: "shortest" \
            is the Double's shortest round-trip text (Double.write(to:), the writer before \
            fixed decimals), "fixed" is RoundedDecimal.write, "served" rounds the raw value first \
            (QueryHit.served) and then writes it with fixed decimals, as the server now does. \
            Reports nanoseconds a number, the median of the passes.
            """)

    @Option(help: "Numbers a pass.") var numbers = 1_000_000
    @Option(help: "Passes; the median is reported.") var passes = 7
    @Option(help: "Random seed.") var seed: UInt64 = 20_261_126

    func execute(_ output: inout CommandOutput) throws {
        var random = SplitMix64(seed: seed)
        let decimals = [ServedPrecision.distanceDecimals, ServedPrecision.bearingDecimals, 7, 7]
        let values = (0..<numbers).map { index -> Double in
            switch index % 4 {
            case 0: return random.nextUnit() * 5_000
            case 1: return random.nextUnit() * 360
            case 2: return 41 + random.nextUnit() * 0.1
            default: return 29 + random.nextUnit() * 0.1
            }
        }
        let served = values.indices.map { ServedPrecision.rounded(values[$0], decimals: decimals[$0 % 4]) }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: numbers * 32)
        defer { buffer.deallocate() }

        func measure(_ write: (Int) -> Int) -> (nanoseconds: Double, bytes: Int) {
            var timings: [Double] = []
            var bytes = 0
            for _ in 0..<passes {
                let clock = ContinuousClock()
                bytes = 0
                let elapsed = clock.measure {
                    for index in 0..<numbers { bytes += write(index) }
                }
                timings.append(elapsed.seconds * 1e9 / Double(numbers))
            }
            return (timings.sorted()[timings.count / 2], bytes)
        }

        let shortest = measure { index in
            let value = served[index]
            // As `JSONText.number` writes: integral values as integers, others the shortest text.
            if value == value.rounded(.towardZero) { return ByteSink.integer(Int(value), to: buffer) }
            var sink = ByteSink(start: buffer)
            value.write(to: &sink)
            return sink.written
        }
        let fixed = measure { index in
            guard let rounded = RoundedDecimal(served[index], decimals: decimals[index & 3]) else { return 0 }
            return rounded.write(to: buffer, trimmed: true)
        }
        let servedRow = measure { index in
            let value = ServedPrecision.rounded(values[index], decimals: decimals[index & 3])
            guard let rounded = RoundedDecimal(value, decimals: decimals[index & 3]) else { return 0 }
            return rounded.write(to: buffer, trimmed: true)
        }
        output.line(
            "bench-numbers: \(numbers) numbers (distances, bearings, latitudes, longitudes), median of \(passes)")
        output.line("shortest (Double.write)     \(format(shortest.nanoseconds)) ns/number  \(shortest.bytes) bytes")
        output.line("fixed (RoundedDecimal)      \(format(fixed.nanoseconds)) ns/number  \(fixed.bytes) bytes")
        output.line("served (round, then fixed)  \(format(servedRow.nanoseconds)) ns/number  \(servedRow.bytes) bytes")
        output.line(
            "shortest / fixed: \(format(shortest.nanoseconds / fixed.nanoseconds))x, "
                + "shortest / served: \(format(shortest.nanoseconds / servedRow.nanoseconds))x")
        // The same digits, or the comparison is void.
        if shortest.bytes != fixed.bytes || fixed.bytes != servedRow.bytes {
            output.line("warning: the writers wrote different texts")
        }
    }

    private func format(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        return "\(Int(hundredths) / 100).\(Int(hundredths) % 100 < 10 ? "0" : "")\(Int(hundredths) % 100)"
    }
}

/// Receives a `Double`'s shortest text from the standard library as ASCII bytes, as the HTTP
/// front end's `JSONText` did before fixed decimals: a frozen copy of that writer, kept as the
/// baseline the fixed-decimal writer is timed against, so it must not follow `JSONText`'s changes.
private struct ByteSink: TextOutputStream {
    let start: UnsafeMutablePointer<UInt8>
    var written = 0

    init(start: UnsafeMutablePointer<UInt8>) { self.start = start }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        (start + written).update(from: source, count: buffer.count)
        written += buffer.count
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _writeASCII($0) }
    }

    /// Writes a non-negative whole number's digits at `start`; returns their count.
    static func integer(_ value: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var limit = 10
        while value >= limit {
            digits += 1
            limit *= 10
        }
        var rest = value
        for position in stride(from: digits - 1, through: 0, by: -1) {
            start[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        return digits
    }
}
