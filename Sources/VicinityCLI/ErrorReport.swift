/// The one line an error leaves on standard error: `vicinity: MESSAGE`, or with `--json` on the
/// command line a JSON document, `{"error":"MESSAGE","exit_code":64}`, so a program reading the
/// output as JSON can read the failure too. The message and the exit code are the same either way.
struct ErrorReport {
    /// The message, without the program name.
    var message: String
    /// The process's exit status (sysexits: 64 usage, 65 data, 66 no input, …).
    var exitCode: Int32
    /// What starts the plain-text line (`vicinity`).
    var programName: String
    var asJSON: Bool

    /// The line to write, without its newline.
    var line: String {
        guard asJSON else { return "\(programName): \(message)" }
        struct Document: Encodable {
            var error: String
            var exit_code: Int32
        }
        return (try? JSONOutput.encode(Document(error: message, exit_code: exitCode)))
            ?? "{\"error\":\"internal error\",\"exit_code\":70}"
    }

    /// Whether the command line asks for JSON output: `--json` before any `--`.
    static func wantsJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }
}
