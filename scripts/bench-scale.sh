#!/usr/bin/env bash
# Memory, start and import at scale, Vicinity and Redis loaded with the same points in the same run.
#
# For each size N (default 1M 10M 20M): synthetic places at constant density (scripts/scale_data.py:
# 250 places per km², ids p0…, names "Eczane 0"…, no attributes), then
# - `vicinity import` of the CSV into a new database: time, rows/s and peak RSS (/usr/bin/time -v);
# - `vicinity serve` on that database: time from launch to the first PING answered (start to
#   ready), peak RSS during the start (VmHWM) and RSS once settled (VmRSS 5 s after ready), per place;
# - Redis (no persistence) loaded with the same points by `redis-cli --pipe`: used_memory per point
#   and its RSS;
# - server time per call (INFO commandstats of each server) for 200 `GEOSEARCH … BYRADIUS 500 m ASC
#   WITHDIST` at random points of the area (the same on both), Vicinity's `NEAREST … 10` at the same
#   points, and Redis's nearest 10 (`GEOSEARCH … BYRADIUS 1000 km ASC COUNT 10`, 5 calls).
# The two servers run one after the other, never at once, so that each has the machine's memory.
#
# Usage: scripts/bench-scale.sh [N…]        e.g. scripts/bench-scale.sh 1000000
# Env: BIN_DIR=folder of the vicinity and vicinity-bench binaries (default .build/release);
# DATA_DIR=a folder to keep the generated files in between runs (default: a temporary folder).
# Needs: python3 with numpy, redis-server and redis-cli (apt-get when missing), /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000000 10000000 20000000)
# Binaries: $BIN_DIR/vicinity and $BIN_DIR/vicinity-bench (default .build/release, brought up to date).
bin_dir=${BIN_DIR:-.build/release}
bin=$bin_dir/vicinity
bench=$bin_dir/vicinity-bench
source scripts/release-build.sh
[[ -n ${BIN_DIR:-} ]] || release_build vicinity vicinity-bench
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    source scripts/apt-common.sh
    apt_install redis-server redis-tools
fi
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
vport=$((port + 1))
server=
trap '[[ -n $server ]] && kill $server 2>/dev/null; redis-cli -p $port shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
start_redis() {
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize yes \
        --logfile "$work/redis.log" --dir "$work" --pidfile "$work/redis.pid"
    for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
}
[[ -x /usr/bin/time ]] || {
    source scripts/apt-common.sh
    apt_install time
}

kib() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status"; }
server_time() { # port [redis-cli options]: mean µs per call since CONFIG RESETSTAT
    redis-cli -p "$@" info commandstats | tr -d '\r' | grep '^cmdstat_' | grep -vE '^cmdstat_(config|info|auth|ping):' \
        | sed -E 's/.*:calls=([0-9]+),usec=([0-9]+),.*/\1 \2/' | awk '{ c += $1; u += $2 } END { printf "%.1f", c ? u / c : 0 }'
}
run_set() { # port, file, [redis-cli options]: server µs per call of the file's commands
    local port=$1 file=$2
    shift 2
    redis-cli -p "$port" "$@" config resetstat >/dev/null
    "$bench" line-bench --port "$port" --file "$file" --passes 1 >/dev/null
    server_time "$port" "$@"
}

echo "bench-scale: vicinity $(git rev-parse --short HEAD 2>/dev/null || echo '?') ($bin)," \
    "$(redis-server --version | grep -oE 'v=[0-9.]+'), $(nproc) CPUs, $(free -g | awk '/Mem:/ { print $2 }') GiB;" \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%10s | %9s %7s %8s %9s | %7s %7s %8s %6s %9s %9s %6s | %9s %9s | %7s %7s %7s %7s\n' \
    places "import s" "cpu s" "rows/s" "peak MiB" "start s" "cpu s" "cpu s/M" "settled" "B/place" "peak MiB" "peak/x" \
    "redis B/p" "redis RSS" "500m v" "500m r" "near10 v" "near10 r"
for n in "${sizes[@]}"; do
    rm -rf "$work/db.sqlite"* "$work/sets"
    mkdir -p "$work/sets"
    data=${DATA_DIR:-$work}
    if [[ ! -s $data/places-$n.csv || ! -s $data/places-$n.redis ]]; then
        python3 scripts/scale_data.py "$n" "$data/places-$n.csv" "$data/places-$n.redis"
    fi
    python3 - "$n" "$work/sets" <<'PY'
