/// What a run of characters shows, which decides its colour.
enum MapRole: Sendable, Hashable {
    case plain, title, frame, ring, center, marker, cluster, north, scale
}
