"""redis-py consuming watches from `vicinity serve`: through its pub/sub reader in RESP2
(`PubSub.subscribe("NEARBY …")`, `get_message`) and through RESP3 push messages on a connection
that keeps running commands (`WATCH NEARBY …` answered by the watch's id, events handed to the
parser's push handler between replies). Each session runs the same scripted moves by another
client and checks the events: enter, move, exit, and that a user turning private leaves with an
exit shaped exactly as moving out of range.

Usage: python3 scripts/watch_clients.py PORT ADMIN_TOKEN
Prints one "ok"/"FAIL" line per check; exits 1 when a check failed.
"""

import json
import sys
import time

import redis

PORT, ADMIN = int(sys.argv[1]), sys.argv[2]
CENTER = (41.087853, 29.014096)  # the Omur pharmacy of the Istanbul example
CHANNEL = f"NEARBY user {CENTER[0]} {CENTER[1]} 500"
failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


admin = redis.Redis(port=PORT, password=ADMIN, decode_responses=True)


def script(walker):
    """The moves another client makes, each with the event kinds a watcher must see. The walker is a
    `street` user (the server's default): a watcher sees the centre of their ~100 m cell, so a step
    inside the cell makes no event, and only a step into another cell a `move`."""
    return [
        (("USER.MOVE", walker, "41.0879", "29.0141"), ["enter"]),
        (("USER.MOVE", walker, "41.08791", "29.01411"), []),
        (("USER.MOVE", walker, "41.0899", "29.0163"), ["move"]),
        (("USER.MOVE", walker, "41.2", "29.2"), ["exit"]),
        (("USER.MOVE", walker, "41.0879", "29.0141"), ["enter"]),
        (("USER.VISIBILITY", walker, "PRIVATE"), ["exit"]),
        (("USER.VISIBILITY", walker, "PUBLIC"), ["enter"]),
        (("USER.DEL", walker), ["exit"]),
    ]


def run(tag, walker, start, next_events):
    """Adds `walker` far away, starts the watch (`start()` → its initial events), then makes the
    scripted moves, reading each one's events with `next_events(count)`; checks them (a step that
    must make no event is checked by the next step's events, which would include a stray one)."""
    admin.execute_command("USER.ADD", walker, "NAME", walker.capitalize(), "AT", "41.3", "29.3", "PUBLIC")
    initial = start()
    check(f"{tag} initial set is empty, then ready", [e["event"] for e in initial] == ["ready"], initial)
    exits = []
    reported = []
    for command, kinds in script(walker):
        admin.execute_command(*command)
        events = next_events(len(kinds)) if kinds else []
        got = [e["event"] for e in events]
        check(f"{tag} {' '.join(command[:1] + command[2:])} gives {kinds}", got == kinds, events)
        for event in events:
            check(f"{tag} {event['event']} names {walker}", event.get("id") == walker, event)
            if event["event"] in ("enter", "move"):
                check(f"{tag} {event['event']} is within 500 m", 0 <= event["distance"] <= 500, event)
                check(f"{tag} {event['event']} distance is rounded to 100 m", event["distance"] % 100 == 0, event)
                check(f"{tag} {event['event']} has a bearing", 0 <= event["bearing"] < 360, event)
                reported.append((event["lat"], event["lon"]))
        if got == ["exit"]:
            exits.append(events[0])
    check(
        f"{tag} the watcher never sees the exact position",
        reported and all(place not in ((41.0879, 29.0141), (41.0899, 29.0163)) for place in reported),
        reported,
    )
    if len(exits) == 3:
        moved_out, turned_private, removed = exits
        check(
            f"{tag} a private user's exit looks like moving out of range",
            set(moved_out) == set(turned_private) == set(removed),
            exits,
        )
        check(
            f"{tag} the private user's exit carries the place last reported",
            (turned_private["lat"], turned_private["lon"]) == reported[-1],
            turned_private,
        )
        positions = [e["position"] for e in exits]
        check(f"{tag} log positions grow", positions == sorted(positions) and len(set(positions)) == 3, positions)


def wait_for(collected, count, tag, seconds=5):
    deadline = time.monotonic() + seconds
    while len(collected) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    if len(collected) < count:
        check(f"{tag} events arrive within {seconds} s", False, collected)