import math, sys
import numpy
n, folder = int(sys.argv[1]), sys.argv[2]
side = math.sqrt(n / 250.0)
rng = numpy.random.default_rng(7)
lat = 39.0 + rng.uniform(-0.45, 0.45, 200) * side / 111.0
lon = 32.0 + rng.uniform(-0.45, 0.45, 200) * side / (111.0 * math.cos(math.radians(39.0)))
with open(folder + "/500m", "w") as f:
    f.writelines(f"GEOSEARCH city FROMLONLAT {b:.7f} {a:.7f} BYRADIUS 500 m ASC WITHDIST\r\n" for a, b in zip(lat, lon))
with open(folder + "/nearest-v", "w") as f:
    f.writelines(f"NEAREST city {a:.7f} {b:.7f} 10\r\n" for a, b in zip(lat, lon))
with open(folder + "/nearest-r", "w") as f:
    f.writelines(f"GEOSEARCH city FROMLONLAT {b:.7f} {a:.7f} BYRADIUS 1000 km ASC COUNT 10\r\n" for a, b in zip(lat[:5], lon[:5]))
PY
    # Import: one transaction, peak RSS of the process.
    report=$(/usr/bin/time -v "$bin" import "$data/places-$n.csv" --kind city --db "$work/db.sqlite" 2>&1 >/dev/null)
    import_s=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' <<<"$report")
    import_kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' <<<"$report")
    import_cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { print s }' <<<"$report")
    admin=$("$bin" admin-token --db "$work/db.sqlite" 2>/dev/null)
    # Start: launch to the first PING answered.
    started=$(date +%s.%N)
    "$bin" serve --db "$work/db.sqlite" --line-port "$vport" --no-http --idle-timeout 0 >/dev/null 2>&1 &
    server=$!
    until redis-cli -p "$vport" ping >/dev/null 2>&1; do
        kill -0 "$server" 2>/dev/null || { echo "vicinity serve exited" >&2; exit 1; }
        sleep 0.05
    done
    ready=$(date +%s.%N)
    # CPU seconds the server used to get ready (user + system, from /proc): what a shared machine's load does not inflate.
    start_cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$server/stat")
    sleep 5
    settled_kib=$(kib "$server" VmRSS)
    peak_kib=$(kib "$server" VmHWM)
    v500=$(run_set "$vport" "$work/sets/500m" -a "$admin" --no-auth-warning)
    vnear=$(run_set "$vport" "$work/sets/nearest-v" -a "$admin" --no-auth-warning)
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
    rm -rf "$work/db.sqlite"*
    # Redis with the same points.
    start_redis
    redis-cli -p "$port" --pipe <"$data/places-$n.redis" >/dev/null
    used=$(redis-cli -p "$port" info memory | tr -d '\r' | awk -F: '$1 == "used_memory" { print $2 }')
    redis_kib=$(kib "$(cat "$work/redis.pid")" VmRSS)
    r500=$(run_set "$port" "$work/sets/500m")
    rnear=$(run_set "$port" "$work/sets/nearest-r")
    redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
    awk -v n="$n" -v is="$import_s" -v ic="$import_cpu" -v ik="$import_kib" -v s0="$started" -v s1="$ready" \
        -v sc="$start_cpu" -v sk="$settled_kib" \
        -v pk="$peak_kib" -v ru="$used" -v rk="$redis_kib" -v v5="$v500" -v r5="$r500" -v vn="$vnear" -v rn="$rnear" \
        'BEGIN { st = s1 - s0; printf "%10d | %9.1f %7.1f %8.0f %9.0f | %7.2f %7.2f %8.2f %6.0f %9.1f %9.0f %6.2f | %9.1f %9.0f | %7.1f %7.1f %7.1f %7.0f\n",
            n, is, ic, n / is, ik / 1024, st, sc, sc / (n / 1e6), sk / 1024, sk * 1024 / n, pk / 1024, pk / sk,
            ru / n, rk / 1024, v5, r5, vn, rn }'
done
echo "(cpu s: user + system CPU seconds of the import, and of the server from launch to ready;"
echo " settled: server RSS 5 s after ready, MiB; B/place: that RSS / places; peak/x: VmHWM / settled;"
echo " redis B/p: used_memory / points; 500m, near10: server µs per call from INFO commandstats, v = vicinity, r = redis)"
