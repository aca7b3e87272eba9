"""Several `vicinity serve` nodes over one PostgreSQL: the figures of BENCHMARKS.md's "Several
nodes" section (issue 16). Started by scripts/bench-cluster.sh, which makes the data, runs the
imports and starts a throwaway PostgreSQL; this script does the timing.

  csv FILE N          writes N places (ids p0…p{N-1}) over a 60 × 75 km box around Istanbul.
  ready BIN ARGS…     starts `BIN serve ARGS…` and prints the seconds until it answers PING and
                      a NEARBY (the start to answering), then stops it.
  cluster             three nodes on --url: A and B take the writes, F only follows. Phases:
                        idle     F's CPU over a few seconds without writes (its polling floor);
                        query-1  redis-benchmark NEARBY against F, no writes;
                        load     --rate writes/s over A and B (pipelining writers), for --seconds:
                                 F's CPU over its applied changes, A→B / B→A replication delays,
                                 the machine's busy share;
                        query-2  redis-benchmark NEARBY against F with the same load running;
                        query-3  redis-benchmark NEARBY against F, no writes again.
                      Delay probes: `USER.MOVE` on one node (ack time), `POSITION` there, then
                      `WAITPOS position` on the other; the delay is the WAITPOS reply's time minus
                      the ack's (an upper bound: it includes the POSITION and WAITPOS round trips).
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

from resp_client import Client, ReplyError, free_port

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)


def machine_busy():
    """(busy, total) jiffies of all CPUs so far."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def wait_answering(port, process, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the node exited")
        try:
            client = Client(port, timeout=60)
        except OSError:
            time.sleep(0.01)
            continue
        client.call("PING")
        hits = client.call("NEARBY", "pharmacy", 41.0, 29.0, 500)
        client.close()
        return hits
    raise RuntimeError("the node did not start")


def command_ready(args):
    port = free_port()
    start = time.perf_counter()
    process = subprocess.Popen(
        [args.binary, "serve", "--line-port", str(port), "--no-http", "--idle-timeout", "0", *args.rest],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        hits = wait_answering(port, process)
        seconds = time.perf_counter() - start
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    if not hits:
        raise RuntimeError("NEARBY found nothing: the places were not loaded")
    print(f"{seconds:.3f}")


def command_csv(args):
    rng = random.Random(20261126)
    with open(args.file, "w") as out:
        out.write("id,name,lat,lon\n")
        lines = []
        for i in range(args.count):
            # 60 × 75 km around Istanbul: about 222 places a km², ~175 within 500 m.
            lat = 40.70 + rng.random() * 0.54
            lon = 28.60 + rng.random() * 0.89
            lines.append(f"p{i},Place {i},{lat:.6f},{lon:.6f}\n")
            if len(lines) == 100_000:
                out.write("".join(lines))
                lines.clear()
        out.write("".join(lines))


class Node:
    def __init__(self, name, binary, url, work):
        self.name, self.binary, self.url, self.work = name, binary, url, work
        self.port = free_port()
        self.process = None

    def start(self):
        env = dict(os.environ, VICINITY_POSTGRES=self.url)
        log = open(os.path.join(self.work, f"{self.name}.log"), "ab")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--line-port", str(self.port), "--no-http", "--idle-timeout", "0"],
            env=env, stdout=subprocess.DEVNULL, stderr=log)

    def wait(self):
        wait_answering(self.port, self.process)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def info(self):
        client = Client(self.port)
        text = client.call("INFO", "replication")
        client.close()
        return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


class Writer(threading.Thread):
    """Paced writes on one connection: at `rate` a second, sent in pipelines of what is due."""

    def __init__(self, index, node, token, rate, users, places, stop, batch=1):
        super().__init__(daemon=True)
        self.node, self.token, self.rate, self.batch = node, token, rate, batch
        self.users, self.places = users, places
        self.random = random.Random(index)
        self.stop = stop
        self.acknowledged = 0
        self.errors = 0
        self.last_error = None
        self.late = 0.0

    def command(self):
        r = self.random
        lat, lon = round(40.70 + r.random() * 0.54, 6), round(28.60 + r.random() * 0.89, 6)
        if r.random() < 0.7:
            return ("USER.MOVE", f"u{r.randrange(self.users)}", lat, lon)
        place = r.randrange(self.places)
        return ("PLACE.SET", "pharmacy", f"p{place}", lat, lon, "NAME", f"Place {place} v{r.randrange(1000)}")

    def run(self):
        client = Client(self.node.port)
        client.call("AUTH", self.token)
        start = time.perf_counter()
        sent = 0
        while not self.stop.is_set():
            now = time.perf_counter()
            due = int((now - start) * self.rate) - sent
            if due < self.batch:
                time.sleep(max(0.0, start + (sent + self.batch) / self.rate - now))
                continue
            self.late = max(self.late, due / self.rate)
            batch = [self.command() for _ in range(min(due, 200))]
            client.send_many(batch)
            for _ in batch:
                reply = client.read()
                if isinstance(reply, ReplyError):
                    self.errors += 1
                    self.last_error = str(reply)
                else:
                    self.acknowledged += 1
            sent += len(batch)
        client.close()


