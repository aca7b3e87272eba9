#!/usr/bin/env python3
"""Redis GEO compatibility: the same commands to Vicinity and to redis-server 7.0, raw replies diffed.

Usage: scripts/redis-compat.py path/to/vicinity

Creates a fresh database in a temporary folder, makes an admin token (`vicinity admin-token`),
starts `vicinity serve --line-port P` (as nobody when run as root, as CI does) and `redis-server --port Q --save ''` on 127.0.0.1, AUTHs to
Vicinity with the admin token, sends every command of COMMANDS to both over raw sockets (RESP
arrays) and compares the reply bytes; then checks HELLO's replies and errors, switches both to
RESP3 and sends the queries again. Prints each difference and exits 1 if there is any, else
prints "redis-compat: N commands, 0 differences". Builds nothing; needs redis-server on PATH.
Python 3 standard library only.
"""

import os
import pwd
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def encode(arguments):
    out = b"*%d\r\n" % len(arguments)
    for argument in arguments:
        data = argument.encode() if isinstance(argument, str) else argument
        out += b"$%d\r\n%s\r\n" % (len(data), data)
    return out


class Connection:
    """A blocking RESP connection that returns each reply's raw bytes."""

    def __init__(self, port):
        deadline = time.time() + 20
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.buffer = b""

    def _line(self):
        while b"\r\n" not in self.buffer:
            self._fill()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line + b"\r\n"

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("connection closed")
        self.buffer += data

    def _exact(self, count):
        while len(self.buffer) < count:
            self._fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def reply(self):
        """One whole reply, RESP2 or RESP3 (after HELLO 3)."""
        line = self._line()
        kind, header = line[:1], line[1:-2]
        if kind in (b"$", b"=", b"!"):  # bulk string, verbatim string, blob error
            length = int(header)
            return line if length < 0 else line + self._exact(length + 2)
        if kind in (b"*", b"~", b">"):  # array, set, push
            count = int(header)
            return line + b"".join(self.reply() for _ in range(max(0, count)))
        if kind == b"%":  # map
            return line + b"".join(self.reply() for _ in range(2 * int(header)))
        if kind == b"|":  # attribute, then the reply it annotates
            return line + b"".join(self.reply() for _ in range(2 * int(header))) + self.reply()
        return line

    def call(self, arguments):
        self.sock.sendall(encode(arguments))
        return self.reply()


def f(value):
    return repr(round(value, 7))


def dataset():
    """GEOADD commands: two cities, edges near ±180 and ±85, duplicates at one position."""
    rng = random.Random(20240701)
    commands = []
    for city, (lon, lat) in (("ist", (29.0, 41.05)), ("pmo", (13.361389, 38.115556))):
        members = []
        for i in range(150):
            members += [f(lon + rng.uniform(-0.3, 0.3)), f(lat + rng.uniform(-0.2, 0.2)), "%s-%03d" % (city, i)]
        for start in range(0, len(members), 60):
            commands.append(["GEOADD", "shops"] + members[start:start + 60])
    commands.append(["GEOADD", "shops", "29.0", "41.05", "twin-b", "29.0", "41.05", "twin-a", "29.0", "41.05",
                     "twin-c", "29.0", "41.05", "café", "29.0", "41.05", "cafe"])
    edge = [
        ("180", "0", "east-edge"), ("-180", "0", "west-edge"), ("179.99999", "10", "east-near"),
        ("-179.99999", "10", "west-near"), ("179.9", "10.05", "east-in"), ("-179.9", "10.05", "west-in"),
        ("0", "85.05112878", "north-edge"), ("0", "-85.05112878", "south-edge"), ("10", "85.05", "north-near"),
        ("10", "-85.05", "south-near"), ("0", "0", "origin"), ("-0.000001", "-0.000001", "origin-sw"),
        ("120", "84.9", "arctic"), ("-120", "-84.9", "antarctic"),
    ]
    for lon, lat, member in edge:
        commands.append(["GEOADD", "edge", lon, lat, member])
    dups = []
    for i in range(8):
        dups += ["2.35", "48.85", "dup-%d" % (7 - i)]
    dups += ["2.3501", "48.8501", "near-1", "2.3499", "48.8499", "near-2"]
    commands.append(["GEOADD", "dups"] + dups)
    return commands


