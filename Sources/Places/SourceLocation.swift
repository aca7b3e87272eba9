/// Where something was read: a file, and a line (CSV) or a feature (GeoJSON) in it.
///
/// Its description is the prefix of every `PlacesError` message: `FILE`, `FILE:LINE` or
/// `FILE: feature N`, so that editors and terminals that understand `path:line` can jump to it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// A position inside a file.
    public enum Position: Sendable, Hashable {
        /// The file as a whole.
        case file
        /// A 1-based physical line of a text file. A CSV record that spans lines (a quoted field
        /// with a line break) is located at the line where the record starts.
        case line(Int)
        /// A 0-based index into a GeoJSON FeatureCollection's `features` array.
        case feature(Int)
    }

    /// The path as the caller gave it (not resolved or made absolute).
    public var file: String
    /// Where in the file.
    public var position: Position

    public init(file: String, position: Position = .file) {
        self.file = file
        self.position = position
    }

    /// `FILE`, `FILE:LINE` or `FILE: feature N`.
    public var description: String {
        switch position {
        case .file: return file
        case .line(let line): return "\(file):\(line)"
        case .feature(let index): return "\(file): feature \(index)"
        }
    }

    /// The position alone, for naming a second place in the same file: `line N` or `feature N`.
    var positionDescription: String? {
        switch position {
        case .file: return nil
        case .line(let line): return "line \(line)"
        case .feature(let index): return "feature \(index)"
        }
    }
}
