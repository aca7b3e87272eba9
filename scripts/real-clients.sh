#!/usr/bin/env bash
# The tools people already have, unchanged, against `vicinity serve`: redis-py (pinned, with both
# its pure-Python parser and hiredis, RESP2 and RESP3; scripts/real_clients.py) and redis-cli 7.0's
# operator modes: --pipe (100,000 GEOADDs), --stat, --scan, --bigkeys, --memkeys, --latency, and
# COMMAND DOCS. Installs redis-tools (apt), redis-py and hiredis (pip) when missing.
# Usage: VICINITY=.build/debug/vicinity scripts/real-clients.sh   (PIPE_LINES=1000 for a quick run)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
redis_py=8.1.0
hiredis=3.5.0
if ! command -v redis-cli >/dev/null; then
    source scripts/apt-common.sh
    apt_install redis-tools
fi
installed=$(python3 -c 'import redis, hiredis; print(redis.__version__, hiredis.__version__)' 2>/dev/null || true)
if [[ $installed != "$redis_py $hiredis" ]]; then
    python3 -m pip install -q --break-system-packages "redis==$redis_py" "hiredis==$hiredis" >/dev/null 2>&1 \
        || python3 -m pip install -q "redis==$redis_py" "hiredis==$hiredis" >/dev/null
fi
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
hport=$((port + 1))
source scripts/server-user.sh
serve_example "$work" "$bin" "$port" "$hport"

failed=0
expect() { # name, actual, expected
    if [[ "$2" == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: got [$2], expected [$3]"; failed=1; fi
}
matches() { # name, actual, extended regex
    if [[ "$2" =~ $3 ]]; then echo "ok   $1"; else echo "FAIL $1: got [$2], expected /$3/"; failed=1; fi
}
cli() { redis-cli -p "$port" --no-auth-warning "$@"; }

python3 scripts/real_clients.py "$port" "$admin" || failed=1

# redis-cli --pipe: 100,000 GEOADD lines after AUTH; the time is printed, not checked.
lines=${PIPE_LINES:-100000}
python3 - "$admin" "$lines" >"$work/pipe.txt" <<'PY'
import sys
print(f"AUTH {sys.argv[1]}")
for i in range(int(sys.argv[2])):
    print(f"GEOADD piped {29 + (i % 1000) / 10000:.4f} {41 + (i // 1000) / 10000:.4f} m{i}")
PY
started=$(date +%s.%N)
piped=$(timeout 600 redis-cli -p "$port" --pipe <"$work/pipe.txt" 2>&1 | tail -1) && status=0 || status=$?
seconds=$(echo "$(date +%s.%N) - $started" | bc)
expect "redis-cli --pipe of $((lines + 1)) lines" "$status $piped" "0 errors: 0, replies: $((lines + 1))"
printf 'info redis-cli --pipe took %.1f s (%.0f commands/s)\n' "$seconds" "$(echo "($lines + 1) / $seconds" | bc -l)"
expect "redis-cli --pipe stored them" "$(cli zcard piped)" "$lines"

# redis-cli --stat: a header and one line per second, no negative or missing numbers.
stat=$(timeout 3 stdbuf -oL redis-cli -p "$port" --stat -i 1 2>&1 || true)
matches "redis-cli --stat prints its header" "$stat" "keys +mem +clients +blocked +requests +connections"
rows=$(echo "$stat" | grep -E '^[0-9]' || true)
matches "redis-cli --stat prints rows" "$rows" "^[0-9]+ +[0-9.]+[BKMG] +[0-9]+ +0 +[0-9]+"
expect "redis-cli --stat has no negative numbers" "$(echo "$stat" | grep -c -- '-[0-9]' || true)" "0"

# clients-geo is real_clients.py's.
expect "redis-cli --scan" "$(cli --scan | sort | tr '\n' ' ')" "clients-geo pharmacy piped "
expect "redis-cli --scan --pattern" "$(cli --scan --pattern 'pi*' | tr '\n' ' ')" "piped "
bigkeys=$(cli --bigkeys 2>&1)
matches "redis-cli --bigkeys finds the biggest zset" "$bigkeys" "Biggest +zset found '?\"?piped\"?'? has $lines members"
matches "redis-cli --bigkeys sums up" "$bigkeys" "3 zsets with $((lines + 5)) members"
memkeys=$(cli --memkeys 2>&1)
matches "redis-cli --memkeys finds the biggest zset" "$memkeys" "Biggest +zset found '?\"?piped\"?'? has [0-9]+ bytes"
latency=$(timeout 10 redis-cli -p "$port" --latency -i 1 2>&1) && status=0 || status=$?
matches "redis-cli --latency ends with min max avg count" "$status $latency" "^0 [0-9]+ [0-9]+ [0-9.]+ [0-9]+$"
docs=$(cli command docs nearby)
matches "redis-cli COMMAND DOCS NEARBY" "$docs" "summary"
expect "redis-cli unknown command" "$(cli foo a b 2>&1)" "ERR unknown command 'foo', with args beginning with: 'a' 'b' "
[[ $failed == 0 ]] && echo "real clients: all checks passed"
exit $failed
