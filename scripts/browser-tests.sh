#!/usr/bin/env bash
# The browser map (issue 21) in headless Chromium: a throwaway `vicinity serve --tiles none` on
# 127.0.0.1 with the Istanbul example and the London pharmacies, driven by scripts/browser_tests.py
# (selenium): the markers and list equal /v1/nearby, the empty case names the nearest place as the
# text map does, a user made private vanishes from another browser session's map, hostile names
# render as text, a move made with the CLI shows without a reload, a page whose server stops says
# so and catches up once it is back, no console errors, the page's own files under 50 KB. Writes the
# screenshots the README shows to $SHOTS (SHOTS=docs/screenshots to renew them; by default a
# throwaway folder, so that a run leaves the tree clean whatever Chromium draws). Installs Debian's chromium,
# chromium-driver, libjs-leaflet and fonts-dejavu-core with apt-get when missing, and selenium
# (pinned) with pip into .build/browser-venv, or for the user where Python has no venv.
# Usage: VICINITY=.build/debug/vicinity scripts/browser-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
selenium_version=4.27.1
source scripts/apt-common.sh
SECONDS=0
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
[[ -e /usr/share/javascript/leaflet/leaflet.js ]] || missing+=(libjs-leaflet)
# The screenshots' font: a machine without it would draw them differently.
[[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]] || missing+=(fonts-dejavu-core)
((${#missing[@]} == 0)) || apt_install --no-install-recommends "${missing[@]}"
venv=.build/browser-venv
python=$venv/bin/python
if ! "$python" -c "import selenium" 2>/dev/null; then
    if python3 -m venv "$venv" 2>/dev/null; then
        "$venv/bin/pip" install -q "selenium==$selenium_version"
    else
        rm -rf "$venv"
        python3 -m pip install -q --user --break-system-packages "selenium==$selenium_version" 2>/dev/null \
            || python3 -m pip install -q --user "selenium==$selenium_version"
        python=python3
    fi
fi

# Both parts are timed: what a clean machine (CI's fresh clone) pays to install, then the run.
install_seconds=$SECONDS
SECONDS=0
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
source scripts/server-user.sh
SERVE_EXAMPLE_EXTRA=Data/pharmacies-london.csv serve_example "$work" "$bin" "$port" $((port + 1)) --tiles none
# The CLI as the server's user, on the server's database (a move made by another process).
cli="${as_server_user[*]} $serve_bin"
status=0
# The test stops the server and starts it again (the same command) to see the page reconnect.
API="http://127.0.0.1:$((port + 1))" ADMIN="$admin" CLI="$cli" DB="$work/db.sqlite" SERVER_PID=$server \
    SERVE_LOG="$work/serve-again.log" SERVE="$cli serve --db $work/db.sqlite --line-port $port --http-port $((port + 1)) --tiles none" \
    SHOTS="${SHOTS:-$work/screenshots}" "$python" scripts/browser_tests.py || status=$?
echo "browser tests: ${SECONDS} s, after ${install_seconds} s installing"
# The test stopped the first server itself: the EXIT trap's kill then fails, which must not fail the run.
set +e
exit $status
