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
    /// becomes a warning.
    private func check(_ file: consuming PlaceFile) throws(CLIError) -> Piece {
        var piece = Piece(batch: PlaceImport(reservingCapacity: file.places.count), origins: [], warnings: [])
        piece.origins.reserveCapacity(file.places.count)
        piece.warnings = file.skipped.map { "skipped \($0.description)" }
        skipped += file.skipped.count
        let origins = file.origins
        // The places are moved out one by one, last first, not copied: the piece's array is ours
        // alone once the file is let go.
        var places = file.places
        _ = consume file
        places.reverse()
        var offset = -1
        while let read = places.popLast() {
            offset += 1
            var place = ImportCommand.completed(read, zone: zone, calendar: calendar)
            let origin = origins[offset]
            var problem = hoursReport.check(place, at: origin, strict: strictHours)
            if problem == nil {
                // A refreshed place keeps the duty rota `import-rota` gave it.
                if !duty.isEmpty, place.attribute(PlaceHours.dutyAttribute) == nil,
                    let spells = duty[place.kind + "\u{0}" + place.id]
                {
                    place.setAttribute(PlaceHours.dutyAttribute, to: spells)
                }
                // The façade's rules for every place written, whatever the surface.
                do throws(PlacesError) {
                    try piece.batch.add(place)
                    piece.origins.append(origin)
                } catch {
                    problem = "\(origin): \(error.description)"
                }
            }
            guard let problem else { continue }
            guard skipInvalid else { throw CLIError.data(problem) }
            piece.warnings.append("skipped \(problem)")
            skipped += 1
        }
        return piece
    }
}
