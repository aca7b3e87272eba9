#!/usr/bin/env bash
# Several nodes over one PostgreSQL, on this machine: installs PostgreSQL 15 with apt-get when
# missing, starts a throwaway cluster on 127.0.0.1, migrates it, imports the shipped pharmacies,
# starts three `vicinity serve` nodes, writes on one and reads on the others (HTTP), then stops
# everything. Usage: VICINITY=.build/release/vicinity scripts/cluster-demo.sh   (`make cluster-demo`)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/postgres-common.sh
bin=$(realpath "${VICINITY:-.build/release/vicinity}")
work=$(mktemp -d /tmp/vicinity-cluster-demo.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    stop_postgres
    rm -rf "$work"
}
trap cleanup EXIT
start_postgres "$work/cluster"
export VICINITY_POSTGRES=$pg_url
echo "== PostgreSQL 15 on $pg_url"
"$bin" migrate
"$bin" import Data/*.csv --kind pharmacy
admin=$("$bin" admin-token)

ports=()
for node in 0 1 2; do
    port=$(free_port)
    "$bin" serve --line-port 0 --http-port "$port" 2>"$work/node$node.log" &
    pids+=($!)
    ports+=("$port")
done
for node in 0 1 2; do
    for _ in $(seq 100); do grep -q "(HTTP)" "$work/node$node.log" && break; sleep 0.1; done
    echo "== node$node: $(grep -o 'serving .*' "$work/node$node.log")"
done

python3 - "$admin" "${ports[@]}" <<'PY'
import json, sys, urllib.request

admin, ports = sys.argv[1], sys.argv[2:]

def call(port, method, path, body=None, headers=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, dict(response.headers), json.loads(response.read() or b"null")

print(f"\n== write on node0: a new pharmacy at Trafalgar Square")
status, headers, _ = call(ports[0], "PUT", "/v1/places/pharmacy/demo-1",
                          {"name": "Demo Pharmacy", "lat": 51.50805, "lon": -0.12806},
                          {"Authorization": f"Bearer {admin}"})
position = headers["Vicinity-Position"]
print(f"   {status}, stored at change-log position {position}")
for node in (1, 2):
    _, _, answer = call(ports[node], "GET", "/v1/nearby?lat=51.508039&lon=-0.128069&radius=50&kind=pharmacy",
                        headers={"Vicinity-Min-Position": position})
    names = ", ".join(f"{hit['name']} ({hit['distance_m']:.1f} m)" for hit in answer["results"])
    print(f"== read on node{node + 0} at position >= {position}: {names}")
print("\n== user on node1, made private on node2, gone from node0")
_, headers, user = call(ports[1], "POST", "/v1/users", {"id": "ayse", "name": "Ayşe", "location": {"lat": 51.5081, "lon": -0.1281}},
                        {"Authorization": f"Bearer {admin}"})
_, headers, _ = call(ports[2], "PUT", "/v1/users/ayse/visibility", {"visibility": "private"},
                     {"Authorization": f"Bearer {admin}", "Vicinity-Min-Position": headers["Vicinity-Position"]})
_, _, answer = call(ports[0], "GET", "/v1/users/nearby?lat=51.508039&lon=-0.128069&radius=100",
                    headers={"Vicinity-Min-Position": headers["Vicinity-Position"]})
print(f"   node0 sees {len(answer['results'])} public users near Trafalgar Square")
for node, port in enumerate(ports):
    _, _, health = call(port, "GET", "/healthz")
    print(f"== node{node} /healthz: {json.dumps(health['replication'])}")
PY
