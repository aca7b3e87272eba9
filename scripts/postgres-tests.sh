#!/usr/bin/env bash
# Runs the PostgreSQL store's tests (PlacesPostgresTests) against a throwaway cluster: starts one
# on a free port of 127.0.0.1, runs the suite with $VICINITY_TEST_POSTGRES set to its URL, and
# stops and removes it on exit. The fault tests stop and restart the server through the two
# scripts named by $VICINITY_TEST_POSTGRES_PAUSE and $VICINITY_TEST_POSTGRES_RESUME.
# Needs a finished `swift build --build-tests`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/postgres-common.sh

work=$(mktemp -d /tmp/vicinity-pg-tests.XXXXXX)
# The cluster belongs to the postgres user when run as root, which must reach it.
chmod 755 "$work"
cleanup() {
    stop_postgres
    rm -rf "$work"
}
trap cleanup EXIT
start_postgres "$work/cluster"
echo "PostgreSQL 15 on $pg_url" >&2

write_control_scripts "$work"

VICINITY_TEST_POSTGRES=$pg_url VICINITY_TEST_POSTGRES_PAUSE=$work/pause VICINITY_TEST_POSTGRES_RESUME=$work/resume \
    "${SWIFT:-swift}" test --skip-build --no-parallel --filter PlacesPostgresTests "$@"
