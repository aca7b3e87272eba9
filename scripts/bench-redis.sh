#!/usr/bin/env bash
# Measures Redis GEOSEARCH on exactly the dataset and query set of `vicinity-bench bench`, in the same
# run, and prints both per-query times and their ratio. Redis reports its own server time per
# call (INFO commandstats, usec_per_call), which excludes the network and the client.
#
# Usage: scripts/bench-redis.sh [points] [queries]    (defaults 1000000 20000)
# Needs: redis-server and redis-cli (installed with apt-get when missing), a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
points=${1:-1000000}
queries=${2:-20000}
source scripts/redis-common.sh
"$bench" bench --points "$points" --queries "$queries" --export-redis "$work" >/dev/null
start_redis
redis-cli -p "$port" --pipe <"$work/points.redis" >/dev/null
memory=$(redis-cli -p "$port" memory usage city samples 0)
redis-cli -p "$port" config resetstat >/dev/null
redis-cli -p "$port" --pipe <"$work/queries.redis" >/dev/null
stats=$(redis-cli -p "$port" info commandstats | tr -d '\r' | grep '^cmdstat_geosearch:')
redis_us=$(sed -E 's/.*usec_per_call=([0-9.]+).*/\1/' <<<"$stats")
report=$("$bench" bench --points "$points" --queries "$queries" --brute-force-queries 1 --projected-queries 1 --json 2>/dev/null)
radius=$(tr -d ' \n' <<<"$report" | sed -E 's/.*"radius":\[([^]]*)\].*/\1/')
geodesic_us=$(echo "$radius" | grep -oE '"mean_microseconds":[0-9.]+,"mean_results":[0-9.]+,"model":"geodesic"' | head -1 | grep -oE '[0-9.]+' | head -1)
haversine_us=$(echo "$radius" | grep -oE '"mean_microseconds":[0-9.]+,"mean_results":[0-9.]+,"model":"haversine"' | head -1 | grep -oE '[0-9.]+' | head -1)
echo "dataset: $points points, $queries queries, 500 m, sorted with distances"
echo "redis $(redis-server --version | grep -oE 'v=[0-9.]+') GEOSEARCH: $redis_us µs/call (server time), $(( memory / points )) bytes/point (MEMORY USAGE)"
echo "vicinity geodesic: $geodesic_us µs/query, haversine: $haversine_us µs/query (in-process)"
awk -v r="$redis_us" -v g="$geodesic_us" -v h="$haversine_us" \
    'BEGIN { printf "redis / vicinity: %.0fx (geodesic), %.0fx (haversine)\n", r / g, r / h }'
