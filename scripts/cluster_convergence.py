"""Several `vicinity serve` nodes over one PostgreSQL: convergence, faults and privacy (issue 16).

Started by scripts/cluster-tests.sh, which installs and starts a throwaway PostgreSQL 15 and
passes its URL and data folder. This script starts the nodes itself (`vicinity serve` with
$VICINITY_POSTGRES), drives them over the line protocol with a small RESP client of its own, and
compares each node's memory (`NODE.STATE`, admin) with a direct export of the database
(`vicinity export --state --postgres`), byte for byte.

Scenarios (each prints ok/FAIL lines; the exit status is 1 when any failed):
  converge  8 writers spread over 3 nodes make --writes random writes (places set and removed,
            users added, moved, made public and private, removed; the admin token rotated half
            way); then every node's state equals the database's.
  faults    the same writes while one node is killed with SIGKILL and restarted, PostgreSQL is
            stopped for 10 s (reads keep being answered, writes are refused with -TRYAGAIN, no
            acknowledged write is lost and none refused is stored), and one node's connections
            are killed with pg_terminate_backend; then every node converges.
  privacy   a user made private on node A is in no reply of nodes B and C that waited for A's
            position (WAITPOS; HTTP Vicinity-Min-Position).
  unsafe    `converge` with VICINITY_UNSAFE_LOG_SEQUENCE=1 (positions from a plain sequence,
            tailed "greater than the last"): the check must find a node that differs.
  watch     a watcher connected by Server-Sent Events to node B (GET /v1/users/nearby/watch)
            sees the enter, move and exit caused by USER.ADD / USER.MOVE written on node A, each
            within WATCH_BOUND_SECONDS, with A's log position as the event's id.
"""

import argparse
import http.client
import json
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import threading
import time

from resp_client import Client, ReplyError, free_port
import urllib.request

failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition or not detail else f": {detail}"), flush=True)
    if not condition:
        failures.append(name)


