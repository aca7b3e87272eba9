#!/usr/bin/env bash
# The database figures of BENCHMARKS.md, each next to a comparison from the same run:
#  - `vicinity import` of a 1M-row CSV into a new database (a separate process, wall time),
#    against Redis loading the same points with GEOADD over `redis-cli --pipe`;
#  - restart to ready: a new `vicinity nearest --db` process (open, load 1M places, answer);
#  - `vicinity-bench bench-store`: the same import in-process, and single-row writes per second from 1
#    and 16 writer threads with group commit, against 16 writers with one commit per write.
#
# Usage: scripts/bench-store.sh [points]    (default 1000000)
# Needs: redis-server and redis-cli (installed with apt-get when missing), a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
points=${1:-1000000}
source scripts/redis-common.sh
now() { date +%s.%N; }

# The synthetic city as CSV (kept) and the in-process figures.
"$bench" bench-store --points "$points" --folder "$work" --keep 2>/dev/null
# The same points as GEOADD commands for Redis.
"$bench" bench --points "$points" --queries 1 --export-redis "$work" >/dev/null

start=$(now)
"$bin" import "$work/city.csv" --kind pharmacy --db "$work/cli.sqlite" >/dev/null
vicinity_import=$(awk -v a="$(now)" -v b="$start" "BEGIN { printf \"%.3f\", a - b }")
restarts=()
for _ in 1 2 3; do
    start=$(now)
    "$bin" nearest 41.05 28.95 --count 1 --db "$work/cli.sqlite" >/dev/null
    restarts+=("$(awk -v a="$(now)" -v b="$start" "BEGIN { printf \"%.3f\", a - b }")")
done

start_redis
start=$(now)
redis-cli -p "$port" --pipe <"$work/points.redis" >/dev/null
redis_load=$(awk -v a="$(now)" -v b="$start" "BEGIN { printf \"%.3f\", a - b }")

echo "separate processes, same run:"
printf "vicinity import, %d-row CSV → new database:   %6.2f s\n" "$points" "$vicinity_import"
printf "redis-cli --pipe, %d GEOADD into Redis %s: %6.2f s\n" "$points" \
    "$(redis-server --version | grep -oE 'v=[0-9.]+')" "$redis_load"
awk -v v="$vicinity_import" -v r="$redis_load" 'BEGIN { printf "vicinity / redis: %.2f\n", v / r }'
printf "restart to ready (vicinity nearest --db, %d places): %s s\n" "$points" "${restarts[*]}"
