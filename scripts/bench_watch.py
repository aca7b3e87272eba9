"""The "Watches" figures of BENCHMARKS.md (issue 17) that need a server: started by
scripts/bench-watch.sh, which builds, exports the data and starts the servers; this script does
the timing.

  postgis   The fences of `vicinity-bench watches --export` in PostGIS, as a PostGIS user builds a
            geofence: a table of fences (geography, radius) with a GiST index, the city's points
            as the moving objects, an AFTER UPDATE trigger that compares each fence near the old
            or the new position (ST_DWithin, on the spheroid) and sends `NOTIFY fence` with
            seq,fence,id,enter|exit|move. The same moves, one UPDATE each (autocommit), on one
            connection; a listener in another process receives the notifications. Phases, each
            from the same starting positions: trigger on, unpaced (events compared with
            Vicinity's, server CPU and throughput); trigger off, unpaced (the UPDATE alone);
            trigger on, paced at --rate (move→notification latency).
  wire      Vicinity over the line protocol: --watchers connections, each `HELLO 3` and one
            `WATCH NEARBY user lat lon radius` (RESP3 pushes), and a writer that moves users
            (`USER.MOVE`, then `POSITION`) at --rate into a watch's circle: the time from the
            move's acknowledgement to each of its events at a watcher.

Times are CLOCK_MONOTONIC (`time.monotonic()`), the same clock in every process.
"""

