#!/usr/bin/env bash
# curl -N on the HTTP API's live watches (issue 17): a watch around a point read as Server-Sent
# Events while places are written through the HTTP API (inside, ready, enter, move, exit, each
# with the write's Vicinity-Position as its id), the heartbeat, then curl killed, more writes, and
# curl -N again with Last-Event-ID (and with last_event_id): exactly the missed events, then
# ready. Also a roaming watch on a user (their token; 403 without it) and a bad parameter's 400.
# Usage: VICINITY=.build/debug/vicinity scripts/watch-sse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
hport=$((port + 1))
source scripts/server-user.sh
serve_example "$work" "$bin" "$port" "$hport" --sse-heartbeat 1
readers=()
trap 'kill "${readers[@]}" 2>/dev/null; kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$serve_folder"' EXIT
api="http://127.0.0.1:$hport"
here="lat=41.088154&lon=29.015615"

failed=0
expect() { # name, actual, expected
    if [[ "$2" == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: got [$2], expected [$3]"; failed=1; fi
}

# curl -N in the background, its output in $work/$1 (pid in $reader); then waits for `ready`.
watch() { # name, path and query, curl options…
    curl -sN "${@:3}" "$api$2" >"$work/$1" &
    reader=$!
    readers+=("$reader")
    until_seen "$1" '^event: ready$' 1 || true
}
# Waits (up to 10 s) until the stream file holds COUNT lines matching the pattern.
until_seen() { # name, pattern, count
    for _ in $(seq 100); do
        [[ $(grep -cE "$2" "$work/$1" 2>/dev/null || true) -ge $3 ]] && return 0
        sleep 0.1
    done
    echo "FAIL $1: no $3 lines matching /$2/ in 10 s:" >&2
    cat "$work/$1" >&2
    failed=1
    return 1
}
# The stream as one line per event: `event id object position` (- for what is not there).
events() { # name
    python3 - "$work/$1" <<'PY'
import json, sys
event, ident, data = None, "-", {}
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if line.startswith("event: "):
        event = line[7:]
    elif line.startswith("id: "):
        ident = line[4:]
    elif line.startswith("data: "):
        data = json.loads(line[6:])
    elif line == "" and event:
        print(event, ident, data.get("id", "-"), data["position"])
        event, ident, data = None, "-", {}
PY
}
# A write through the HTTP API as the admin; prints the Vicinity-Position it was stored at.
write() { # method, path, JSON body (or nothing)
    local body=()
    [[ -n ${3:-} ]] && body=(-H 'Content-Type: application/json' -d "$3")
    curl -s -o /dev/null -D - -X "$1" -H "Authorization: Bearer $admin" "${body[@]}" "$api$2" \
        | tr -d '\r' | awk 'tolower($1) == "vicinity-position:" { print $2 }'
}

# A watch around the Istanbul example's "your location", 500 m: Omur (132 m) is inside.
watch first "/v1/nearby/watch?$here&radius=500"
start=$(events first | awk '$1 == "ready" { print $2 }')
expect "curl -N: the snapshot" "$(events first)" "inside - omur $start
ready $start - $start"
p1=$(write PUT /v1/places/pharmacy/yeni '{"name":"Yeni","lat":41.0885,"lon":29.0156}')
p2=$(write PUT /v1/places/pharmacy/yeni '{"name":"Yeni","lat":41.0887,"lon":29.0157}')
p3=$(write PUT /v1/places/pharmacy/omur '{"name":"Omur","lat":41.2,"lon":29.1}')
until_seen first '^event: exit$' 1 || true
expect "curl -N: enter, move and exit, each with its write's position as id" "$(events first | tail -n +3)" \
    "enter $p1 yeni $p1
move $p2 yeni $p2
exit $p3 omur $p3"
# The move's object is /v1/nearby's hit for Yeni, and its distance and bearing the exact ones of
# /v1/distance (/v1/nearby's come from its index, equal within nanometres), written alike.
move=$(grep '^data: {.*"event":"move"' "$work/first" | sed 's/^data: //')
expect "the move's object is /v1/nearby's hit" "$(jq -c '{id, kind, lat, lon, name}' <<<"$move")" \
    "$(curl -s "$api/v1/nearby?$here&radius=500" | jq -c '.results[] | select(.id == "yeni") | {id, kind, lat, lon, name}')"
distance=$(curl -s "$api/v1/distance?from_lat=41.088154&from_lon=29.015615&to_lat=41.0887&to_lon=29.0157")
expect "the move's distance and bearing are /v1/distance's, byte for byte" \
    "$(grep -oE '"(distance_m|bearing_deg)":[^,}]*' <<<"$move" | sed 's/distance_m/geodesic_m/' | sort)" \
    "$(grep -oE '"(geodesic_m|bearing_deg)":[^,}]*' <<<"$distance" | sort)"
until_seen first '^: keep-alive$' 1 && echo "ok   a heartbeat comment after 1 s of quiet (--sse-heartbeat 1)"
kill "$reader"
wait "$reader" 2>/dev/null || true

# Missed while no one watched: Emre comes within 500 m, Yeni is removed.
p4=$(write PUT /v1/places/pharmacy/emre '{"name":"Emre","lat":41.0883,"lon":29.0153}')
p5=$(write DELETE /v1/places/pharmacy/yeni)
watch resumed "/v1/nearby/watch?$here&radius=500" -H "Last-Event-ID: $p3"
resumed_at=$(events resumed | awk '$1 == "ready" { print $2 }')
# The replay's ready is at the position the server has applied: Yeni's removal here, whose id it
# then carries (the last event of a position has it).
p5id=$([[ $resumed_at == "$p5" ]] && echo - || echo "$p5")
expect "curl -N -H 'Last-Event-ID: $p3': exactly the missed events, then ready" "$(events resumed)" \
    "enter $p4 emre $p4
exit $p5id yeni $p5
ready $resumed_at - $resumed_at"
watch query "/v1/nearby/watch?$here&radius=500&last_event_id=$p1"
expect "curl -N ?last_event_id=$p1: the events after it" "$(events query | sed -n 1,4p)" \
    "move $p2 yeni $p2
exit $p3 omur $p3
enter $p4 emre $p4
exit $p5id yeni $p5"
kill "${readers[@]}" 2>/dev/null || true

# A roaming watch: the users within 1 km of Ayşe, wherever she goes; it needs her token.
token=$(curl -s -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    -d '{"id":"ayse","name":"Ayşe","location":{"lat":41.0885,"lon":29.0158}}' "$api/v1/users" | jq -r .token)
expect "a roaming watch without the user's token" \
    "$(curl -s -o /dev/null -w '%{http_code}' "$api/v1/users/ayse/nearby/watch?kind=user&radius=1000")" "403"
watch roaming "/v1/users/ayse/nearby/watch?kind=user&radius=1000" -H "Authorization: Bearer $token"
p6=$(curl -s -o /dev/null -D - -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    -d '{"id":"mehmet","name":"Mehmet","location":{"lat":41.0890,"lon":29.0160}}' "$api/v1/users" \
    | tr -d '\r' | awk 'tolower($1) == "vicinity-position:" { print $2 }')
until_seen roaming '^event: enter$' 1 || true
expect "Mehmet registered 60 m from Ayşe enters her roaming watch" "$(events roaming | grep '^enter')" \
    "enter $p6 mehmet $p6"

expect "a bad parameter is the 400 of /v1/nearby" \
    "$(curl -s -w ' %{http_code}' "$api/v1/nearby/watch?lat=95&lon=29" | jq -r .detail 2>/dev/null; \
       curl -s -o /dev/null -w '%{http_code}' "$api/v1/nearby/watch?lat=95&lon=29")" \
    'invalid latitude "95": expected a number of degrees from -90 to 90
400'
exit $failed
