import ArgumentParser
import Foundation
import VicinityCLI

/// `vicinity-bench opening-hours-table`: every `opening_hours` value evaluated at every instant,
/// as JSON lines in the shape of the reference script
/// (`Tests/OpeningHoursTests/Reference/reference.py`), for `scripts/opening-hours-reference.sh`
/// to compare with a reference parser from PyPI.
struct OpeningHoursTableCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "opening-hours-table",
        abstract: "Evaluate opening_hours values at local instants, as JSON lines (for the reference comparison).")

    @Option(help: "Values file: value<TAB>source a line, with \\t \\n \\\\ escaped in the value.")
    var values: String
    @Option(help: "Instants file: local YYYY-MM-DDTHH:MM a line; # starts a comment line.")
    var instants: String
    @Option(help: "Public holidays file: YYYY-MM-DD a line, optional text after whitespace; # comments.")
    var holidays: String
    @Option(help: "Days next_change looks ahead (the reference script gives its parser 1000).")
    var horizonDays = 1_000

    func validate() throws {
        guard (0...100_000).contains(horizonDays) else {
            throw ValidationError("invalid horizon-days \"\(horizonDays)\": expected 0 to 100000")
        }
    }

    func execute(_ output: inout CommandOutput) throws {
        let table: OpeningHoursTable
        do {
            table = OpeningHoursTable(
                values: OpeningHoursTable.values(tsv: try Self.read(values)),
                instants: try OpeningHoursTable.instants(try Self.read(instants), file: instants),
                holidays: try OpeningHoursTable.holidays(try Self.read(holidays), file: holidays),
                horizonDays: horizonDays)
        } catch let error as OpeningHoursTable.InputError {
            throw CLIError.data(error.description)
        }
        table.write { output.line($0) }
    }

    /// The whole file as UTF-8 text.
    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.noInput("cannot read \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError.data("\(path) is not UTF-8 text") }
        return text
    }
}
