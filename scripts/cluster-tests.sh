#!/usr/bin/env bash
# Several `vicinity serve` nodes over one PostgreSQL (issue 16): starts a throwaway PostgreSQL 15
# (installed with apt-get when missing) on a free port of 127.0.0.1 and runs
# scripts/cluster_convergence.py's scenarios against three nodes:
#   converge  8 writers over 3 nodes, 20,000 random writes and an admin-token rotation; every
#             node's memory equals the database byte for byte;
#   faults    a node killed with SIGKILL and restarted, PostgreSQL stopped for 10 s, one node's
#             connections ended by pg_terminate_backend, all during the writes; no acknowledged
#             write lost, none refused stored, every node converges;
#   privacy   a user made private on one node is in no reply of the others that waited for it;
#   unsafe    a fifth of the writes with positions from a plain sequence: the check must see a
#             node miss a change (the proof that the convergence check can fail);
#   watch     a watcher on node B (HTTP, Server-Sent Events) sees the enter, move and exit that
#             USER.ADD and USER.MOVE on node A cause, each within 5 s.
# Usage: VICINITY=.build/debug/vicinity scripts/cluster-tests.sh [scenario…]   (WRITES=2000 quick)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/postgres-common.sh
bin=$(realpath "${VICINITY:-.build/debug/vicinity}")
writes=${WRITES:-20000}
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] || scenarios=(converge faults privacy unsafe watch)

work=$(mktemp -d /tmp/vicinity-cluster.XXXXXX)
chmod 755 "$work"
cleanup() {
    pkill -f -- "$bin serve --line-port" 2>/dev/null || true
    stop_postgres
    rm -rf "$work"
}
trap cleanup EXIT
start_postgres "$work/cluster"
echo "PostgreSQL 15 on $pg_url" >&2
write_control_scripts "$work"

failed=0
for scenario in "${scenarios[@]}"; do
    echo "== $scenario"
    # The broken numbering commits slowly on purpose (each commit sleeps up to 20 ms): a fifth
    # of the writes is enough for it to diverge, and keeps CI under half an hour.
    # The faults' writers write for as long as the faults last (about 20 s) whatever their
    # share, and 3 s more: a quarter of the writes is enough for them.
    count=$writes
    [[ $scenario == unsafe ]] && count=$((writes / 5))
    [[ $scenario == faults ]] && count=$((writes / 4))
    python3 scripts/cluster_convergence.py "$scenario" --vicinity "$bin" --url "$pg_url" --work "$work" \
        --writes "$count" --pause "$work/pause" --resume "$work/resume" || {
        failed=1
        for log in "$work"/node*.log; do tail -n 5 "$log" >&2; done
    }
done
exit $failed
