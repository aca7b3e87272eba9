"""redis-py against `vicinity serve`: one scripted session per parser (pure Python, hiredis) and
protocol (RESP2, RESP3), checking the replies of the calls people's tools make.

Usage: python3 scripts/real_clients.py PORT ADMIN_TOKEN
Prints one "ok"/"FAIL"/"SKIP" line per check; exits 1 when a check failed. MULTI/EXEC checks are
skipped (not failed) while the server's COMMAND list has no MULTI, and must pass once it has.
"""

import sys
import threading

import redis
from redis._parsers import _HiredisParser, _RESP2Parser, _RESP3Parser

PORT, ADMIN = int(sys.argv[1]), sys.argv[2]
failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


def attempt(name, body):
    """Runs body(); an exception is a failed check named `name`."""
    try:
        body()
    except Exception as error:  # noqa: BLE001 - any exception is the check failing
        check(name, False, f"{type(error).__name__}: {error}")


def session(parser_name, parser_class, protocol):
    tag = f"[{parser_name} RESP{protocol}]"
    options = dict(port=PORT, decode_responses=True, protocol=protocol, parser_class=parser_class)

    def client(**extra):
        return redis.Redis(connection_pool=redis.ConnectionPool(**options, **extra))

    r = client()
    admin = client(password=ADMIN)
    check(f"{tag} parser in use", type(r.connection_pool.get_connection()._parser).__name__ == parser_class.__name__)
    check(f"{tag} ping", r.ping() is True)

    def command():
        table = r.command()
        check(f"{tag} command() has geoadd arity -5", table["geoadd"]["arity"] == -5, table.get("geoadd"))
        check(f"{tag} command() lists nearby and user.get", "nearby" in table and "user.get" in table)
        # "COMMAND DOCS" as one word: redis-py would parse the reply with COMMAND's callback otherwise.
        docs = r.execute_command("COMMAND DOCS", "NEARBY")
        flat = docs if isinstance(docs, dict) else dict(zip(docs[::2], docs[1::2]))
        check(f"{tag} COMMAND DOCS NEARBY has a summary", "nearby" in flat and "summary" in str(flat["nearby"]))
        check(f"{tag} command_count", r.command_count() == len(table))

    attempt(f"{tag} command()", command)

    def geo():
        added = admin.geoadd("clients-geo", (13.361389, 38.115556, "Palermo", 15.087269, 37.502669, "Catania"))
        check(f"{tag} geoadd", added in (0, 2), added)
        check(f"{tag} geodist", abs(r.geodist("clients-geo", "Palermo", "Catania", "km") - 166.2742) < 1e-3)
        position = r.geopos("clients-geo", "Palermo")[0]
        check(f"{tag} geopos", abs(position[0] - 13.361389) < 1e-5 and abs(position[1] - 38.115556) < 1e-5, position)
        found = r.geosearch("clients-geo", longitude=15, latitude=37, radius=200, unit="km", sort="ASC")
        check(f"{tag} geosearch", found == ["Catania", "Palermo"], found)
        near = r.georadius("clients-geo", 15, 37, 200, unit="km", withdist=True, sort="ASC")
        check(f"{tag} georadius withdist", [n for n, _ in near] == ["Catania", "Palermo"], near)
        check(f"{tag} georadius distance is a number", isinstance(near[0][1], float), near)

    attempt(f"{tag} geo helpers", geo)

    def nearby():
        rows = r.execute_command("NEARBY", "pharmacy", 41.088154, 29.015615, 500)
        check(f"{tag} NEARBY finds omur first", rows[0][0] == "omur", rows)
        distance, bearing = rows[0][2], rows[0][3]
        if protocol == 3:
            check(f"{tag} NEARBY distance and bearing are doubles", isinstance(distance, float)
                  and isinstance(bearing, float), rows[0])
        else:
            check(f"{tag} NEARBY distance is a string as in Redis", isinstance(distance, str), rows[0])
        record = r.execute_command("PLACE.GET", "pharmacy", "omur")
        if protocol == 3:
            check(f"{tag} PLACE.GET is a map", isinstance(record, dict) and record.get("id") == "omur", record)
        else:
            check(f"{tag} PLACE.GET is a flat array", isinstance(record, list) and record[:2] == ["id", "omur"], record)

    attempt(f"{tag} NEARBY", nearby)

    def keyspace():
        keys = set(r.scan_iter())
        check(f"{tag} scan_iter", {"pharmacy", "clients-geo"} <= keys, keys)
        check(f"{tag} scan_iter match", set(r.scan_iter(match="ph*", count=1)) == {"pharmacy"})
        check(f"{tag} keys", set(r.keys("*")) == keys)
        check(f"{tag} type", r.type("pharmacy") == "zset")
        check(f"{tag} memory_usage", (r.memory_usage("pharmacy") or 0) > 0)
        check(f"{tag} dbsize", r.dbsize() == len(keys))

    attempt(f"{tag} keyspace", keyspace)

    def clients():
        r.client_setname(f"real-{parser_name}-{protocol}")
        mine = r.client_info()
        check(f"{tag} client_info", mine.get("name") == f"real-{parser_name}-{protocol}", mine)
        listed = admin.client_list()
        check(f"{tag} client_list (admin) shows this client", any(str(c["id"]) == str(mine["id"]) for c in listed), listed)
        check(f"{tag} client_list without admin shows one", len(r.client_list()) == 1)
        check(f"{tag} client_id", r.client_id() == int(mine["id"]))

    attempt(f"{tag} clients", clients)

    def info():
        data = r.info()
        for field in ["used_memory", "connected_clients", "blocked_clients", "total_commands_processed",
                      "total_connections_received", "instantaneous_ops_per_sec"]:
            check(f"{tag} info() {field}", isinstance(data.get(field), int) and data[field] >= 0, data.get(field))
        check(f"{tag} info() db0 keys", data.get("db0", {}).get("keys", 0) >= 2, data.get("db0"))
        check(f"{tag} info('memory')", "used_memory_human" in r.info("memory"))

    attempt(f"{tag} info", info)

    def operator():
        admin.config_set("slowlog-log-slower-than", 0)
        admin.ping()
        entries = admin.slowlog_get(5)
        check(f"{tag} slowlog_get", len(entries) > 0 and "id" in entries[0] and "duration" in entries[0], entries)
        admin.config_set("slowlog-log-slower-than", 10000)
        monitor_client = client(password=ADMIN)
        seen = []
        with monitor_client.monitor() as monitor:
            def later():
                client(password=ADMIN).execute_command("ECHO", "monitored")
            threading.Timer(0.2, later).start()
            for event in monitor.listen():
                seen.append(event)
                if "ECHO" in event["command"]:
                    break
        check(f"{tag} monitor sees ECHO and redacts AUTH", 'ECHO monitored' in seen[-1]["command"]
              and all(ADMIN not in e["command"] for e in seen), seen)

    attempt(f"{tag} slowlog and monitor", operator)

    def errors():
        try:
            r.execute_command("FOO", "a", "b")
            check(f"{tag} unknown command error", False, "no error")
        except redis.exceptions.ResponseError as error:
            check(f"{tag} unknown command error", str(error) == "unknown command 'FOO', with args beginning with: 'a' 'b' ",
                  str(error))

    attempt(f"{tag} errors", errors)

    has_multi = "multi" in r.command()
    if not has_multi:
        print(f"SKIP {tag} pipeline()/transaction(): the server has no MULTI/EXEC yet (branch i15-tx)")
    else:
        def transactions():
            pipe = admin.pipeline()
            pipe.geoadd("clients-tx", (29.0, 41.0, "a"))
            pipe.zcard("clients-tx")
            check(f"{tag} pipeline() (MULTI/EXEC)", pipe.execute()[1] == 1)

            def body(p):
                count = p.zcard("clients-tx")
                p.multi()
                p.geoadd("clients-tx", (29.1, 41.0, f"b{count}"))
            admin.transaction(body, "clients-tx")
            check(f"{tag} transaction() (WATCH/MULTI/EXEC)", admin.zcard("clients-tx") == 2)
            admin.delete("clients-tx")

        attempt(f"{tag} transactions", transactions)

    plain = r.pipeline(transaction=False)
    plain.ping()
    plain.geodist("clients-geo", "Palermo", "Catania")
    plain.execute_command("NEARBY", "pharmacy", 41.088154, 29.015615, 500)
    results = plain.execute()
    check(f"{tag} pipeline(transaction=False)", results[0] is True and results[2][0][0] == "omur", results)


for parser_name, parser_class_by_protocol in [("python", {2: _RESP2Parser, 3: _RESP3Parser}),
                                              ("hiredis", {2: _HiredisParser, 3: _HiredisParser})]:
    for protocol in (2, 3):
        attempt(f"[{parser_name} RESP{protocol}] session",
                lambda: session(parser_name, parser_class_by_protocol[protocol], protocol))

print(f"real clients (redis-py {redis.__version__}): {len(failures)} failed")
sys.exit(1 if failures else 0)
