#!/usr/bin/env bash
# The "Several nodes" figures of BENCHMARKS.md (issue 16), on the release build, in one run:
#  1. `vicinity import` of a 1M-row CSV into a new PostgreSQL database and into a new SQLite file
#     (separate processes, wall time), then a node's start on those 1M places (from `serve` to
#     answering PING and NEARBY), PostgreSQL against SQLite, alternated, 3 times each;
#  2. three nodes on the PostgreSQL database (scripts/bench_cluster.py cluster): A and B take
#     $RATE writes/s (USER.MOVE and PLACE.SET from pipelining writers), F only follows; the
#     replication delay A→B and B→A, F's CPU per applied change, and redis-benchmark NEARBY
#     against F without the writes, with them, and without them again.
#
# Usage: scripts/bench-cluster.sh [points]      (default 1000000)
#        RATE=1000 BATCH=1 SECONDS_LOAD=30 REQUESTS=100000 scripts/bench-cluster.sh
#        (BATCH: writes each writer connection sends at once, its pipeline depth)
# Needs: PostgreSQL 15 (scripts/postgres-common.sh installs it), redis-benchmark (redis-tools), a
# release build (made when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
points=${1:-1000000}
source scripts/postgres-common.sh
source scripts/release-build.sh
release_build vicinity
bin=$(realpath -m .build/release/vicinity)
if ! command -v redis-benchmark >/dev/null; then
    source scripts/apt-common.sh
    apt_install redis-tools
fi
work=$(mktemp -d /tmp/vicinity-bench-cluster.XXXXXX)
chmod 755 "$work"
trap 'stop_postgres; rm -rf "$work"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.3f", a - b }'; }

echo "vicinity $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) CPUs" \
    "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(date -u '+%Y-%m-%d %H:%M UTC')"
python3 scripts/bench_cluster.py csv "$work/places.csv" "$points"
start_postgres "$work/pg"
"$pg_bin/postgres" --version
"$bin" migrate --postgres "$pg_url" >/dev/null

start=$(now)
"$bin" import "$work/places.csv" --kind pharmacy --postgres "$pg_url" >/dev/null
pg_import=$(since "$start")
start=$(now)
"$bin" import "$work/places.csv" --kind pharmacy --db "$work/places.sqlite" >/dev/null
sqlite_import=$(since "$start")
printf "import %d places: PostgreSQL %s s, SQLite %s s, PostgreSQL / SQLite %s\n" "$points" \
    "$pg_import" "$sqlite_import" "$(awk -v p="$pg_import" -v s="$sqlite_import" 'BEGIN { printf "%.2f", p / s }')"

pg_starts=() sqlite_starts=()
for _ in 1 2 3; do
    pg_starts+=("$(python3 scripts/bench_cluster.py ready "$bin" --postgres "$pg_url")")
    sqlite_starts+=("$(python3 scripts/bench_cluster.py ready "$bin" --db "$work/places.sqlite")")
done
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
pg_start=$(median "${pg_starts[@]}") sqlite_start=$(median "${sqlite_starts[@]}")
printf "start to answering on %d places: PostgreSQL %s s (median of %s), SQLite %s s (median of %s), ratio %s\n" \
    "$points" "$pg_start" "${pg_starts[*]}" "$sqlite_start" "${sqlite_starts[*]}" \
    "$(awk -v p="$pg_start" -v s="$sqlite_start" 'BEGIN { printf "%.2f", p / s }')"

token=$("$bin" admin-token --postgres "$pg_url" 2>/dev/null | tail -1)
python3 scripts/bench_cluster.py cluster --vicinity "$bin" --url "$pg_url" --work "$work" --token "$token" \
    --rate "${RATE:-1000}" --batch "${BATCH:-1}" --seconds "${SECONDS_LOAD:-30}" --requests "${REQUESTS:-100000}" --places "$points" || {
    tail -5 "$work"/*.log >&2
    exit 1
}
