/// What identifies a place: its kind and id together.
struct PlaceKey: Hashable {
    var kind: String
    var id: String
}
