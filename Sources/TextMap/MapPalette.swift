/// ANSI SGR colour codes for each role (ECMA-48: 1 bold, 2 dim, 7 reverse video, 31–36 colours).
struct MapPalette: Sendable, Hashable {
    /// True for `MapStyle.large`: bold instead of dim, markers in reverse video.
    let highContrast: Bool

    func code(for role: MapRole) -> String? {
        switch role {
        case .plain: return nil
        case .title: return "1"
        case .frame: return highContrast ? nil : "2"
        case .ring: return highContrast ? "1;36" : "36"
        case .center: return "1;31"
        case .marker: return highContrast ? "1;7;32" : "1;32"
        case .cluster: return highContrast ? "1;7;33" : "1;33"
        case .north: return "1"
        case .scale: return highContrast ? "1" : nil
        // Open in the markers' green; closed and unknown dimmed, or plain where dim is hard to read.
        case .open: return highContrast ? "1;32" : "32"
        case .closed, .unknown: return highContrast ? nil : "2"
        }
    }
}
