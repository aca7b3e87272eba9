/// Which map sizes to try, largest first, for a given screen: the renderer takes the first whose
/// output fits (see `MapRenderer.render` for the choice when none does). Never empty.
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
    /// The panel's width in columns.
    let panelWidth: Int
    /// Columns between the map and the panel.
    let gap: Int

    /// The smallest map drawn, cells per side: smaller and the ring is no longer a circle.
    var minimumSide: Int { style.large ? 5 : 7 }
    private var cellWidth: Int { style.large ? 4 : 2 }
    private var cellHeight: Int { style.large ? 2 : 1 }

    /// Sizes from the largest that fits the width and the height (title and frame included) down
    /// to `minimumSide`, largest first; at equal sizes the panel beside the map comes first. The
    /// panel goes under the map only when the screen is too narrow for it beside, or when being
    /// under it leaves room for a larger map (a tall, narrow screen).
    func candidates() -> [Candidate] {
        // Title, frame (and in large cells the blank line under the top frame), blank before the list.
        let fixedLines = 1 + 2 + (cellHeight - 1) + 1
        let byHeight = (height - fixedLines) / cellHeight
        let beside = min(byHeight, (width - 3 - gap - panelWidth) / cellWidth)
        let under = min(byHeight, (width - 3) / cellWidth)
        var candidates: [Candidate] = []
        for side in stride(from: max(beside, under), through: minimumSide, by: -1) where side % 2 == 1 {
            if side <= beside { candidates.append(Candidate(side: side, panelBeside: true)) }
            if side <= under { candidates.append(Candidate(side: side, panelBeside: false)) }
        }
        if candidates.isEmpty {
            let fitsBeside = (width - 3 - gap - panelWidth) / cellWidth >= minimumSide
            candidates.append(Candidate(side: minimumSide, panelBeside: fitsBeside))
        }
        return candidates
    }
}