class Prober(threading.Thread):
    """Write on one node, wait for its position on the other; alternates A→B and B→A."""

    def __init__(self, a, b, token, interval, stop):
        super().__init__(daemon=True)
        self.pairs = []
        for source, target in ((a, b), (b, a)):
            writer = Client(source.port)
            writer.call("AUTH", token)
            self.pairs.append((f"{source.name}→{target.name}", writer, Client(target.port)))
        self.interval = interval
        self.stop = stop
        self.delays = []  # (time, direction, seconds)
        self.acknowledged = 0
        self.random = random.Random(7)

    def run(self):
        turn = 0
        while not self.stop.is_set():
            label, writer, reader = self.pairs[turn % 2]
            turn += 1
            lat, lon = round(41.0 + self.random.random() * 0.01, 6), round(29.0 + self.random.random() * 0.01, 6)
            writer.send_many([("USER.MOVE", f"probe{turn % 2}", lat, lon), ("POSITION",)])
            acked = writer.read()
            t0 = time.perf_counter()
            position = writer.read()[0]
            if isinstance(acked, ReplyError):
                raise acked
            self.acknowledged += 1
            reply = reader.call("WAITPOS", position, 10_000)
            t1 = time.perf_counter()
            assert reply >= position
            self.delays.append((t0, label, t1 - t0))
            time.sleep(max(0.0, self.interval - (time.perf_counter() - t0)))


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def redis_benchmark(port, requests, clients, pipeline):
    """NEARBY pharmacy 41.0 29.0 500 against `port`; returns (requests/s, node CPU µs a request)."""
    done = subprocess.run(
        ["redis-benchmark", "-p", str(port), "-c", str(clients), "-P", str(pipeline), "-n", str(requests), "-q",
         "NEARBY", "pharmacy", "41.0", "29.0", "500"],
        capture_output=True, text=True, timeout=600)
    text = done.stdout.replace("\r", "\n")
    rates = [float(word) for line in text.splitlines() if "requests per second" in line
             for word in [line.split("requests per second")[0].split()[-1]]]
    if not rates:
        raise RuntimeError(f"redis-benchmark: {done.stdout[-300:]} {done.stderr[-300:]}")
    return rates[-1]


