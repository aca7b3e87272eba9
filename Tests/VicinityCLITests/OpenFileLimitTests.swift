import Foundation
import Testing

@testable import VicinityCLI

/// `serve` raises the soft limit of open files for its clients, and says when the hard limit is
/// too low for --max-clients.
@Suite struct OpenFileLimitTests {
    static func limits() -> rlimit {
        var limit = rlimit()
        _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return limit
    }

    @Test func theSoftLimitIsRaisedAndATooLowHardLimitIsReported() {
        let hard = Self.limits().rlim_max
        guard hard < rlim_t(Int32.max) else { return }  // unlimited: nothing to report
        #expect(ServeCommand.raiseOpenFileLimit(wanted: 10, needed: 10) == nil)
        let tooMany = Int(hard)
        let warning = ServeCommand.raiseOpenFileLimit(wanted: tooMany, needed: tooMany)
        #expect(
            warning?.contains("cannot hold the \(tooMany) clients of --max-clients") == true,
            "\(String(describing: warning))")
        #expect(Self.limits().rlim_cur == hard, "raised as far as the hard limit allows")
    }
}
