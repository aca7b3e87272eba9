#!/usr/bin/env bash
# The line protocol against Redis in the same run, on the same 1M-point synthetic city (the
# dataset of `vicinity bench`, written by `vicinity bench --export-redis`: GEOADD commands for
# Redis, the same points and member names as a CSV for `vicinity import`).
#
# 1. redis-benchmark, 50 clients, without pipelining (-P 1) and with (-P 16):
#    `GEOSEARCH city FROMLONLAT … BYRADIUS 500 m ASC` at the median-density point of the query
#    set (the median result count of its 2,000 data-weighted points: 251 results) and at its
#    10th percentile (84 results).
# 2. One client, one call at a time (`vicinity line-bench`: send, read the whole reply, next),
#    over query sets of 2,000 calls: PING (the round-trip floor), the benchmark's 500 m ASC
#    WITHDIST set, COUNT 10 within 500 m, COUNT 10 within 5 km (500 calls), and a varied set
#    (GEOSEARCH/GEORADIUS/GEORADIUSBYMEMBER_RO, radius 100 m-2 km in m/km/ft/mi or box, from a
#    point or a member, ASC/DESC/none, COUNT with and without ANY, every WITH* combination).
#    Each set's replies are digested on both servers: "same replies" means byte for byte. Each
#    server's own time per call (INFO commandstats after CONFIG RESETSTAT) is printed too: the
#    time spent answering, without the network and the client.
#
# Usage: scripts/bench-line.sh [requests]    (redis-benchmark requests per run, default 200000)
# Needs: redis-server, redis-cli, redis-benchmark (installed with apt-get when missing), a release
# build (made when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-200000}
source scripts/redis-common.sh
vport=$((port + 1))

"$bin" bench --points 1000000 --queries 2000 --export-redis "$work" >/dev/null
"$bin" import "$work/points.csv" --kind city --db "$work/line.sqlite" >/dev/null 2>&1
admin=$("$bin" admin-token --db "$work/line.sqlite" 2>/dev/null)
start_redis
redis-cli -p "$port" --pipe <"$work/points.redis" >/dev/null
"$bin" serve --db "$work/line.sqlite" --line-port "$vport" --idle-timeout 0 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; redis-cli -p $port shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do redis-cli -p "$vport" ping >/dev/null 2>&1 && break; sleep 0.2; done

echo "$(redis-server --version | grep -oE 'v=[0-9.]+') against vicinity $(git rev-parse --short HEAD 2>/dev/null || echo '?')," \
    "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
echo
echo "redis-benchmark -c 50 -n $requests: GEOSEARCH city FROMLONLAT lon lat BYRADIUS 500 m ASC"
count() { redis-cli -p "$1" geosearch city fromlonlat "$2" "$3" byradius 500 m asc | wc -l; }
rps() { # port, pipeline, lon, lat
    redis-benchmark -p "$1" -c 50 -P "$2" -n "$requests" -q geosearch city fromlonlat "$3" "$4" byradius 500 m asc \
        | tr '\r' '\n' | grep -oE '[0-9.]+ requests per second' | tail -1 | cut -d' ' -f1
}
for point in "median 28.90500860848254 41.308095327014605" "sparse 28.921983114282227 41.24901001269346"; do
    read -r name lon lat <<<"$point"
    results=$(count "$port" "$lon" "$lat")
    [[ $(count "$vport" "$lon" "$lat") == "$results" ]] || echo "warning: different result counts at $name"
    for pipeline in 1 16; do
        redis=$(rps "$port" "$pipeline" "$lon" "$lat")
        vicinity=$(rps "$vport" "$pipeline" "$lon" "$lat")
        awk -v n="$name" -v c="$results" -v p="$pipeline" -v r="$redis" -v v="$vicinity" \
            'BEGIN { printf "  %-6s (%3d results) -P %-2d  redis %8.0f/s  vicinity %8.0f/s  ratio %.1fx\n", n, c, p, r, v, v / r }'
    done
done

echo
echo "one client, one call at a time (vicinity line-bench, median of 3 passes after a warm-up pass)"
sets=$work/sets
mkdir -p "$sets"
for _ in $(seq 2000); do printf 'PING\r\n'; done >"$sets/ping"
cp "$work/queries.redis" "$sets/500m-withdist"
sed 's/BYRADIUS 500 m ASC WITHDIST/BYRADIUS 500 m ASC COUNT 10 WITHDIST/' "$work/queries.redis" >"$sets/500m-count10"
head -500 "$work/queries.redis" | sed 's/BYRADIUS 500 m ASC WITHDIST/BYRADIUS 5 km ASC COUNT 10 WITHDIST/' \
    >"$sets/5km-count10"
cp "$work/varied.redis" "$sets/varied"
# Mean server time per call of the queries since the last CONFIG RESETSTAT (INFO commandstats:
# time executing the command, without reading the request or writing the reply).
server_time() { # port [redis-cli options]
    redis-cli -p "$@" info commandstats | tr -d '\r' | grep '^cmdstat_' | grep -vE '^cmdstat_(config|info|auth):' \
        | sed -E 's/.*:calls=([0-9]+),usec=([0-9]+),.*/\1 \2/' | awk '{ c += $1; u += $2 } END { printf "%.2f", c ? u / c : 0 }'
}
for set in ping 500m-withdist 500m-count10 5km-count10 varied; do
    passes=3
    [[ $set == 5km-count10 ]] && passes=1 # Redis takes ~20 ms a call here
    redis-cli -p "$port" config resetstat >/dev/null
    redis=$("$bin" line-bench --port "$port" --file "$sets/$set" --passes "$passes")
    redis_server=$(server_time "$port")
    redis-cli -p "$vport" -a "$admin" --no-auth-warning config resetstat >/dev/null
    vicinity=$("$bin" line-bench --port "$vport" --file "$sets/$set" --passes "$passes")
    vicinity_server=$(server_time "$vport" -a "$admin" --no-auth-warning)
    digest() { grep -oE 'digest [0-9a-f]+' <<<"$1"; }
    rate() { grep -oE '[0-9]+ calls/s' <<<"$1" | cut -d' ' -f1; }
    same=$([[ $(digest "$redis") == $(digest "$vicinity") ]] && echo "same replies" || echo "REPLIES DIFFER")
    awk -v s="$set" -v r="$(rate "$redis")" -v v="$(rate "$vicinity")" -v same="$same" \
        'BEGIN { printf "  %-14s redis %6d calls/s  vicinity %6d calls/s  ratio %5.1fx  %s\n", s, r, v, v / r, same }'
    awk -v r="$redis_server" -v v="$vicinity_server" \
        'BEGIN { printf "  %-14s server time per call (INFO commandstats): redis %.1f µs, vicinity %.1f µs, ratio %.1fx\n", "", r, v, r / v }'
    echo "    redis:    ${redis#*: }"
    echo "    vicinity: ${vicinity#*: }"
done
