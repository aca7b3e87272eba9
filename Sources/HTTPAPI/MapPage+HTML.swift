extension MapPage {
    /// The page (`GET /`): the controls of both views, the map, the lists under it. The tile
    /// layer reaches the script through `<meta>` elements (no inline script).
    var html: String {
        let tileMeta =
            tiles.map { tiles in
                [
                    ("vicinity-tiles", tiles.urlTemplate), ("vicinity-attribution", tiles.attribution),
                    ("vicinity-attribution-link", tiles.attributionLink ?? ""),
                ]
                .map { #"<meta name="\#($0.0)" content="\#(MapPage.attribute($0.1))">"# }
                .joined(separator: "\n")
            } ?? #"<meta name="vicinity-tiles" content="">"#
        let heartbeatMeta = #"<meta name="vicinity-heartbeat" content="\#(heartbeatSeconds)">"#
        return MapPage.htmlHead.replacingOccurrences(of: "<!--tiles-->", with: tileMeta + "\n" + heartbeatMeta)
            + MapPage.htmlBody
    }

    /// `text` as an HTML attribute value between double quotes.
    static func attribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    private static let htmlHead = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <!--tiles-->
        <title>Vicinity: what is near</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/leaflet/leaflet.css">
        <link rel="stylesheet" href="/map.css">
        <script src="/leaflet/leaflet.js" defer></script>
        <script src="/map.js" defer></script>
        </head>

        """#

    private static let htmlBody = #"""
        <body>
        <a class="skip" href="#lists">Skip to the list</a>
        <header>
          <h1>Vicinity</h1>
          <nav aria-label="Views">
            <button type="button" id="show-places" aria-pressed="true">Pharmacies</button>
            <button type="button" id="show-people" aria-pressed="false">People</button>
          </nav>
          <label class="toggle"><input type="checkbox" id="large-text"> Large text</label>
        </header>
        <main>
          <section id="places-controls" aria-labelledby="places-title">
            <h2 id="places-title">Pharmacies near you</h2>
            <form id="where">
              <button type="button" id="locate">Use my location</button>
              <label>Latitude <input id="lat" name="lat" inputmode="decimal" autocomplete="off" required></label>
              <label>Longitude <input id="lon" name="lon" inputmode="decimal" autocomplete="off" required></label>
              <label>Radius (m) <input id="radius" name="radius" type="number" min="1" max="20000000" step="any"
                value="500" required></label>
              <button type="submit">Show</button>
            </form>
            <p id="places-status" class="status" role="status" aria-live="polite"></p>
          </section>
          <section id="people-controls" aria-labelledby="people-title" hidden>
            <h2 id="people-title">People around you</h2>
            <form id="sign-in">
              <label>User id <input id="user-id" autocomplete="username" required></label>
              <label>Token <input id="user-token" type="password" autocomplete="off" required></label>
              <button type="submit">Sign in</button>
              <p class="note">The token stays in this tab only (session storage), never in a link.</p>
            </form>
            <div id="signed-in" hidden>
              <p>Signed in as <strong id="me-name"></strong>.
                <button type="button" id="sign-out">Sign out</button></p>
              <label class="toggle"><input type="checkbox" role="switch" id="visible"> Visible to others</label>
              <form id="people-where">
                <label>Radius (m) <input id="people-radius" type="number" min="1" max="20000000" step="any"
                  value="1000" required></label>
                <button type="submit">Show</button>
              </form>
            </div>
            <p id="people-status" class="status" role="status" aria-live="polite"></p>
            <p id="stream-state" class="stream" role="status" aria-live="polite"></p>
          </section>
          <div id="map" role="region" aria-label="Map. Click it to choose a location."></div>
          <div id="lists">
            <section id="places-list" aria-labelledby="places-list-title">
              <h2 id="places-list-title">Pharmacies, nearest first</h2>
              <p id="places-empty" class="empty" hidden></p>
              <table id="places-table" aria-labelledby="places-list-title" hidden>
                <thead><tr><th scope="col">No.</th><th scope="col">Name</th><th scope="col">Distance</th>
                  <th scope="col">Direction</th></tr></thead>
                <tbody></tbody>
              </table>
            </section>
            <section id="people-list" aria-labelledby="people-list-title" hidden>
              <h2 id="people-list-title">Public users, nearest first</h2>
              <p id="people-empty" class="empty" hidden></p>
              <table id="people-table" aria-labelledby="people-list-title" hidden>
                <thead><tr><th scope="col">No.</th><th scope="col">Name</th><th scope="col">Distance</th>
                  <th scope="col">Direction</th></tr></thead>
                <tbody></tbody>
              </table>
            </section>
          </div>
        </main>
        </body>
        </html>

        """#

    /// The page's icon: a ring around a point, as on the map.
    static let icon = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6.5" fill="none" \#
        stroke="#1769aa" stroke-width="2"/><circle cx="8" cy="8" r="2.5" fill="#c0392b"/></svg>

        """#
}
