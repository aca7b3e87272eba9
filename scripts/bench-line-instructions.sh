#!/usr/bin/env bash
# Instructions a line-protocol request costs, counted (valgrind's callgrind), for two builds of
# `vicinity-bench`: counts do not move with a shared or throttled machine, where times do (ratios
# of times on a busy two-core VM move by ±15 % from round to round). Each build runs the same file
# of commands in process (`vicinity-bench line-service`: `LineService.execute` and the RESP2
# encoder, as the server runs a request between decoding it and writing it out), on bench-line's
# 1M-point city; only the passes are counted (`Runner.pass`: the digest pass and one timed pass),
# not the load. Prints instructions a call for each build, new / old, and the replies' digests.
#
# Usage: scripts/bench-line-instructions.sh OLD_BENCH NEW_BENCH [commands file]
#   default commands: 2,000 calls of `GEOSEARCH city FROMLONLAT … BYRADIUS 500 m ASC` at the median
#   point (bench-line.sh's -P 16 request). Builds run side by side (one core each), 5-8 min.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1")
new=$(realpath "$2")
if ! command -v valgrind >/dev/null; then
    source scripts/apt-common.sh
    apt_install valgrind
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$new" bench --points 1000000 --queries 2000 --export-redis "$work" >/dev/null
if [[ $# -ge 3 ]]; then
    cp "$3" "$work/commands"
else
    for _ in $(seq 2000); do
        echo "GEOSEARCH city FROMLONLAT 28.90500860848254 41.308095327014605 BYRADIUS 500 m ASC"
    done >"$work/commands"
fi
calls=$(($(wc -l <"$work/commands") * 2))
# valgrind cannot read the DWARF of Swift's release builds: count on copies without it.
count() { # build, label
    strip --strip-debug -o "$work/$2" "$1"
    valgrind --tool=callgrind --callgrind-out-file="$work/$2.callgrind" --collect-atstart=no \
        '--toggle-collect=*Runner*pass*' "$work/$2" line-service --csv "$work/points.csv" \
        --file "$work/commands" --passes 1 >"$work/$2.out" 2>"$work/$2.log"
    echo "$(grep -oE 'I +refs: +[0-9,]+' "$work/$2.log" | tr -dc '0-9') $(grep -oE 'digest [0-9a-f]+' "$work/$2.out")"
}
count "$old" old >"$work/old.count" &
count "$new" new >"$work/new.count" &
wait
read -r oi _ od <"$work/old.count"
read -r ni _ nd <"$work/new.count"
echo "old $old"
echo "new $new"
awk -v o="$oi" -v n="$ni" -v c="$calls" 'BEGIN {
    printf "instructions a call: old %.0f, new %.0f, new / old %.3f\n", o / c, n / c, n / o }'
[[ $od == "$nd" ]] && echo "same replies (digest $nd)" || echo "REPLIES DIFFER: old $od, new $nd"
