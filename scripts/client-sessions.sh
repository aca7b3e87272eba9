#!/usr/bin/env bash
# Real Redis clients against `vicinity serve`: a redis-cli session and a redis-py session, each
# with GEOADD, GEOSEARCH, GEODIST, AUTH, NEARBY and USER.VISIBILITY, checking the replies; and curl
# on the HTTP API of the same process, which sees the line protocol's writes and the other way round.
# Installs redis-tools (apt) and redis-py (pip) when missing.
# Usage: VICINITY=.build/debug/vicinity scripts/client-sessions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
if ! command -v redis-cli >/dev/null || ! command -v redis-server >/dev/null; then
    source scripts/apt-common.sh
    apt_install redis-server redis-tools
fi
python3 -c 'import redis' 2>/dev/null || python3 -m pip install -q --break-system-packages redis >/dev/null 2>&1 \
    || python3 -m pip install -q redis >/dev/null
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
hport=$((port + 1))
source scripts/server-user.sh
serve_example "$work" "$bin" "$port" "$hport"

failed=0
expect() { # name, actual, expected
    if [[ "$2" == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: got [$2], expected [$3]"; failed=1; fi
}
cli() { redis-cli -p "$port" --no-auth-warning "$@"; }

# redis-cli
if [[ $(id -u) == 0 ]]; then expect "serve runs as $server_user" "$(ps -o user= -p "$server")" "$server_user"; fi
expect "redis-cli PING" "$(cli ping)" "PONG"
expect "redis-cli GEOADD needs AUTH" "$(cli geoadd shops 29.0158 41.0885 bakery 2>&1 | cut -c1-6)" "NOPERM"
expect "redis-cli AUTH + GEOADD" "$(cli -a "$admin" geoadd shops 29.0158 41.0885 bakery 29.0150 41.0880 tailor)" "2"
expect "redis-cli GEOSEARCH" "$(cli geosearch shops fromlonlat 29.015615 41.088154 byradius 200 m asc | tr '\n' ' ')" "bakery tailor "
# Redis 7.0.15 answers 87.0314 for the same two points.
expect "redis-cli GEODIST" "$(cli geodist shops bakery tailor)" "87.0314"
expect "redis-cli NEARBY" "$(cli nearby pharmacy 41.088154 29.015615 500 | head -1)" "omur"
token=$(cli -a "$admin" user.add ayse AT 41.0885 29.0158)
expect "redis-cli USER.VISIBILITY" "$(cli -a "$token" user.visibility ayse private)" "OK"
expect "redis-cli private user hidden" "$(cli nearby user 41.088154 29.015615 500)" ""

# curl on the HTTP API of the same process and store
http() { curl -s -o "$work/body" -w '%{http_code}' "$@"; }
api="http://127.0.0.1:$hport"
# 3 pharmacies and the 2 shops that GEOADD stored over the line protocol.
expect "curl healthz" "$(http "$api/healthz") $(jq -c 'del(.replication)' "$work/body")" '200 {"places":5,"status":"ok"}'
expect "curl healthz follows its database" \
    "$(jq -c '.replication | [.following, .store_reachable, .applied == .latest, .lag_seconds]' "$work/body")" \
    '[true,true,true,0]'
expect "serve names both protocols" "$(grep -c "on 127.0.0.1:$port (line protocol) and 127.0.0.1:$hport (HTTP)" \
    "$work/serve.log")" "1"
expect "curl nearby" "$(http "$api/v1/nearby?lat=41.088154&lon=29.015615") $(jq -r '.results[0].id' "$work/body")" "200 omur"
expect "curl private user hidden" "$(http "$api/v1/users/nearby?lat=41.088154&lon=29.015615") $(jq .total "$work/body")" "200 0"
expect "curl private user 404" "$(http "$api/v1/users/ayse") $(jq -r .detail "$work/body")" '404 no user "ayse" that you can see'
expect "curl own record" "$(http -H "Authorization: Bearer $token" "$api/v1/users/ayse") $(jq -r .visibility "$work/body")" "200 private"
expect "curl bad latitude" "$(http "$api/v1/nearby?lat=95&lon=29") $(jq -r .detail "$work/body")" \
    '400 invalid latitude "95": expected a number of degrees from -90 to 90'
expect "curl write needs a token" "$(http -X PUT -H 'Content-Type: application/json' -d '{"visibility":"public"}' \
    "$api/v1/users/ayse/visibility")" "401"
expect "curl PUT visibility" "$(http -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"visibility":"public"}' "$api/v1/users/ayse/visibility") $(jq -r .visibility "$work/body")" "200 public"
expect "redis-cli sees the HTTP write" "$(cli nearby user 41.088154 29.015615 500 | head -1)" "ayse"

# redis-py
python3 - "$port" "$admin" <<'PY' || failed=1
import sys, redis
port, admin = int(sys.argv[1]), sys.argv[2]
r = redis.Redis(port=port, decode_responses=True)
ok = lambda name, cond: print(("ok   " if cond else "FAIL ") + name) or cond
results = [ok("redis-py ping", r.ping())]
try:
    r.geoadd("cafes", (29.0158, 41.0885, "kahve"))
    results.append(ok("redis-py GEOADD without AUTH refused", False))
except redis.exceptions.ResponseError as error:
    # redis-py turns -NOPERM into NoPermissionError and drops the code word from the message.
    results.append(ok("redis-py GEOADD without AUTH refused", isinstance(error, redis.exceptions.NoPermissionError)))
admin_client = redis.Redis(port=port, password=admin, decode_responses=True)
results.append(ok("redis-py AUTH + GEOADD", admin_client.geoadd("cafes", (29.0158, 41.0885, "kahve", 29.0150, 41.0880, "cay")) == 2))
found = r.geosearch("cafes", longitude=29.015615, latitude=41.088154, radius=200, unit="m", sort="ASC", withdist=True)
results.append(ok("redis-py GEOSEARCH", [name for name, _ in found] == ["kahve", "cay"]))
results.append(ok("redis-py GEODIST", r.geodist("cafes", "kahve", "cay") == 87.0314))  # Redis 7.0.15's figure
near = r.execute_command("NEARBY", "pharmacy", "41.088154", "29.015615", "500")
# redis-py 8 speaks RESP3 by default, where distances are doubles (a bulk string in RESP2).
results.append(ok("redis-py NEARBY", near[0][0] == "omur" and near[0][2] == 131.9361))
token = admin_client.execute_command("USER.ADD", "mehmet", "AT", "41.0882", "29.0156")
user = redis.Redis(port=port, password=token, decode_responses=True)
results.append(ok("redis-py USER.VISIBILITY", user.execute_command("USER.VISIBILITY", "mehmet", "PRIVATE") == "OK"))
results.append(ok("redis-py private user hidden", all(hit[0] != "mehmet" for hit in r.execute_command("NEARBY", "user", "41.088154", "29.015615", "500"))))
sys.exit(0 if all(results) else 1)
PY

# redis-cli --pipe, Redis's mass-insert workflow: it ends its input with ECHO of 20 random bytes
# and waits for them back (they were once refused as not UTF-8: 30 s wait, exit 1).
{
    echo "AUTH $admin"
    for i in $(seq 500); do echo "GEOADD piped 29.0$((i % 97 + 100)) 41.0$((i % 89 + 100)) m$i"; done
} >"$work/pipe.txt"
piped=$(timeout 60 redis-cli -p "$port" --pipe <"$work/pipe.txt" 2>&1 | tail -1) && status=0 || status=$?
expect "redis-cli --pipe of 501 lines" "$status $piped" "0 errors: 0, replies: 501"
expect "redis-cli --pipe stored them" "$(cli zcard piped)" "500"
[[ $failed == 0 ]] && echo "client sessions: all checks passed"
exit $failed
