#!/usr/bin/env bash
# Two builds of the line protocol side by side, on the same 1M-point city (the dataset of
# `scripts/bench-line.sh`), in rounds (odd rounds old first, even rounds new first):
#   - the 500 m ASC WITHDIST set and the varied set (2,000 calls each, `vicinity-bench line-bench`,
#     3 passes): each server's own time per call from INFO commandstats, and the replies' digest;
#   - `redis-benchmark -c 50 -P 16` at the median point (GEOSEARCH … BYRADIUS 500 m ASC): the
#     server's CPU a request (user + system, /proc/PID/stat).
# Prints every round and, per figure, the medians and new / old. Use an even number of rounds.
#
# Usage: scripts/bench-line-ab.sh OLD_BINARY NEW_BINARY [rounds]   (default 4 rounds)
# The `vicinity-bench` of this checkout makes the data and runs the sets (built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1")
new=$(realpath "$2")
rounds=${3:-4}
if ((rounds % 2 != 0)); then
    echo "warning: $rounds rounds, an odd number: the old build goes first once more, so the order's bias does not cancel" >&2
fi
source scripts/redis-common.sh
old_port=$((port + 1))
new_port=$((port + 2))

"$bench" bench --points 1000000 --queries 2000 --export-redis "$work" >/dev/null
"$old" import "$work/points.csv" --kind city --db "$work/old.sqlite" >/dev/null 2>&1
"$new" import "$work/points.csv" --kind city --db "$work/new.sqlite" >/dev/null 2>&1
old_admin=$("$old" admin-token --db "$work/old.sqlite" 2>/dev/null)
new_admin=$("$new" admin-token --db "$work/new.sqlite" 2>/dev/null)
"$old" serve --db "$work/old.sqlite" --line-port "$old_port" --http-port 0 --idle-timeout 0 2>"$work/old.log" &
old_pid=$!
"$new" serve --db "$work/new.sqlite" --line-port "$new_port" --http-port 0 --idle-timeout 0 2>"$work/new.log" &
new_pid=$!
trap 'kill $old_pid $new_pid 2>/dev/null || true; rm -rf "$work"' EXIT
wait_for_server "$old_port" "$old_pid" "$work/old.log" "the old build's server"
wait_for_server "$new_port" "$new_pid" "$work/new.log" "the new build's server"

cp "$work/queries.redis" "$work/500m-withdist"
cp "$work/varied.redis" "$work/varied"
ticks=$(getconf CLK_TCK)

# "µs-per-call digest" of one set on one server.
set_time() { # port admin file
    redis-cli -p "$1" -a "$2" --no-auth-warning config resetstat >/dev/null
    local digest
    digest=$("$bench" line-bench --port "$1" --file "$3" --passes 3 | grep -oE 'digest [0-9a-f]+' | cut -d' ' -f2)
    echo "$(server_time "$1" -a "$2" --no-auth-warning) $digest"
}
requests=100000
# Server CPU µs a request at -P 16, median point.
pipelined() { # port pid
    local before after
    before=$(cpu_ticks "$2")
    redis-benchmark -p "$1" -c 50 -P 16 -n "$requests" -q \
        geosearch city fromlonlat 28.90500860848254 41.308095327014605 byradius 500 m asc >/dev/null 2>&1
    after=$(cpu_ticks "$2")
    awk -v b="$before" -v a="$after" -v t="$ticks" -v n="$requests" 'BEGIN { printf "%.1f", (a - b) / t * 1e6 / n }'
}
# Warm both servers' caches once.
set_time "$old_port" "$old_admin" "$work/500m-withdist" >/dev/null
set_time "$new_port" "$new_admin" "$work/500m-withdist" >/dev/null

echo "old $old"
echo "new $new"
echo "$(nproc) CPUs, load at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A values
declare -A ports=([old]=$old_port [new]=$new_port) admins=([old]=$old_admin [new]=$new_admin)
declare -A pids=([old]=$old_pid [new]=$new_pid)
declare -A times digests
for round in $(seq "$rounds"); do
    # Odd rounds run the old build first, even rounds the new one: whichever goes first in a
    # round was seen to be slower by up to 10 %, so an even number of rounds cancels that out.
    order=(old new)
    if ((round % 2 == 0)); then order=(new old); fi
    for set in 500m-withdist varied; do
        for side in "${order[@]}"; do
            read -r "times[$side]" "digests[$side]" <<<"$(set_time "${ports[$side]}" "${admins[$side]}" "$work/$set")"
            values[$set-$side]+="${times[$side]} "
        done
        same=$([[ ${digests[old]} == "${digests[new]}" ]] && echo "same replies" || echo "REPLIES DIFFER")
        echo "round $round (${order[0]} first): $set server µs a call: old ${times[old]}, new ${times[new]} ($same)"
    done
    for side in "${order[@]}"; do
        times[$side]=$(pipelined "${ports[$side]}" "${pids[$side]}")
        values[p16-$side]+="${times[$side]} "
    done
    echo "round $round (${order[0]} first): -P 16 median point, server CPU µs a request: old ${times[old]}, new ${times[new]}"
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for figure in 500m-withdist varied p16; do
    o=$(median <<<"${values[$figure-old]}")
    n=$(median <<<"${values[$figure-new]}")
    awk -v f="$figure" -v o="$o" -v n="$n" 'BEGIN { printf "median %-14s old %6.1f  new %6.1f  new/old %.2f\n", f, o, n, n / o }'
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