import argparse
import json
import multiprocessing
import os
import random
import select
import socket
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu_seconds(root):
    """CPU of a process and all its children now alive (PostgreSQL's postmaster and backends)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        try:
            total += cpu_seconds(pid)
        except OSError:
            pass
        stack.extend(children.get(pid, []))
    return total


def machine_busy():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        return [dict(zip(header, line.rstrip("\n").split(","))) for line in f]


# ----------------------------------------------------------------------------------------------
# PostGIS


def pg_connect(args):
    import psycopg2

    connection = psycopg2.connect(host="127.0.0.1", port=args.pg_port, user=args.pg_user, dbname="postgres")
    connection.autocommit = True
    return connection


def listen(args, ready, out_path, expected):
    """A listener process: LISTEN fence, record each notification's arrival, until 3 s of silence
    after `expected` notifications (or 15 s of silence); writes them as lines "time payload"."""
    connection = pg_connect(args)
    cursor = connection.cursor()
    cursor.execute("LISTEN fence")
    ready.set()
    received = []
    last = time.monotonic()
    while time.monotonic() - last < (3 if len(received) >= expected else 15):
        if select.select([connection], [], [], 0.5) == ([], [], []):
            continue
        connection.poll()
        now = time.monotonic()
        while connection.notifies:
            received.append((now, connection.notifies.pop(0).payload))
            last = now
    with open(out_path, "w") as f:
        for when, payload in received:
            f.write(f"{when} {payload}\n")


def command_postgis(args):
    moves = read_csv(os.path.join(args.folder, "moves.csv"))
    events = read_csv(os.path.join(args.folder, "events.csv"))
    vicinity = {(int(e["seq"]), int(e["fence"]), e["id"], e["kind"]) for e in events}
    connection = pg_connect(args)
    cursor = connection.cursor()
    cursor.execute("SELECT pg_backend_pid()")
    backend = cursor.fetchone()[0]
    with open(args.pg_pidfile) as f:
        postmaster = int(f.readline())
    cursor.execute("PREPARE move (text, double precision, double precision, int) AS "
                   "UPDATE city SET geog = ST_SetSRID(ST_MakePoint($3, $2), 4326)::geography, seq = $4 WHERE id = $1")
    results = {"moves": len(moves), "vicinity_events": len(vicinity)}

    def restore():
        cursor.execute("ALTER TABLE city DISABLE TRIGGER city_fences")
        cursor.execute("UPDATE city SET geog = s.geog, seq = NULL FROM city_start AS s WHERE city.id = s.id")
        cursor.execute("VACUUM ANALYZE city")

    def run(name, trigger, rate, expected):
        restore()
        cursor.execute(f"ALTER TABLE city {'ENABLE' if trigger else 'DISABLE'} TRIGGER city_fences")
        out = os.path.join(args.work, f"notify-{name}.txt")
        ready = multiprocessing.Event()
        listener = multiprocessing.Process(target=listen, args=(args, ready, out, expected if trigger else 0))
        if trigger:
            listener.start()
            ready.wait()
        acks = {}
        busy0, total0 = machine_busy()
        server0, backend0 = tree_cpu_seconds(postmaster), cpu_seconds(backend)
        start = time.monotonic()
        for index, move in enumerate(moves):
            if rate:
                delay = start + index / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            sent = time.monotonic()
            cursor.execute("EXECUTE move (%s, %s, %s, %s)", (move["id"], float(move["lat"]), float(move["lon"]), int(move["seq"])))
            acks[int(move["seq"])] = (sent, time.monotonic())
        elapsed = time.monotonic() - start
        server, backend_cpu = tree_cpu_seconds(postmaster) - server0, cpu_seconds(backend) - backend0
        busy1, total1 = machine_busy()
        result = {
            "moves_per_s": round(len(moves) / elapsed, 1),
            "server_cpu_us_per_move": round(server / len(moves) * 1e6, 1),
            "backend_cpu_us_per_move": round(backend_cpu / len(moves) * 1e6, 1),
            "machine_busy": round((busy1 - busy0) / max(1, total1 - total0), 3),
        }
        if trigger:
            listener.join()
            received = []
            with open(out) as f:
                for line in f:
                    when, payload = line.split(" ", 1)
                    seq, fence, object_id, kind = payload.strip().split(",")
                    received.append((float(when), (int(seq), int(fence), object_id, kind)))
            after_ack = [(when - acks[e[0]][1]) * 1e3 for when, e in received]
            after_send = [(when - acks[e[0]][0]) * 1e3 for when, e in received]
            result.update({
                "notifications": len(received),
                "latency_after_ack_ms": [round(percentile(after_ack, p), 3) for p in (0.5, 0.99, 1.0)],
                "latency_after_send_ms": [round(percentile(after_send, p), 3) for p in (0.5, 0.99, 1.0)],
            })
            postgis = {e for _, e in received}
            by_kind = {}
            for e in postgis:
                by_kind[e[3]] = by_kind.get(e[3], 0) + 1
            result["by_kind"] = by_kind
            result["same_events_as_vicinity"] = postgis == vicinity
            if postgis != vicinity:
                only_p, only_v = sorted(postgis - vicinity), sorted(vicinity - postgis)
                result["only_postgis"] = [len(only_p), only_p[:5]]
                result["only_vicinity"] = [len(only_v), only_v[:5]]
        results[name] = result
        print(f"  {name}: {json.dumps(result)}", flush=True)

    vicinity_kinds = {}
    for e in vicinity:
        vicinity_kinds[e[3]] = vicinity_kinds.get(e[3], 0) + 1
    print(f"  vicinity's events for the same moves: {json.dumps(vicinity_kinds)}", flush=True)
    run("trigger-unpaced", True, 0, len(vicinity))
    run("no-trigger-unpaced", False, 0, 0)
    run("trigger-paced", True, args.rate, len(vicinity))
    restore()
    with open(os.path.join(args.work, "postgis.json"), "w") as f:
        json.dump(results, f)


# ----------------------------------------------------------------------------------------------
# Vicinity over the line protocol


class Resp3Parser:
    """Incremental RESP2/RESP3 parser: feed bytes, take whole frames as (type, value) where a
    push or array is a list of values, strings are str, numbers int/float."""

    def __init__(self):
        self.buffer = b""

    def feed(self, data):
        self.buffer += data
        frames = []
        while True:
            try:
                frame, end = self._parse(0)
            except IndexError:
                break
            if frame is None:
                break
            frames.append(frame)
            self.buffer = self.buffer[end:]
        return frames

    def _line(self, start):
        end = self.buffer.find(b"\r\n", start)
        if end < 0:
            raise IndexError
        return self.buffer[start + 1:end], end + 2

    def _parse(self, start):
        if start >= len(self.buffer):
            raise IndexError
        kind = self.buffer[start:start + 1]
        body, end = self._line(start)
        if kind in (b"+", b"-", b"("):
            return (kind, body.decode()), end
        if kind == b":":
            return (kind, int(body)), end
        if kind == b",":
            return (kind, float(body)), end
        if kind == b"#":
            return (kind, body == b"t"), end
        if kind == b"_":
            return (kind, None), end
        if kind in (b"$", b"=", b"!"):
            length = int(body)
            if length < 0:
                return (kind, None), end
            if end + length + 2 > len(self.buffer):
                raise IndexError
            return (kind, self.buffer[end:end + length].decode()), end + length + 2
        if kind in (b"*", b">", b"~", b"%", b"|"):
            count = int(body)
            if count < 0:
                return (kind, None), end
            if kind in (b"%", b"|"):
                count *= 2
            items = []
            for _ in range(count):
                (_, value), end = self._parse(end)
                items.append(value)
            if kind == b"|":  # an attribute: the frame that follows is the value
                return self._parse(end)
            return (kind, items), end
        raise ValueError(f"unexpected RESP frame {self.buffer[start:start + 40]!r}")


def encode(args):
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def flatten(value):
    if isinstance(value, list):
        for item in value:
            yield from flatten(item)
    else:
        yield value


def box_point(rng):
    return 40.80 + rng.random() * 0.5, 28.60 + rng.random() * 0.7


def offset(lat, lon, meters, bearing):
    import math
    return (lat + meters * math.cos(bearing) / 111_000,
            lon + meters * math.sin(bearing) / (111_000 * math.cos(math.radians(lat))))


def watchers_process(args, centres, ready, done, out_path):
    """Opens one connection a centre, each `HELLO 3` and one WATCH; then records every frame that
    arrives after its WATCH was answered, with its arrival time, until `done`."""
    connections = {}
    poller = select.epoll()
    for index, (lat, lon) in enumerate(centres):
        sock = socket.create_connection(("127.0.0.1", args.port), timeout=60)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        hello = ["HELLO", "3"] if args.protocol == 3 else ["PING"]
        sock.sendall(encode(hello) + encode(["WATCH", "NEARBY", "user", lat, lon, args.radius]))
        parser = Resp3Parser()
        replies = 0
        while replies < 2:
            for kind, value in parser.feed(sock.recv(65536)):
                if kind == b"-" or kind == b"!":
                    raise RuntimeError(f"watcher {index}: {value}")
                if kind != b">" or args.protocol == 2:
                    replies += 1
        sock.setblocking(False)
        connections[sock.fileno()] = (index, sock, parser)
        poller.register(sock.fileno(), select.EPOLLIN)
    ready.set()
    received = []
    while not done.is_set():
        for fd, _ in poller.poll(0.2):
            index, sock, parser = connections[fd]
            try:
                data = sock.recv(1 << 20)
            except BlockingIOError:
                continue
            now = time.monotonic()
            for kind, value in parser.feed(data):
                received.append((now, index, kind.decode(), list(flatten(value)) if isinstance(value, list) else [value]))
    with open(out_path, "w") as f:
        for item in received:
            f.write(json.dumps(item) + "\n")


def command_wire(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from resp_client import Client, ReplyError

    rng = random.Random(17)
    centres = [box_point(rng) for _ in range(args.watchers)]
    admin = Client(args.port)
    admin.call("AUTH", args.token)
    movers = [f"mover{i}" for i in range(args.movers)]
    for user in movers:
        admin.send_many([("USER.ADD", user, "NAME", f"Mover {user[5:]}")])
    for _ in movers:
        reply = admin.read()
        if isinstance(reply, ReplyError) and "exists" not in str(reply):
            raise reply
    out = os.path.join(args.work, "watchers.jsonl")
    ready, done = multiprocessing.Event(), multiprocessing.Event()
    started = time.monotonic()
    watchers = multiprocessing.Process(target=watchers_process, args=(args, centres, ready, done, out))
    watchers.start()
    if not ready.wait(600):
        raise RuntimeError("the watchers did not connect")
    connect_seconds = time.monotonic() - started
    with open(f"/proc/{args.server_pid}/status") as f:
        rss_kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
    busy0, total0 = machine_busy()
    server0 = cpu_seconds(args.server_pid)
    moves = []  # (user, position, sent, acknowledged, watcher)
    count = int(args.rate * args.seconds)
    start = time.monotonic()
    for index in range(count):
        delay = start + index / args.rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        watcher = rng.randrange(len(centres))
        lat, lon = offset(*centres[watcher], args.radius * 0.8 * rng.random(), rng.random() * 6.283185307179586)
        user = movers[index % len(movers)]
        sent = time.monotonic()
        admin.send_many([("USER.MOVE", user, f"{lat:.7f}", f"{lon:.7f}"), ("POSITION",)])
        reply = admin.read()
        acknowledged = time.monotonic()
        position = admin.read()
        if isinstance(reply, ReplyError):
            raise reply
        moves.append((user, int(position[0]), sent, acknowledged, watcher))
    elapsed = time.monotonic() - start
    server = cpu_seconds(args.server_pid) - server0
    busy1, total1 = machine_busy()
    time.sleep(1)
    done.set()
    watchers.join()
    by_position = {m[1]: m for m in moves}
    after_ack, after_send, kinds, unmatched, at_target = [], [], {}, 0, 0
    with open(out) as f:
        for line in f:
            when, watcher, frame, values = json.loads(line)
            # Each event is a pub/sub message ["message", channel, JSON object] (a push in RESP3).
            event = next((json.loads(v) for v in values if isinstance(v, str) and v.startswith("{")), None)
            if event is None or event.get("event") not in ("enter", "exit", "move"):
                continue
            kind = event["event"]
            move = by_position.get(event.get("position"))
            if move is None or move[0] != event.get("id"):
                unmatched += 1
                continue
            kinds[kind] = kinds.get(kind, 0) + 1
            at_target += watcher == move[4]
            after_ack.append((when - move[3]) * 1e3)
            after_send.append((when - move[2]) * 1e3)
    ack_rtt = [(m[3] - m[2]) * 1e3 for m in moves]
    result = {
        "watchers": args.watchers,
        "connect_s": round(connect_seconds, 2),
        "server_rss_mib_with_watchers": round(rss_kib / 1024, 1),
        "moves": len(moves),
        "moves_per_s": round(len(moves) / elapsed, 1),
        "events": len(after_ack),
        "events_by_kind": kinds,
        "events_at_the_target_watcher": at_target,
        "unmatched_frames": unmatched,
        "latency_after_ack_ms": [round(percentile(after_ack, p), 3) for p in (0.5, 0.9, 0.99, 1.0)],
        "latency_after_send_ms": [round(percentile(after_send, p), 3) for p in (0.5, 0.9, 0.99, 1.0)],
        "move_ack_rtt_ms": [round(percentile(ack_rtt, p), 3) for p in (0.5, 0.99)],
        "server_cpu_us_per_move": round(server / max(1, len(moves)) * 1e6, 1),
        "machine_busy": round((busy1 - busy0) / max(1, total1 - total0), 3),
    }
    print(f"  wire: {json.dumps(result)}", flush=True)
    with open(os.path.join(args.work, "wire.json"), "w") as f:
        json.dump(result, f)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("postgis")
    p.add_argument("--folder", required=True, help="the export of vicinity-bench watches")
    p.add_argument("--work", required=True)
    p.add_argument("--pg-port", type=int, required=True)
    p.add_argument("--pg-user", required=True)
    p.add_argument("--pg-pidfile", required=True)
    p.add_argument("--rate", type=float, default=200)
    w = sub.add_parser("wire")
    w.add_argument("--port", type=int, required=True)
    w.add_argument("--token", required=True)
    w.add_argument("--watchers", type=int, default=1000)
    w.add_argument("--radius", type=float, default=500)
    w.add_argument("--rate", type=float, default=200)
    w.add_argument("--seconds", type=float, default=20)
    w.add_argument("--movers", type=int, default=100)
    w.add_argument("--protocol", type=int, default=3, help="3: HELLO 3 and pushes; 2: RESP2 watch mode")
    w.add_argument("--server-pid", type=int, required=True)
    w.add_argument("--work", required=True)
    args = parser.parse_args()
    {"postgis": command_postgis, "wire": command_wire}[args.command](args)


if __name__ == "__main__":
    main()
