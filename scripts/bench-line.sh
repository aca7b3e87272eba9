#!/usr/bin/env bash
# The line protocol against Redis in the same run, on the same 1M-point synthetic city (the
# dataset of `vicinity-bench bench`, written by `vicinity-bench bench --export-redis`: GEOADD commands for
# Redis, the same points and member names as a CSV for `vicinity import`).
#
# 1. redis-benchmark, 50 clients, without pipelining (-P 1) and with (-P 16):
#    `GEOSEARCH city FROMLONLAT … BYRADIUS 500 m ASC` at the median-density point of the query
#    set (the median result count of its 2,000 data-weighted points: 251 results) and at its
#    10th percentile (84 results). Then the apparatus's ceiling (Redis LRANGE of the median point's
#    reply bytes), and the -P 16 median-point run and that ceiling again in turn, three rounds:
#    the share of the ceiling in each round and their median.
# 2. One client, one call at a time (`vicinity-bench line-bench`: send, read the whole reply, next),
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

"$bench" bench --points 1000000 --queries 2000 --export-redis "$work" >/dev/null
"$bin" import "$work/points.csv" --kind city --db "$work/line.sqlite" >/dev/null 2>&1
admin=$("$bin" admin-token --db "$work/line.sqlite" 2>/dev/null)
start_redis
redis-cli -p "$port" --pipe <"$work/points.redis" >/dev/null
"$bin" serve --db "$work/line.sqlite" --line-port "$vport" --no-http --idle-timeout 0 2>"$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null || true; redis-cli -p $port shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
wait_for_server "$vport" "$server" "$work/serve.log" "vicinity serve"

echo "$(redis-server --version | grep -oE 'v=[0-9.]+') against vicinity $(git rev-parse --short HEAD 2>/dev/null || echo '?')," \
    "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
echo "load at the start: $(uptime | sed 's/.*load average: //')"
echo
echo "redis-benchmark -c 50 -n $requests: GEOSEARCH city FROMLONLAT lon lat BYRADIUS 500 m ASC"
echo "(cpu: CPU time per request of the client and of the server, user + system, from /proc and bash's time)"
count() { redis-cli -p "$1" geosearch city fromlonlat "$2" "$3" byradius 500 m asc | wc -l; }
ticks=$(getconf CLK_TCK)
# Prints "requests/s client-µs server-µs" for one redis-benchmark run against the server on port $1.
bench() { # port, server pid, pipeline, command…
    local port=$1 pid=$2 pipeline=$3
    shift 3
    local before after out rate client
    before=$(cpu_ticks "$pid")
    out=$({ TIMEFORMAT='%U %S'; time redis-benchmark -p "$port" -c 50 -P "$pipeline" -n "$requests" -q "$@" \
        2>/dev/null | tr '\r' '\n' | grep -oE '[0-9.]+ requests per second' | tail -1; } 2>&1)
    after=$(cpu_ticks "$pid")
    rate=$(head -1 <<<"$out" | cut -d' ' -f1)
    client=$(tail -1 <<<"$out")
    awk -v r="$rate" -v c="$client" -v s="$((after - before))" -v t="$ticks" -v n="$requests" \
        'BEGIN { split(c, u, " "); printf "%.0f %.1f %.1f", r, (u[1] + u[2]) * 1e6 / n, s / t * 1e6 / n }'
}
redis_pid=$(cat "$work/redis.pid")
row() { # label, results, pipeline, redis "rate client server", vicinity "…"
    read -r rr rc rs <<<"$4"
    read -r vr vc vs <<<"$5"
    awk -v l="$1" -v c="$2" -v p="$3" -v rr="$rr" -v rc="$rc" -v rs="$rs" -v vr="$vr" -v vc="$vc" -v vs="$vs" \
        'BEGIN { printf "  %-6s (%3d results) -P %-2d  redis %7.0f/s (cpu %5.1f + %5.1f µs)  vicinity %7.0f/s (cpu %5.1f + %5.1f µs)  ratio %.1fx\n", l, c, p, rr, rc, rs, vr, vc, vs, vr / rr }'
}
median_lon=28.90500860848254
median_lat=41.308095327014605
for point in "median $median_lon $median_lat" "sparse 28.921983114282227 41.24901001269346"; do
    read -r name lon lat <<<"$point"
    results=$(count "$port" "$lon" "$lat")
    [[ $(count "$vport" "$lon" "$lat") == "$results" ]] || echo "warning: different result counts at $name"
    for pipeline in 1 16; do
        query=(geosearch city fromlonlat "$lon" "$lat" byradius 500 m asc)
        row "$name" "$results" "$pipeline" "$(bench "$port" "$redis_pid" "$pipeline" "${query[@]}")" \
            "$(bench "$vport" "$server" "$pipeline" "${query[@]}")"
    done