def resp2_pubsub():
    """RESP2: redis-py's pub/sub reader, as `PubSub.listen()` users write it."""
    tag = "[redis-py RESP2 pubsub]"
    # redis-py 8 speaks RESP3 unless told otherwise.
    pubsub = redis.Redis(port=PORT, decode_responses=True, protocol=2).pubsub()

    def message(timeout=5):
        return pubsub.get_message(timeout=timeout)

    def start():
        pubsub.subscribe(CHANNEL)
        confirmation = message()
        check(
            f"{tag} subscribe is confirmed",
            confirmation == {"type": "subscribe", "pattern": None, "channel": CHANNEL, "data": 1},
            confirmation,
        )
        return next_events(1)

    def next_events(count):
        events = []
        deadline = time.monotonic() + 5
        while len(events) < count and time.monotonic() < deadline:
            found = message(timeout=0.5)
            if found and found["type"] == "message":
                check(f"{tag} message on the watch's channel", found["channel"] == CHANNEL, found)
                events.append(json.loads(found["data"]))
        return events

    run(tag, "pyrunner", start, next_events)
    pubsub.ping("hi")
    pong = message()
    check(f"{tag} ping in watch mode", pong == {"type": "pong", "pattern": None, "channel": None, "data": "hi"}, pong)
    pubsub.unsubscribe(CHANNEL)
    confirmation = message()
    check(f"{tag} unsubscribe is confirmed", confirmation and confirmation["type"] == "unsubscribe", confirmation)
    pubsub.close()


def resp3_pubsub():
    """RESP3: redis-py's pub/sub reader over push messages."""
    tag = "[redis-py RESP3 pubsub]"
    pubsub = redis.Redis(port=PORT, decode_responses=True, protocol=3).pubsub()

    def start():
        pubsub.subscribe(CHANNEL)
        confirmation = pubsub.get_message(timeout=5)
        check(f"{tag} subscribe is confirmed", confirmation and confirmation["type"] == "subscribe", confirmation)
        return next_events(1)

    def next_events(count):
        events = []
        deadline = time.monotonic() + 5
        while len(events) < count and time.monotonic() < deadline:
            found = pubsub.get_message(timeout=0.5)
            if found and found["type"] == "message":
                events.append(json.loads(found["data"]))
        return events

    run(tag, "pyroamer", start, next_events)
    pubsub.close()


def resp3_push():
    """RESP3: WATCH on a connection that keeps running commands; events reach the parser's push
    handler between replies."""
    tag = "[redis-py RESP3 push]"
    client = redis.Redis(port=PORT, decode_responses=True, protocol=3, single_connection_client=True)
    connection = client.connection
    pushes = []

    def command(*arguments):
        # The connection itself: redis-py reads WATCH and UNWATCH replies as OK or not.
        connection.send_command(*arguments)
        return connection.read_response()

    def handler(push):
        kind, channel, payload = push
        check(f"{tag} push is a message on the watch's channel", (kind, channel) == ("message", CHANNEL), push)
        pushes.append(json.loads(payload))

    connection._parser.set_pubsub_push_handler(handler)
    ids = []

    def start():
        ids.append(command("WATCH", *CHANNEL.split()))
        check(f"{tag} WATCH answers the watch's id", isinstance(ids[0], int) and ids[0] > 0, ids)
        return next_events(1)

    def next_events(count):
        # Commands keep running; the events come between their replies.
        wanted = len(pushes) + count
        deadline = time.monotonic() + 5
        while len(pushes) < wanted and time.monotonic() < deadline:
            hits = command("NEARBY", "pharmacy", CENTER[0], CENTER[1], "200")
            if hits and hits[0][0] != "omur":
                check(f"{tag} NEARBY still answers between pushes", False, hits)
            time.sleep(0.01)
        return pushes[wanted - count : wanted]

    run(tag, "pywalker", start, next_events)
    check(f"{tag} every event names the watch", all(e["watch"] == ids[0] for e in pushes), pushes)
    check(f"{tag} UNWATCH id", command("UNWATCH", ids[0]) == 1)
    check(f"{tag} PING after UNWATCH", command("PING") == "PONG")
    client.close()


for session in (resp2_pubsub, resp3_pubsub, resp3_push):
    try:
        session()
    except Exception as error:  # noqa: BLE001 - any exception fails the session
        check(session.__name__, False, f"{type(error).__name__}: {error}")

if failures:
    print(f"watch clients: {len(failures)} checks failed")
    sys.exit(1)
print("watch clients (redis-py): all checks passed")
