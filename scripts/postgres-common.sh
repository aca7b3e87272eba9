# Shared by the scripts that need a PostgreSQL server of their own (source it from the repository
# root): installs PostgreSQL 15 with apt-get when missing. `start_postgres DIR` starts a throwaway
# cluster in DIR on a free random port of 127.0.0.1 (no TCP elsewhere, trust authentication for
# local connections only) and sets $pg_url to postgres://USER@127.0.0.1:PORT/postgres; fsync stays
# on, since durability is what the tests check. `pause_postgres` stops it (a fast shutdown, which
# closes every connection) and `resume_postgres` starts it again on the same port and data, for
# fault tests; `stop_postgres` stops it for good. `psql_run ARGS…` runs psql against it.
pg_bin=/usr/lib/postgresql/15/bin
if [[ ! -x $pg_bin/initdb ]]; then
    source scripts/apt-common.sh
    apt_install postgresql-15
fi
# PostgreSQL refuses to run as root: as root the cluster belongs to the postgres user.
pg_user=$(id -un)
pg_run=()
if [[ $(id -u) == 0 ]]; then
    pg_user=postgres
    pg_run=(runuser -u postgres --)
fi
pg_dir=""
pg_port=""
pg_url=""

# A TCP port nothing listens on now (the kernel's pick for an ephemeral bind).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pg_ctl_start() {
    "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir -c max_connections=200 -c fsync=on" \
        start </dev/null >/dev/null 2>&1
}

start_postgres() { # DIR (its parent must be reachable by the cluster's owner)
    pg_dir=$1
    mkdir -p "$pg_dir"
    chmod 755 "$pg_dir"
    chown "$pg_user" "$pg_dir"
    "${pg_run[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U "$pg_user" -A trust >/dev/null
    # The port can be taken between the pick and the start (an ephemeral port of another
    # connection): try three.
    for attempt in 1 2 3; do
        pg_port=$(free_port)
        if pg_ctl_start; then
            pg_url="postgres://$pg_user@127.0.0.1:$pg_port/postgres"
            return 0
        fi
        echo "PostgreSQL did not start on port $pg_port (attempt $attempt):" >&2
        tail -3 "$pg_dir/log" >&2
    done
    return 1
}

pause_postgres() {
    "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null
}

resume_postgres() {
    pg_ctl_start
}

stop_postgres() {
    [[ -n $pg_dir && -d $pg_dir/data ]] || return 0
    "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
}

psql_run() {
    "${pg_run[@]}" "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U "$pg_user" -d postgres -v ON_ERROR_STOP=1 -qAt "$@"
}

# Writes DIR/pause and DIR/resume: commands that run pause_postgres and resume_postgres on the
# cluster started here, for a test program to stop and start the server in the middle of its work.
write_control_scripts() { # DIR
    local action
    for action in pause resume; do
        cat >"$1/$action" <<SCRIPT
#!/usr/bin/env bash
set -euo pipefail
cd "$PWD"
source scripts/postgres-common.sh
pg_dir="$pg_dir"
pg_port="$pg_port"
${action}_postgres
SCRIPT
        chmod +x "$1/$action"
    done
}
