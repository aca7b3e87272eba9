#!/usr/bin/env bash
# Does this machine keep a core's L2 cache across a short idle? A server answering one call at a
# time sleeps between calls; on a virtual machine whose vCPU halts when idle, the host may give
# the physical core to other work, and the next call then starts with its code and data gone
# from L2. This probe measures it without any server: 2,000 times, sleep for a while, then time a
# loop of register arithmetic (the clock speed: it does not move with the caches) and a read of
# a 512 KiB buffer read before (one load a 64-byte line: fast while the buffer is in L2).
#
# Usage: scripts/idle-cache-probe.sh [CPU]   (pinned to CPU 0 unless told; needs clang or cc)
# Prints, for sleeps of 0, 20, 100 and 1000 µs, the mean time of each part after the sleep, and
# the cpuidle driver and its halt-polling window when the kernel has them (`haltpoll`, the
# driver of KVM guests, polls up to guest_halt_poll_ns before halting; 0 halts at once).
set -euo pipefail
cpu=${1:-0}
compiler=$(command -v clang || command -v cc || true)
[[ -n $compiler ]] || { echo "$(basename "$0"): needs clang or cc" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/probe.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    long sleep_us = atol(argv[1]);
    size_t size = 512 * 1024;
    volatile unsigned char *buffer = malloc(size);
    for (size_t i = 0; i < size; i++) buffer[i] = (unsigned char)i;
    double arithmetic = 0, reading = 0;
    unsigned long sink = 0;
    int rounds = 2000;
    for (int round = 0; round < rounds; round++) {
        if (sleep_us > 0) {
            struct timespec pause = {0, sleep_us * 1000};
            nanosleep(&pause, NULL);
        }
        double start = now_ns();
        /* volatile: one multiply-add after another, as written, whatever the compiler. */
        volatile unsigned long x = (unsigned long)round;
        for (int i = 0; i < 20000; i++) x = x * 6364136223846793005UL + 1;
        sink += x;
        double middle = now_ns();
        for (size_t i = 0; i < size; i += 64) sink += buffer[i];
        double end = now_ns();
        arithmetic += middle - start;
        reading += end - middle;
    }
    printf("  sleep %4ld µs: arithmetic %5.1f µs, reading 512 KiB %5.1f µs%s\n", sleep_us,
           arithmetic / rounds / 1000, reading / rounds / 1000, sink == 1 ? " " : "");
    return 0;
}
C
"$compiler" -O2 -o "$work/probe" "$work/probe.c"
driver=/sys/devices/system/cpu/cpuidle/current_driver
poll=/sys/module/haltpoll/parameters/guest_halt_poll_ns
echo "cpuidle driver: $(cat "$driver" 2>/dev/null || echo unknown)" \
    "$( [[ -r $poll ]] && echo "(guest_halt_poll_ns $(cat "$poll"))")"
echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), pinned to CPU $cpu"
for sleep_us in 0 20 100 1000; do
    taskset -c "$cpu" "$work/probe" "$sleep_us"
done
