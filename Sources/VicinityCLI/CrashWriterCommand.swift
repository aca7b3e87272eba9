import ArgumentParser
import Foundation
import Geo
import Places
import PlacesSQLite

/// `vicinity crash-writer`: a test helper, hidden from help. Writes places one transaction at a
/// time and prints `ack N` only after write N is committed, so a test can kill it with SIGKILL at
/// any moment and then check that every acknowledged write survived.
struct CrashWriterCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-writer", abstract: "Write places one by one, acknowledging each (for tests).",
        shouldDisplay: false)

    @Option(help: "Database file.") var db: String
    @Option(help: "How many writes.") var count = 1_000

    func execute(_ output: inout CommandOutput) throws {
        let store: SQLitePlaceStore
        do { store = try SQLitePlaceStore(path: db) } catch { throw CLIError.noInput(error.description) }
        for number in 0..<count {
            let place = Place(
                id: "w\(number)", kind: "pharmacy", name: "Write \(number)",
                coordinate: try Coordinate(
                    latitude: Double(number % 180) - 89.5, longitude: Double(number % 360) - 179.5))
            do { try store.upsert([place]) } catch { throw CLIError.data(error.description) }
            // Straight to the file descriptor: the acknowledgement must not wait in a buffer.
            FileHandle.standardOutput.write(Data("ack \(number)\n".utf8))
        }
    }
}
