/// The places read from one file, each with where it was read.
public struct PlaceFile: Sendable {
    /// The path as given to the reader.
    public let path: String
    /// The places in file order.
    public let places: [Place]
    /// `origins[i]` is where `places[i]` was read: its line (CSV) or feature index (GeoJSON).
    public let origins: [SourceLocation]
    /// The rows or features left out by a reader told to skip invalid ones, each with its error
    /// (which names its line or feature), in file order.
    public let skipped: [PlacesError]

    /// Creates a file's worth of places; `origins` must be as long as `places`.
    public init(path: String, places: [Place], origins: [SourceLocation], skipped: [PlacesError] = []) {
        precondition(places.count == origins.count, "one origin per place")
        self.path = path
        self.places = places
        self.origins = origins
        self.skipped = skipped
    }
}
