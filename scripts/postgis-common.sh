# Shared by the benchmark scripts that compare with PostGIS (source it from the repository root,
# after scripts/redis-common.sh or with $work set): installs PostgreSQL 15 with PostGIS 3 with
# apt-get when missing, and `start_postgis` starts a throwaway cluster in "$work/pg" on a random
# port on 127.0.0.1 (no TCP elsewhere, trust authentication for the local user only).
# `load_city CSV` loads a points file (id,name,lat,lon) into table city(id, name, geog) with a GiST
# index on the geography column, as a PostGIS user would set it up. `stop_postgis` stops it.
pg_bin=/usr/lib/postgresql/15/bin
if [[ ! -x $pg_bin/initdb ]] || [[ ! -d /usr/share/postgresql/15/extension ]] \
    || ! ls /usr/share/postgresql/15/extension/postgis.control >/dev/null 2>&1; then
    source scripts/apt-common.sh
    apt_install postgresql-15 postgresql-15-postgis-3
fi
pg_port=$((40000 + RANDOM % 20000))
# PostgreSQL refuses to run as root: as root the cluster belongs to the postgres user.
pg_user=$(id -un)
pg_run=()
if [[ $(id -u) == 0 ]]; then
    pg_user=postgres
    pg_run=(runuser -u postgres --)
fi

start_postgis() {
    mkdir -p "$work/pg"
    chown "$pg_user" "$work/pg"
    chmod 755 "$work"
    "${pg_run[@]}" "$pg_bin/initdb" -D "$work/pg/data" -U "$pg_user" -A trust >/dev/null
    # A random port can be taken (by an ephemeral port of another connection): try three.
    for attempt in 1 2 3; do
        if "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
            -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $work/pg -c shared_buffers=1GB -c max_connections=200 -c fsync=off -c synchronous_commit=off" \
            start >/dev/null; then
            return 0
        fi
        echo "PostgreSQL did not start on port $pg_port (attempt $attempt):" >&2
        tail -3 "$work/pg/log" >&2
        pg_port=$((40000 + RANDOM % 20000))
    done
    return 1
}

stop_postgis() {
    "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -m immediate stop >/dev/null 2>&1 || true
}

psql_city() {
    "${pg_run[@]}" psql -h 127.0.0.1 -p "$pg_port" -U "$pg_user" -d postgres -v ON_ERROR_STOP=1 -qAt "$@"
}

load_city() { # CSV with the header id,name,lat,lon
    chmod 644 "$1"
    psql_city <<SQL
CREATE EXTENSION IF NOT EXISTS postgis;
CREATE TABLE city_csv (id text, name text, lat double precision, lon double precision);
\copy city_csv FROM '$1' WITH (FORMAT csv, HEADER true)
CREATE TABLE city AS
    SELECT id, name, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography AS geog FROM city_csv;
DROP TABLE city_csv;
ALTER TABLE city ADD PRIMARY KEY (id);
CREATE INDEX city_geog ON city USING gist (geog);
VACUUM ANALYZE city;
SQL
}
