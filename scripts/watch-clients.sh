#!/usr/bin/env bash
# Watches consumed by the clients people already have (issue 17, Must show 2), against
# `vicinity serve` on the Istanbul example: redis-cli 7.0 in RESP2 (it keeps reading after
# SUBSCRIBE only, so the watch is a SUBSCRIBE channel that spells it) and in RESP3, and redis-py
# (pinned, scripts/watch_clients.py) through its pub/sub reader (RESP2, RESP3) and RESP3 pushes.
# Another client makes scripted moves, visibility flips and a removal; the events are checked.
# Installs redis-tools (apt) and redis-py (pip) when missing.
# Usage: VICINITY=.build/debug/vicinity scripts/watch-clients.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
redis_py=8.1.0
if ! command -v redis-cli >/dev/null; then
    source scripts/apt-common.sh
    apt_install redis-tools
fi
if [[ $(python3 -c 'import redis; print(redis.__version__)' 2>/dev/null || true) != "$redis_py" ]]; then
    python3 -m pip install -q --break-system-packages "redis==$redis_py" >/dev/null 2>&1 \
        || python3 -m pip install -q "redis==$redis_py" >/dev/null
fi
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
hport=$((port + 1))
source scripts/server-user.sh
serve_example "$work" "$bin" "$port" "$hport"

failed=0
expect() { # name, actual, expected
    if [[ "$2" == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: got [$2], expected [$3]"; failed=1; fi
}
cli() { redis-cli -p "$port" --no-auth-warning -a "$admin" "$@"; }
channel="NEARBY user 41.087853 29.014096 500"

# The events the watcher printed so far, one line each: "kind id" ("ready" alone).
events() { # output file
    python3 - "$1" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
for index, line in enumerate(lines):
    if line == "message" and index + 2 < len(lines):
        event = json.loads(lines[index + 2])
        print(event["event"], event.get("id", ""), sep=" " if "id" in event else "")
PY
}
# Waits (5 s at most) until the watcher printed `count` events.
wait_events() { # output file, count
    for _ in $(seq 100); do
        [[ $(events "$1" | wc -l) -ge $2 ]] && return 0
        sleep 0.05
    done
}

session() { # tag, protocol (2 or 3), walker
    local tag=$1 out="$work/cli-$2.txt" walker=$3 watcher count=1
    cli user.add "$walker" NAME "${walker^}" AT 41.3 29.3 PUBLIC >/dev/null
    timeout 30 redis-cli -p "$port" -"$2" SUBSCRIBE "$channel" >"$out" 2>&1 &
    watcher=$!
    wait_events "$out" 1
    expect "$tag confirms the subscription" "$(head -3 "$out" | tr '\n' '|')" "subscribe|$channel|1|"
    expect "$tag initial set: empty, ready" "$(events "$out")" "ready"
    step() { # expected event, command…
        local wanted=$1
        shift
        cli "$@" >/dev/null
        count=$((count + 1))
        wait_events "$out" "$count"
        expect "$tag $* → $wanted" "$(events "$out" | sed -n "${count}p")" "$wanted $walker"
    }
    step enter user.move "$walker" 41.0879 29.0141
    # A street user (the default): a step inside their ~100 m cell makes no event (the next
    # step's event would show a stray one), a step into another cell a move.
    cli user.move "$walker" 41.08791 29.01411 >/dev/null
    step move user.move "$walker" 41.0899 29.0163
    step exit user.move "$walker" 41.2 29.2
    step enter user.move "$walker" 41.0879 29.0141
    step exit user.visibility "$walker" PRIVATE
    step enter user.visibility "$walker" PUBLIC
    step exit user.del "$walker"
    kill "$watcher" 2>/dev/null || true
    wait "$watcher" 2>/dev/null || true
    # The exit on turning private has the fields of the exit on moving out, and the last place.
    python3 - "$out" "$tag" <<'PY' || failed=1
import json, sys
lines = open(sys.argv[1]).read().splitlines()
events = [json.loads(lines[i + 2]) for i, line in enumerate(lines) if line == "message"]
exits = [e for e in events if e["event"] == "exit"]
out, private, removed = exits
entered = [e for e in events if e["event"] == "enter"]
# The last place reported (the centre of the walker's cell, never the exact 41.0879, 29.0141).
last = (entered[-2]["lat"], entered[-2]["lon"])
ok = set(out) == set(private) == set(removed) and (private["lat"], private["lon"]) == last != (41.0879, 29.0141)
print(("ok   " if ok else "FAIL ") + sys.argv[2] + " a private user's exit looks like moving out of range"
      + ("" if ok else f": {exits}"))
sys.exit(0 if ok else 1)
PY
}
session "[redis-cli RESP2]" 2 clirunner
session "[redis-cli RESP3]" 3 cliwalker

# OUTPUT json, inline as a telnet user types it: one JSON event a line.
json=$(printf 'OUTPUT json\r\nWATCH NEARBY pharmacy 41.088154 29.015615 700\r\n' \
    | timeout 2 python3 -c '
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.stdin.buffer.read())
time.sleep(1)
s.settimeout(0.5)
data = b""
try:
    while chunk := s.recv(65536): data += chunk
except OSError: pass
print(data.decode(), end="")' "$port" || true)
expect "inline OUTPUT json: one JSON line each" \
    "$(sed -n '3p;6p' <<<"$json" | sed -E 's/"position":[0-9]+/"position":P/')" \
    "$(printf '%s\n%s' '{"watch":3,"event":"inside","position":P,"id":"omur","name":"Omur","lat":41.087853,"lon":29.014096,"distance":131.9361,"bearing":255.3}' '{"watch":3,"event":"ready","position":P}')"

python3 scripts/watch_clients.py "$port" "$admin" || failed=1
[[ $failed == 0 ]] && echo "watch clients: all checks passed"
exit $failed