def queries():
    c = []
    # GEOADD options and replies.
    c += [
        ["GEOADD", "extra", "10", "20", "a"], ["GEOADD", "extra", "10", "20", "a"],
        ["GEOADD", "extra", "CH", "10", "20", "a", "11", "21", "b"], ["GEOADD", "extra", "CH", "10", "20.5", "a"],
        ["GEOADD", "extra", "NX", "1", "1", "a", "12", "22", "c"], ["GEOADD", "extra", "XX", "1", "1", "a", "13", "23", "d"],
        ["GEOADD", "extra", "XX", "CH", "2", "2", "a"], ["GEOADD", "extra", "NX", "CH", "2", "2", "a", "3", "3", "e"],
        ["GEOADD", "extra", "nx", "xx", "1", "1", "a"], ["GEOADD", "extra", "XX", "NX", "CH", "1", "1", "a"],
        ["GEOADD", "extra", "1", "1", "a", "2", "2", "a"], ["GEOADD", "extra", "ch", "5", "5", "f", "6", "6", "f"],
        ["GEOADD", "extra", "x", "1", "a"], ["GEOADD", "extra", "1", "y", "a"], ["GEOADD", "extra", "200", "1", "a"],
        ["GEOADD", "extra", "1", "86", "a"], ["GEOADD", "extra", "1", "-85.06", "a"], ["GEOADD", "extra", "1", "2", "a", "3"],
        ["GEOADD", "extra", "CH", "CH", "CH"], ["GEOADD", "extra", "1", "2"], ["GEOADD", "extra"], ["GEOADD"],
        ["GEOADD", "extra", "1e1", "0x10", "g"], ["GEOADD", "extra", " 1", "2", "h"], ["GEOADD", "extra", "1 ", "2", "h"],
        ["GEOADD", "extra", "nan", "2", "h"], ["GEOADD", "extra", "inf", "2", "h"], ["GEOADD", "extra", "1", "1e400", "h"],
        ["GEOADD", "extra", "GT", "1", "1", "a"], ["GEOADD", "extra", "-180", "-85.05112878", "corner"],
    ]
    # GEOPOS, GEOHASH, GEODIST.
    c += [
        ["GEOPOS", "shops", "ist-000", "pmo-010", "missing", "twin-a"], ["GEOPOS", "edge", "east-edge", "west-edge",
        "north-edge", "south-edge", "origin", "origin-sw"], ["GEOPOS", "nokey", "a"], ["GEOPOS", "shops"], ["GEOPOS"],
        ["GEOHASH", "shops", "ist-001", "pmo-001", "nope"], ["GEOHASH", "edge", "east-edge", "west-edge", "north-edge",
        "south-edge", "origin-sw"], ["GEOHASH", "nokey", "a", "b"], ["GEOHASH"],
        ["GEODIST", "shops", "ist-000", "pmo-000"], ["GEODIST", "shops", "ist-000", "pmo-000", "km"],
        ["GEODIST", "shops", "ist-000", "pmo-000", "MI"], ["GEODIST", "shops", "ist-000", "pmo-000", "Ft"],
        ["GEODIST", "shops", "twin-a", "twin-b"], ["GEODIST", "shops", "ist-000", "nope"],
        ["GEODIST", "nokey", "a", "b"], ["GEODIST", "shops", "ist-000", "pmo-000", "furlong"],
        ["GEODIST", "nokey", "a", "b", "furlong"], ["GEODIST", "shops", "a", "b", "km", "x"], ["GEODIST", "shops", "a"],
        ["GEODIST", "edge", "east-edge", "west-edge"], ["GEODIST", "edge", "north-edge", "south-edge", "km"],
        ["GEODIST", "edge", "east-near", "west-near", "m"],
    ]
    # GEOSEARCH: centres, shapes, units, orders, counts, WITH* combinations.
    withs = [[], ["WITHDIST"], ["WITHHASH"], ["WITHCOORD"], ["WITHDIST", "WITHHASH"], ["WITHDIST", "WITHCOORD"],
             ["WITHHASH", "WITHCOORD"], ["WITHCOORD", "WITHHASH", "WITHDIST"]]
    orders = [[], ["ASC"], ["DESC"]]
    for i, w in enumerate(withs):
        for j, o in enumerate(orders):
            radius = ["BYRADIUS", str(3 + i), "km"] if (i + j) % 2 == 0 else ["BYBOX", str(5 + i), str(4 + j), "km"]
            c.append(["GEOSEARCH", "shops", "FROMLONLAT", "29.01", "41.04"] + radius + o + w)
    c += [
        ["GEOSEARCH", "shops", "FROMMEMBER", "ist-042", "BYRADIUS", "5000", "m", "WITHDIST"],
        ["GEOSEARCH", "shops", "FROMMEMBER", "pmo-007", "BYBOX", "20", "10", "mi", "ASC", "WITHDIST"],
        ["GEOSEARCH", "shops", "FROMMEMBER", "pmo-007", "BYBOX", "30000", "20000", "ft", "DESC", "COUNT", "5"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "2", "km", "COUNT", "3"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "2", "km", "COUNT", "3", "ANY"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "20", "km", "COUNT", "4", "ANY", "ASC"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "20", "km", "COUNT", "4", "ANY", "DESC"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "20", "km", "DESC", "COUNT", "7", "WITHDIST"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "0", "m"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "0", "m", "WITHCOORD"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "29", "41.05", "BYBOX", "0", "0", "km", "WITHHASH"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "20", "40", "BYRADIUS", "2000", "km", "COUNT", "10", "DESC"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "20", "40", "BYRADIUS", "inf", "km", "COUNT", "3"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "20", "40", "BYBOX", "3000", "1500", "km", "COUNT", "5", "DESC"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "13.36", "38.11", "BYRADIUS", "12", "KM", "WITHDIST", "WITHCOORD"],
        ["GEOSEARCH", "shops", "frommember", "twin-a", "byradius", "1", "m", "asc", "withdist"],
        ["GEOSEARCH", "shops", "FROMMEMBER", "twin-a", "BYRADIUS", "1", "m"],
        ["GEOSEARCH", "shops", "FROMMEMBER", "twin-a", "BYRADIUS", "1", "m", "DESC"],
        ["GEOSEARCH", "shops", "FROMMEMBER", "twin-a", "BYRADIUS", "1", "m", "COUNT", "2"],
        ["GEOSEARCH", "dups", "FROMLONLAT", "2.35", "48.85", "BYRADIUS", "100", "m", "WITHDIST"],
        ["GEOSEARCH", "dups", "FROMLONLAT", "2.35", "48.85", "BYRADIUS", "100", "m", "ASC"],
        ["GEOSEARCH", "dups", "FROMLONLAT", "2.35", "48.85", "BYRADIUS", "100", "m", "DESC", "COUNT", "4"],
        ["GEOSEARCH", "dups", "FROMMEMBER", "dup-3", "BYBOX", "50", "50", "m", "ASC", "WITHHASH"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "180", "0", "BYRADIUS", "100", "km", "WITHCOORD"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "-180", "0", "BYRADIUS", "100", "km", "WITHCOORD"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "179.95", "10", "BYRADIUS", "50", "km", "ASC", "WITHDIST"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "-179.95", "10", "BYBOX", "200", "200", "km", "ASC", "WITHDIST"],
        ["GEOSEARCH", "edge", "FROMMEMBER", "north-near", "BYRADIUS", "500", "km", "WITHDIST"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "0", "85.05112878", "BYRADIUS", "1000", "km", "ASC"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "0", "-85", "BYBOX", "4000", "2000", "km", "ASC", "WITHCOORD"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "m", "WITHDIST", "WITHHASH", "WITHCOORD"],
        ["GEOSEARCH", "edge", "FROMLONLAT", "0", "0", "BYRADIUS", "20000", "km", "DESC", "COUNT", "4"],
    ]
    # Random searches around both cities, so that members near every edge of a shape are tested.
    rng = random.Random(7)
    for i in range(60):
        lon, lat = ((29.0, 41.05), (13.361389, 38.115556))[i % 2]
        unit = ("m", "km", "ft", "mi")[i % 4]
        per_unit = {"m": 1, "km": 1000, "ft": 0.3048, "mi": 1609.34}[unit]
        centre = ["FROMLONLAT", f(lon + rng.uniform(-0.3, 0.3)), f(lat + rng.uniform(-0.2, 0.2))]
        if i % 5 == 4:
            centre = ["FROMMEMBER", "%s-%03d" % (("ist", "pmo")[i % 2], rng.randrange(150))]
        size = lambda: repr(round(rng.uniform(200, 15000) / per_unit, 3))
        shape = ["BYRADIUS", size(), unit] if i % 3 else ["BYBOX", size(), size(), unit]
        extra = [["ASC"], ["DESC"], [], ["COUNT", str(1 + i % 9)], ["COUNT", str(1 + i % 5), "ANY"]][i % 5]
        c.append(["GEOSEARCH", "shops"] + centre + shape + extra + ["WITHDIST"] * (i % 2))
    # GEOSEARCH errors.
    c += [
        ["GEOSEARCH", "shops", "FROMMEMBER", "missing", "BYRADIUS", "1", "km"],
        ["GEOSEARCH", "nokey", "FROMMEMBER", "missing", "BYRADIUS", "1", "km"],
        ["GEOSEARCH", "nokey", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "WITHDIST"],
        ["GEOSEARCH", "nokey", "FROMMEMBER", "m", "BYRADIUS", "1", "km", "ANY"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "ANY"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "COUNT", "0"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "COUNT", "-3"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "COUNT", "x"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "COUNT", "01"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "COUNT"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "furlong"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "-1", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "abc", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "nan", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYBOX", "-1", "x", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYBOX", "x", "-1", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYBOX", "1", "-1", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYBOX", "1", "1", "parsec"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "181", "2", "BYRADIUS", "1", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "85.1", "BYRADIUS", "1", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "x", "2", "BYRADIUS", "1", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "FROMMEMBER", "ist-001", "BYRADIUS", "1", "km"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "BYBOX", "1", "1", "km"],
        ["GEOSEARCH", "shops", "BYRADIUS", "1", "km", "ASC", "WITHDIST"],
        ["geosearch", "shops", "FROMLONLAT", "1", "2", "ASC", "WITHDIST"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "STORE", "x"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "BOGUS"],
        ["GEOSEARCH", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1"], ["GEOSEARCH", "shops"], ["GEOSEARCH"],
    ]
    # GEORADIUS and GEORADIUSBYMEMBER with their _RO forms.
    c += [
        ["GEORADIUS", "shops", "29", "41.05", "3", "km"],
        ["GEORADIUS", "shops", "29", "41.05", "3", "km", "WITHDIST", "ASC"],
        ["GEORADIUS_RO", "shops", "29", "41.05", "3", "km", "WITHCOORD", "DESC", "COUNT", "5"],
        ["GEORADIUS_RO", "shops", "29", "41.05", "30", "km", "COUNT", "5", "ANY", "WITHHASH"],
        ["GEORADIUS", "shops", "13.36", "38.11", "10", "mi", "WITHDIST", "WITHHASH", "WITHCOORD"],
        ["GEORADIUS", "nokey", "13.36", "38.11", "10", "mi"], ["GEORADIUS", "shops", "13.36", "38.11", "-10", "mi"],
        ["GEORADIUS", "shops", "200", "38.11", "10", "mi"], ["GEORADIUS", "shops", "13", "38", "10", "yd"],
        ["GEORADIUS", "shops", "13", "38", "10", "km", "FROMLONLAT", "1", "2"],
        ["GEORADIUS_RO", "shops", "13", "38", "10", "km", "STORE", "x"], ["GEORADIUS", "shops", "13", "38", "10"],
        ["GEORADIUSBYMEMBER", "shops", "ist-010", "2", "km"],
        ["GEORADIUSBYMEMBER", "shops", "ist-010", "2", "km", "WITHDIST", "ASC", "COUNT", "3"],
        ["GEORADIUSBYMEMBER_RO", "shops", "pmo-010", "4000", "ft", "DESC", "WITHCOORD"],
        ["GEORADIUSBYMEMBER_RO", "shops", "missing", "4", "km"], ["GEORADIUSBYMEMBER", "nokey", "missing", "-4", "km"],
        ["GEORADIUSBYMEMBER", "nokey", "missing", "4", "km", "ANY"], ["GEORADIUSBYMEMBER", "shops", "ist-010", "x", "km"],
        ["GEORADIUSBYMEMBER", "dups", "dup-0", "10", "m", "WITHDIST"], ["GEORADIUSBYMEMBER", "shops", "ist-010", "2"],
        ["GEORADIUSBYMEMBER", "edge", "east-near", "200", "km", "ASC", "WITHDIST"],
    ]
    # Sorted-set reads over the geohash scores.
    c += [
        ["ZRANGE", "shops", "0", "9"], ["ZRANGE", "shops", "0", "4", "WITHSCORES"],
        ["ZRANGE", "shops", "-3", "-1", "withscores"], ["ZRANGE", "shops", "5", "2"], ["ZRANGE", "shops", "290", "400"],
        ["ZRANGE", "shops", "0", "3", "REV", "WITHSCORES"], ["ZRANGE", "dups", "0", "-1", "WITHSCORES"],
        ["ZRANGE", "dups", "1", "-2", "REV"], ["ZRANGE", "nokey", "0", "-1"], ["ZRANGE", "shops", "a", "1"],
        ["ZRANGE", "shops", "0", "1", "LIMIT", "0", "2"], ["ZRANGE", "shops", "0", "1", "BOGUS"], ["ZRANGE", "shops", "0"],
        ["ZRANGE", "shops", "-inf", "+inf", "BYSCORE", "LIMIT", "3", "4", "WITHSCORES"],
        ["ZRANGE", "shops", "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "0", "5"],
        ["ZRANGE", "shops", "(3000000000000000", "3500000000000000", "BYSCORE", "LIMIT", "0", "3"],
        ["ZRANGE", "shops", "x", "1", "BYSCORE"], ["ZRANGE", "shops", "0", "1", "BYSCORE", "LIMIT", "x", "1"],
        ["ZRANGE", "shops", "0", "-1", "REV", "REV"],
        ["ZRANGEBYSCORE", "shops", "-inf", "+inf", "LIMIT", "10", "5"],
        ["ZRANGEBYSCORE", "shops", "-inf", "+inf", "WITHSCORES", "LIMIT", "0", "3"],
        ["ZRANGEBYSCORE", "edge", "0", "inf", "WITHSCORES"], ["ZRANGEBYSCORE", "edge", "(0", "(1e20"],
        ["ZRANGEBYSCORE", "edge", "-inf", "+inf", "LIMIT", "-1", "3"],
        ["ZRANGEBYSCORE", "edge", "-inf", "+inf", "LIMIT", "2", "-1"], ["ZRANGEBYSCORE", "edge", "-inf", "+inf", "REV"],
        ["ZRANGEBYSCORE", "edge", "5", "1"], ["ZRANGEBYSCORE", "edge", "(1", "1"], ["ZRANGEBYSCORE", "edge", "nan", "1"],
        ["ZREVRANGEBYSCORE", "edge", "+inf", "-inf", "WITHSCORES", "LIMIT", "1", "4"],
        ["ZREVRANGE", "edge", "0", "3", "WITHSCORES"], ["ZREVRANGE", "edge", "0", "3", "LIMIT", "0", "1"],
        ["ZSCORE", "shops", "ist-010"], ["ZSCORE", "shops", "missing"], ["ZSCORE", "nokey", "a"], ["ZSCORE", "shops"],
        ["ZSCORE", "edge", "north-edge"], ["ZRANK", "shops", "ist-010"], ["ZRANK", "dups", "dup-3"],
        ["ZREVRANK", "dups", "dup-3"], ["ZRANK", "shops", "missing"], ["ZREVRANK", "edge", "origin"], ["ZRANK", "edge"],
        ["ZCOUNT", "shops", "-inf", "+inf"], ["ZCOUNT", "edge", "(0", "3000000000000000"], ["ZCOUNT", "shops", "a", "b"],
        ["ZCOUNT", "nokey", "0", "1"], ["ZCOUNT", "shops", "0"],
    ]
    # STORE, GEOSEARCHSTORE: the count, and what the destination key holds afterwards.
    c += [
        ["GEORADIUS", "shops", "29", "41.05", "3", "km", "STORE", "near-ist"],
        ["ZRANGE", "near-ist", "0", "-1", "WITHSCORES"],
        ["GEORADIUSBYMEMBER", "shops", "pmo-010", "5", "km", "COUNT", "3", "STORE", "near-ist"],
        ["ZRANGE", "near-ist", "0", "-1"],
        ["GEOSEARCHSTORE", "near-pmo", "shops", "FROMLONLAT", "13.36", "38.11", "BYBOX", "20", "20", "km", "COUNT", "7",
         "DESC"],
        ["ZCARD", "near-pmo"], ["ZRANGE", "near-pmo", "0", "-1"],
        ["GEOSEARCHSTORE", "near-pmo", "nokey", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km"], ["EXISTS", "near-pmo"],
        ["GEOSEARCHSTORE", "near-pmo", "shops", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "km", "WITHDIST"],
        ["GEORADIUS", "shops", "29", "41.05", "3", "km", "STORE", "x", "WITHCOORD"],
        ["GEOSEARCHSTORE", "near-ist", "shops", "FROMLONLAT", "29", "41.05", "BYRADIUS", "1", "m"],
        ["GEOSEARCHSTORE", "near-ist", "shops", "FROMLONLAT", "0", "-60", "BYRADIUS", "1", "m"],
        ["EXISTS", "near-ist"], ["GEOSEARCHSTORE", "near-ist", "shops", "FROMLONLAT", "29", "41.05"],
        ["GEOSEARCHSTORE", "near-ist"],
    ]
    # MULTI, EXEC, DISCARD, WATCH.
    c += [
        ["MULTI"], ["GEOADD", "tx", "1", "2", "a"], ["GEOADD", "tx", "1", "2", "a"], ["ZSCORE", "tx", "a"],
        ["GEODIST", "tx", "a", "a", "furlong"], ["EXEC"],
        ["MULTI"], ["NOSUCH"], ["ZCARD"], ["PING"], ["EXEC"], ["EXEC"], ["DISCARD"], ["MULTI"], ["MULTI"],
        ["WATCH", "tx"], ["DISCARD"], ["WATCH", "tx"], ["GEOADD", "tx", "3", "4", "b"], ["MULTI"], ["ZCARD", "tx"],
        ["EXEC"], ["WATCH", "tx"], ["MULTI"], ["ZCARD", "tx"], ["EXEC"], ["UNWATCH"], ["MULTI", "x"], ["DEL", "tx"],
    ]
    # ZCARD, EXISTS, TYPE, ZREM, DEL, and the state after them.
    c += [
        ["ZCARD", "shops"], ["ZCARD", "edge"], ["ZCARD", "nokey"], ["ZCARD"], ["ZCARD", "a", "b"],
        ["EXISTS", "shops"], ["EXISTS", "shops", "shops", "nokey", "edge"], ["EXISTS"],
        ["TYPE", "shops"], ["TYPE", "nokey"], ["TYPE"], ["TYPE", "a", "b"],
        ["ZREM", "shops", "ist-000", "ist-000", "missing", "pmo-000"], ["ZREM", "shops", "ist-000"],
        ["ZREM", "nokey", "a"], ["ZREM", "shops"], ["ZCARD", "shops"], ["GEOPOS", "shops", "ist-000", "ist-001"],
        ["ZREM", "extra", "a", "b", "c", "e", "f", "g", "corner"], ["ZCARD", "extra"], ["EXISTS", "extra"],
        ["TYPE", "extra"], ["DEL", "dups", "dups", "nokey"], ["DEL", "dups"], ["EXISTS", "dups"], ["DEL"],
        ["GEOSEARCH", "dups", "FROMLONLAT", "2.35", "48.85", "BYRADIUS", "100", "m"],
        ["GEOADD", "dups", "2.35", "48.85", "back"], ["GEOPOS", "dups", "back", "dup-1"], ["ZCARD", "dups"],
        ["DEL", "dups", "extra"],
    ]
    return c


def hello_checks(vicinity, redis):
    """HELLO answered as Redis answers it: errors byte for byte, and the same map (RESP3) or flat
    array (RESP2) with the same keys in the same order, where server, version and id are ours.
    Leaves both connections in RESP3. Returns the number of differences."""
    differences = 0

    def normalize(reply):
        # Only the values of server, version and id may differ.
        for name, value in ((b"server", rb"\$\d+\r\n[^\r]*"), (b"version", rb"\$\d+\r\n[^\r]*"), (b"id", rb":\d+")):
            reply = re.sub(rb"(\$%d\r\n%s\r\n)%s" % (len(name), name, value), rb"\1<%s>" % name, reply)
        return reply

    for command in (["HELLO", "4"], ["HELLO", "abc"], ["HELLO", "0"], ["HELLO", "3", "FOO"],
                    ["HELLO", "3", "SETNAME"], ["HELLO", "3", "AUTH", "x"], ["HELLO", "3", "setname", "a b"],
                    ["HELLO", "3", "setname", "a\x01"], ["HELLO", "2", "SETNAME", "compat"], ["HELLO", "2"], ["HELLO"],
                    ["HELLO", "3", "SetName", "compat-3"], ["HELLO"]):
        ours, theirs = vicinity.call(command), redis.call(command)
        if normalize(ours) != normalize(theirs):
            differences += 1
            print("DIFF %s\n  vicinity: %r\n  redis:    %r" % (" ".join(command), ours[:600], theirs[:600]))
    return differences


def unprivileged(vicinity, work):
    """The command line that runs `vicinity` as nobody when this script runs as root (CI does), as
    systemd's DynamicUser= would: the work folder, and the database in it, are given to nobody, and
    the binary is copied there when nobody cannot reach it where it was built."""
    if os.geteuid() != 0:
        return [vicinity]
    as_nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", "HOME=/nonexistent"]
    if subprocess.run(as_nobody + ["test", "-x", vicinity]).returncode != 0:
        shutil.copy(vicinity, os.path.join(work, "vicinity"))
        vicinity = os.path.join(work, "vicinity")
    subprocess.run(["chown", "-R", "nobody:nogroup", work], check=True)
    return as_nobody + [vicinity]


def start(vicinity, work):
    db = os.path.join(work, "compat.sqlite")
    env = dict(os.environ, VICINITY_DB=db)
    token = subprocess.run([vicinity, "admin-token", "--db", db], check=True, capture_output=True, text=True,
                           env=env).stdout.strip().split()[-1]
    ports = []
    for _ in range(2):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            ports.append(probe.getsockname()[1])
    server = subprocess.Popen(unprivileged(vicinity, work) + ["serve", "--db", db, "--line-port", str(ports[0]),
                                                              "--no-http"],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "vicinity.log"), "w"), env=env)
    redis = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(ports[1]), "--save", "",
                              "--appendonly", "no", "--dir", work], stdout=subprocess.DEVNULL)
    return token, ports, [server, redis]


