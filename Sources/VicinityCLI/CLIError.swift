import Geo
import Places

/// Errors the `vicinity` command line reports, each with the exit code it ends with.
///
/// Exit codes follow sysexits(3): 64 usage (a bad argument), 65 data (a bad row or value in a
/// data file), 66 no input (a file that cannot be read), 67 no such user or place, 70 software (a
/// bug; please report), 73 cannot create (the database), 74 I/O error (the database refused a
/// write), 77 no permission (a missing or wrong token).
public enum CLIError: Error, CustomStringConvertible, Sendable {
    /// A command-line value that is not acceptable; the message names it and the valid range.
    case usage(String)
    /// A data file with bad content.
    case data(String)
    /// A file that cannot be read.
    case noInput(String)
    /// A user or place that does not exist (or that the token may not see).
    case notFound(String)
    /// Something that should not happen.
    case internalError(String)
    /// A file that cannot be created.
    case cannotCreate(String)
    /// A write the database refused.
    case ioError(String)
    /// An action the token given (or its absence) does not allow.
    case noPermission(String)

    public var description: String {
        switch self {
        case .usage(let message), .data(let message), .noInput(let message), .notFound(let message),
            .internalError(let message), .cannotCreate(let message), .ioError(let message), .noPermission(let message):
            return message
        }
    }

    /// The process exit code for this error.
    public var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .data: return 65
        case .noInput: return 66
        case .notFound: return 67
        case .internalError: return 70
        case .cannotCreate: return 73
        case .ioError: return 74
        case .noPermission: return 77
        }
    }
}
