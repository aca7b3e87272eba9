import Geo
import Places

/// Errors the `vicinity` command line reports, each with the exit code it ends with.
///
/// Exit codes follow sysexits(3): 64 usage (a bad argument), 65 data (a bad row or value in a
/// data file), 66 no input (a file that cannot be read), 70 software (a bug; please report).
public enum CLIError: Error, CustomStringConvertible, Sendable {
    /// A command-line value that is not acceptable; the message names it and the valid range.
    case usage(String)
    /// A data file with bad content.
    case data(String)
    /// A file that cannot be read.
    case noInput(String)
    /// Something that should not happen.
    case internalError(String)

    public var description: String {
        switch self {
        case .usage(let message), .data(let message), .noInput(let message), .internalError(let message):
            return message
        }
    }

    /// The process exit code for this error.
    public var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .data: return 65
        case .noInput: return 66
        case .internalError: return 70
        }
    }
}