def main():
    if len(sys.argv) != 2:
        print("usage: redis-compat.py path/to/vicinity", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="redis-compat-")
    processes = []
    try:
        token, ports, processes = start(sys.argv[1], work)
        vicinity, redis = Connection(ports[0]), Connection(ports[1])
        with open("/proc/%d/status" % processes[0].pid) as status:
            uid = int(next(line for line in status if line.startswith("Uid:")).split()[1])
        print("redis-compat: vicinity serve runs as %s" % pwd.getpwuid(uid).pw_name)
        auth = vicinity.call(["AUTH", token])
        if auth != b"+OK\r\n":
            print("redis-compat: AUTH to vicinity failed: %r" % auth)
            return 1
        differences = 0
        # The queries once more in RESP3 (HELLO 3), where GEOPOS and WITHCOORD answer doubles.
        passes = [("RESP2", dataset() + queries()), ("RESP3", queries())]
        count = 0
        for protocol, commands in passes:
            if protocol == "RESP3":
                differences += hello_checks(vicinity, redis)
            for command in commands:
                ours, theirs = vicinity.call(command), redis.call(command)
                count += 1
                if ours != theirs:
                    differences += 1
                    print("DIFF %s %s\n  vicinity: %r\n  redis:    %r"
                          % (protocol, " ".join(command), ours[:600], theirs[:600]))
        print("redis-compat: %d commands (RESP2 and RESP3) and HELLO, %d differences" % (count, differences))
        return 1 if differences else 0
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
