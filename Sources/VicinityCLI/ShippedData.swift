import Foundation
import Places

/// Loads the places a query runs on: the `--data` files, or the shipped pharmacy files.
enum ShippedData {
    /// The shipped files, relative to the data folder.
    static let files = ["pharmacies-london.csv", "pharmacies-istanbul-example.csv", "pharmacies-piemonte.csv"]

    /// The folder with the shipped data: `$VICINITY_DATA`, else `Data/` in the current directory,
    /// else `Data/` beside or above the executable (the package root for `.build/release/vicinity`).
    static func folder() -> String? {
        let manager = FileManager.default
        func holdsData(_ path: String) -> Bool { manager.fileExists(atPath: path + "/" + files[0]) }
        if let configured = CLIEnvironment.current["VICINITY_DATA"], !configured.isEmpty {
            return configured
        }
        if holdsData("Data") { return "Data" }
        let executable = (try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<5 {
            if holdsData(folder.path + "/Data") { return folder.path + "/Data" }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// The holiday calendars of a folder (`--holidays`), else of the shipped `Data/holidays`, else
    /// none.
    static func holidays(folder: String?) throws(CLIError) -> HolidayCalendars {
        let chosen = folder ?? self.folder().map { $0 + "/holidays" }
        guard let chosen else { return HolidayCalendars() }
        if folder == nil, !FileManager.default.fileExists(atPath: chosen) { return HolidayCalendars() }
        do { return try HolidayCalendars.load(folder: chosen) } catch { throw CLIError(error) }
    }

    /// A catalog of the given files, or of the shipped ones when `paths` is empty.
    static func catalog(paths: [String], defaultKind: String) throws(CLIError) -> PlaceCatalog {
        var paths = paths.map { $0.trimmingCharacters(in: .whitespaces) }
        if paths.isEmpty {
            guard let folder = folder() else {
                throw .noInput(
                    "cannot find the shipped data (Data/\(files[0])): pass --data FILE or set VICINITY_DATA")
            }
            paths = files.map { folder + "/" + $0 }
        }
        try StandardInput.checkReadOnce(paths)
        do throws(PlacesError) {
            var catalog = try PlaceCatalog()
            for path in paths {
                try catalog.add(contentsOf: PlaceLoader.load(argument: path, defaultKind: defaultKind))
            }
            return catalog
        } catch {
            throw CLIError(error)
        }
    }
}

extension ShippedData {
    /// A warning on standard error when the data holds no place of the kind searched (a typo in
    /// --kind, or a file whose kind column says otherwise); the result is still printed.
    static func warnIfMissing(kind: String, in catalog: PlaceCatalog, output: inout CommandOutput) {
        guard catalog.count(kind: kind) == 0 else { return }
        let kinds = catalog.kinds.map { "\"\(ResultListing.printable($0))\"" }.joined(separator: ", ")
        output.warning(
            "no place of kind \"\(ResultListing.printable(kind))\" in the data (kinds: \(kinds.isEmpty ? "none" : kinds))"
        )
    }
}

extension CLIError {
    /// Maps a `Places` error to its exit code: unreadable files 66, query and command-line values
    /// 64, file content 65, missing users and places 67, tokens 77, store failures 74.
    init(_ error: PlacesError) {
        switch error {
        case .cannotRead: self = .noInput(error.description)
        case .geo, .invalidUserID, .invalidValue, .invalidKind, .reservedKind, .invalidPlaceID:
            self = .usage(error.description)
        case .noSuchUser, .noSuchPlace: self = .notFound(error.description)
        case .forbidden, .invalidToken: self = .noPermission(error.description)
        case .storeFailed, .closed, .storeUnavailable: self = .ioError(error.description)
        default: self = .data(error.description)
        }
    }
}