done
# Two bounds of the apparatus. redis-benchmark is one thread: it cannot send more than 1 / (its CPU
# time per request) requests a second, whatever the server (printed per row above as the first cpu
# figure). And Redis sending the median point's reply bytes with no geometry at all (LRANGE of a list
# holding the same 251 members, in the same order) through the same client shows what client and
# server cost together on these cores when the server does nothing but send: cores / that cpu.
# (Nothing is pinned: client and servers share all $(nproc) cores, as in the rows above.)
cores=$(nproc)
redis-cli -p "$port" geosearch city fromlonlat "$median_lon" "$median_lat" byradius 500 m asc \
    | xargs redis-cli -p "$port" rpush same-bytes >/dev/null
for pipeline in 1 16; do
    read -r lr lc ls <<<"$(bench "$port" "$redis_pid" "$pipeline" lrange same-bytes 0 -1)"
    awk -v p="$pipeline" -v r="$lr" -v c="$lc" -v s="$ls" -v n="$cores" 'BEGIN {
        printf "  ceiling: redis LRANGE of the same reply bytes, -P %-2d  %7.0f/s (cpu %5.1f + %5.1f µs); %d cores / that cpu = %.0f/s; one client thread: 1e6 / %.1f µs = %.0f/s\n", p, r, c, s, n, n * 1e6 / (c + s), c, 1e6 / c }'
done

# The -P 16 target in rounds: Vicinity at the median point and the LRANGE ceiling measured in
# turn, three times, so that one run disturbed by the rest of the machine moves neither figure
# alone; each round's share and the median of the three.
echo "  -P 16 at the median point against the ceiling, in turn (GEOSEARCH on vicinity, then LRANGE on redis):"
shares=()
for round in 1 2 3; do
    read -r vr vc vs <<<"$(bench "$vport" "$server" 16 geosearch city fromlonlat "$median_lon" "$median_lat" byradius 500 m asc)"
    read -r lr lc ls <<<"$(bench "$port" "$redis_pid" 16 lrange same-bytes 0 -1)"
    share=$(awk -v v="$vr" -v c="$lc" -v s="$ls" -v n="$cores" 'BEGIN { printf "%.0f", 100 * v / (n * 1e6 / (c + s)) }')
    shares+=("$share")
    awk -v r="$round" -v vr="$vr" -v vc="$vc" -v vs="$vs" -v lr="$lr" -v lc="$lc" -v ls="$ls" -v n="$cores" -v sh="$share" 'BEGIN {
        printf "    round %d: vicinity %7.0f/s (cpu %5.1f + %5.1f µs); LRANGE %7.0f/s (cpu %5.1f + %5.1f µs), ceiling %.0f/s; share %d %%\n", r, vr, vc, vs, lr, lc, ls, n * 1e6 / (lc + ls), sh }'
done
echo "    median share of the ceiling: $(printf '%s\n' "${shares[@]}" | sort -n | sed -n 2p) % (target 75 %)"

echo
echo "one client, one call at a time (vicinity-bench line-bench, median of 3 passes after a warm-up pass)"
sets=$work/sets
mkdir -p "$sets"
for _ in $(seq 2000); do printf 'PING\r\n'; done >"$sets/ping"
cp "$work/queries.redis" "$sets/500m-withdist"
sed 's/BYRADIUS 500 m ASC WITHDIST/BYRADIUS 500 m ASC COUNT 10 WITHDIST/' "$work/queries.redis" >"$sets/500m-count10"
head -500 "$work/queries.redis" | sed 's/BYRADIUS 500 m ASC WITHDIST/BYRADIUS 5 km ASC COUNT 10 WITHDIST/' \
    >"$sets/5km-count10"
cp "$work/varied.redis" "$sets/varied"
for set in ping 500m-withdist 500m-count10 5km-count10 varied; do
    passes=3
    [[ $set == 5km-count10 ]] && passes=1 # Redis takes ~20 ms a call here
    redis-cli -p "$port" config resetstat >/dev/null
    redis=$("$bench" line-bench --port "$port" --file "$sets/$set" --passes "$passes")
    redis_server=$(server_time "$port")
    redis-cli -p "$vport" -a "$admin" --no-auth-warning config resetstat >/dev/null
    vicinity=$("$bench" line-bench --port "$vport" --file "$sets/$set" --passes "$passes")
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
echo "load at the end: $(uptime | sed 's/.*load average: //')"
