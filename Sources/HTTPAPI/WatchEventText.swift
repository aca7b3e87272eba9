import Geo
import Places

/// Watch events as Server-Sent Events (the WHATWG HTML standard's `text/event-stream`), as
/// openapi.yaml's `WatchEvents` response describes them:
///
/// ```
/// id: 42
/// event: enter
/// data: {"bearing_deg":…,"distance_m":…,"event":"enter","id":"omur","kind":"pharmacy",…}
/// ```
///
/// then a blank line. `id:` (the log position) goes on the last event of each position, so that
/// a client that resumes with `Last-Event-ID` never skips the rest of a position it saw only
/// part of, and never on `closed`: a stream closed for falling behind has dropped events, and a
/// resume must start before them. The data is one line of JSON with its keys sorted, numbers
/// served as `/v1/nearby` serves them (`ServedPrecision`, `JSONText.decimal`).
enum WatchEventText {
    /// The heartbeat: a comment line, which `EventSource` ignores.
    static let keepAlive = ArraySlice(": keep-alive\n\n".utf8)

    /// The events as one piece of the stream; `kind` is the watch's kind (`user` for users).
    static func stream(_ events: [WatchEvent], kind: String) -> ArraySlice<UInt8> {
        var text = JSONText(capacity: events.count * 240)
        for (index, event) in events.enumerated() {
            if event.kind != .closed, endsPosition(events, at: index) {
                text.raw("id: ")
                text.integer(Int(clamping: event.position))
                text.raw("\n")
            }
            text.raw("event: ")
            text.raw(name(event.kind))
            text.raw("\ndata: ")
            write(event, kind: kind, to: &text)
            text.raw("\n\n")
        }
        return ArraySlice(text.bytes)
    }

    /// Whether the event at `index` is the last of its position that is not `closed`.
    private static func endsPosition(_ events: [WatchEvent], at index: Int) -> Bool {
        let position = events[index].position
        for later in events[(index + 1)...] {
            if later.position != position { return true }
            if later.kind != .closed { return false }
        }
        return true
    }

    /// The event's JSON (openapi.yaml's `WatchEvent` schema), keys sorted.
    static func write(_ event: WatchEvent, kind: String, to text: inout JSONText) {
        text.raw("{")
        if let object = event.object {
            if let measured = event.measure() {
                text.key("bearing_deg")
                text.decimal(
                    ServedPrecision.bearing(measured.bearingDegrees), decimals: ServedPrecision.bearingDecimals)
                text.raw(",")
                text.key("distance_m")
                text.decimal(measured.distanceMeters, decimals: ServedPrecision.distanceDecimals)
                text.raw(",")
            }
            writeName(event.kind, to: &text)
            text.key("id")
            text.string(object.id)
            text.raw(",")
            text.key("kind")
            text.string(kind)
            text.raw(",")
            text.key("lat")
            text.decimal(object.coordinate.latitude, decimals: ServedPrecision.coordinateDecimals)
            text.raw(",")
            text.key("lon")
            text.decimal(object.coordinate.longitude, decimals: ServedPrecision.coordinateDecimals)
            text.raw(",")
            text.key("name")
            text.string(object.name)
            text.raw(",")
        } else {
            if event.kind == .center, let center = event.center {
                text.key("center")
                text.raw("{")
                text.key("lat")
                text.decimal(center.latitude, decimals: ServedPrecision.coordinateDecimals)
                text.raw(",")
                text.key("lon")
                text.decimal(center.longitude, decimals: ServedPrecision.coordinateDecimals)
                text.raw("},")
            }
            writeName(event.kind, to: &text)
            if let message = event.message {
                text.key("message")
                text.string(message)
                text.raw(",")
            }
        }
        text.key("position")
        text.integer(Int(clamping: event.position))
        text.raw(",")
        text.key("watch")
        text.integer(Int(clamping: event.watch))
        text.raw("}")
    }

    /// `"event":"enter",`.
    private static func writeName(_ kind: WatchEvent.Kind, to text: inout JSONText) {
        text.key("event")
        text.raw("\"")
        text.raw(name(kind))
        text.raw("\",")
    }

    private static func name(_ kind: WatchEvent.Kind) -> StaticString {
        switch kind {
        case .inside: "inside"
        case .ready: "ready"
        case .enter: "enter"
        case .exit: "exit"
        case .move: "move"
        case .center: "center"
        case .reset: "reset"
        case .closed: "closed"
        }
    }
}
