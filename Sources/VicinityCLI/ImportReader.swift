import Foundation
import Places

/// The reading side of `vicinity import`, run on threads of its own while the database stores
/// what it read before: one thread reads the files piece by piece, another completes and checks
/// each place (the façade's rules, `--tz` and `--holidays`, the opening hours, the duty rota
/// carried over) and hands each piece to an `ImportPipeline`, in file order.
///
/// Its counts are the reader's own until `run` has finished: read them only after the pipeline's
/// `take` has answered nil (or after the thread has ended).
final class ImportReader: @unchecked Sendable {
    /// One piece of the files, checked: what the storing thread writes.
    struct Piece: Sendable {
        var batch: PlaceImport
        /// Where each place of `batch` was read.
        var origins: [SourceLocation]
        /// "skipped …" warnings of the rows left out (with `--skip-invalid`), in file order.
        var warnings: [String]
    }

    private let files: [String]
    private let kind: String
    private let skipInvalid: Bool
    private let strictHours: Bool
    private let zone: String?
    private let calendar: String?
    /// The duty spells of the places stored before, by kind and id (NUL between).
    private let duty: [String: String]

    /// What the places' hours held.
    private(set) var hoursReport = ImportCommand.HoursReport()
    /// Rows left out.
    private(set) var skipped = 0
    /// Time spent reading, not waiting for the checking thread.
    private(set) var readNanoseconds: UInt64 = 0
    /// Time spent checking, not waiting for the reading or storing threads.
    private(set) var checkNanoseconds: UInt64 = 0

    init(
        files: [String], kind: String, skipInvalid: Bool, strictHours: Bool, zone: String?, calendar: String?,
        duty: [String: String]
    ) {
        self.files = files
        self.kind = kind
        self.skipInvalid = skipInvalid
        self.strictHours = strictHours
        self.zone = zone
        self.calendar = calendar
        self.duty = duty
    }

    /// Reads every file into `pipeline`, then finishes it: with nil after the last piece, or with
    /// the first error (a `PlacesError` of the files, a `CLIError` for a refused place, or the
    /// pipeline's `Cancelled` when the storing side gave up).
    ///
    /// The files are read on another thread, one piece ahead of the one checked here; it stops at
    /// its next piece once this side has stopped.
    func run(into pipeline: ImportPipeline<Piece>) {
        let read = ImportPipeline<PlaceFile>(capacity: 1)
        let (input, environment) = (StandardInput.given, CLIEnvironment.current)
        Thread.detachNewThread { [self] in
            Thread.current.name = "import-read"
            StandardInput.$given.withValue(input) {
                CLIEnvironment.$current.withValue(environment) { readFiles(into: read) }
            }
        }
        defer { read.cancel() }
        do {
            while true {
                guard let file = try read.take() else { break }
                let started = DispatchTime.now().uptimeNanoseconds
                let piece = try check(file)
                checkNanoseconds += DispatchTime.now().uptimeNanoseconds - started
                try pipeline.put(piece)
            }
            pipeline.finish(throwing: nil)
        } catch {
            pipeline.finish(throwing: error)
        }
    }

    /// Reads every file into `pipeline` piece by piece, then finishes it, with the first error
    /// if any.
    private func readFiles(into pipeline: ImportPipeline<PlaceFile>) {
        do {
            for path in files {
                var started = DispatchTime.now().uptimeNanoseconds
                try PlaceLoader.stream(argument: path, defaultKind: kind, skipInvalid: skipInvalid) { file in
                    readNanoseconds += DispatchTime.now().uptimeNanoseconds - started
                    try pipeline.put(file)
                    started = DispatchTime.now().uptimeNanoseconds
                }
            }
            pipeline.finish(throwing: nil)
        } catch {
            pipeline.finish(throwing: error)
        }
    }

    /// The piece's places completed and checked; a refused place throws, or with `skipInvalid`
    /// becomes a warning. The places are worked on in the piece's own array, never copied.
    private func check(_ file: consuming PlaceFile) throws(CLIError) -> Piece {
        var warnings = file.skipped.map { "skipped \($0.description)" }
        skipped += file.skipped.count
        let origins = file.origins
        var places = file.places
        _ = consume file
        // Completed and their hours checked in place; a place whose hours are refused is left out
        // before the façade's rules (`PlaceImport.add(contentsOf:)`) check the others.
        var problems: [(offset: Int, text: String)] = []
        for index in places.indices {
            ImportCommand.complete(&places[index], zone: zone, calendar: calendar)
            if let problem = hoursReport.check(places[index], at: origins[index], strict: strictHours) {
                problems.append((index, problem))
                continue
            }
            // A refreshed place keeps the duty rota `import-rota` gave it.
            if !duty.isEmpty, places[index].attribute(PlaceHours.dutyAttribute) == nil,
                let spells = duty[places[index].kind + "\u{0}" + places[index].id]
            {
                places[index].setAttribute(PlaceHours.dutyAttribute, to: spells)
            }
        }
        // The offset in the file of each place given to the batch, when some were left out.
        var given: [Int]?
        if !problems.isEmpty {
            let left = Set(problems.map(\.offset))
            given = places.indices.filter { !left.contains($0) }
            places = given!.map { places[$0] }
        }
        var batch = PlaceImport()
        for (offset, error) in batch.add(contentsOf: places) {
            let original = given?[offset] ?? offset
            problems.append((original, "\(origins[original]): \(error.description)"))
        }
        guard !problems.isEmpty else { return Piece(batch: batch, origins: origins, warnings: warnings) }
        problems.sort { $0.offset < $1.offset }
        guard skipInvalid else { throw CLIError.data(problems[0].text) }
        for problem in problems { warnings.append("skipped \(problem.text)") }
        skipped += problems.count
        let left = Set(problems.map(\.offset))
        return Piece(
            batch: batch, origins: origins.indices.filter { !left.contains($0) }.map { origins[$0] }, warnings: warnings
        )
    }
}
