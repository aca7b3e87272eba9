#!/usr/bin/env bash
# libFuzzer on the request decoder (RESPRequestDecoder): builds Fuzz/ (a package of its own) with
# `-sanitize=fuzzer,address` into .build-fuzz/, writes a small seed corpus (RESP requests, inline
# lines with quotes and escapes, pipelines, a few malformed requests) and runs the fuzzer until it
# has tried `runs` inputs or `seconds` have passed. Each input goes to the decoder whole, in two
# reads, a byte at a time and without a channel; the four must agree, and only the decoder's own
# protocol errors may come out (Fuzz/Sources/DecoderFuzzer/main.swift says what is checked).
#
# Usage: scripts/fuzz-decoder.sh [runs] [seconds]    (defaults 1000000 and 3600)
# Exit status: 0 when the fuzzer found nothing, else libFuzzer's (the crashing input is written
# to .build-fuzz/crash-…, with the message and the input in hex on standard error).
# Needs: the Swift toolchain only (its clang runtime has libFuzzer; its lld links the program).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
seconds=${2:-3600}
scratch=$PWD/.build-fuzz
swift build --package-path Fuzz -c release --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address \
    >"$scratch.log" 2>&1 || { cat "$scratch.log"; exit 1; }
fuzzer=$scratch/release/DecoderFuzzer

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
seed() { printf "$2" >"$corpus/$1"; }
seed ping 'PING\r\n'
seed resp-echo '*2\r\n$4\r\nECHO\r\n$5\r\nhello\r\n'
seed resp-geosearch '*9\r\n$9\r\nGEOSEARCH\r\n$4\r\ncity\r\n$10\r\nFROMLONLAT\r\n$2\r\n29\r\n$2\r\n41\r\n$8\r\nBYRADIUS\r\n$3\r\n500\r\n$1\r\nm\r\n$3\r\nASC\r\n'
seed inline-quotes 'PLACE.SET pharmacy omur 41.087853 29.014096 NAME "Om\\"ur\\x41" ATTR note '"'"'it'"'"'\r\n'
seed pipeline 'PING\r\n*1\r\n$4\r\nPING\r\nNEARBY pharmacy 41.08 29.01 500\n*2\r\n$3\r\nGET\r\n$0\r\n\r\n'
seed empty-lines '\r\n\n \r\nPING\r\n'
seed bad-count '*abc\r\n'
seed bad-bulk '*1\r\n$-5\r\n'
seed bad-dollar '*2\r\n$1\r\na\r\n:1\r\n'
seed unbalanced 'ECHO "abc\r\n'
seed null-array '*-1\r\n*0\r\nPING\r\n'

echo "fuzzing RESPRequestDecoder: up to $runs inputs or $seconds s"
status=0
(cd "$scratch" && "$fuzzer" -runs="$runs" -max_total_time="$seconds" -print_final_stats=1 "$corpus") \
    >"$scratch/fuzz.log" 2>&1 || status=$?
grep -E '^Done|stat::number_of_executed_units|stat::peak_rss_mb|SUMMARY|ERROR|Fatal error|crash-' "$scratch/fuzz.log" || true
if [[ $status -ne 0 ]]; then
    echo "the fuzzer found a failure (exit $status); the whole log is $scratch/fuzz.log" >&2
    exit "$status"
fi
echo "no crash, no disagreement"