def command_cluster(args):
    nodes = [Node(name, args.binary, args.url, args.work) for name in ("A", "B", "F")]
    a, b, f = nodes
    result = {}
    try:
        started = time.perf_counter()
        for node in nodes:
            node.start()
        for node in nodes:
            node.wait()
        result["nodes_ready_s"] = round(time.perf_counter() - started, 2)
        setup = Client(a.port)
        setup.call("AUTH", args.token)
        commands = [("USER.ADD", f"u{i}", "NAME", f"User {i}", "AT", 41.0, 29.0) for i in range(args.users)]
        commands += [("USER.ADD", f"probe{i}", "NAME", f"Probe {i}", "AT", 41.0, 29.0) for i in range(2)]
        for start in range(0, len(commands), 500):
            batch = commands[start:start + 500]
            setup.send_many(batch)
            for _ in batch:
                reply = setup.read()
                if isinstance(reply, ReplyError) and "exists" not in str(reply):
                    raise reply
        position = setup.call("POSITION")[0]
        setup.close()
        for node in (b, f):
            Client(node.port).call("WAITPOS", position, 60_000)

        def query(label):
            before = cpu_seconds(f.process.pid)
            rate = redis_benchmark(f.port, args.requests, args.clients, args.pipeline)
            used = cpu_seconds(f.process.pid) - before
            result[label] = {"requests_per_s": round(rate), "node_cpu_us_per_request": round(used / args.requests * 1e6, 1)}
            print(f"{label}: {rate:.0f} NEARBY/s", file=sys.stderr, flush=True)

        # F's CPU with nothing to apply: the polling floor, subtracted below.
        before, t0 = cpu_seconds(f.process.pid), time.perf_counter()
        time.sleep(args.idle_seconds)
        idle_cpu_per_s = (cpu_seconds(f.process.pid) - before) / (time.perf_counter() - t0)
        result["follower_idle_cpu_ms_per_s"] = round(idle_cpu_per_s * 1e3, 3)

        query("query_without_load_1")

        stop = threading.Event()
        probe_rate = 1 / args.probe_interval
        per_writer = (args.rate - probe_rate) / args.writers
        writers = [Writer(i, (a, b)[i % 2], args.token, per_writer, args.users, args.places, stop, args.batch)
                   for i in range(args.writers)]
        prober = Prober(a, b, args.token, args.probe_interval, stop)
        for thread in writers + [prober]:
            thread.start()
        time.sleep(args.warmup)

        def written():
            return sum(w.acknowledged for w in writers) + prober.acknowledged

        # Window 1: writes only. F's CPU over the changes it applied.
        w1_start, w1_written = time.perf_counter(), written()
        f_info, f_cpu = f.info(), cpu_seconds(f.process.pid)
        a_cpu, b_cpu = cpu_seconds(a.process.pid), cpu_seconds(b.process.pid)
        busy0 = machine_busy()
        time.sleep(args.seconds)
        busy1 = machine_busy()
        f_cpu = cpu_seconds(f.process.pid) - f_cpu
        a_cpu, b_cpu = cpu_seconds(a.process.pid) - a_cpu, cpu_seconds(b.process.pid) - b_cpu
        f_info2 = f.info()
        w1_seconds, w1_writes = time.perf_counter() - w1_start, written() - w1_written
        w1_end = time.perf_counter()
        followed = int(f_info2["followed_changes"]) - int(f_info["followed_changes"])
        result["load_window_s"] = round(w1_seconds, 1)
        result["writes_per_s"] = round(w1_writes / w1_seconds)
        result["follower_changes"] = followed
        result["follower_cpu_s"] = round(f_cpu, 3)
        result["follower_cpu_us_per_change"] = round(f_cpu / followed * 1e6, 2) if followed else None
        result["follower_cpu_us_per_change_above_idle"] = (
            round((f_cpu - idle_cpu_per_s * w1_seconds) / followed * 1e6, 2) if followed else None)
        result["writer_nodes_cpu_us_per_write"] = round((a_cpu + b_cpu) / w1_writes * 1e6, 1) if w1_writes else None
        result["machine_busy_share"] = round((busy1[0] - busy0[0]) / (busy1[1] - busy0[1]), 3)

        # Window 2: the same writes, and NEARBY against F.
        w2_start, w2_written = time.perf_counter(), written()
        query("query_with_load")
        w2_seconds, w2_writes = time.perf_counter() - w2_start, written() - w2_written
        result["writes_per_s_during_queries"] = round(w2_writes / w2_seconds)
        stop.set()
        for thread in writers + [prober]:
            thread.join(timeout=30)
        result["writer_errors"] = sum(w.errors for w in writers)
        errors = [w.last_error for w in writers if w.last_error]
        if errors:
            result["writer_last_error"] = errors[0]
        result["writer_most_behind_s"] = round(max(w.late for w in writers), 3)

        def delays(first, last):
            chosen = [d for t, _, d in prober.delays if first <= t < last]
            return {"probes": len(chosen), "p50_ms": round(percentile(chosen, 50) * 1e3, 2),
                    "p99_ms": round(percentile(chosen, 99) * 1e3, 2),
                    "max_ms": round(max(chosen) * 1e3, 2) if chosen else None}

        result["delay_writes_only"] = delays(w1_start, w1_end)
        result["delay_with_queries"] = delays(w2_start, float("inf"))
        for label in ("A→B", "B→A"):
            chosen = [d for t, l, d in prober.delays if l == label and w1_start <= t < w1_end]
            result[f"delay_writes_only_{label}_p99_ms"] = round(percentile(chosen, 99) * 1e3, 2)

        time.sleep(2)
        query("query_without_load_2")
        without = (result["query_without_load_1"]["requests_per_s"] + result["query_without_load_2"]["requests_per_s"]) / 2
        result["query_with_over_without"] = round(result["query_with_load"]["requests_per_s"] / without, 3)
    finally:
        for node in nodes:
            node.stop()
    print(json.dumps(result, indent=1, ensure_ascii=False))


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    csv = commands.add_parser("csv")
    csv.add_argument("file")
    csv.add_argument("count", type=int)
    ready = commands.add_parser("ready")
    ready.add_argument("binary")
    ready.add_argument("rest", nargs=argparse.REMAINDER)
    cluster = commands.add_parser("cluster")
    cluster.add_argument("--vicinity", dest="binary", required=True)
    cluster.add_argument("--url", required=True)
    cluster.add_argument("--work", required=True)
    cluster.add_argument("--token", required=True)
    cluster.add_argument("--rate", type=float, default=1000)
    cluster.add_argument("--writers", type=int, default=8)
    cluster.add_argument("--seconds", type=float, default=30)
    cluster.add_argument("--warmup", type=float, default=3)
    cluster.add_argument("--idle-seconds", type=float, default=5)
    cluster.add_argument("--probe-interval", type=float, default=0.02)
    cluster.add_argument("--batch", type=int, default=1, help="writes a writer sends at once (pipeline depth)")
    cluster.add_argument("--users", type=int, default=10_000)
    cluster.add_argument("--places", type=int, default=1_000_000)
    cluster.add_argument("--requests", type=int, default=100_000)
    cluster.add_argument("--clients", type=int, default=50)
    cluster.add_argument("--pipeline", type=int, default=1)
    args = parser.parse_args()
    {"csv": command_csv, "ready": command_ready, "cluster": command_cluster}[args.command](args)


if __name__ == "__main__":
    main()
