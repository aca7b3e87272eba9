#!/usr/bin/env bash
# Mass insert through `redis-cli --pipe`: LINES GEOADD commands (default 100,000), one member each,
# into a fresh database, on one connection. Prints the wall time, redis-cli's summary and ZCARD.
#
#   scripts/bench-pipe.sh .build/release/vicinity [LINES]
#
# Needs redis-tools. Every write is acknowledged only once durable, so the time is what the
# pipelined writes' commits take (with grouping, one commit for each group of queued writes).
set -euo pipefail
bin=$(realpath "$1")
lines=${2:-100000}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
admin=$("$bin" admin-token --db "$work/db.sqlite" 2>/dev/null)
source scripts/server-user.sh
serve_as_unprivileged "$work" "$bin"
"${as_server_user[@]}" "$serve_bin" serve --db "$work/db.sqlite" --line-port "$port" --no-http 2>"$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
python3 - "$lines" "$admin" >"$work/pipe.txt" <<'PY'
import sys
lines, admin = int(sys.argv[1]), sys.argv[2]
out = ["AUTH %s" % admin]
for i in range(lines):
    out.append("GEOADD piped %.6f %.6f m%d" % (28.5 + (i * 7919 % 100000) / 100000, 40.8 + (i * 104729 % 100000) / 200000, i))
sys.stdout.write("\n".join(out) + "\n")
PY
start=$(date +%s.%N)
summary=$(redis-cli -p "$port" --pipe --pipe-timeout 600 <"$work/pipe.txt" 2>&1 | tail -1)
end=$(date +%s.%N)
count=$(redis-cli -p "$port" --no-auth-warning -a "$admin" zcard piped)
commits=$(redis-cli -p "$port" info stats | tr -d '\r' | sed -n 's/^commits://p')
printf 'bench-pipe: %d GEOADD lines in %.2f s (%s); ZCARD %s; %s commits\n' "$lines" "$(echo "$end - $start" | bc)" \
    "$summary" "$count" "$commits"