class Node:
    def __init__(self, name, binary, url, work, extra_env=None):
        self.name, self.binary, self.url, self.work = name, binary, url, work
        self.extra_env = extra_env or {}
        self.line_port, self.http_port = free_port(), free_port()
        self.process = None

    def start(self):
        env = dict(os.environ, VICINITY_POSTGRES=self.url, **self.extra_env)
        log = open(os.path.join(self.work, f"{self.name}.log"), "ab")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--line-port", str(self.line_port), "--http-port", str(self.http_port)],
            env=env, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                Client(self.line_port, timeout=2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"{self.name} exited: see {self.name}.log")
                time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def vicinity(binary, url, *args, env=None):
    environment = dict(os.environ, VICINITY_POSTGRES=url, **(env or {}))
    done = subprocess.run([binary, *args], env=environment, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"vicinity {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


class Tokens:
    """The admin token the writers use; replaced once, half way."""

    def __init__(self, admin):
        self.lock = threading.Lock()
        self.admin = admin
        self.old = None

    def current(self):
        with self.lock:
            return self.admin


ALLOWED = ("no place", "no user", "already exists", "exists")


class Writer(threading.Thread):
    def __init__(self, index, node, tokens, writes, counter, total, rotate, pause=None, marks=None, hold=None):
        super().__init__(daemon=True)
        # While `hold` is set the writer keeps writing past its count: the faults happen during
        # writes however fast the writers are.
        self.hold = hold
        self.index, self.node, self.tokens, self.writes = index, node, tokens, writes
        self.counter, self.total, self.rotate = counter, total, rotate
        self.random = random.Random(1000 + index)
        self.errors = []
        self.acknowledged, self.refused = [], []
        self.tryagain = 0
        self.pause = pause
        self.marks = marks
        self.client, self.token = None, None

    def connect(self):
        while True:
            try:
                self.client = Client(self.node.line_port, timeout=15)
                self.token = self.tokens.current()
                self.client.call("AUTH", self.token)
                return
            except (OSError, ConnectionError, ReplyError):
                time.sleep(0.1)

    def command(self):
        r = self.random
        place = f"p{r.randrange(2000)}"
        user = f"u{r.randrange(300)}"
        lat, lon = round(r.uniform(40.9, 41.1), 6), round(r.uniform(28.9, 29.1), 6)
        roll = r.random()
        if roll < 0.35:
            return ("PLACE.SET", "pharmacy", place, lat, lon, "NAME", f"Eczane {place} {r.randrange(1000)}")
        if roll < 0.45:
            return ("PLACE.DEL", "pharmacy", place)
        if roll < 0.55:
            return ("USER.ADD", user, "NAME", f"User {user}", "AT", lat, lon)
        if roll < 0.80:
            return ("USER.MOVE", user, lat, lon) if r.random() < 0.9 else ("USER.MOVE", user, "NONE")
        if roll < 0.95:
            return ("USER.VISIBILITY", user, r.choice(["PUBLIC", "PRIVATE"]))
        return ("USER.DEL", user)

    def run(self):
        # A writer that dies fails the scenario instead of leaving fewer writes unnoticed.
        try:
            self.write_all()
        except Exception as error:  # noqa: BLE001 - reported as the scenario's failure
            self.errors.append(f"writer {self.index} stopped: {error!r}")

    def write_all(self):
        self.connect()
        n = -1
        while True:
            n += 1
            if n >= self.writes and not (self.hold and self.hold.is_set()):
                break
            with self.counter[1]:
                self.counter[0] += 1
                count = self.counter[0]
            if count == self.total // 2:
                self.rotate()
            marked = self.marks is not None and n % 5 == 0
            args = (("PLACE.SET", "marked", f"m{self.index}-{n}", 41, 29) if marked else self.command())
            while True:
                try:
                    if self.token != self.tokens.current():
                        self.token = self.tokens.current()
                        self.client.call("AUTH", self.token)
                    self.client.call(*args)
                    if marked:
                        self.acknowledged.append(args[2])
                    break
                except ReplyError as error:
                    text = str(error)
                    if text.startswith("TRYAGAIN"):
                        # Refused, nothing stored: move on, as a client that gives up would.
                        self.tryagain += 1
                        if marked:
                            self.refused.append(args[2])
                        time.sleep(0.05)
                        break
                    if "token" in text.lower() or text.startswith("WRONGPASS") or text.startswith("NOPERM"):
                        time.sleep(0.05)
                        self.token = None
                        continue
                    if not any(word in text for word in ALLOWED):
                        self.errors.append(f"{args[0]}: {text}")
                    break
                except (OSError, ConnectionError):
                    # The node died (faults): the write's outcome is unknown; it is not counted.
                    if marked:
                        pass
                    self.client.close()
                    time.sleep(0.2)
                    self.connect()
                    break


def run_writers(nodes, tokens, binary, url, total, writers=8, during=None, marks=False):
    counter = [0, threading.Lock()]

    def rotate():
        # As an operator would, tried again while PostgreSQL is down (faults): up to a minute.
        for attempt in range(120):
            try:
                new = vicinity(binary, url, "admin-token", "--rotate").strip()
                break
            except RuntimeError:
                if attempt == 119:
                    raise
                time.sleep(0.5)
        with tokens.lock:
            tokens.old, tokens.admin = tokens.admin, new

    hold = threading.Event()
    if during:
        hold.set()
    threads = [
        Writer(i, nodes[i % len(nodes)], tokens, total // writers, counter, total, rotate,
               marks=[] if marks else None, hold=hold)
        for i in range(writers)
    ]
    started = time.time()
    for thread in threads:
        thread.start()
    if during:
        during()
        hold.clear()
    for thread in threads:
        thread.join()
    seconds = time.time() - started
    errors = [error for thread in threads for error in thread.errors]
    done = counter[0]
    check(f"{done} writes from {writers} writers over {len(nodes)} nodes answered as expected", not errors,
          "; ".join(errors[:5]))
    print(f"info {done} writes in {seconds:.1f} s ({done / seconds:.0f} writes/s)", flush=True)
    return threads


def database_state(binary, url):
    return vicinity(binary, url, "export", "--state")


def node_state(node, token, position, timeout=60):
    client = Client(node.line_port, timeout=timeout + 5)
    try:
        client.call("AUTH", token)
        client.call("WAITPOS", position, int(timeout * 1000))
        return client.call("NODE.STATE")
    finally:
        client.close()


def compare(nodes, binary, url, tokens, label):
    state = database_state(binary, url)
    position = int(state.splitlines()[0].rsplit(" ", 1)[1])
    same = True
    for node in nodes:
        try:
            mine = node_state(node, tokens.current(), position)
        except (ReplyError, OSError, ConnectionError) as error:
            check(f"{label}: {node.name} reached position {position}", False, str(error))
            same = False
            continue
        equal = mine == state
        if not equal:
            ours, theirs = mine.splitlines(), state.splitlines()
            diff = [f"- {line}" for line in theirs if line not in set(ours)][:3]
            diff += [f"+ {line}" for line in ours if line not in set(theirs)][:3]
            print(f"info {node.name} differs from the database ({len(ours)} vs {len(theirs)} lines): "
                  + " | ".join(diff), flush=True)
        same = same and equal
    return same, position, state


def pg_ctl(args, action):
    subprocess.run([args.pause if action == "stop" else args.resume], check=True, stdout=subprocess.DEVNULL)


def psql(args, sql):
    command = ["psql", args.url, "-qAt", "-c", sql]
    return subprocess.run(command, capture_output=True, text=True, timeout=60).stdout


def read_works(node):
    client = Client(node.line_port, timeout=5)
    try:
        return isinstance(client.call("NEARBY", "pharmacy", 41, 29, 20000), list)
    finally:
        client.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["converge", "faults", "privacy", "unsafe", "watch"])
    parser.add_argument("--vicinity", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--writes", type=int, default=20000)
    parser.add_argument("--pause", help="a command that stops PostgreSQL (fast shutdown)")
    parser.add_argument("--resume", help="a command that starts it again")
    args = parser.parse_args()
    binary, url = args.vicinity, args.url

    vicinity(binary, url, "migrate")
    # A fresh database for each scenario: the tables emptied, a new admin token.
    psql(args, "TRUNCATE vicinity_place, vicinity_user, vicinity_setting, vicinity_change_log;"
               " UPDATE vicinity_log_head SET position = 0")
    tokens = Tokens(vicinity(binary, url, "admin-token", "--rotate").strip())
    # The broken numbering's window between taking a number and committing is widened to up to
    # 20 ms, as a slow transaction would (a write with many rows, a busy server), so that the check
    # sees the skip within a few thousand writes instead of by luck.
    extra = {"VICINITY_UNSAFE_LOG_SEQUENCE": "1", "VICINITY_UNSAFE_LOG_DELAY_MS": "20"} \
        if args.scenario == "unsafe" else {}
    nodes = [Node(f"node{i}", binary, url, args.work, extra) for i in range(3)]
    try:
        for node in nodes:
            node.start()
        if args.scenario in ("converge", "unsafe"):
            run_writers(nodes, tokens, binary, url, args.writes)
            same, position, state = compare(nodes, binary, url, tokens, args.scenario)
            lines = len(state.splitlines())
            if args.scenario == "converge":
                check(f"every node's state equals the database's at position {position} ({lines} lines)", same)
                for node in nodes:
                    client = Client(node.line_port)
                    try:
                        client.call("AUTH", tokens.old)
                        check(f"{node.name} refuses the rotated-out admin token", False)
                    except ReplyError:
                        check(f"{node.name} refuses the rotated-out admin token", True)
                    check(f"{node.name} takes the new admin token", client.call("AUTH", tokens.current()) == "OK")
                    client.close()
            else:
                check("with positions from a plain sequence, a node misses a change (the check detects it)",
                      not same)
        elif args.scenario == "faults":
            faults(args, nodes, tokens)
        elif args.scenario == "privacy":
            privacy(nodes, tokens)
        elif args.scenario == "watch":
            watch(nodes, tokens)
    finally:
        for node in nodes:
            node.stop()
    print(f"{len(failures)} failed" if failures else "all passed", flush=True)
    sys.exit(1 if failures else 0)


def faults(args, nodes, tokens):
    binary, url = args.vicinity, args.url
    reads_during_outage = []

    def during():
        time.sleep(3)
        nodes[1].kill()
        check("node1 killed with SIGKILL in the middle of the writes", nodes[1].process.returncode == -9)
        time.sleep(1)
        nodes[1].start()
        time.sleep(2)
        pg_ctl(args, "stop")
        stopped = time.time()
        while time.time() - stopped < 10:
            for node in (nodes[0], nodes[2]):
                try:
                    reads_during_outage.append(read_works(node))
                except (OSError, ConnectionError, ReplyError):
                    reads_during_outage.append(False)
            time.sleep(0.5)
        pg_ctl(args, "start")
        time.sleep(2)
        killed = psql(args, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE application_name LIKE 'vicinity%' AND application_name LIKE '%"
                            + str(nodes[2].process.pid) + "%'")
        check("pg_terminate_backend killed node2's connections", killed.strip() not in ("", "0"), killed)
        # The others write on after it (the writers hold on past their share until here): node2
        # must take in what they write once its connections are gone.
        time.sleep(3)

    threads = run_writers(nodes, tokens, binary, url, args.writes, during=during, marks=True)
    check("reads were answered while PostgreSQL was down", reads_during_outage and all(reads_during_outage),
          f"{reads_during_outage.count(False)} of {len(reads_during_outage)} failed")
    acknowledged = {mark for thread in threads for mark in thread.acknowledged}
    refused = {mark for thread in threads for mark in thread.refused}
    tryagain = sum(thread.tryagain for thread in threads)
    check(f"writes were refused with -TRYAGAIN while PostgreSQL was down ({tryagain})", tryagain > 0)
    stored = set(psql(args, "SELECT id FROM vicinity_place WHERE kind = 'marked'").split())
    check(f"no acknowledged write is lost ({len(acknowledged)} marked writes acknowledged)",
          acknowledged <= stored, f"{len(acknowledged - stored)} missing")
    check(f"no refused write is stored ({len(refused)} refused)", not (refused & stored),
          f"{len(refused & stored)} stored")
    same, position, state = compare(nodes, binary, url, tokens, "faults")
    check(f"after the faults every node's state equals the database's at position {position}", same)


def privacy(nodes, tokens):
    a, b, c = nodes
    admin = Client(a.line_port)
    admin.call("AUTH", tokens.current())
    for round_ in range(20):
        user = f"walker{round_}"
        admin.call("USER.ADD", user, "NAME", "Walker", "AT", 41.05, 29.05)
        admin.call("USER.VISIBILITY", user, "PRIVATE")
        position = admin.call("POSITION")[0]
        leaks = []
        for node in (b, c):
            client = Client(node.line_port)
            client.call("WAITPOS", position, 5000)
            nearby = client.call("NEARBY", "user", 41.05, 29.05, 100)
            if user in str(nearby):
                leaks.append(f"{node.name} NEARBY")
            try:
                client.call("USER.GET", user)
                leaks.append(f"{node.name} USER.GET")
            except ReplyError:
                pass
            client.close()
        request = urllib.request.Request(
            f"http://127.0.0.1:{c.http_port}/v1/users/nearby?lat=41.05&lon=29.05&radius=100",
            headers={"Vicinity-Min-Position": str(position)})
        with urllib.request.urlopen(request, timeout=10) as response:
            if user in response.read().decode():
                leaks.append("node2 HTTP")
        check(f"round {round_}: the user made private on node0 is in no reply of node1 and node2", not leaks,
              ", ".join(leaks))
    admin.close()


# How long a change written on one node may take to reach a watcher on another: the followers are
# woken by the database's notification (about 10 ms), and poll every second when one is missed.
WATCH_BOUND_SECONDS = 5.0


class EventStream:
    """A Server-Sent Events reader on its own thread: (event, id, data, arrival time) tuples."""

    def __init__(self, port, target):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.connect()
        # Kept: the connection lets go of its socket once the response owns it.
        self.socket = self.connection.sock
        self.connection.request("GET", target, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.events = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        event, ident, data = None, None, None
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("id: "):
                    ident = int(line[4:])
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                elif line == "" and event:
                    self.events.put((event, ident, data, time.time()))
                    event, ident, data = None, None, None
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # the connection closed (AttributeError: closed by `close` while being read)

    def next(self, timeout):
        return self.events.get(timeout=timeout)

    def close(self):
        # Shut down first: the reader's blocked read ends at once. Closing alone waits for the
        # read's lock, that is for the server's next event or heartbeat (15 s).
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()


def watch(nodes, tokens):
    a, b, _ = nodes
    admin = Client(a.line_port)
    admin.call("AUTH", tokens.current())
    stream = EventStream(b.http_port, "/v1/users/nearby/watch?lat=41.05&lon=29.05&radius=500")
    check("node1 answers the watch with 200", stream.status == 200, str(stream.status))
    try:
        event = stream.next(10)
        check("the watch starts with an empty snapshot (ready)", event[0] == "ready", str(event))
        steps = [
            ("enter", ("USER.ADD", "walker", "NAME", "Walker", "AT", 41.0505, 29.05)),
            # Another ~100 m street cell: a step inside one makes no event (people's privacy).
            ("move", ("USER.MOVE", "walker", 41.0525, 29.0515)),
            ("exit", ("USER.MOVE", "walker", 41.10, 29.05)),
        ]
        for kind, command in steps:
            sent = time.time()
            admin.call(*command)
            position = admin.call("POSITION")[0]
            try:
                event, ident, data, arrived = stream.next(WATCH_BOUND_SECONDS)
            except queue.Empty:
                check(f"{command[0]} on node0 reaches the watcher on node1 as {kind}", False, "no event in time")
                continue
            check(f"{command[0]} on node0 reaches the watcher on node1 as {kind} in "
                  f"{(arrived - sent) * 1000:.1f} ms",
                  (event, data.get("id"), ident, data.get("position")) == (kind, "walker", position, position)
                  and arrived - sent <= WATCH_BOUND_SECONDS, f"{event} {ident} {data}, position {position}")
    finally:
        stream.close()
        admin.close()


if __name__ == "__main__":
    main()
