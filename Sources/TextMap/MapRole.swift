/// What a run of characters shows, which decides its colour.
enum MapRole: Sendable, Hashable {
    case plain, title, frame, ring, center, marker, cluster, north, scale
    /// Opening states: an open place's state in the list (its map mark is a `marker`), a closed
    /// place's symbol and state, a place's "hours unknown".
    case open, closed, unknown
}
