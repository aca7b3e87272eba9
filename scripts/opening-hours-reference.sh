#!/usr/bin/env bash
# Issue 19, "Must show" 1: Vicinity's opening_hours evaluation against a reference parser from
# PyPI (opening-hours-py, the Python binding of the Rust crate opening-hours), on the real-world
# values of Tests/OpeningHoursTests/Reference/values.tsv at the local instants of instants.txt:
# the state (open, closed, unknown or unparseable) and the next change of every value at every
# instant. Fails on any difference not listed in known-differences.tsv, and on a listed
# difference that no longer occurs. Installs the reference (pinned) with pip into a throwaway
# venv, installing python3-venv with apt-get when Python has no venv module; builds
# vicinity-bench (debug) unless $VICINITY_BENCH names one.
# Usage: [SWIFT=swift] [VICINITY_BENCH=.build/debug/vicinity-bench] scripts/opening-hours-reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/apt-common.sh
reference=Tests/OpeningHoursTests/Reference
version=2.1.4
swift=${SWIFT:-swift}
bench=${VICINITY_BENCH:-}
if [[ -z $bench ]]; then
    "$swift" build --product vicinity-bench >&2
    bench=$("$swift" build --show-bin-path)/vicinity-bench
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v python3 >/dev/null 2>&1 || apt_install python3
# Debian ships the venv module (and ensurepip) separately, as python3-venv.
if ! python3 -m venv "$work/venv" >/dev/null 2>&1; then
    rm -rf "$work/venv"
    apt_install python3-venv
    python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install -q --disable-pip-version-check "opening-hours-py==$version"
python="$work/venv/bin/python"

# The holidays both sides use: the reference's built-in Italian calendar (the values are from
# Piedmont) and, for Vicinity, the file that lists it. A new reference calendar must not slip in.
"$python" "$reference/reference.py" --dump-holidays IT 2026 2027 >"$work/holidays.txt"
if ! diff -u "$reference/holidays-IT-2026-2027.txt" "$work/holidays.txt" >&2; then
    echo "opening-hours-reference.sh: the reference's IT holidays differ from $reference/holidays-IT-2026-2027.txt" >&2
    exit 1
fi

"$python" "$reference/reference.py" --values "$reference/values.tsv" --instants "$reference/instants.txt" \
    --country IT --out "$work/reference.jsonl"
"$bench" opening-hours-table --values "$reference/values.tsv" --instants "$reference/instants.txt" \
    --holidays "$reference/holidays-IT-2026-2027.txt" >"$work/ours.jsonl"
"$python" scripts/opening_hours_compare.py "$work/reference.jsonl" "$work/ours.jsonl" "$reference/known-differences.tsv"
