#!/usr/bin/env bash
# The "Watches" figures of BENCHMARKS.md (issue 17), in one run:
#  1. in process: `vicinity-bench watches` — 100,000 static watches of 500 m over the 1M-point
#     synthetic city, places moved at 10,000 a second; CPU per move with and without the watches;
#  2. the same fences in PostGIS as an AFTER UPDATE trigger with ST_DWithin + NOTIFY, fed the same
#     moves (exported by `vicinity-bench watches --export`), checked to give the same enter / exit /
#     move events; its CPU per move, throughput and move→notification latency
#     (scripts/bench_watch.py postgis);
#  3. over the wire: `vicinity serve`, 1,000 connections each with a `WATCH NEARBY user …` (RESP3
#     pushes), users moved with `USER.MOVE` into the watches' circles: the time from each move's
#     acknowledgement to its events at the watchers (scripts/bench_watch.py wire).
#
# Usage: scripts/bench-watch.sh [parts]     parts: any of inprocess postgis wire (default: all)
#        SECONDS_PHASE=10 RATE=10000 WATCHES=100000 POINTS=1000000 EXPORT_MOVES=10000
#        WATCHERS=1000 WIRE_RATES="200 1000" WIRE_SECONDS=20 PG_RATE=200 scripts/bench-watch.sh
# Needs: a release build (made when missing), PostgreSQL 15 + PostGIS 3 and python3-psycopg2
# (installed with apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
parts=${*:-inprocess postgis wire}
points=${POINTS:-1000000}
watches=${WATCHES:-100000}
rate=${RATE:-10000}
seconds=${SECONDS_PHASE:-10}
export_moves=${EXPORT_MOVES:-10000}
watchers=${WATCHERS:-1000}
wire_rates=${WIRE_RATES:-200 1000}
wire_seconds=${WIRE_SECONDS:-20}
pg_rate=${PG_RATE:-200}
bin=${VICINITY:-.build/release/vicinity}
bench=${VICINITY_BENCH:-.build/release/vicinity-bench}
source scripts/release-build.sh
[[ -n ${VICINITY:-} ]] || release_build vicinity
[[ -n ${VICINITY_BENCH:-} ]] || release_build vicinity-bench
work=$(mktemp -d /tmp/vicinity-bench-watch.XXXXXX)
chmod 755 "$work"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

