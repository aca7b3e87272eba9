#!/usr/bin/env bash
# schemathesis against a live `vicinity serve`: every operation of openapi.yaml with examples,
# generated valid and invalid inputs, and stateful sequences (the links), each answer checked
# against the contract (status, content type, headers, schema; no 5xx). Requests carry the admin
# token, so writes are exercised too. Not part of `make test` (it installs schemathesis with pip
# into .build/schemathesis-venv and runs for a while).
# Usage: VICINITY=.build/debug/vicinity scripts/schemathesis.sh [schemathesis run options…]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
venv=.build/schemathesis-venv
if [[ ! -x $venv/bin/schemathesis ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q schemathesis
fi
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
"$bin" import Data/pharmacies-istanbul-example.csv --kind pharmacy --db "$work/db.sqlite" >/dev/null
admin=$("$bin" admin-token --db "$work/db.sqlite" 2>/dev/null)
"$bin" serve --db "$work/db.sqlite" --line-port 0 --http-port "$port" 2>"$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
"$venv/bin/schemathesis" run openapi.yaml --url "http://127.0.0.1:$port" \
    -H "Authorization: Bearer $admin" --checks all --generation-deterministic "$@"
