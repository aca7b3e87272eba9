/// The map's size for a given screen, chosen from the screen alone — never from the places, so a
/// map keeps its size whatever the query finds and a long list is cut instead (`MapList`).
///
/// The rule: the largest map (cells per side, odd, at least `minimumSide`) whose title, framed map
/// and panel (planned at their largest: every legend entry, 2-digit numbers) fit in `width`, and
/// which leaves `listReserve` lines of `height` to the list under it; at equal sizes the panel
/// beside the map comes first. If none leaves that much, the map that leaves the list the most
/// lines.
struct MapLayout: Sendable {
    /// One size to try.
    struct Candidate: Sendable, Hashable {
        /// Cells per side, odd.
        var side: Int
        /// Whether the panel goes beside the map (else under it).
        var panelBeside: Bool
    }

    let width: Int
    let height: Int
    let style: MapStyle
    /// The panel's widest, columns.
    let panelWidth: Int
    /// The panel's most lines beside the map, and under it (where its legend wraps to the width).
    let panelLinesBeside: Int
    let panelLinesUnder: Int
    /// Columns between the map and the panel.
    let gap: Int

    /// The smallest map drawn, cells per side: smaller and the ring is no longer a circle.
    var minimumSide: Int { style.large ? 5 : 7 }
    private var cellWidth: Int { style.large ? 4 : 2 }
    private var cellHeight: Int { style.large ? 2 : 1 }

    /// Lines the list is promised: a quarter of the height, at least 1.
    var listReserve: Int { max(1, height / 4) }

    /// Lines of the framed map and the panel beside or under it.
    func blockHeight(_ candidate: Candidate) -> Int {
        // The frame, and in large cells the blank line under the top frame.
        let map = cellHeight * candidate.side + (cellHeight - 1) + 2
        return candidate.panelBeside ? max(map, panelLinesBeside) : map + 1 + panelLinesUnder
    }

    /// The size to draw at, by the rule above.
    func choice() -> Candidate {
        let candidates = self.candidates()
        // The title and the blank line before the list.
        if let fitting = candidates.first(where: { 1 + blockHeight($0) + 1 + listReserve <= height }) {
            return fitting
        }
        return candidates.min { blockHeight($0) < blockHeight($1) } ?? candidates[0]
    }

    /// Every size that fits the width, largest first, the panel beside before the panel under.
    /// Never empty: at the least the smallest map, with the panel under it.
    func candidates() -> [Candidate] {
        let beside = (width - 3 - gap - panelWidth) / cellWidth
        let under = (width - 3) / cellWidth
        var candidates: [Candidate] = []
        for side in stride(from: max(beside, under), through: minimumSide, by: -1) where side % 2 == 1 {
            if side <= beside { candidates.append(Candidate(side: side, panelBeside: true)) }
            if side <= under { candidates.append(Candidate(side: side, panelBeside: false)) }
        }
        if candidates.isEmpty { candidates.append(Candidate(side: minimumSide, panelBeside: false)) }
        return candidates
    }
}
