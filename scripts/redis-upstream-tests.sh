#!/usr/bin/env bash
# Runs Redis 7.0's own test units unit/geo and unit/protocol against `vicinity serve`, in the test
# suite's external-server mode, and prints the counts of passed, failed and skipped tests.
#
#   scripts/redis-upstream-tests.sh BIN [REDIS_SRC]     (or REDIS_SRC=… in the environment)
#
# REDIS_SRC is a Redis 7.0 source tree (Debian 12's `apt-get source redis` gives 7.0.15); without
# one, the script runs `apt-get source redis` into a temporary folder (needs deb-src in apt's
# sources). Needs tclsh 8.5 or newer (`apt-get install tcl`). Nothing of Redis is kept.
#
# Two adaptations, both to the harness, none to a test:
# - Vicinity's writes need the admin token and the suite cannot send AUTH: unit/geo talks to
#   scripts/admin-relay.py, which signs each of its connections in as the admin (unit/protocol
#   talks to the server directly).
# - The harness empties the server before each unit with FLUSHALL and FUNCTION FLUSH, commands
#   Vicinity does not have (it has no scripting, and FLUSHALL of a place database is a foot-gun);
#   the database here is new and empty, so those two lines are dropped from a copy of the harness.
#
# Tests that need a data type Vicinity does not hold (SET of a string, MSET/GET, lists), the DEBUG
# command or RESP3 attributes fail or are skipped; the summary names them.
set -euo pipefail
bin=$(realpath "$1")
src=${2:-${REDIS_SRC:-}}
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
if [[ -z $src ]]; then
    (cd "$work" && apt-get source -qq redis >/dev/null 2>&1) || {
        echo "redis-upstream-tests: no REDIS_SRC and apt-get source redis failed" >&2
        exit 2
    }
    src=$(ls -d "$work"/redis-7.*/ | head -1)
fi
[[ -f $src/tests/test_helper.tcl ]] || { echo "redis-upstream-tests: no Redis tests in $src" >&2; exit 2; }
command -v tclsh >/dev/null || { echo "redis-upstream-tests: tclsh missing (apt-get install tcl)" >&2; exit 2; }

suite=$work/redis
mkdir -p "$suite"
cp -r "$src/tests" "$src/runtest" "$suite/"
sed -i -e '/^    r flushall$/d' -e '/^    r function flush$/d' "$suite/tests/support/server.tcl"

port=$((20000 + RANDOM % 20000))
relay=$((port + 1))
admin=$("$bin" admin-token --db "$work/db.sqlite" 2>/dev/null)
source scripts/server-user.sh
serve_as_unprivileged "$work" "$bin"
"${as_server_user[@]}" "$serve_bin" serve --db "$work/db.sqlite" --line-port "$port" --no-http \
    2>"$work/serve.log" &
pids+=($!)
python3 "$root/scripts/admin-relay.py" "$relay" "$port" "$admin" &
pids+=($!)
for _ in $(seq 100); do [[ $(redis-cli -p "$relay" ping 2>/dev/null) == PONG ]] && break; sleep 0.1; done
[[ $(redis-cli -p "$relay" ping 2>/dev/null) == PONG ]] || {
    echo "redis-upstream-tests: the server did not answer" >&2
    cat "$work/serve.log" >&2
    exit 1
}

# Tests that need what Vicinity's keys cannot hold, or DEBUG. The harness treats a command error
# outside an assertion as fatal to the rest of the unit, so these are skipped by name (or by the
# needs:debug tag) rather than left to fail.
skips=(
    # unit/geo — SET: a string key.
    "GEO with wrong type src key"
    # unit/geo — STOREDIST: a sorted set whose scores are distances, not positions.
    "GEORADIUSBYMEMBER STORE/STOREDIST option: plain usage"
    "GEORANGE STOREDIST option: plain usage"
    "GEOSEARCHSTORE STOREDIST option: plain usage"
    "GEORANGE STOREDIST option: COUNT ASC and DESC"
    # unit/protocol — sets (SADD, SRANDMEMBER), strings (MSET, GET, SET, INCRBYFLOAT), lists (BLPOP).
    "raw protocol response"
    "raw protocol response - deferred"
    "raw protocol response - multiline"
    "test large number of args"
    "test argument rewriting - issue 9598"
    "Regression for a crash with blocking ops and pipelining"
)
skip_args=(--tags -needs:debug)
for name in "${skips[@]}"; do skip_args+=(--skiptest "$name"); done

# unit/geo writes, through the relay; unit/protocol's framing tests talk to the server itself
# (raw sockets: nothing to sign in, and no relay between its bytes and the server's).
cd "$suite"
status=0
run() { # port, unit
    ./runtest --host 127.0.0.1 --port "$1" --singledb --single "$2" --timeout 900 "${skip_args[@]}" || status=$?
}
{
    run "$relay" unit/geo
    run "$port" unit/protocol
} >"$work/runtest.log" 2>&1
sed -i 's/\x1b\[[0-9;]*m//g' "$work/runtest.log"
passed=$(grep -c '^\[ok\]' "$work/runtest.log" || true)
failed=$(grep -c '^\[err\]' "$work/runtest.log" || true)
errors=$(grep -c '^\[exception\]' "$work/runtest.log" || true)
skipped=$(grep -c -E '^\[(skip|ignore)\]' "$work/runtest.log" || true)
grep -E -A3 '^\[(err|exception)\]' "$work/runtest.log" || true
grep -E '^\[(skip|ignore)\]' "$work/runtest.log" || true
echo "redis-upstream-tests: $passed passed, $failed failed, $errors exceptions, $skipped skipped (runtest exit $status)"
[[ -z ${KEEP_LOG:-} ]] || cp "$work/runtest.log" "$KEEP_LOG"
[[ $failed == 0 && $errors == 0 && $passed -gt 0 ]]
