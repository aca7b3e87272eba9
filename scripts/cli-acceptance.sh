#!/usr/bin/env bash
# End-to-end checks of the `vicinity` binary, as a user would type the commands.
# Usage: VICINITY=.build/debug/vicinity scripts/cli-acceptance.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${VICINITY:-.build/debug/vicinity}
passed=0
failed=0

check() { # name, command output, expected pattern (grep -E)
    if grep -Eq -- "$3" <<<"$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s\n  expected /%s/\n  got:\n%s\n' "$1" "$3" "$2" >&2
    fi
}

check_status() { # name, expected status, command...
    local name=$1 expected=$2
    shift 2
    "$@" >/dev/null 2>&1
    local status=$?
    if [[ $status == "$expected" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s: exit %s, expected %s\n' "$name" "$status" "$expected" >&2
    fi
}

istanbul=Data/pharmacies-istanbul-example.csv

# The original app's example: only Omur is within 500 m; all three within 700 m.
out=$("$bin" near 41.088154 29.015615 --radius 500 --data "$istanbul")
check "500 m lists Omur at 131.9 m" "$out" "131\.9 m .*Omur"
check "500 m lists one pharmacy" "$(grep -cE '^ +[0-9]+\. ' <<<"$out")" "^1$"
out=$("$bin" near 41.088154 29.015615 --radius 700 --data "$istanbul")
check "700 m: Omur" "$out" "131\.9 m .*Omur"
check "700 m: Emre" "$out" "662\.5 m .*Emre"
check "700 m: Arzu" "$out" "681\.9 m .*Arzu"
check "700 m: nearest first" "$(grep -Eo 'Omur|Emre|Arzu' <<<"$out" | tr '\n' ' ')" "^Omur Emre Arzu $"
check "bearing and compass point" "$("$bin" near 41.088154 29.015615 --radius 500 --data "$istanbul")" "WSW"

# JSON shapes.
out=$("$bin" near 41.088154 29.015615 --radius 700 --data "$istanbul" --json)
check "near --json is one line" "$(wc -l <<<"$out")" "^1$"
check "near --json query" "$out" '"query":\{"count":null,"lat":41\.088154,"limit":null,"lon":29\.015615,"model":"geodesic","radius_m":700\}'
check "near --json result" "$out" '"distance_m":131\.93'
out=$("$bin" dist 41.088154 29.015615 41.087853 29.014096 --json)
check "dist --json" "$out" '"geodesic_m":131\.936'
check "dist --json crs" "$out" '"crs":"EPSG:32635"'

# Shipped data, negative longitudes as values.
out=$("$bin" near 51.508039 -0.128069 --radius 500)
check "London near Trafalgar Square" "$out" "within 500 m"
out=$("$bin" nearest 51.530882 -0.123796 --count 3 --json)
check "nearest --json count" "$(grep -o '"id"' <<<"$out" | wc -l)" "^3$"

# Bad input: exit codes 64 (usage), 65 (data), 66 (unreadable file).
check_status "latitude out of range" 64 "$bin" near 91 0
check_status "latitude not a number" 64 "$bin" near abc 0
check_status "nan radius" 64 "$bin" near 41 29 --radius nan
check_status "unknown model" 64 "$bin" near 41 29 --model flat
check_status "missing file" 66 "$bin" near 41 29 --data /nonexistent.csv
bad=$(mktemp)
printf 'id,name,lat,lon\na,A,41.0,29.0\nb,B,95,29\n' >"$bad"
check_status "bad row" 65 "$bin" near 41 29 --data "$bad"
out=$("$bin" near 41 29 --data "$bad" 2>&1)
check "bad row message names file and line" "$out" "$bad:3: invalid latitude \"95\""
rm -f "$bad"

echo "acceptance: $passed passed, $failed failed"
[[ $failed == 0 ]]
