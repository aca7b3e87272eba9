extension MapPage {
    /// `/map.js`: the page's one script (no framework, no build step). It uses only the public
    /// HTTP API, puts every name from the server on the page as text (`textContent`), keeps a
    /// user's token in the tab's session storage only, and reads the watch stream with `fetch`
    /// (a browser's `EventSource` cannot send the token), reconnecting with `Last-Event-ID`.
    static let script = #"""
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

          // "132 m", "1.2 km", "12 km".
          function distanceText(meters) {
            if (!Number.isFinite(meters)) return '? m';
            const whole = Math.round(meters);
            if (whole < 1000) return whole + ' m';
            const km = meters / 1000;
            return Math.round(km * 10) < 100 ? km.toFixed(1) + ' km' : km.toFixed(0) + ' km';
          }

          // "500 m", "62.5 m", "1.5 km", "5 km".
          function radiusText(meters) {
            if (meters < 999.5) return String(meters) + ' m';
            const tenths = Math.round(meters / 100);
            if (tenths < 100 && tenths % 10 !== 0) return (tenths / 10).toFixed(1) + ' km';
            return (meters / 1000).toFixed(0) + ' km';
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

          // Shows `bounds` whole, and again when the map's size changes (a phone turned, a window resized).
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

          // --- Pharmacies (any kind of place) --------------------------------------------------------

          function parseDegrees(text, limit) {
            const value = Number(String(text).trim());
            return text !== '' && Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
          }

          // How many points the user has chosen (typed or clicked): a location asked for before the
          // latest choice is not used when it comes.
          let choices = 0;
          // The number of the latest /v1/nearby query: an answer to an older one is not drawn.
          let placesQuery = 0;

          // Reads the form, checks it, and shows what is near (`event`: the user submitted it).
          function submitWhere(event) {
            if (event) {
              event.preventDefault();
              choices += 1;
            }
            const lat = parseDegrees($('lat').value, 90);
            const lon = parseDegrees($('lon').value, 180);
            const radius = Number($('radius').value);
            if (lat === null || lon === null) {
              setStatus('places-status', 'Type a latitude from -90 to 90 and a longitude from -180 to 180, ' +
                'or click the map.', true);
              return;
            }
            if (!(radius > 0 && radius <= 20000000)) {
              setStatus('places-status', 'Type a radius from 1 to 20000000 meters.', true);
              return;
            }
            Object.assign(state.places, { lat: $('lat').value.trim(), lon: $('lon').value.trim(), radius });
            showPlaces();
          }

          async function showPlaces() {
            const where = state.places;
            const query = 'lat=' + encodeURIComponent(where.lat) + '&lon=' + encodeURIComponent(where.lon) +
              '&kind=' + encodeURIComponent(where.kind);
            rememberInURL();
            setStatus('places-status', 'Looking…');
            const asked = ++placesQuery;
            try {
              const answer = await api('/v1/nearby?' + query + '&radius=' + where.radius);
              let beyond = null;
              if (answer.results.length === 0 && asked === placesQuery) {
                const nearest = await api('/v1/nearest?' + query + '&count=1');
                beyond = nearest.results[0] || null;
              }
              if (asked !== placesQuery) return;
              where.answer = answer;
              where.beyond = beyond;
              drawPlaces(true);
            } catch (error) {
              if (asked === placesQuery) setStatus('places-status', 'The search failed: ' + error.message, true);
            }
          }

          function drawPlaces(refit) {
            const where = state.places;
            const answer = where.answer;
            if (!answer || state.view !== 'places') return;
            layer.clearLayers();
            const lat = Number(where.lat);
            const lon = Number(where.lon);
            const circle = ring(lat, lon, where.radius);
            marker(lat, lon, '', 'here', 'Your location: ' + where.lat + ', ' + where.lon);
            const kind = where.kind;
            const rows = answer.results.map((hit, index) => {
              const number = String(index + 1);
              marker(hit.lat, hit.lon, number, 'place', number + ': ' + described(hit), hit.id);
              return { hit, label: number, name: hit.name };
            });
            const within = ' within ' + radiusText(where.radius);
            $('places-list-title').textContent = capitalized(plural(kind, 2)) + within + ', nearest first';
            fillTable($('places-table'), rows);
            const empty = $('places-empty');
            empty.hidden = rows.length > 0;
            const bounds = circle.getBounds();
            if (rows.length === 0) {
              let text = 'No ' + kind + within + '.';
              const beyond = where.beyond;
              if (beyond) {
                text += ' Nearest: ' + described(beyond) + '.';
                const title = 'Nearest, beyond the radius: ' + described(beyond);
                marker(beyond.lat, beyond.lon, '→', 'beyond', title, beyond.id);
                bounds.extend([beyond.lat, beyond.lon]);
              }
              empty.textContent = text;
            }
            const count = answer.total;
            let summary = count + ' ' + plural(kind, count) + within + ' of ' + where.lat + ', ' + where.lon + '.';
            if (answer.results.length < count) summary += ' The nearest ' + answer.results.length + ' are listed.';
            setStatus('places-status', summary);
            if (refit) fit(bounds);
          }

          function locate() {
            if (!navigator.geolocation) {
              setStatus('places-status', 'This browser cannot tell your location: click the map or type coordinates.',
                true);
              return;
            }
            setStatus('places-status', 'Asking for your location… (or click the map, or type coordinates)');
            const asked = choices;
            navigator.geolocation.getCurrentPosition((position) => {
              if (asked !== choices) return;
              $('lat').value = position.coords.latitude.toFixed(6);
              $('lon').value = position.coords.longitude.toFixed(6);
              submitWhere();
            }, (error) => {
              if (asked !== choices) return;
              setStatus('places-status', 'Your location is not available (' + error.message +
                '): click the map or type coordinates.', true);
            }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
          }

          map.on('click', (event) => {
            if (state.view !== 'places') return;
            choices += 1;
            $('lat').value = event.latlng.lat.toFixed(6);
            $('lon').value = L.Util.wrapNum(event.latlng.lng, [-180, 180], true).toFixed(6);
            submitWhere();
          });

          // The view as a link: `/?lat=…&lon=…&radius=…` (never a token).
          function rememberInURL() {
            const params = new URLSearchParams();
            if (state.view === 'people') {
              params.set('view', 'people');
            } else if (state.places.lat !== null) {
              params.set('lat', state.places.lat);
              params.set('lon', state.places.lon);
              params.set('radius', String(state.places.radius));
              if (state.places.kind !== 'pharmacy') params.set('kind', state.places.kind);
            }
            const search = params.toString();
            history.replaceState(null, '', search ? '/?' + search : '/');
          }

          // --- People --------------------------------------------------------------------------------

          function savedSession() {
            try {
              const saved = JSON.parse(sessionStorage.getItem(SESSION) || 'null');
              return saved && typeof saved.id === 'string' && typeof saved.token === 'string' ? saved : null;
            } catch (error) {
              return null;
            }
          }

          async function signIn(session) {
            const people = state.people;
            setStatus('people-status', 'Signing in…');
            try {
              const me = await api('/v1/users/' + encodeURIComponent(session.id), { token: session.token });
              sessionStorage.setItem(SESSION, JSON.stringify(session));
              people.session = session;
              people.me = me;
              people.center = me.location ? { lat: me.location.lat, lon: me.location.lon } : null;
              showSignedIn();
              startWatch(true);
            } catch (error) {
              const reason = error.status === 401 ? 'the token is not one the server knows'
                : error.status === 404 ? 'there is no user "' + session.id + '" you can see' : error.message;
              setStatus('people-status', 'Cannot sign in: ' + reason + '.', true);
              if (error.status === 401 || error.status === 404) signOut(false);
            }
          }

          function signOut(clearStatus) {
            const people = state.people;
            stopWatch();
            sessionStorage.removeItem(SESSION);
            Object.assign(people, { session: null, me: null, center: null, ready: false, lastEventId: null });
            people.hits.clear();
            $('sign-in').hidden = false;
            $('signed-in').hidden = true;
            $('user-token').value = '';
            setStream('', '');
            if (clearStatus) setStatus('people-status', 'Signed out.');
            drawPeople(false);
          }

          function showSignedIn() {
            const me = state.people.me;
            $('sign-in').hidden = true;
            $('signed-in').hidden = false;
            $('me-name').textContent = me.name + ' (' + me.id + ')';
            $('visible').checked = me.visibility === 'public';
            describeVisibility();
          }

          function describeVisibility() {
            const me = state.people.me;
            const blurred = me.precision && me.precision !== 'exact' ? ' at ' + me.precision + ' precision.' : '.';
            let text = me.visibility === 'public' ? 'Others see you on their maps' + blurred
              : 'You are private: you are on no one else\'s map.';
            if (!state.people.center) text += ' You have no location yet, so you are on no map.';
            setStatus('people-status', text);
          }

          async function changeVisibility() {
            const people = state.people;
            const box = $('visible');
            const wanted = box.checked ? 'public' : 'private';
            box.disabled = true;
            try {
              people.me = await api('/v1/users/' + encodeURIComponent(people.session.id) + '/visibility',
                { method: 'PUT', token: people.session.token, json: { visibility: wanted } });
              box.checked = people.me.visibility === 'public';
              describeVisibility();
            } catch (error) {
              box.checked = !box.checked;
              setStatus('people-status', 'Cannot change your visibility: ' + error.message, true);
            } finally {
              box.disabled = false;
            }
          }

          function setStream(kind, text) {
            const element = $('stream-state');
            element.className = 'stream ' + kind;
            element.textContent = text;
          }

          function stopWatch() {
            if (state.people.watch) state.people.watch.abort();
            state.people.watch = null;
          }

          // The roaming watch of users around the signed-in user (`/v1/users/{id}/nearby/watch`), read
          // with fetch (EventSource cannot send a token) and reconnected with Last-Event-ID when lost.
          function startWatch(fresh) {
            const people = state.people;
            stopWatch();
            if (fresh) {
              people.hits.clear();
              people.lastEventId = null;
              people.ready = false;
              people.fresh = true;
            }
            const controller = new AbortController();
            people.watch = controller;
            follow(controller);
          }

          async function follow(controller) {
            const people = state.people;
            let delay = 1000;
            while (!controller.signal.aborted) {
              const attempt = new AbortController();
              const stop = () => attempt.abort();
              controller.signal.addEventListener('abort', stop);
              let silence = null;
              const quiet = () => {
                clearTimeout(silence);
                silence = setTimeout(stop, SILENCE_MS);
              };
              try {
                const headers = { Accept: 'text/event-stream', Authorization: 'Bearer ' + people.session.token };
                if (people.lastEventId) headers['Last-Event-ID'] = people.lastEventId;
                const url = '/v1/users/' + encodeURIComponent(people.session.id) + '/nearby/watch?kind=user&radius=' +
                  people.radius;
                quiet();
                const response = await fetch(url, { headers, signal: attempt.signal, cache: 'no-store' });
                // GET /v1/users/{id} answers anyone for a public user: the watch is what proves the token
                // is the user's own, so a refusal there is a failed sign-in.
                if (response.status === 401 || response.status === 403) {
                  signOut(false);
                  setStatus('people-status', 'Cannot sign in: ' + (response.status === 401
                    ? 'the token is not one the server knows.' : 'this token is not this user\'s.'), true);
                  return;
                }
                if ([400, 404].includes(response.status)) {
                  const problem = await response.json().catch(() => null);
                  const reason = (problem && problem.detail) || 'HTTP ' + response.status;
                  setStream('lost', 'The live view stopped: ' + reason);
                  return;
                }
                if (response.ok) {
                  await readEvents(response.body, (name, data, id) => {
                    quiet();
                    if (name === 'ready') delay = 1000;
                    apply(name, data, id);
                  }, quiet);
                }
              } catch (error) {
                // A network error or the silence timer: reconnect below.
              } finally {
                clearTimeout(silence);
                controller.signal.removeEventListener('abort', stop);
              }
              if (controller.signal.aborted) return;
              setStream('lost', 'Stream lost, reconnecting…');
              await new Promise((resolve) => setTimeout(resolve, delay));
              delay = Math.min(delay * 2, 10000);
            }
          }

          // Reads a text/event-stream body, calling `onEvent(name, data, id)` for each event and
          // `onBytes()` for anything received (the keep-alive comments too).
          async function readEvents(body, onEvent, onBytes) {
            const reader = body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = '';
            let name = 'message';
            let data = '';
            let id = null;
            for (;;) {
              const { value, done } = await reader.read();
              if (done) return;
              onBytes();
              buffer += value;
              let end;
              while ((end = buffer.indexOf('\n')) >= 0) {
                const line = buffer.slice(0, end).replace(/\r$/, '');
                buffer = buffer.slice(end + 1);
                if (line === '') {
                  if (data) onEvent(name, JSON.parse(data), id);
                  name = 'message';
                  data = '';
                  id = null;
                } else if (!line.startsWith(':')) {
                  const colon = line.indexOf(':');
                  const field = colon < 0 ? line : line.slice(0, colon);
                  const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
                  if (field === 'event') name = text;
                  else if (field === 'data') data += (data ? '\n' : '') + text;
                  else if (field === 'id') id = text;
                }
              }
            }
          }

          let drawPending = false;
          // Whether the events waiting to be drawn moved the centre: the server sends a move's exits and
          // enters before its `center`, so any event of the batch, not only the first, can be that move.
          let refitPending = false;
          function apply(name, data, id) {
            const people = state.people;
            if (id) people.lastEventId = id;
            switch (name) {
              case 'inside':
              case 'enter':
              case 'move':
                people.hits.set(data.id, data);
                break;
              case 'exit':
                people.hits.delete(data.id);
                break;
              case 'center':
                people.center = data.center || null;
                if (people.me) describeVisibility();
                break;
              case 'reset':
                people.hits.clear();
                people.ready = false;
                people.fresh = true;
                break;
              case 'ready':
                people.ready = true;
                setStream('live', 'Live: changes show as they happen.');
                break;
              case 'closed':
                setStream('lost', 'The server closed the live view (' + (data.message || 'no reason given') + ').');
                return;
              default:
                return;
            }
            if (!people.ready) return;
            // The snapshot is drawn with its `ready` (so the list is whole when the page says "Live"); the
            // events after it once those that arrived together are applied. Only a fresh snapshot or a
            // new centre refits: the `ready` after a resumed stream's replay keeps the user's pan and zoom.
            refitPending = refitPending || name === 'center';
            if (name === 'ready') {
              drawPeople(people.fresh || refitPending);
              people.fresh = false;
              refitPending = false;
              return;
            }
            if (!drawPending) {
              drawPending = true;
              setTimeout(() => {
                const refit = refitPending;
                drawPending = false;
                refitPending = false;
                drawPeople(refit);
              }, 0);
            }
          }

          function drawPeople(refit) {
            if (state.view !== 'people') return;
            const people = state.people;
            layer.clearLayers();
            const rows = [];
            const center = people.center;
            // Nearest first as the server ranks them: by the distance to the published position, which the
            // events give rounded to the precision's cell; ties of the rounded distance by the distance
            // itself, then by id.
            const exact = (hit) => center ? localMeters(center, hit) : 0;
            const hits = [...people.hits.values()].sort((a, b) => a.distance_m - b.distance_m ||
              exact(a) - exact(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
            let number = 0;
            let circle = null;
            if (center) {
              circle = ring(center.lat, center.lon, people.radius);
              marker(center.lat, center.lon, '', 'here me', 'You: ' + people.me.name);
            }
            for (const hit of hits) {
              const isMe = people.me && hit.id === people.me.id;
              const label = isMe ? 'You' : String(++number);
              if (!isMe) {
                marker(hit.lat, hit.lon, label, 'place', label + ': ' + described(hit), hit.id);
              }
              rows.push({ hit, label, name: hit.name, className: isMe ? 'me' : '' });
            }
            const signedIn = Boolean(people.me);
            const within = ' within ' + radiusText(people.radius);
            $('people-list-title').textContent = 'Public users' + within + ', nearest first';
            fillTable($('people-table'), signedIn ? rows : []);
            const empty = $('people-empty');
            empty.hidden = !signedIn || !people.ready || number > 0;
            empty.textContent = center ? 'No one else' + within + ' is public.'
              : 'You have no location, so no one is around you on the map.';
            if (refit && circle) fit(circle.getBounds());
          }

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
