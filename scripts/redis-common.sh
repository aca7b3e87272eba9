# Shared by the benchmark scripts that compare with Redis (source it from the repository root):
# brings the release binaries (vicinity, vicinity-bench) up to date, installs redis-server and
# redis-cli with apt-get if missing, makes a work folder, and starts a Redis without persistence
# on a random port on 127.0.0.1 with `start_redis`. Everything is removed and Redis stopped on
# exit.
source scripts/release-build.sh
release_build vicinity vicinity-bench
bin=.build/release/vicinity
bench=.build/release/vicinity-bench
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

# Waits (up to 20 s) for the server with this process id to answer PING on a port; when it exits
# or never answers, prints what it wrote to its log and stops the script.
wait_for_server() { # port, pid, log file, name for the message
    for _ in $(seq 100); do
        redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
        kill -0 "$2" 2>/dev/null || break
        sleep 0.2
    done
    redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
    echo "$(basename "$0"): $4 did not answer on port $1:" >&2
    cat "$3" >&2
    exit 1
}

# Mean server time per call of the queries since the last CONFIG RESETSTAT (INFO commandstats:
# time executing the command, without reading the request or writing the reply).
server_time() { # port [redis-cli options]
    redis-cli -p "$@" info commandstats | tr -d '\r' | grep '^cmdstat_' | grep -vE '^cmdstat_(config|info|auth):' \
        | sed -E 's/.*:calls=([0-9]+),usec=([0-9]+),.*/\1 \2/' | awk '{ c += $1; u += $2 } END { printf "%.2f", c ? u / c : 0 }'
}

# User + system CPU time of a process so far, in clock ticks (getconf CLK_TCK a second).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# A wrk script that walks the request paths of a file, one a line: each wrk thread from its own
# starting place (pgbench draws its points at random).
write_wrk_walk() { # paths file, script file
    cat >"$2" <<LUA
local threads = 0
function setup(thread)
    thread:set("number", threads)
    threads = threads + 1
end
local paths = {}
local i = 0
function init(args)
    for line in io.lines("$1") do paths[#paths + 1] = line end
    i = (number or 0) * 997 % #paths
end
function request()
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end
LUA
}

# One wrk run (-t2, $connections connections, $seconds s) against the server with this process id:
# prints its requests a second and the server's CPU time a request (user + system, µs, from
# /proc); a run with any answer other than 2xx fails the script.
wrk_measure() { # pid, wrk arguments…
    local pid=$1 report before after
    shift
    before=$(cpu_ticks "$pid")
    report=$(wrk -t2 -c"$connections" -d"${seconds}s" "$@")
    after=$(cpu_ticks "$pid")
    if grep -q 'Non-2xx or 3xx responses' <<<"$report"; then
        echo "$(basename "$0"): wrk saw answers other than 2xx:" >&2
        grep 'Non-2xx' <<<"$report" >&2
        exit 1
    fi
    awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" '
        /requests in/ { n = $1 }
        /Requests\/sec:/ { r = $2 }
        END { printf "%s %.0f\n", r, t / hz * 1e6 / n }' <<<"$report"
}
