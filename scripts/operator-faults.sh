#!/usr/bin/env bash
# What an operator meets when storage goes wrong, each case checked:
# - `--db` at another application's SQLite file, at a file that is not SQLite, at a database of a
#   newer Vicinity: refused with the reason, exit 66, the file byte for byte as it was, no -wal/-shm;
# - a full disk when the default database is first made (a 256 KiB tmpfs): exit 73, no file left,
#   and the next run with room seeds it; an empty file left by an older version is seeded too;
# - a full disk under a running server (a 2 MiB tmpfs filled up): GEOADD and HTTP PUT refused with
#   "database or disk is full", the server still answers, and takes writes again once there is room;
# - a file-size limit (`ulimit -f`) on import and on serve: refused with the limit named, no SIGXFSZ;
# - deploy/vicinity.service passes `systemd-analyze verify` without a warning.
# The tmpfs cases need root (mount); without it they are reported as skipped.
# Usage: VICINITY=.build/debug/vicinity scripts/operator-faults.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${VICINITY:-.build/debug/vicinity}")
if ! command -v redis-cli >/dev/null; then
    source scripts/apt-common.sh
    apt_install redis-tools
fi
work=$(mktemp -d)
mounts=()
server=
cleanup() {
    [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
failed=0
expect() { # name, actual, expected
    if [[ "$2" == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: got [$2], expected [$3]"; failed=1; fi
}
contains() { # name, text, part
    if [[ "$2" == *"$3"* ]]; then echo "ok   $1"; else echo "FAIL $1: [$2] lacks [$3]"; failed=1; fi
}
listing() { (cd "$1" && find . -type f -exec md5sum {} + | sort); }
sql() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }
small_disk() { # folder, size: a tmpfs of that size, or return 1 when mounting is not allowed
    mkdir -p "$1"
    mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null || return 1
    mounts+=("$1")
}

# Files that are not Vicinity's are left untouched.
mkdir "$work/files"
sql "$work/files/notes.sqlite" "CREATE TABLE note (text TEXT); INSERT INTO note VALUES ('milk');"
printf 'not a database\n%.0s' $(seq 30) >"$work/files/list.txt"
"$bin" import Data/pharmacies-istanbul-example.csv --kind pharmacy --db "$work/files/newer.sqlite" >/dev/null
sql "$work/files/newer.sqlite" "PRAGMA user_version = 7;
    UPDATE setting SET value = CAST('9.0.0' AS BLOB) WHERE key = 'schema_written_by';"
before=$(listing "$work/files")
for file in notes.sqlite list.txt; do
    out=$("$bin" near 41 29 --db "$work/files/$file" 2>&1) && status=0 || status=$?
    expect "$file refused (exit)" "$status" "66"
    contains "$file refused (why)" "$out" "is not a Vicinity database"
done
out=$("$bin" import Data/pharmacies-istanbul-example.csv --kind pharmacy --db "$work/files/notes.sqlite" 2>&1) \
    && status=0 || status=$?
expect "import into another application's database refused" "$status" "66"
out=$("$bin" near 41 29 --db "$work/files/newer.sqlite" 2>&1) && status=0 || status=$?
expect "newer database refused (exit)" "$status" "66"
contains "newer database refused (both versions)" "$out" "written by Vicinity 9.0.0 (schema 7); this is Vicinity $("$bin" --version)"
expect "refused files untouched, nothing beside them" "$(listing "$work/files")" "$before"
expect "another application's database keeps its journal mode" \
    "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode").fetchone()[0])' \
    "$work/files/notes.sqlite")" "delete"

# A full disk when the default database is first made.
if small_disk "$work/full" 256k; then
    out=$(env -u VICINITY_DB XDG_DATA_HOME="$work/full" "$bin" near 51.508039 -0.128069 2>&1) && status=0 || status=$?
    expect "default database on a full disk (exit)" "$status" "73"
    contains "default database on a full disk (why)" "$out" "database or disk is full"
    expect "default database on a full disk leaves nothing" "$(find "$work/full" -mindepth 1 | wc -l)" "0"
    mkdir -p "$work/roomy/vicinity"
    : >"$work/roomy/vicinity/vicinity.sqlite"  # what an older version left after a full disk
    out=$(env -u VICINITY_DB XDG_DATA_HOME="$work/roomy" "$bin" near 51.508039 -0.128069 --radius 500 2>&1)
    contains "an empty leftover is seeded on the next run" "$out" "shipped places"
    contains "and answers from the shipped data" "$out" "pharmacies within 500 m"
else
    echo "skip full-disk cases: mounting a tmpfs needs root"
fi

cli() { redis-cli -p "$port" --no-auth-warning "$@" 2>&1; }
start_server() { # database, then the wrapper to run serve under (e.g. a ulimit)
    local db=$1
    shift
    port=$((20000 + RANDOM % 20000))
    hport=$((port + 1))
    "$@" "${as_server_user[@]}" "$serve_bin" serve --db "$db" --line-port "$port" --http-port "$hport" \
        2>>"$work/serve.log" &
    server=$!
    for _ in $(seq 100); do cli ping 2>/dev/null | grep -q PONG && return 0; sleep 0.1; done
    echo "FAIL the server did not start"; cat "$work/serve.log"; exit 1
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }
long_member() { printf "m$1-%0100d" 0; }
source scripts/server-user.sh

# A full disk under a running server.
if small_disk "$work/disk" 2m; then
    "$bin" import Data/pharmacies-istanbul-example.csv --kind pharmacy --db "$work/disk/db.sqlite" >/dev/null
    admin=$("$bin" admin-token --db "$work/disk/db.sqlite" 2>/dev/null)
    serve_as_unprivileged "$work" "$bin"
    start_server "$work/disk/db.sqlite"
    head -c 4m /dev/zero >"$work/disk/filler" 2>/dev/null || true
    refused=$(cli -a "$admin" geoadd shops 29.01 41.08 "$(long_member 1)")
    contains "GEOADD on a full disk refused with the whole cause" "$refused" \
        "ERR the write was not stored, and nothing of it was made: database or disk is full (SQLite error 13)"
    put=$(curl -s -w ' %{http_code}' -X PUT -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
        -d '{"name":"Yeni","lat":41.08,"lon":29.01}' "http://127.0.0.1:$hport/v1/places/pharmacy/yeni")
    contains "HTTP PUT on a full disk: 503" "$put" " 503"
    contains "HTTP PUT on a full disk: the cause" "$put" "database or disk is full"
    expect "the server goes on" "$(cli ping)" "PONG"
    expect "the refused write is nowhere" "$(cli zcard shops)" "0"
    rm "$work/disk/filler"
    expect "writes again once there is room" "$(cli -a "$admin" geoadd shops 29.01 41.08 "$(long_member 2)")" "1"
    stop_server
else
    echo "skip full-disk server case: mounting a tmpfs needs root"
    serve_as_unprivileged "$work" "$bin"
fi

# A file-size limit: SIGXFSZ would kill the process without a word; the write is refused instead.
# 800 KiB: room to make the new database (its tables, the change log's among them), not for the
# 1,737 places and their log entries.
out=$( (ulimit -f 800 && exec "$bin" import Data/pharmacies-london.csv --kind pharmacy --db "$work/limited.sqlite") 2>&1) \
    && status=0 || status=$?
expect "import past a file-size limit (exit 74, not a signal)" "$status" "74"
contains "import past a file-size limit (why)" "$out" "this process may write files of at most 819200 bytes"
mkdir -p "$work/limit"
"$bin" import Data/pharmacies-istanbul-example.csv --kind pharmacy --db "$work/limit/db.sqlite" >/dev/null
admin=$("$bin" admin-token --db "$work/limit/db.sqlite" 2>/dev/null)
[[ $(id -u) == 0 ]] && chown -R "$server_user:$server_group" "$work/limit"
limited() { ulimit -f 400 && exec "$@"; }
start_server "$work/limit/db.sqlite" limited
for i in $(seq 400); do
    reply=$(cli -a "$admin" geoadd big 29.01 41.08 "$(long_member "$i")")
    [[ $reply == 1 ]] || break
done
contains "serve past a file-size limit: refused with the limit named" "$reply" \
    "ERR the write was not stored, and nothing of it was made: disk I/O error"
contains "serve past a file-size limit: the limit" "$reply" "at most 409600 bytes"
expect "serve past a file-size limit goes on" "$(cli ping)" "PONG"
stop_server

# The systemd unit.
if command -v systemd-analyze >/dev/null; then
    sed "s#/usr/local/bin/vicinity#$bin#" deploy/vicinity.service >"$work/vicinity.service"
    out=$(systemd-analyze verify "$work/vicinity.service" 2>&1) && status=0 || status=$?
    expect "deploy/vicinity.service verifies without a warning" "$status:$out" "0:"
else
    echo "skip systemd-analyze verify: systemd is not installed"
fi

[[ $failed == 0 ]] && echo "operator faults: all checks passed"
exit $failed
