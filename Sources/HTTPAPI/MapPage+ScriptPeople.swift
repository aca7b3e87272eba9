extension MapPage {
    /// The part of `/map.js` for people: sign-in, visibility, and the watch stream of public
    /// users around the signed-in user, read with `fetch` and resumed with `Last-Event-ID`.
    static let scriptPeople = #"""
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


        """#
}
