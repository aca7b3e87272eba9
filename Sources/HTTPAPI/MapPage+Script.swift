extension MapPage {
    /// `/map.js`: the page's one script (no framework, no build step). It uses only the public
    /// HTTP API, puts every name from the server on the page as text (`textContent`), keeps a
    /// user's token in the tab's session storage only, and reads the watch stream with `fetch`
    /// (a browser's `EventSource` cannot send the token), reconnecting with `Last-Event-ID`.
    ///
    /// Its parts, in order, each in its own file: `scriptCore` (words, the API, the map, the list),
    /// `scriptPlaces`, `scriptPeople` and `scriptStart` (views, large text, start).
    static let script = scriptCore + scriptPlaces + scriptPeople + scriptStart

    /// The script up to the views: the words as the terminal map writes them, the HTTP API,
    /// the map and the list under it.
    static let scriptCore = #"""
        // Vicinity's browser map: the pharmacies around a location and the public users around a
        // signed-in user, over the public HTTP API only (openapi.yaml). No framework, no build step.
        // Every name from the server reaches the page as text (textContent), never as HTML.
        'use strict';
        (function () {
          const $ = (id) => document.getElementById(id);
          if (typeof L === 'undefined') {
            $('places-status').textContent = 'The map cannot be drawn: the server has no Leaflet (libjs-leaflet).';
            return;
          }
          const COMPASS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE',
            'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];
          const WORDS = ['north', 'north-northeast', 'northeast', 'east-northeast', 'east', 'east-southeast',
            'southeast', 'south-southeast', 'south', 'south-southwest', 'southwest', 'west-southwest', 'west',
            'west-northwest', 'northwest', 'north-northwest'];
          const SESSION = 'vicinity.session';
          const meta = (name) => {
            const element = document.querySelector('meta[name="' + name + '"]');
            return element ? element.content : '';
          };
          // The server sends a keep-alive comment after this many seconds without an event (serve
          // --sse-heartbeat, in <meta name="vicinity-heartbeat">): a stream silent for three of them (and
          // at least 5 s, as a background tab's timers run late) is taken for lost.
          const heartbeat = Number(meta('vicinity-heartbeat'));
          const SILENCE_MS = Math.max(3 * (heartbeat > 0 ? heartbeat : 15), 5) * 1000;

          const state = {
            view: 'places',
            large: false,
            places: { lat: null, lon: null, radius: 500, kind: 'pharmacy', answer: null, beyond: null },
            people: { session: null, me: null, center: null, radius: 1000, hits: new Map(), ready: false,
              lastEventId: null, watch: null, fresh: false },
            selected: null,
          };

          // --- Words, as the terminal map (`vicinity map`) writes them -----------------------------

          // `value` with `digits` decimals as C's printf (and so the text map) writes it: toFixed, except
          // that a value exactly halfway goes to the even neighbour (1.25 is "1.2", where toFixed says "1.3").
          function fixed(value, digits) {
            const exact = value.toFixed(digits + 20);
            if (!exact.endsWith('5' + '0'.repeat(19))) return value.toFixed(digits);
            const scale = 10 ** digits;
            const lower = Math.floor(value * scale);
            return ((lower % 2 === 0 ? lower : lower + 1) / scale).toFixed(digits);
          }

          // "132 m", "1.2 km", "12 km".
          function distanceText(meters) {
            if (!Number.isFinite(meters)) return '? m';
            const whole = Math.round(meters);
            if (whole < 1000) return whole + ' m';
            const km = meters / 1000;
            return Math.round(km * 10) < 100 ? fixed(km, 1) + ' km' : fixed(km, 0) + ' km';
          }

          // "500 m", "62.5 m", "1.5 km", "5 km".
          function radiusText(meters) {
            if (meters < 999.5) return String(meters) + ' m';
            const tenths = Math.round(meters / 100);
            if (tenths < 100 && tenths % 10 !== 0) return (tenths / 10).toFixed(1) + ' km';
            return fixed(meters / 1000, 0) + ' km';
          }

          // "WSW" (or "west-southwest" in large text); "here" for a place at the point itself.
          function directionText(hit) {
            if (hit.distance_m === 0) return 'here';
            const degrees = ((hit.bearing_deg % 360) + 360) % 360;
            const index = Math.round(degrees / 22.5) % 16;
            return state.large ? WORDS[index] : COMPASS[index];
          }

          // "Omur, 132 m WSW".
          function described(hit) {
            return hit.name + ', ' + distanceText(hit.distance_m) + ' ' + directionText(hit);
          }

          // Meters between two points on the WGS84 ellipsoid, in the plane tangent at their middle
          // latitude (radii of curvature there): off the geodesic by a relative (d / 6400 km)^2, under
          // a millimetre within 1 km, 2.5 cm at 10 km; enough to order users whose served distances are
          // rounded alike.
          function localMeters(from, to) {
            const flattening = 1 / 298.257223563;
            const squaredEccentricity = flattening * (2 - flattening);
            const latitude = (from.lat + to.lat) / 2 * Math.PI / 180;
            const w = 1 - squaredEccentricity * Math.sin(latitude) ** 2;
            const meridian = 6378137 * (1 - squaredEccentricity) / (w * Math.sqrt(w));
            const normal = 6378137 / Math.sqrt(w);
            const east = (((to.lon - from.lon + 540) % 360) - 180) * Math.PI / 180 * normal * Math.cos(latitude);
            return Math.hypot((to.lat - from.lat) * Math.PI / 180 * meridian, east);
          }

          function plural(kind, count) {
            if (count === 1) return kind;
            if (/[^aeiou]y$/.test(kind)) return kind.slice(0, -1) + 'ies';
            return kind.endsWith('s') ? kind : kind + 's';
          }

          function capitalized(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

          // --- The HTTP API ----------------------------------------------------------------------

          class APIError extends Error {
            constructor(status, detail) { super(detail); this.status = status; }
          }

          async function api(path, options) {
            const settings = options || {};
            const headers = { Accept: 'application/json' };
            if (settings.token) headers.Authorization = 'Bearer ' + settings.token;
            let body;
            if (settings.json !== undefined) {
              headers['Content-Type'] = 'application/json';
              body = JSON.stringify(settings.json);
            }
            let response;
            try {
              response = await fetch(path, { method: settings.method || 'GET', headers, body, cache: 'no-store' });
            } catch (error) {
              throw new APIError(0, 'the server cannot be reached');
            }
            const text = await response.text();
            let data = null;
            try { data = text ? JSON.parse(text) : null; } catch (error) { data = null; }
            if (!response.ok) throw new APIError(response.status, (data && data.detail) || 'HTTP ' + response.status);
            return data;
          }

          // --- The map ---------------------------------------------------------------------------

          const map = L.map('map', { attributionControl: false, keyboard: true, zoomSnap: 0.25 }).setView([20, 0], 2);
          L.control.scale({ imperial: false }).addTo(map);
          const tiles = meta('vicinity-tiles');
          if (tiles) {
            // Zoom 19: the deepest level OpenStreetMap's standard tiles are drawn at.
            L.tileLayer(tiles, { maxZoom: 19 }).addTo(map);
            const Credit = L.Control.extend({
              options: { position: 'bottomright' },
              onAdd() {
                const box = L.DomUtil.create('div', 'leaflet-control-attribution attribution');
                const link = meta('vicinity-attribution-link');
                const credit = link ? document.createElement('a') : box;
                credit.textContent = meta('vicinity-attribution');
                if (link) {
                  credit.href = link;
                  credit.rel = 'noopener';
                  box.append(credit);
                }
                return box;
              },
            });
            new Credit().addTo(map);
          }
          const layer = L.layerGroup().addTo(map);

          function icon(label, className) {
            const mark = document.createElement('span');
            mark.className = 'marker ' + className;
            mark.textContent = label;
            // CSS px: two digits of the marker's 0.8 rem (12.8 px) type with its 2 px border and room
            // around, and about that times 1.375 (large text's scale), rounded up, in large text.
            const size = state.large ? 38 : 26;
            return L.divIcon({ className: 'place-icon', html: mark, iconSize: [size, size] });
          }

          // A marker for a hit (or the centre), carrying the hit's id and number for the list and tests.
          function marker(lat, lon, label, className, title, id) {
            const options = { icon: icon(label, className), title, keyboard: true, riseOnHover: true };
            const placed = L.marker([lat, lon], options);
            placed.addTo(layer);
            const element = placed.getElement();
            if (element) {
              element.setAttribute('aria-label', title);
              if (id !== undefined) element.dataset.id = id;
              element.dataset.lat = String(lat);
              element.dataset.lon = String(lon);
              element.dataset.label = label;
            }
            if (id !== undefined) placed.on('click', () => select(id));
            return placed;
          }

          function ring(lat, lon, radius) {
            const options = { radius, color: '#1769aa', weight: 2, fillOpacity: 0.06, interactive: false };
            return L.circle([lat, lon], options).addTo(layer);
          }

          // Shows `bounds` whole, and again when the map's size changes (a phone turned, a window resized);
          // 24 px around it so the ring's edge is not under the map's border, and no deeper than zoom 18,
          // a street's width across a marker, so a small radius still shows the streets around it.
          let fitted = null;
          function fit(bounds) {
            fitted = bounds;
            map.fitBounds(bounds, { padding: [24, 24], maxZoom: 18, animate: false });
          }
          map.on('resize', () => { if (fitted) fit(fitted); });

          // Marks the list's row of a place clicked on the map and brings it into view.
          function select(id) {
            state.selected = id;
            for (const row of document.querySelectorAll('tr.selected')) row.classList.remove('selected');
            for (const row of document.querySelectorAll('tbody tr')) {
              if (row.dataset.id === id) {
                row.classList.add('selected');
                row.scrollIntoView({ block: 'nearest' });
              }
            }
          }

          // --- The list under the map ----------------------------------------------------------------

          function fillTable(table, rows) {
            const body = table.tBodies[0];
            body.replaceChildren();
            for (const entry of rows) {
              const row = document.createElement('tr');
              row.dataset.id = entry.hit.id;
              if (entry.className) row.className = entry.className;
              if (entry.hit.id === state.selected) row.classList.add('selected');
              const cells = [entry.label, entry.name, distanceText(entry.hit.distance_m), directionText(entry.hit)];
              cells.forEach((text, index) => {
                // The name heads its row: a screen reader says it with each of the row's cells.
                const cell = document.createElement(index === 1 ? 'th' : 'td');
                if (index === 1) cell.scope = 'row';
                cell.textContent = text;
                cell.className = ['number', 'name', 'number distance', 'direction'][index];
                row.append(cell);
              });
              row.cells[2].dataset.meters = String(entry.hit.distance_m);
              body.append(row);
            }
            table.hidden = rows.length === 0;
          }

          function setStatus(id, text, isError) {
            const element = $(id);
            element.textContent = text;
            element.classList.toggle('error', Boolean(isError));
          }


        """#

    /// The end of the script: the two views, large text, and what the page does on load.
    static let scriptStart = #"""
          // --- Views, large text, start ----------------------------------------------------------------

          function showView(view) {
            state.view = view;
            const people = view === 'people';
            $('show-places').setAttribute('aria-pressed', String(!people));
            $('show-people').setAttribute('aria-pressed', String(people));
            $('places-controls').hidden = people;
            $('places-list').hidden = people;
            $('people-controls').hidden = !people;
            $('people-list').hidden = !people;
            rememberInURL();
            layer.clearLayers();
            if (people) drawPeople(true);
            else drawPlaces(true);
          }

          function setLarge(large) {
            state.large = large;
            document.documentElement.classList.toggle('large', large);
            $('large-text').checked = large;
            try { localStorage.setItem('vicinity.large', large ? '1' : ''); } catch (error) { /* private mode */ }
            map.invalidateSize();
            if (state.view === 'people') drawPeople(false);
            else drawPlaces(false);
          }

          $('show-places').addEventListener('click', () => showView('places'));
          $('show-people').addEventListener('click', () => showView('people'));
          $('large-text').addEventListener('change', (event) => setLarge(event.target.checked));
          $('where').addEventListener('submit', submitWhere);
          $('locate').addEventListener('click', locate);
          $('sign-in').addEventListener('submit', (event) => {
            event.preventDefault();
            const id = $('user-id').value.trim();
            const token = $('user-token').value.trim();
            if (id && token) signIn({ id, token });
          });
          $('sign-out').addEventListener('click', () => signOut(true));
          $('visible').addEventListener('change', changeVisibility);
          $('people-where').addEventListener('submit', (event) => {
            event.preventDefault();
            const radius = Number($('people-radius').value);
            if (!(radius > 0 && radius <= 20000000)) {
              setStatus('people-status', 'Type a radius from 1 to 20000000 meters.', true);
              return;
            }
            state.people.radius = radius;
            if (state.people.session) startWatch(true);
          });

          const params = new URLSearchParams(location.search);
          let large = false;
          try { large = localStorage.getItem('vicinity.large') === '1'; } catch (error) { large = false; }
          if (large) setLarge(true);
          if (params.get('kind')) state.places.kind = params.get('kind');
          $('places-title').textContent = capitalized(plural(state.places.kind, 2)) + ' near you';
          if (params.get('radius')) $('radius').value = params.get('radius');
          const saved = savedSession();
          showView(params.get('view') === 'people' ? 'people' : 'places');
          if (saved) signIn(saved);
          if (params.get('lat') !== null && params.get('lon') !== null) {
            $('lat').value = params.get('lat');
            $('lon').value = params.get('lon');
            submitWhere();
          } else if (state.view === 'places') {
            locate();
          }
        }());

        """#
}
