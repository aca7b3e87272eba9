import ArgumentParser
import Foundation
import Geo
import Places
import PlacesSQLite
import VicinityCLI

/// `vicinity-bench crash-writer`: a test helper (`CrashTests`). Several threads write places and
/// users through the durable directory's group commit; each write is acknowledged on standard
/// output (`ack place w3-17`, `ack move u3 19`) only after its commit returned, so a test can
/// kill the process with SIGKILL at any moment and check that every acknowledged write survived.
struct CrashWriterCommand: OutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-writer", abstract: "Write through group commit, acknowledging each (for tests).")

    @Option(help: "Database file.") var db: String
    @Option(help: "Writes per writer thread.") var count = 1_000
    @Option(help: "Writer threads.") var writers = 4

    func validate() throws {
        guard count >= 0 else { throw ValidationError("invalid count \"\(count)\": expected 0 or more") }
        guard (1...64).contains(writers) else {
            throw ValidationError("invalid writers \"\(writers)\": expected 1 to 64")
        }
    }

    func execute(_ output: inout CommandOutput) throws {
        let store: SQLitePlaceStore
        let directory: PlaceDirectory
        do {
            store = try SQLitePlaceStore(path: db)
            directory = try store.loadDirectory()
        } catch {
            throw CLIError.noInput(error.description)
        }
        let durable = DurableDirectory(directory, store: store)
        let acknowledgements = NSLock()
        @Sendable func acknowledge(_ text: String) {
            // Straight to the file descriptor, one write per line: nothing waits in a buffer.
            acknowledgements.lock()
            FileHandle.standardOutput.write(Data("ack \(text)\n".utf8))
            acknowledgements.unlock()
        }
        let group = DispatchGroup()
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread { [count] in
                defer { group.leave() }
                let user = "u\(writer)"
                do throws(PlacesError) {
                    try durable.performAndWait(.addUser(User(id: user, name: user)), by: .admin)
                } catch .userExists {
                    // A database written before: the user is there already.
                } catch {
                    return
                }
                acknowledge("user \(user)")
                for number in 0..<count {
                    let id = "w\(writer)-\(number)"
                    let place = Place(
                        id: id, kind: "pharmacy", name: "Write \(number)", coordinate: Self.location(number))
                    guard Self.stored(.setPlace(place), in: durable) else { return }
                    acknowledge("place \(id)")
                    if number % 10 == 9 {
                        guard Self.stored(.moveUser(user, to: Self.location(number)), in: durable) else { return }
                        acknowledge("move \(user) \(number)")
                    }
                }
            }
        }
        group.wait()
        durable.close()
    }

    /// Whether the write was stored (its commit returned).
    static func stored(_ request: DirectoryRequest, in durable: DurableDirectory) -> Bool {
        do {
            try durable.performAndWait(request, by: .admin)
            return true
        } catch {
            return false
        }
    }

    /// Where write `number` puts its place (and, every tenth, the writer's user): all over the Earth.
    static func location(_ number: Int) -> Coordinate {
        // swift-format-ignore: NeverUseForceTry
        try! Coordinate(latitude: Double(number % 180) - 89.5, longitude: Double((number * 7) % 360) - 179.5)
    }
}
