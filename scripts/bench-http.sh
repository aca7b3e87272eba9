#!/usr/bin/env bash
# The HTTP API against PostGIS in the same run, on the same 1M-point synthetic city (the dataset of
# `vicinity-bench bench`, written by `vicinity-bench bench --export-redis`; the same CSV is imported into
# Vicinity and loaded into PostGIS 3.3 as geography with a GiST index).
#
# Both answer the same question the same way: every place within 500 m on the WGS84 ellipsoid,
# nearest first, ties by id, with id, name, latitude, longitude, distance and bearing.
# - Vicinity: `GET /v1/nearby?lat&lon&radius=500&kind=city`, driven by wrk.
# - PostGIS: `ST_DWithin(geog, point, 500)` with `ST_Distance` and `ST_Azimuth`, ORDER BY distance,
#   id, driven by pgbench.
# Server CPU a request on both sides, from /proc: Vicinity's process (user + system time before and
# after the wrk run), and PostgreSQL's backends serving pgbench (they exit when pgbench disconnects:
# the CPU of the postmaster's children that exited during the run, its cutime + cstime, read once
# they are all gone). Equal concurrency (8 connections, 2 client threads), 10 s each, at the median-density point of
# the query set and over the whole varied set of 2,000 data-weighted points, every place within
# the radius (limit=10000 on the API, no LIMIT in SQL), one statement a query, prepared (as a
# driver would). The result counts are compared first, at the median point and 50 varied ones;
# a wrk run with any answer other than 2xx fails.
#
# Last, the same wrk against GET /healthz: what the server stack costs a request with no work.
#
# The server answers /v1/nearby by its hot routes (HotRoutes, the default of `vicinity serve`);
# NO_HOT_ROUTES=1 measures the routes generated from openapi.yaml instead (`--no-hot-routes`).
#
# Usage: [NO_HOT_ROUTES=1] scripts/bench-http.sh [seconds] [connections]
# Needs: a release build (made when missing), wrk, PostgreSQL 15 + PostGIS 3 (installed with
# apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-8}
source scripts/redis-common.sh
source scripts/postgis-common.sh
if ! command -v wrk >/dev/null; then
    source scripts/apt-common.sh
    apt_install wrk
fi
hport=$((port + 2))
lport=$((port + 3))

"$bench" bench --points 1000000 --queries 2000 --export-redis "$work" >/dev/null
"$bin" import "$work/points.csv" --kind city --db "$work/http.sqlite" >/dev/null 2>&1
start_postgis
trap 'stop_postgis; rm -rf "$work"' EXIT
serve_flags=()
[[ ${NO_HOT_ROUTES:-0} == 1 ]] && serve_flags+=(--no-hot-routes)
"$bin" serve --db "$work/http.sqlite" --http-port "$hport" --line-port "$lport" "${serve_flags[@]}" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; stop_postgis; rm -rf "$work"' EXIT
load_city "$work/points.csv"
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$hport/healthz" >/dev/null && break; sleep 0.2; done

median_lat=41.308095327014605
median_lon=28.90500860848254
# The query points, latitude first: from the GEOSEARCH set (longitude first there).
awk '{ print $5, $4 }' "$work/queries.redis" >"$work/points.txt"
# limit=10000 (the most the API takes): every place within the radius, as the SQL returns them.
awk -v k=city '{ printf "/v1/nearby?lat=%s&lon=%s&radius=500&kind=%s&limit=10000\n", $1, $2, k }' "$work/points.txt" \
    >"$work/paths.txt"
awk 'BEGIN { print "id,lat,lon" } { print NR "," $1 "," $2 }' "$work/points.txt" >"$work/queries.csv"
chmod 644 "$work/queries.csv"
psql_city <<SQL
CREATE TABLE query_point (id int PRIMARY KEY, lat double precision, lon double precision);
\copy query_point FROM '$work/queries.csv' WITH (FORMAT csv, HEADER true)
SQL

