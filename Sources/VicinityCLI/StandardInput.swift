import Foundation
import Places

/// Standard input, which `-` names wherever the command line reads a file (`import -`,
/// `--data -`): the process's own, or the bytes a test gives `CLI.run`.
enum StandardInput {
    /// The argument that means standard input.
    static let argument = "-"
    /// How messages name it (`<stdin>:3: invalid latitude …`).
    static let name = "<stdin>"

    @TaskLocal static var given: [UInt8]?

    /// Everything on standard input, to its end.
    static func bytes() -> [UInt8] {
        if let given { return given }
        return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Refuses a command line that names standard input more than once: it can be read only once.
    static func checkReadOnce(_ paths: [String]) throws(CLIError) {
        if paths.filter({ $0.trimmingCharacters(in: .whitespaces) == argument }).count > 1 {
            throw .usage("standard input (-) can be read only once")
        }
    }
}

extension PlaceLoader {
    /// The places of a file the command line names, `-` being standard input.
    static func load(argument path: String, defaultKind: String, skipInvalid: Bool = false) throws(PlacesError)
        -> PlaceFile
    {
        guard path == StandardInput.argument else {
            return try load(path: path, defaultKind: defaultKind, skipInvalid: skipInvalid)
        }
        return try load(
            bytes: StandardInput.bytes(), name: StandardInput.name, defaultKind: defaultKind, skipInvalid: skipInvalid)
    }
}

extension PlaceLoader {
    /// Streams the places of a file the command line names, `-` being standard input (see
    /// `stream(_:defaultKind:format:skipInvalid:pieceBytes:body:)`).
    static func stream(
        argument path: String, defaultKind: String, skipInvalid: Bool = false, body: (PlaceFile) throws -> Void
    ) throws {
        if path == StandardInput.argument {
            var source =
                StandardInput.given.map { PlaceByteSource(bytes: $0, name: StandardInput.name) }
                ?? PlaceByteSource(descriptor: STDIN_FILENO, name: StandardInput.name)
            try stream(&source, defaultKind: defaultKind, skipInvalid: skipInvalid, body: body)
            return
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw PlacesError.cannotRead(file: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var source = PlaceByteSource(descriptor: descriptor, name: path)
        try stream(&source, defaultKind: defaultKind, skipInvalid: skipInvalid, body: body)
    }
}
