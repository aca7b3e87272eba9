# Shared by the benchmark scripts that compare with Redis (source it from the repository root):
# builds the release binaries (vicinity, vicinity-bench) if missing, installs redis-server and
# redis-cli with apt-get if missing, makes a work folder, and starts a Redis without persistence
# on a random port on 127.0.0.1 with `start_redis`. Everything is removed and Redis stopped on
# exit.
bin=.build/release/vicinity
[[ -x $bin ]] || swift build -c release --product vicinity
bench=.build/release/vicinity-bench
[[ -x $bench ]] || swift build -c release --product vicinity-bench
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    source scripts/apt-common.sh
    apt_install redis-server redis-tools
fi
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
trap 'redis-cli -p $port shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

start_redis() {
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize yes \
        --logfile "$work/redis.log" --dir "$work" --pidfile "$work/redis.pid"
    for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
}

# User + system CPU time of a process so far, in clock ticks (getconf CLK_TCK a second).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