machine() {
    echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load average" \
        "$(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
}
echo "vicinity $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(machine)"

if [[ " $parts " == *" inprocess "* ]]; then
    echo
    echo "== in process: $bench watches --points $points --watches $watches --rate $rate --seconds $seconds"
    "$bench" watches --points "$points" --watches "$watches" --rate "$rate" --seconds "$seconds"
    echo "   (after: $(machine))"
fi

if [[ " $parts " == *" postgis "* ]]; then
    echo
    echo "== PostGIS: the same fences as a trigger, fed the same moves"
    # Debian's psycopg2 is for Debian's Python, which may not be the first python3 on the PATH.
    pg_python=python3
    python3 -c 'import psycopg2' 2>/dev/null || pg_python=/usr/bin/python3
    if ! $pg_python -c 'import psycopg2' 2>/dev/null; then
        source scripts/apt-common.sh
        apt_install python3-psycopg2
    fi
    source scripts/postgis-common.sh
    if [[ -n ${EXPORT_DIR:-} ]]; then # an export made before (to debug this part)
        cp -r "$EXPORT_DIR" "$work/export"
    else
        "$bench" watches --points "$points" --watches "$watches" --export "$work/export" \
            --export-moves "$export_moves"
    fi
    start_postgis
    trap 'stop_postgis; cleanup' EXIT
    chmod 755 "$work/export"
    chmod 644 "$work/export"/*.csv
    load_city "$work/export/places.csv"
    max_radius=$(awk -F, 'NR > 1 && $4 > m { m = $4 } END { print m + 0 }' "$work/export/fences.csv")
    psql_city <<SQL
CREATE TABLE fence_csv (id int, lat double precision, lon double precision, radius double precision);
\copy fence_csv FROM '$work/export/fences.csv' WITH (FORMAT csv, HEADER true)
CREATE TABLE fence AS
    SELECT id, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography AS geog, radius FROM fence_csv;
DROP TABLE fence_csv;
ALTER TABLE fence ADD PRIMARY KEY (id);
CREATE INDEX fence_geog ON fence USING gist (geog);
VACUUM ANALYZE fence;
CREATE TABLE move_csv (seq int, id text, lat double precision, lon double precision);
\copy move_csv FROM '$work/export/moves.csv' WITH (FORMAT csv, HEADER true)
CREATE TABLE city_start AS SELECT id, geog FROM city WHERE id IN (SELECT id FROM move_csv);
ALTER TABLE city ADD COLUMN seq int;
-- What a PostGIS user writes: on each move, every fence near the old or the new position (the
-- GiST index, widened by the largest radius), compared before and after, on the spheroid.
CREATE FUNCTION city_fence_events() RETURNS trigger LANGUAGE plpgsql AS \$\$
DECLARE
    f record;
BEGIN
    FOR f IN
        SELECT fence.id,
               ST_DWithin(OLD.geog, fence.geog, fence.radius) AS was_inside,
               ST_DWithin(NEW.geog, fence.geog, fence.radius) AS is_inside
        FROM fence
        WHERE ST_DWithin(fence.geog, OLD.geog, $max_radius) OR ST_DWithin(fence.geog, NEW.geog, $max_radius)
    LOOP
        IF f.was_inside AND f.is_inside THEN
            PERFORM pg_notify('fence', NEW.seq || ',' || f.id || ',' || NEW.id || ',move');
        ELSIF f.is_inside THEN
            PERFORM pg_notify('fence', NEW.seq || ',' || f.id || ',' || NEW.id || ',enter');
        ELSIF f.was_inside THEN
            PERFORM pg_notify('fence', NEW.seq || ',' || f.id || ',' || NEW.id || ',exit');
        END IF;
    END LOOP;
    RETURN NULL;
END
\$\$;
CREATE TRIGGER city_fences AFTER UPDATE OF geog ON city FOR EACH ROW EXECUTE FUNCTION city_fence_events();
SQL
    echo "PostgreSQL $("${pg_run[@]}" "$pg_bin/postgres" --version | grep -oE '[0-9]+\.[0-9]+' | head -1)," \
        "PostGIS $(psql_city -c 'SELECT postgis_lib_version()'), $(($(wc -l <"$work/export/fences.csv") - 1)) fences," \
        "$(($(wc -l <"$work/export/places.csv") - 1)) places, $(($(wc -l <"$work/export/moves.csv") - 1)) moves"
    $pg_python scripts/bench_watch.py postgis --folder "$work/export" --work "$work" --pg-port "$pg_port" \
        --pg-user "$pg_user" --pg-pidfile "$work/pg/data/postmaster.pid" --rate "$pg_rate"
    stop_postgis
    trap cleanup EXIT
    echo "   (after: $(machine))"
fi

if [[ " $parts " == *" wire "* ]]; then
    echo
    echo "== over the wire: $watchers watchers (RESP3 pushes), USER.MOVE at $wire_rates/s for $wire_seconds s each"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    token=$("$bin" admin-token --db "$work/wire.sqlite" 2>/dev/null | tail -1)
    ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
    "$bin" serve --db "$work/wire.sqlite" --line-port "$port" --no-http --idle-timeout 0 2>"$work/serve.log" &
    server=$!
    trap 'kill $server 2>/dev/null || true; cleanup' EXIT
    for _ in $(seq 300); do
        python3 -c "import socket; socket.create_connection(('127.0.0.1', $port)).close()" 2>/dev/null && break
        sleep 0.1
    done
    for wire_rate in $wire_rates; do
        python3 scripts/bench_watch.py wire --port "$port" --token "$token" --watchers "$watchers" \
            --rate "$wire_rate" --seconds "$wire_seconds" --work "$work" --server-pid "$server"
    done
    kill "$server"
    wait "$server" 2>/dev/null || true
    trap cleanup EXIT
    echo "   (after: $(machine))"
fi
