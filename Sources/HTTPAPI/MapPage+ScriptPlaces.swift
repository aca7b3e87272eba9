extension MapPage {
    /// The part of `/map.js` for places (pharmacies or any kind): the form, geolocation, a
    /// click on the map, `/v1/nearby` and the nearest beyond the radius, the link.
    static let scriptPlaces = #"""
          // --- Pharmacies (any kind of place) --------------------------------------------------------

          function parseDegrees(text, limit) {
            const trimmed = String(text).trim();
            const value = Number(trimmed);
            return trimmed !== '' && Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
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


        """#
}
