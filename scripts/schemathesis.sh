#!/usr/bin/env bash
# schemathesis against a live `vicinity serve`: a plain `schemathesis run --checks all` — no
# hooks, no configuration file — over every operation of openapi.yaml: its examples, generated
# valid and invalid inputs, and stateful sequences (the links), each answer checked against the
# contract (status, content type, headers, schema; no 5xx; every schema-valid request accepted,
# every schema-violating one refused). Requests carry the admin token, so writes are exercised
# too. Any failure fails the run: the contract states every rule the server enforces (see the
# note at the top of openapi.yaml). Installs schemathesis (pinned) with pip into
# .build/schemathesis-venv, or for the user where Python has no venv module.
# Usage: VICINITY=.build/debug/vicinity scripts/schemathesis.sh [schemathesis run options…]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
version=4.32.5
venv=.build/schemathesis-venv
schemathesis=$venv/bin/schemathesis
if [[ ! -x $schemathesis ]]; then
    if python3 -m venv "$venv" 2>/dev/null; then
        "$venv/bin/pip" install -q "schemathesis==$version"
    else
        rm -rf "$venv"
        python3 -m pip install -q --user --break-system-packages "schemathesis==$version" 2>/dev/null \
            || python3 -m pip install -q --user "schemathesis==$version"
        schemathesis=$(python3 -c 'import site; print(site.USER_BASE)')/bin/schemathesis
    fi
fi
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
source scripts/server-user.sh
# Thousands of requests from one address: the budget of user queries (tested elsewhere) would
# turn most of the user operations into 429s and hide them from the fuzzer.
# The Piedmont pharmacies carry opening hours: hits of open= queries then hold every state field.
SERVE_EXAMPLE_EXTRA=Data/pharmacies-piemonte.csv serve_example "$work" "$bin" 0 "$port" --user-query-rate 0
# A watch streams for as long as the connection stays open: schemathesis reads an event stream for
# its request timeout (10 s by default) or 20 events. One second is enough to check the snapshot's
# events and keeps the run short (every other answer takes milliseconds). The same second bounds
# the wait for an answer's headers: on a machine busy with other work (a CI run beside builds) the
# debug server once went over it, so a request that times out before any answer is sent again,
# up to twice (a network-level retry only: every answer received is checked).
run() {
    "$schemathesis" --no-color run openapi.yaml --url "http://127.0.0.1:$port" -H "Authorization: Bearer $admin" \
        --checks all --request-timeout 1 --request-retries 2 "$@"
}
# Options given: one run with them.
if [[ $# -gt 0 ]]; then
    run "$@"
    exit
fi
# Without options, the plain run's phases and operations in five runs, all of them plain (no
# hooks, no configuration): each watch's cases wait out that second while using almost no
# processor, so the three watches and the other operations run side by side, after the stateful
# phase over every operation has run alone (its links write and read places and users that the
# others' writes could change under it). One run with --workers is not an option: schemathesis
# 4.32.5's coverage phase fails with a KeyError in its own cache when workers share it.
stateful="--phases stateful"
parts=(
    "--phases examples,coverage,fuzzing --exclude-path-regex /watch$"
    "--phases examples,coverage,fuzzing --include-operation-id watchNearby"
    "--phases examples,coverage,fuzzing --include-operation-id watchNearbyUsers"
    "--phases examples,coverage,fuzzing --include-operation-id watchAroundUser"
)
failed=0
# Prints a run's options, exit status and output; a failed run fails the script.
report() { # options, exit status, log
    echo "== schemathesis run $1: exit status $2"
    cat "$3"
    [[ $2 == 0 ]] || failed=1
}
status=0
# shellcheck disable=SC2086 # each part is a list of options
run $stateful >"$work/stateful.log" 2>&1 || status=$?
report "$stateful" "$status" "$work/stateful.log"
pids=()
for index in "${!parts[@]}"; do
    # shellcheck disable=SC2086
    run ${parts[$index]} >"$work/part$index.log" 2>&1 &
    pids+=($!)
done
tested=0
for index in "${!parts[@]}"; do
    status=0
    wait "${pids[$index]}" || status=$?
    report "${parts[$index]}" "$status" "$work/part$index.log"
    tested=$((tested + $(grep -oE '^ +Tested: [0-9]+' "$work/part$index.log" | grep -oE '[0-9]+' || echo 0)))
done
# Every operation in exactly one part: a new watch route, or a renamed one, must be added above.
operations=$(grep -oE 'Selected: [0-9]+/[0-9]+' "$work/stateful.log" | head -1 | cut -d/ -f2)
if [[ $tested != "$operations" ]]; then
    echo "schemathesis.sh: the parts tested $tested operations of ${operations:-?}" >&2
    failed=1
fi
exit $failed
