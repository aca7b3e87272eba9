#!/usr/bin/env bash
# End-to-end checks of the `vicinity` binary, as a user would type the commands.
# Usage: VICINITY=.build/debug/vicinity scripts/cli-acceptance.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
passed=0
failed=0

check() { # name, command output, expected pattern (grep -E)
    if grep -Eq -- "$3" <<<"$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s\n  expected /%s/\n  got:\n%s\n' "$1" "$3" "$2" >&2
    fi
}

check_status() { # name, expected status, command...
    local name=$1 expected=$2
    shift 2
    "$@" >/dev/null 2>&1
    local status=$?
    if [[ $status == "$expected" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s: exit %s, expected %s\n' "$name" "$status" "$expected" >&2
    fi
}

istanbul=Data/pharmacies-istanbul-example.csv
# A home of our own: the default database is created (and seeded) there, never in the real one.
HOME=$(mktemp -d)
export HOME
unset VICINITY_DB VICINITY_TOKEN XDG_DATA_HOME
trap 'rm -rf "$HOME"' EXIT

# The original app's example: only Omur is within 500 m; all three within 700 m.
out=$("$bin" near 41.088154 29.015615 --radius 500 --data "$istanbul")
check "500 m lists Omur at 131.9 m" "$out" "131\.9 m .*Omur"
check "500 m lists one pharmacy" "$(grep -cE '^ +[0-9]+\. ' <<<"$out")" "^1$"
out=$("$bin" near 41.088154 29.015615 --radius 700 --data "$istanbul")
check "700 m: Omur" "$out" "131\.9 m .*Omur"
check "700 m: Emre" "$out" "662\.5 m .*Emre"
check "700 m: Arzu" "$out" "681\.9 m .*Arzu"
check "700 m: nearest first" "$(grep -Eo 'Omur|Emre|Arzu' <<<"$out" | tr '\n' ' ')" "^Omur Emre Arzu $"
check "bearing and compass point" "$("$bin" near 41.088154 29.015615 --radius 500 --data "$istanbul")" "WSW"

# JSON shapes.
out=$("$bin" near 41.088154 29.015615 --radius 700 --data "$istanbul" --json)
check "near --json is one line" "$(wc -l <<<"$out")" "^1$"
check "near --json query" "$out" '"query":\{"count":null,"lat":41\.088154,"limit":null,"lon":29\.015615,"model":"geodesic","radius_m":700\}'
check "near --json result" "$out" '"distance_m":131\.93'
out=$("$bin" dist 41.088154 29.015615 41.087853 29.014096 --json)
check "dist --json" "$out" '"geodesic_m":131\.936'
check "dist --json crs" "$out" '"crs":"EPSG:32635"'

# Shipped data, negative longitudes as values; the first query creates the default database.
out=$("$bin" near 51.508039 -0.128069 --radius 500 2>&1)
check "first use creates and seeds the default database" "$out" "created $HOME/.local/share/vicinity/vicinity.sqlite with the 2281 shipped places"
check "London near Trafalgar Square" "$out" "within 500 m"
check "the database is private to its owner" "$(stat -c %a "$HOME/.local/share/vicinity/vicinity.sqlite")" "^600$"
out=$("$bin" nearest 51.530882 -0.123796 --count 3 --json)
check "nearest --json count" "$(grep -o '"id"' <<<"$out" | wc -l)" "^3$"

# Bad input: exit codes 64 (usage), 65 (data), 66 (unreadable file).
check_status "latitude out of range" 64 "$bin" near 91 0
check_status "latitude not a number" 64 "$bin" near abc 0
check_status "nan radius" 64 "$bin" near 41 29 --radius nan
check_status "unknown model" 64 "$bin" near 41 29 --model flat
check_status "missing file" 66 "$bin" near 41 29 --data /nonexistent.csv
bad=$(mktemp)
printf 'id,name,lat,lon\na,A,41.0,29.0\nb,B,95,29\n' >"$bad"
check_status "bad row" 65 "$bin" near 41 29 --data "$bad"
out=$("$bin" near 41 29 --data "$bad" 2>&1)
check "bad row message names file and line" "$out" "$bad:3: invalid latitude \"95\""
rm -f "$bad"

# The database: import, users, visibility, tokens.
db="$HOME/acceptance.sqlite"
out=$("$bin" import "$istanbul" --kind pharmacy --db "$db")
check "import says how many" "$out" "^Imported 3 places into "
admin=$("$bin" admin-token --db "$db" 2>/dev/null)
check "admin token is 43 base64url characters" "$admin" "^[A-Za-z0-9_-]{43}$"
check_status "a second admin-token without --rotate" 64 "$bin" admin-token --db "$db"
check_status "user add without the admin token" 77 "$bin" user add ayse --db "$db"
ayse=$(VICINITY_TOKEN=$admin "$bin" user add ayse --name "Ayşe" --at 41.0885 29.0158 --db "$db" 2>/dev/null)
check "user add prints the token alone" "$ayse" "^[A-Za-z0-9_-]{43}$"
out=$("$bin" near 41.088154 29.015615 --radius 500 --kind user --db "$db")
check "a public user is on the map" "$out" "Ayşe"
check_status "a wrong token" 77 "$bin" user visibility ayse private --token wrong --db "$db"
"$bin" user visibility ayse private --token "$ayse" --db "$db" >/dev/null
out=$("$bin" near 41.088154 29.015615 --radius 500 --kind user --db "$db")
check "a private user is on nobody else's map" "$out" "^No users within 500 m"
out=$("$bin" near 41.088154 29.015615 --radius 500 --kind user --db "$db" --token "$ayse")
check "a private user sees themselves" "$out" "Ayşe"
check_status "a private user looks missing to others" 67 "$bin" user show ayse --db "$db"
# People's privacy: others see the centre of the user's street cell, the user their exact place.
mert=$(VICINITY_TOKEN=$admin "$bin" user add mert --at 41.0885 29.0158 --db "$db" 2>/dev/null)
check "others see a street user at their cell's centre" "$("$bin" user show mert --db "$db")" \
  "location: +41\.0884615, 29\.0152368"
check "the user sees their exact location and its expiry" "$("$bin" user show mert --token "$mert" --db "$db")" \
  "forgotten: +20[0-9-]+T[0-9:]+Z"
check "distances to a street user are rounded to 100 m" \
  "$("$bin" near 41.0900 29.0158 --radius 500 --kind user --db "$db")" "^ +1\. +200\.0 m .* mert"
check "precision is the user's to change" "$("$bin" user precision mert district --token "$mert" --db "$db")" \
  "about 1000 m"
check "ghost mode with a timer" "$("$bin" user visibility mert private --for 3h --token "$mert" --db "$db")" \
  "private until 20[0-9-]+T[0-9:]+Z"
check "a ghost is on nobody else's map" "$("$bin" near 41.0885 29.0158 --radius 500 --kind user --db "$db")" \
  "^No users within 500 m"
check "--for goes with private only" "$("$bin" user visibility mert public --for 3h --token "$mert" --db "$db" 2>&1)" \
  "--for goes with private only"
check "a bad duration names the value and the range" \
  "$("$bin" user visibility mert private --for 3x --token "$mert" --db "$db" 2>&1)" 'invalid duration "3x": expected 1s to 3650d'
check "serve refuses a bad precision" "$("$bin" serve --user-precision fuzzy --db "$db" 2>&1)" \
  'invalid precision "fuzzy"'
check "no token in the database file" "$(cat "$db" "$db-wal" 2>/dev/null | grep -c -- "$ayse")" "^0$"
bad=$(mktemp --suffix=.csv)
printf 'id,name,lat,lon\nnew,New,41.0,29.0\nworse,Worse,41,190\n' >"$bad"
out=$("$bin" import "$bad" --kind pharmacy --db "$db" 2>&1)
check "a bad row aborts the import, naming file and line" "$out" "$bad:3: invalid longitude \"190\""
check "a failed import stores nothing" "$("$bin" export --kind pharmacy --db "$db" | wc -l)" "^4$"
rm -f "$bad"

# Issue 15, the shell: standard input, GeoJSON results, JSON errors, suggestions, the swap hint,
# one meaning of --kind all, user list and user token, GeoJSON round trips, help.
out=$("$bin" export --kind pharmacy --db "$db" | "$bin" import - --kind pharmacy --db "$HOME/piped.sqlite")
check "import - reads a pipe" "$out" "^Imported 3 places into $HOME/piped\.sqlite"
out=$("$bin" near 41.088154 29.015615 --data - --format geojson <"$istanbul")
check "near --data - --format geojson" "$out" '^\{"type":"FeatureCollection","features":\[$'
check "near --format geojson: distance in properties" "$out" '"properties":\{"name":"Omur","kind":"pharmacy","distance_m":131\.93'
out=$("$bin" nearest 41.088154 29.015615 --count 2 --data "$istanbul" --format geojson)
check "nearest --format geojson: two features" "$(grep -c '"type":"Feature"' <<<"$out")" "^2$"
out=$("$bin" near 41 29 --radius -5 --json 2>&1 >/dev/null)
check "errors are JSON under --json" "$out" \
    '^\{"error":"invalid radius \\"-5\\": expected 0 to 20000000 meters","exit_code":64\}$'
check_status "a JSON error keeps its exit code" 64 "$bin" near 41 29 --radius -5 --json
check "a JSON error leaves standard output empty" "$("$bin" near 41 29 --radius -5 --json 2>/dev/null | wc -c)" "^0$"
check "did you mean a subcommand" "$("$bin" nera 41 29 2>&1)" "unknown command 'nera'\. Did you mean 'near'\?$"
check "did you mean an option" "$("$bin" near 41 29 --radus 5 2>&1)" "Did you mean '--radius'\?$"
check "no suggestion when nothing is close" "$("$bin" frobnicate 2>&1)" "^vicinity: unexpected argument 'frobnicate'$"
check "swapped coordinates" "$("$bin" near 151.2 -33.9 2>&1)" \
    'did you swap latitude and longitude\? try `vicinity near -33\.9 151\.2`$'
out=$(printf 'id,name,lat,lon\nk,Kahve,41.0882,29.0157\n' | "$bin" import - --kind cafe --db "$db")
out=$("$bin" near 41.088154 29.015615 --radius 700 --kind all --db "$db" 2>&1)
check "--kind all: every kind in near" "$out" "^4 places within 700 m"
check_status "a kind named all is refused" 64 "$bin" import "$istanbul" --kind all --db "$db"
out=$("$bin" user add zeynep --db "$db" 2>&1)
check "user add without a token says which and how" "$out" \
    'needs the admin token, and no token was given: pass it with --token TOKEN or in \$VICINITY_TOKEN'
check "user list for the admin" "$(VICINITY_TOKEN=$admin "$bin" user list --db "$db")" "^ayse +private +street +41\.0885, 29\.0158"
check_status "user list for anyone else" 77 "$bin" user list --token "$ayse" --db "$db"
new_ayse=$("$bin" user token ayse --token "$ayse" --db "$db" 2>/dev/null)
check "user token prints a new token alone" "$new_ayse" "^[A-Za-z0-9_-]{43}$"
check_status "the replaced token stops working" 77 "$bin" user show ayse --token "$ayse" --db "$db"
check_status "the new token works" 0 "$bin" user show ayse --token "$new_ayse" --db "$db"
geo1=$("$bin" export --kind pharmacy --format geojson --db "$db")
printf '%s\n' "$geo1" | "$bin" import - --kind pharmacy --db "$HOME/geo.sqlite" >/dev/null
geo2=$("$bin" export --kind pharmacy --format geojson --db "$HOME/geo.sqlite")
check "GeoJSON export, import, export: the same bytes" "$([[ "$geo1" == "$geo2" ]] && echo same)" "^same$"
check "--threads shows its default once" \
    "$("$bin" serve --help | sed -n '/--threads </,/--idle-timeout </p' | grep -v -- '--idle-timeout' | grep -o default | wc -l)" "^1$"
check "a bash completion script" "$("$bin" --generate-completion-script bash)" "_vicinity"

# serve, as an unprivileged user when this runs as root (scripts/server-user.sh): it answers, its
# two protocols share one event-loop group of --threads loops, a busy port on either is a usage
# error naming the address, and SIGTERM stops it gracefully, keeping an acknowledged write.
serve_dir=$(mktemp -d)
trap 'kill "${serve_pid:-}" 2>/dev/null; rm -rf "$HOME" "$serve_dir"' EXIT
serve_db="$serve_dir/serve.sqlite"
serve_admin=$("$bin" admin-token --db "$serve_db" 2>/dev/null)
source scripts/server-user.sh
serve_as_unprivileged "$serve_dir" "$bin"
serve_log="$serve_dir/serve.log"
"${as_server_user[@]}" "$serve_bin" serve --db "$serve_db" --line-port 0 --http-port 0 --threads 3 \
    --log-level info 2>"$serve_log" &
serve_pid=$!
for _ in $(seq 100); do grep -q "(HTTP)" "$serve_log" && break; sleep 0.1; done
line_port=$(grep -Eo '127\.0\.0\.1:[0-9]+ \(line protocol\)' "$serve_log" | grep -Eo ':[0-9]+' | tr -d :)
http_port=$(grep -Eo '127\.0\.0\.1:[0-9]+ \(HTTP\)' "$serve_log" | grep -Eo ':[0-9]+' | tr -d :)
if [[ $(id -u) == 0 ]]; then check "serve runs as $server_user" "$(ps -o user= -p "$serve_pid")" "^ *$server_user$"; fi
exec 3<>"/dev/tcp/127.0.0.1/$line_port"
printf 'PING\r\nAUTH %s\r\nPLACE.SET pharmacy kept 41.0881 29.0151\r\n' "$serve_admin" >&3
replies=$(for _ in 1 2 3; do IFS= read -r -t 10 reply <&3 && printf '%s ' "${reply%$'\r'}"; done)
check "serve answers PING, AUTH and a write" "$replies" "^\+PONG \+OK \+OK $"
exec 3>&-
check "serve: one event-loop group of --threads loops for both protocols" \
    "$(grep -c '^NIO-' /proc/"$serve_pid"/task/*/comm | awk -F: '{ sum += $2 } END { print sum }') \
$(sed 's/#.*//' /proc/"$serve_pid"/task/*/comm | grep '^NIO-' | sort -u | wc -l)" "^3 1$"
out=$("$bin" serve --db "$HOME/busy.sqlite" --line-port "$line_port" --no-http 2>&1)
check_status "a busy line port" 64 "$bin" serve --db "$HOME/busy.sqlite" --line-port "$line_port" --no-http
check "a busy line port names the address" "$out" \
    "cannot serve the line protocol on 127\.0\.0\.1:$line_port: Address already in use \(choose another --line-port\)"
out=$("$bin" serve --db "$HOME/busy.sqlite" --line-port 0 --http-port "$http_port" 2>&1)
check_status "a busy HTTP port" 64 "$bin" serve --db "$HOME/busy.sqlite" --line-port 0 --http-port "$http_port"
check "a busy HTTP port names the address" "$out" \
    "cannot serve HTTP on 127\.0\.0\.1:$http_port: Address already in use \(choose another --http-port, or --no-http\)"
kill -TERM "$serve_pid"
wait "$serve_pid"
check "SIGTERM: serve exits 0" "$?" "^0$"
check "SIGTERM: stopping, then stopped" "$(grep -Eo 'stopping|stopped' "$serve_log" | tr '\n' ' ')" "^stopping stopped $"
check "the request log names the write" "$(cat "$serve_log")" "command=PLACE.SET .*outcome=ok"
check "the request log holds no token" "$(grep -c -- "$serve_admin" "$serve_log")" "^0$"
check "SIGTERM: the acknowledged write is stored" "$("$bin" export --kind pharmacy --db "$serve_db")" "kept"

echo "acceptance: $passed passed, $failed failed"
[[ $failed == 0 ]]
