import ArgumentParser
import Foundation
import Geo
import Places

/// Entry point of the `vicinity` command line, separated from `@main` so tests can run any
/// command line in-process and read what it printed and its exit code.
public enum CLI {
    /// What one run printed and how it ended.
    public struct Outcome: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs the command line as a process would, then exits with its status.
    public static func main() -> Never { main(VicinityCommand.self, programName: "vicinity") }

    /// `main()` for another root command: the `vicinity-bench` tools, which are not shipped in
    /// `vicinity` but print, fail and exit as it does. `programName` starts every error message.
    package static func main(_ root: any ParsableCommand.Type, programName: String) -> Never {
        let outcome = run(root, programName: programName, Array(CommandLine.arguments.dropFirst()), streaming: true)
        // In streaming mode only text produced outside a command (help) is left to write here.
        if !outcome.standardOutput.isEmpty { FileHandle.standardOutput.write(Data(outcome.standardOutput.utf8)) }
        if !outcome.standardError.isEmpty { FileHandle.standardError.write(Data(outcome.standardError.utf8)) }
        exit(outcome.status)
    }

    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - streaming: write standard output as it is produced (for the real process) rather than
    ///     collecting it in the outcome (for tests).
    ///   - environment: the environment variables the run sees (the process's by default).
    ///   - standardInput: what `-` reads instead of the process's standard input (for tests).
    public static func run(
        _ arguments: [String], streaming: Bool = false, environment: [String: String]? = nil,
        standardInput: [UInt8]? = nil
    ) -> Outcome {
        let body = {
            run(
                VicinityCommand.self, programName: "vicinity", arguments, streaming: streaming, environment: environment
            )
        }
        guard let standardInput else { return body() }
        return StandardInput.$given.withValue(standardInput, operation: body)
    }

    /// `run(_:streaming:environment:)` for another root command, whose messages start with
    /// `programName` (see `main(_:programName:)`).
    package static func run(
        _ root: any ParsableCommand.Type, programName: String, _ arguments: [String], streaming: Bool = false,
        environment: [String: String]? = nil
    ) -> Outcome {
        let body = { runCommand(root, programName: programName, arguments, streaming: streaming) }
        guard let environment else { return body() }
        return CLIEnvironment.$current.withValue(environment, operation: body)
    }

    private static func runCommand(
        _ root: any ParsableCommand.Type, programName: String, _ arguments: [String], streaming: Bool
    ) -> Outcome {
        var output = CommandOutput(streaming: streaming)
        let failure: (status: Int32, message: String)
        do {
            var command = try root.parseAsRoot(shieldNegativeNumbers(arguments))
            if let runnable = command as? OutputCommand {
                try runnable.execute(&output)
            } else {
                try command.run()
            }
            output.flush()
            return Outcome(status: 0, standardOutput: output.collected, standardError: output.diagnostics)
        } catch let error as GeoError {
            failure = (CLIError.usage("").exitCode, error.description)
        } catch let error as PlacesError {
            failure = (CLIError(error).exitCode, error.description)
        } catch let error as CLIError {
            failure = (error.exitCode, error.description)
        } catch {
            let code = root.exitCode(for: error).rawValue
            let message = root.message(for: error)
            if code == 0 {
                // --help and --version: a clean exit with text for standard output.
                output.flush()
                return Outcome(status: 0, standardOutput: output.collected + message + "\n", standardError: "")
            }
            let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
            let hint = firstLine.lowercased().hasPrefix("error: ") ? String(firstLine.dropFirst(7)) : firstLine
            let sentence = hint.prefix(1).lowercased() + hint.dropFirst()
            let text = Suggestion.forParserError(sentence, root: root, arguments: arguments) ?? sentence
            failure = (code == 1 ? CLIError.internalError("").exitCode : code, text)
        }
        output.flush()
        let report = ErrorReport(
            message: failure.message, exitCode: failure.status, programName: programName,
            asJSON: ErrorReport.wantsJSON(arguments))
        return Outcome(
            status: failure.status, standardOutput: output.collected,
            standardError: output.diagnostics + report.line + "\n")
    }

    /// Negative numbers ("-33.9", "-.5", "-1e3", "-inf") are values, not options: a leading space
    /// keeps ArgumentParser from reading them as flags, and every value parser trims it.
    static func shieldNegativeNumbers(_ arguments: [String]) -> [String] {
        var shielded: [String] = []
        var afterTerminator = false
        for argument in arguments {
            if argument == "--" { afterTerminator = true }
            if !afterTerminator, looksLikeNegativeNumber(argument) {
                shielded.append(" " + argument)
            } else {
                shielded.append(argument)
            }
        }
        return shielded
    }

    static func looksLikeNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let rest = text.dropFirst()
        if let first = rest.first, first.isNumber || (first == "." && rest.count > 1) { return true }
        return ["inf", "infinity", "nan"].contains(rest.lowercased())
    }
}

/// Standard output of one run: streamed to the terminal or collected for a test.
public struct CommandOutput {
    package let streaming: Bool
    package private(set) var collected = ""
    /// Warnings and progress for standard error (collected in both modes; progress is streamed).
    package private(set) var diagnostics = ""
    private var pending = ""

    package init(streaming: Bool) { self.streaming = streaming }

    /// Appends a line (a newline is added).
    package mutating func line(_ text: String = "") {
        if streaming {
            pending += text + "\n"
            if pending.utf8.count > 1 << 16 { flush() }
        } else {
            collected += text + "\n"
        }
    }

    /// Appends text as it is (no newline added).
    package mutating func write(_ text: String) {
        if streaming {
            pending += text
            if pending.utf8.count > 1 << 16 { flush() }
        } else {
            collected += text
        }
    }

    /// A progress note for a person at a terminal: streamed to standard error, never collected.
    package func progress(_ text: String) {
        if streaming { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    }

    package mutating func warning(_ text: String) { diagnostics += "vicinity: warning: \(text)\n" }

    /// Something a person should know that is not a problem (a database created), for standard error.
    package mutating func note(_ text: String) { diagnostics += "vicinity: \(text)\n" }

    package mutating func flush() {
        guard streaming, !pending.isEmpty else { return }
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }
}

/// A subcommand that prints through `CommandOutput`, so tests can run it in-process.
package protocol OutputCommand: ParsableCommand {
    func execute(_ output: inout CommandOutput) throws
}

extension OutputCommand {
    package mutating func run() throws {
        var output = CommandOutput(streaming: true)
        try execute(&output)
        output.flush()
    }
}
