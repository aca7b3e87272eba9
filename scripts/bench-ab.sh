#!/usr/bin/env bash
# Two builds of `vicinity` side by side in one run, on the same 1M-point synthetic city: did a
# change make the hot paths slower? A is the baseline, B the candidate; each figure is measured
# A, B, A, B… so that the machine's drift falls on both, and printed with the ratio B/A.
#
# - import: `vicinity import` of the city's CSV into a new database (wall seconds).
# - HTTP: `GET /v1/nearby` (500 m, every place, limit=10000) at the median-density point and over
#   the 2,000 varied points, wrk -t2 -c8 (requests/s, server µs of CPU a request).
# - line protocol: redis-benchmark -c 50 -P 16, `NEARBY city lat lon 500` and
#   `GEOSEARCH city FROMLONLAT lon lat BYRADIUS 500 m ASC` at the median point.
#
# Usage: scripts/bench-ab.sh A_VICINITY B_VICINITY [rounds] [seconds]
#   e.g. git worktree add /tmp/base 3e61b6a && swift build -c release --package-path /tmp/base
#        scripts/bench-ab.sh /tmp/base/.build/release/vicinity .build/release/vicinity
# Needs: wrk, redis-benchmark (installed with apt-get when missing), this tree's release
# vicinity-bench for the data.
set -euo pipefail
cd "$(dirname "$0")/.."
a_bin=$(realpath "$1")
b_bin=$(realpath "$2")
rounds=${3:-3}
seconds=${4:-8}
connections=8
source scripts/redis-common.sh
if ! command -v wrk >/dev/null; then
    source scripts/apt-common.sh
    apt_install wrk
fi
median_lat=41.308095327014605
median_lon=28.90500860848254

"$bench" bench --points 1000000 --queries 2000 --export-redis "$work" >/dev/null
awk '{ printf "/v1/nearby?lat=%s&lon=%s&radius=500&kind=city&limit=10000\n", $5, $4 }' "$work/queries.redis" \
    >"$work/paths.txt"
write_wrk_walk "$work/paths.txt" "$work/varied.lua"

seconds_of() { # command… : wall seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }'
}

# Import, alternating; the last database of each is kept for the servers.
declare -A results
for round in $(seq "$rounds"); do
    for side in a b; do
        binary=${side}_bin
        rm -f "$work/$side.sqlite"*
        results[import_$side]+="$(seconds_of "${!binary}" import "$work/points.csv" --kind city --db "$work/$side.sqlite") "
    done
done

a_http=$((port + 1)) a_line=$((port + 2)) b_http=$((port + 3)) b_line=$((port + 4))
"$a_bin" serve --db "$work/a.sqlite" --http-port "$a_http" --line-port "$a_line" --idle-timeout 0 2>/dev/null &
a_pid=$!
"$b_bin" serve --db "$work/b.sqlite" --http-port "$b_http" --line-port "$b_line" --idle-timeout 0 2>/dev/null &
b_pid=$!
trap 'kill $a_pid $b_pid 2>/dev/null; rm -rf "$work"' EXIT
for http in "$a_http" "$b_http"; do
    for _ in $(seq 150); do curl -sf "http://127.0.0.1:$http/healthz" >/dev/null && break; sleep 0.2; done
done
nearby="/v1/nearby?lat=$median_lat&lon=$median_lon&radius=500&kind=city&limit=10000"
cmp -s <(curl -sf "http://127.0.0.1:$a_http$nearby") <(curl -sf "http://127.0.0.1:$b_http$nearby") ||
    echo "warning: A and B answer the median point differently"

wrk_rate() { # pid, wrk arguments… : "requests/s/server-µs"
    local rate cpu
    read -r rate cpu <<<"$(wrk_measure "$@")"
    printf '%.0f/%s' "$rate" "$cpu"
}
line_rate() { # port, command… : requests/s
    local port=$1
    shift
    redis-benchmark -p "$port" -c 50 -P 16 -n 100000 -q "$@" 2>/dev/null | tr '\r' '\n' |
        grep -oE '[0-9.]+ requests per second' | tail -1 | cut -d' ' -f1
}
for round in $(seq "$rounds"); do
    for side in a b; do
        pid=${side}_pid http=${side}_http line=${side}_line
        results[median_$side]+="$(wrk_rate "${!pid}" "http://127.0.0.1:${!http}$nearby") "
        results[varied_$side]+="$(wrk_rate "${!pid}" -s "$work/varied.lua" "http://127.0.0.1:${!http}") "
        results[nearby_$side]+="$(line_rate "${!line}" NEARBY city "$median_lat" "$median_lon" 500) "
        results[geosearch_$side]+="$(line_rate "${!line}" GEOSEARCH city FROMLONLAT "$median_lon" "$median_lat" \
            BYRADIUS 500 m ASC) "
    done
done

echo "A: $a_bin"
echo "B: $b_bin"
echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $rounds rounds, A then B"
# Medians of each side's rounds, and B/A (for import: B's seconds over A's; for rates: B's rate
# over A's, so above 1 is faster for rates and slower for import).
summary() { # label, key, unit
    awk -v l="$1" -v u="$3" -v a="${results[$2_a]}" -v b="${results[$2_b]}" '
        function median(text, v, n, i, j, part, swap) {
            n = split(text, v, " ")
            for (i = 1; i <= n; i++) { split(v[i], part, "/"); v[i] = part[1] + 0 }
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { swap = v[i]; v[i] = v[j]; v[j] = swap }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        BEGIN { ma = median(a); mb = median(b)
            printf "  %-28s A %10.3f  B %10.3f %-10s B/A %.3f   (A: %s B: %s)\n", l, ma, mb, u, mb / ma, a, b }'
}
summary "import 1M places" import "s"
summary "HTTP nearby, median point" median "req/s"
summary "HTTP nearby, varied points" varied "req/s"
summary "line NEARBY -P 16" nearby "req/s"
summary "line GEOSEARCH -P 16" geosearch "req/s"
echo "(HTTP rounds show requests/s/server µs of CPU a request)"