# One query, as a PostGIS user would write it; :lat and :lon are pgbench variables.
postgis_query() {
    cat <<'SQL'
SELECT id, name, ST_Y(geog::geometry) AS lat, ST_X(geog::geometry) AS lon,
       ST_Distance(geog, q) AS distance_m, degrees(ST_Azimuth(q, geog)) AS bearing_deg
FROM city, (SELECT ST_SetSRID(ST_MakePoint(:lon, :lat), 4326)::geography AS q) AS centre
WHERE ST_DWithin(geog, q, 500)
ORDER BY distance_m, id;
SQL
}
{
    echo "\\set lat $median_lat"
    echo "\\set lon $median_lon"
    postgis_query
} >"$work/median.sql"
# One statement a query, the point looked up inside it (not a second statement before it).
{
    echo "\\set i random(1, $(wc -l <"$work/points.txt"))"
    postgis_query | sed 's/SELECT ST_SetSRID(ST_MakePoint(:lon, :lat), 4326)::geography AS q/SELECT ST_SetSRID(ST_MakePoint(p.lon, p.lat), 4326)::geography AS q FROM query_point AS p WHERE p.id = :i/'
} >"$work/varied.sql"
grep -q 'WHERE p.id = :i' "$work/varied.sql" || { echo "bench-http.sh: the varied query was not built" >&2; exit 1; }
write_wrk_walk "$work/paths.txt" "$work/varied.lua"
chmod 644 "$work"/*.sql "$work"/*.lua "$work/paths.txt"

count_vicinity() { # lat lon
    curl -sf "http://127.0.0.1:$hport/v1/nearby?lat=$1&lon=$2&radius=500&kind=city&limit=10000" \
        | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["results"]))'
}
count_postgis() { # lat lon
    sed -e "s/:lat/$1/; s/:lon/$2/" <(postgis_query) | psql_city | wc -l
}
vicinity_count=$(count_vicinity "$median_lat" "$median_lon")
postgis_count=$(count_postgis "$median_lat" "$median_lon")
# The same answers: result counts at 50 of the varied points.
differ=0
while read -r lat lon; do
    [[ $(count_vicinity "$lat" "$lon") == $(count_postgis "$lat" "$lon") ]] || differ=$((differ + 1))
done < <(awk 'NR % 40 == 1' "$work/points.txt")
echo "PostgreSQL $("${pg_run[@]}" "$pg_bin/postgres" --version | grep -oE 'PostgreSQL\) [0-9.]+' | cut -d' ' -f2) with PostGIS" \
    "$(psql_city -c 'SELECT postgis_lib_version()') against vicinity $(git rev-parse --short HEAD 2>/dev/null || echo '?')," \
    "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
echo "load before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median point: vicinity $vicinity_count results, PostGIS $postgis_count; 50 varied points: $differ with different counts"
echo
measure() { wrk_measure "$server" "$@"; }
# One pgbench run of a script: prints its queries a second and the CPU time its backends spent a
# query (user + system, µs).
pg_measure() { # script file
    local postmaster before after report
    postmaster=$(head -1 "$work/pg/data/postmaster.pid")
    before=$(awk '{ print $16 + $17 }' "/proc/$postmaster/stat")
    report=$("${pg_run[@]}" pgbench -h 127.0.0.1 -p "$pg_port" -U "$pg_user" -n -M prepared -c "$connections" -j 2 \
        -T "$seconds" -f "$1" postgres 2>/dev/null)
    # The backends exit after pgbench disconnects; their time is the postmaster's once it reaps them.
    for _ in $(seq 100); do
        pgrep -P "$postmaster" -f '127[.]0[.]0[.]1[(]' >/dev/null || break
        sleep 0.1
    done
    after=$(awk '{ print $16 + $17 }' "/proc/$postmaster/stat")
    awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" '
        /number of transactions actually processed:/ { n = $NF; sub("/.*", "", n) }
        /^tps = / { r = $3 }
        END { printf "%s %.0f\n", r, t / hz * 1e6 / n }' <<<"$report"
}
for set in median varied; do
    if [[ $set == median ]]; then
        result=$(measure \
            "http://127.0.0.1:$hport/v1/nearby?lat=$median_lat&lon=$median_lon&radius=500&kind=city&limit=10000")
    else
        result=$(measure -s "$work/varied.lua" "http://127.0.0.1:$hport")
    fi
    read -r vicinity cpu <<<"$result"
    read -r postgis pgcpu <<<"$(pg_measure "$work/$set.sql")"
    awk -v s="$set" -v c="$connections" -v p="$postgis" -v v="$vicinity" -v u="$cpu" -v q="$pgcpu" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
        'BEGIN { printf "  %-7s %d connections  PostGIS %8.0f queries/s  vicinity %8.0f requests/s  ratio %.1fx  CPU a request: PostgreSQL backends %d µs, vicinity %d µs (%.1fx less)  load %s\n", s, c, p, v, v / p, q, u, q / u, l }'
done
# The floor: the same server answering GET /healthz (32 bytes, no search) through the same stack.
result=$(measure "http://127.0.0.1:$hport/healthz")
read -r vicinity cpu <<<"$result"
awk -v c="$connections" -v v="$vicinity" -v u="$cpu" \
    'BEGIN { printf "  healthz %d connections  (no search, no list)       vicinity %8.0f requests/s                CPU a request: vicinity %d µs\n", c, v, u }'
