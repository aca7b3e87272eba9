/// How a map is drawn: character set, colour and size.
public struct MapStyle: Sendable, Hashable {
    /// The characters the map is drawn with.
    public enum Characters: Sendable, Hashable {
        /// Box drawing and symbols (`┌─┐`, `◉`, `·`): the default.
        case unicode
        /// Plain ASCII (`+-+`, `@`, `.`) for terminals and fonts without them.
        case ascii
    }

    /// Box drawing and symbols, or plain ASCII.
    public var characters: Characters
    /// Whether to add ANSI colour (SGR) escape sequences; the caller decides from the terminal
    /// and `NO_COLOR`.
    public var color: Bool
    /// A roomier, high-contrast layout for people who find small text hard: map squares twice as
    /// large, numbers in brackets, compass points in words, a blank line between list entries,
    /// and bold rather than dim colours.
    public var large: Bool

    public init(characters: Characters = .unicode, color: Bool = false, large: Bool = false) {
        self.characters = characters
        self.color = color
        self.large = large
    }
}
