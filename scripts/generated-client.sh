#!/usr/bin/env bash
# A client generated from openapi.yaml by openapi-python-client (pinned, from PyPI) runs the app
# developer's scenario against a live `vicinity serve` (scripts/generated_client_scenario.py):
# nearby as JSON and as GeoJSON, nearest, register, move, private, public, remove, map, and each
# error, every reply read through the generated models. The scenario must also pass
# `mypy --strict` against the generated package. The client is generated into a temporary folder
# at every run and never committed. Installs both tools into .build/genclient-venv.
# Usage: VICINITY=.build/debug/vicinity scripts/generated-client.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
generator_version=0.29.1
mypy_version=2.4.1
venv=.build/genclient-venv
if [[ ! -x $venv/bin/openapi-python-client || ! -x $venv/bin/mypy ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "openapi-python-client==$generator_version" "mypy==$mypy_version"
fi
work=$(mktemp -d)
# No post hooks: the generator's default runs ruff, which is not needed to use the client.
printf 'post_hooks: []\n' >"$work/generator.yaml"
"$venv/bin/openapi-python-client" generate --path openapi.yaml --output-path "$work/client" --meta none \
    --config "$work/generator.yaml" >"$work/generate.log" 2>&1 || { cat "$work/generate.log" >&2; exit 1; }
# The generator reports what it skipped or guessed as warnings: none are expected.
if grep -qi "warning" "$work/generate.log"; then
    cat "$work/generate.log" >&2
    echo "generated-client.sh: openapi-python-client warned about openapi.yaml" >&2
    exit 1
fi
mv "$work/client" "$work/vicinity_client"
MYPYPATH=$work "$venv/bin/mypy" --strict --no-incremental scripts/generated_client_scenario.py

port=$((20000 + RANDOM % 20000))
source scripts/server-user.sh
serve_example "$work" "$bin" 0 "$port"
PYTHONPATH=$work "$venv/bin/python" scripts/generated_client_scenario.py "http://127.0.0.1:$port" "$admin"
