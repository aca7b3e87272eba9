#!/usr/bin/env bash
# GEOSEARCH through the wire, Vicinity against Redis in the same run, with redis-benchmark:
# the 1M-point synthetic city loaded into both (Vicinity: `vicinity import` of the bench city;
# Redis: the same points with GEOADD), then `GEOSEARCH city FROMLONLAT … BYRADIUS 500 m ASC` at a
# dense point and at a sparse one, 50 clients, without pipelining (-P 1) and with (-P 16).
#
# Usage: scripts/bench-line.sh [points] [requests]    (defaults 1000000 200000)
# Needs: redis-server, redis-cli, redis-benchmark (installed with apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
points=${1:-1000000}
requests=${2:-200000}
source scripts/redis-common.sh
vport=$((port + 1))

"$bin" bench-store --points "$points" --writes 1 --folder "$work" --keep >/dev/null 2>&1
"$bin" import "$work/city.csv" --kind city --db "$work/line.sqlite" >/dev/null
admin=$("$bin" admin-token --db "$work/line.sqlite" 2>/dev/null)
"$bin" bench --points "$points" --queries 1 --export-redis "$work" >/dev/null
start_redis
redis-cli -p "$port" --pipe <"$work/points.redis" >/dev/null
"$bin" serve --db "$work/line.sqlite" --line-port "$vport" --idle-timeout 0 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; redis-cli -p $port shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do redis-cli -p "$vport" ping >/dev/null 2>&1 && break; sleep 0.2; done

count() { redis-cli -p "$1" geosearch city fromlonlat "$2" "$3" byradius 500 m asc | wc -l; }
rps() { # port, pipeline, lon, lat
    redis-benchmark -p "$1" -c 50 -P "$2" -n "$requests" -q geosearch city fromlonlat "$3" "$4" byradius 500 m asc \
        | tr '\r' '\n' | grep -oE '[0-9.]+ requests per second' | tail -1 | cut -d' ' -f1
}
echo "redis-benchmark -c 50, $requests requests each, $points points, $(redis-server --version | grep -oE 'v=[0-9.]+')"
for point in "dense 28.9642 41.0386" "sparse 29.2500 40.8200"; do
    read -r name lon lat <<<"$point"
    results=$(count "$port" "$lon" "$lat")
    [[ $(count "$vport" "$lon" "$lat") == "$results" ]] || echo "warning: different result counts at $name"
    for pipeline in 1 16; do
        redis=$(rps "$port" "$pipeline" "$lon" "$lat")
        vicinity=$(rps "$vport" "$pipeline" "$lon" "$lat")
        awk -v n="$name" -v c="$results" -v p="$pipeline" -v r="$redis" -v v="$vicinity" \
            'BEGIN { printf "%-6s (%4d results) -P %-2d  redis %9.0f/s  vicinity %9.0f/s  ratio %.1fx\n", n, c, p, r, v, v / r }'
    done
done
