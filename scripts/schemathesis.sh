#!/usr/bin/env bash
# schemathesis against a live `vicinity serve`: every operation of openapi.yaml with examples,
# generated valid and invalid inputs, and stateful sequences (the links), each answer checked
# against the contract (status, content type, headers, schema; no 5xx). Requests carry the admin
# token, so writes are exercised too. Installs schemathesis (pinned) with pip into
# .build/schemathesis-venv, or for the user where Python has no venv module.
# `make test` runs it with --baseline scripts/schemathesis-baseline.json: the failures accepted
# there are the two 400s for `crs` with a model other than projected, a rule OpenAPI 3.0 cannot
# express (see openapi.yaml's header); any other failure fails the run.
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
"$bin" import Data/pharmacies-istanbul-example.csv --kind pharmacy --db "$work/db.sqlite" >/dev/null
admin=$("$bin" admin-token --db "$work/db.sqlite" 2>/dev/null)
"$bin" serve --db "$work/db.sqlite" --line-port 0 --http-port "$port" 2>"$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
"$schemathesis" run openapi.yaml --url "http://127.0.0.1:$port" \
    -H "Authorization: Bearer $admin" --checks all --generation-deterministic "$@"
