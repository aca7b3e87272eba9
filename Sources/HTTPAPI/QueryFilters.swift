import PlaceQueries
import Places

/// The checked `open` and `where` parameters of the place queries (`/v1/nearby`, `/v1/nearest`,
/// their GeoJSON forms and `/v1/map`), as given and as the query layer takes them.
struct QueryFilters: Sendable {
    /// `open` as given, for the echo and the 303's `Location`.
    var openText: String?
    var open: OpeningMoment?
    /// Every `where` as given, in order.
    var attributeTexts: [String]?
    var attributes: [AttributeMatch] = []

    /// `open` by `Vocabulary.openingMoment`, each `where` by `Vocabulary.attributeMatch`.
    ///
    /// - Throws: a 400 naming the parameter, with the rule's message; one for more `where` than a
    ///   place has attributes (`QueryParameter.attributeFilter`).
    init(open: String?, where texts: [String]?) throws(HTTPAPIError) {
        openText = open
        if let open {
            do { self.open = try Vocabulary.openingMoment.parse(open) } catch {
                throw .parameter(QueryParameter.open.name, in: .query, error)
            }
        }
        guard let texts, !texts.isEmpty else { return }
        let parameter = QueryParameter.attributeFilter
        guard texts.count <= parameter.maximumCount else { throw parameter.repeated(texts.count) }
        attributeTexts = texts
        for text in texts {
            do { attributes.append(try Vocabulary.attributeMatch.parse(text)) } catch {
                throw .parameter(parameter.name, in: .query, error)
            }
        }
    }

    /// The list query with these filters: only the places open at `open` that match every
    /// `where`, each hit with its opening state when `open` is given.
    func filtering(_ question: PlaceQuery) -> PlaceQuery {
        question.filtered(open: open, attributes: attributes)
    }

    /// The map's query with these filters: `where` filters, `open` only marks each place's state
    /// (`PlaceQuery.hoursAt`), so that the map shows closed places as such. On users, whom no
    /// filter applies to, `open` is the filter the query layer refuses, as on `/v1/nearby`.
    func marking(_ question: PlaceQuery) -> PlaceQuery {
        question.filtered(open: open, attributes: attributes, marking: true)
    }

    /// `name=value` pairs for the GeoJSON operation's `Location` (`VicinityAPI.queryItems`).
    var queryItems: [(name: String, value: String?)] {
        [(QueryParameter.open.name, openText)]
            + (attributeTexts ?? []).map { (QueryParameter.attributeFilter.name, $0) }
    }
}

extension QueryHit {
    /// The hit's opening state in the contract's words: nil fields without one (a query without
    /// `open`), `on_duty` only when true.
    var openingFields:
        (
            open: Components.Schemas.OpenStatus?, openUntil: String?, opensAt: String?, onDuty: Bool?
        )
    {
        guard let opening else { return (nil, nil, nil, nil) }
        let status: Components.Schemas.OpenStatus =
            switch opening.status {
            case .open: .open
            case .closed: .closed
            case .unknown: .unknown
            }
        return (status, opening.openUntil, opening.opensAt, opening.onDuty ? true : nil)
    }
}
