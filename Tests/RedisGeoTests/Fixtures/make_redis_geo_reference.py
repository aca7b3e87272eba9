#!/usr/bin/env python3
"""Writes redis-geo-reference.json: what a real redis-server answers to GEO commands.

Starts `redis-server` (7.0.15 when the fixture was made) on 127.0.0.1 on a free port with
persistence off, sends raw RESP2 and records the replies byte for byte. The random choices are
seeded, so the same server produces the same file.

Sections:
  points     GEOADD of one point; its ZSCORE, GEOPOS and GEOHASH replies
  invalid    GEOADD outside the limits and the error reply
  zadd       scores written by ZADD (not by GEOADD) and their GEOPOS and GEOHASH replies
  distances  GEODIST between two points in each unit (units spelled in mixed case)
  members    the members of the search key (input longitude and latitude text)
  searches   GEOSEARCH argument lists and the raw reply
  errors     argument errors and the raw reply

Usage: python3 make_redis_geo_reference.py [output.json]
"""

import json
import math
import os
import random
import socket
import subprocess
import sys
import time

SEED = 20240607
LAT_LIMIT = 85.05112878
EARTH_RADIUS = 6372797.560856  # Redis geohash_helper.c EARTH_RADIUS_IN_METERS
D_R = math.pi / 180.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, port):
        for _ in range(100):
            try:
                self.sock = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")
        self.file = self.sock.makefile("rb")

    def call(self, *args):
        out = b"*%d\r\n" % len(args)
        for arg in args:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            out += b"$%d\r\n%s\r\n" % (len(data), data)
        self.sock.sendall(out)
        return self.read().decode()

    def read(self):
        line = self.file.readline()
        kind = line[:1]
        if kind in (b"+", b"-", b":"):
            return line
        if kind == b"$":
            length = int(line[1:])
            return line if length < 0 else line + self.file.read(length + 2)
        if kind == b"*":
            reply = line
            for _ in range(max(int(line[1:]), 0)):
                reply += self.read()
            return reply
        raise RuntimeError("unexpected reply %r" % line)


def text(value):
    """The shortest text that reads back as the same double (what we send and what Swift parses)."""
    return repr(float(value))


def redis_distance(lon1, lat1, lon2, lat2):
    """Redis 7.0 geohashGetDistance, used only to aim radii exactly at members."""
    lon1r, lon2r = lon1 * D_R, lon2 * D_R
    v = math.sin((lon2r - lon1r) / 2)
    if v == 0.0:
        return EARTH_RADIUS * abs(lat2 * D_R - lat1 * D_R)
    lat1r, lat2r = lat1 * D_R, lat2 * D_R
    u = math.sin((lat2r - lat1r) / 2)
    a = u * u + math.cos(lat1r) * math.cos(lat2r) * v * v
    return 2.0 * EARTH_RADIUS * math.asin(math.sqrt(a))


def edge_points(rnd):
    """Positions on and next to the limits and zero."""
    lons = [180.0, -180.0, 179.99999999, -179.99999999, 179.9999, -179.9999, 0.0, -0.0, 1e-9, -1e-9,
            1e-5, -1e-5, 90.0, -90.0, 179.5, -179.5]
    lats = [LAT_LIMIT, -LAT_LIMIT, 85.051128, -85.051128, 85.05112877, -85.05112877, 0.0, -0.0,
            1e-9, -1e-9, 1e-5, -1e-5, 66.0, -66.0, 80.0, -80.0]
    points = [(lon, lat) for lon in lons for lat in lats]
    for _ in range(200):
        points.append((rnd.choice(lons) + rnd.uniform(-1e-6, 1e-6) * rnd.choice([0, 1]),
                       rnd.choice(lats) + rnd.uniform(-1e-6, 1e-6) * rnd.choice([0, 1])))
    return [(lon, lat) for lon, lat in points if abs(lon) <= 180 and abs(lat) <= LAT_LIMIT]


def random_points(rnd, count):
    points = []
    for i in range(count):
        kind = i % 5
        if kind == 0:
            points.append((rnd.uniform(-180, 180), rnd.uniform(-LAT_LIMIT, LAT_LIMIT)))
        elif kind == 1:  # few decimals, as people type them
            points.append((round(rnd.uniform(-180, 180), rnd.randint(0, 6)),
                           round(rnd.uniform(-85, 85), rnd.randint(0, 6))))
        elif kind == 2:  # near the antimeridian
            points.append((rnd.choice([1, -1]) * (180 - 10 ** rnd.uniform(-9, 0)), rnd.uniform(-85, 85)))
        elif kind == 3:  # near the latitude limits
            points.append((rnd.uniform(-180, 180), rnd.choice([1, -1]) * (LAT_LIMIT - 10 ** rnd.uniform(-9, 0))))
        else:  # near zero
            points.append((rnd.choice([1, -1]) * 10 ** rnd.uniform(-12, 0),
                           rnd.choice([1, -1]) * 10 ** rnd.uniform(-12, 0)))
    return points


def search_members(rnd):
    """A few hundred members in clusters (Sicily, the antimeridian, the far north, zero) with
    duplicated positions (ties in distance) and some scattered ones."""
    members = []
    clusters = [(13.361389, 38.115556, 1.5), (179.95, -16.5, 0.4), (-179.9, 65.0, 0.5), (0.0, 0.0, 0.05),
                (20.0, 84.9, 0.2), (-73.98, 40.75, 0.02)]
    for cx, cy, spread in clusters:
        for _ in range(55):
            lon = cx + rnd.uniform(-spread, spread)
            lat = max(-LAT_LIMIT, min(LAT_LIMIT, cy + rnd.uniform(-spread, spread) / 2))
            if lon > 180:
                lon -= 360
            if lon < -180:
                lon += 360
            members.append((lon, lat))
    for i in range(0, 60, 6):  # several members at one position
        for _ in range(rnd.randint(2, 4)):
            members.append(members[i])
    # Same longitude, different latitudes: the equal-longitude case of the distance.
    for _ in range(15):
        members.append((members[3][0], members[3][1] + rnd.uniform(-0.5, 0.5)))
    for _ in range(40):
        members.append((rnd.uniform(-180, 180), rnd.uniform(-LAT_LIMIT, LAT_LIMIT)))
    # Many members at one position: ties that Redis's partial sort orders its own way.
    members += [(13.5, 38.0)] * 12 + [(13.6, 38.2)] * 8
    # On the upper edges the score carries past 52 bits: found only from a centre on the same edge.
    members += [(180.0, 10.0), (179.9999, 10.0), (-180.0, 10.0), (10.0, LAT_LIMIT), (180.0, -LAT_LIMIT),
                (180.0, LAT_LIMIT)]
    return [(text(lon), text(lat)) for lon, lat in members]


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "redis-geo-reference.json")
    rnd = random.Random(SEED)
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL)
    try:
        r = Redis(port)
        version = r.call("INFO", "server").split("redis_version:")[1].split("\r\n")[0]
        data = {"redis_version": version}

        # Points.
        points = [(text(a), text(b)) for a, b in edge_points(rnd) + random_points(rnd, 2000)]
        data["points"] = []
        for i, (lon, lat) in enumerate(points):
            name = "p%d" % i
            assert r.call("GEOADD", "pts", lon, lat, name) == ":1\r\n"
            data["points"].append({
                "longitude": lon, "latitude": lat,
                "zscore": r.call("ZSCORE", "pts", name),
                "geopos": r.call("GEOPOS", "pts", name),
                "geohash": r.call("GEOHASH", "pts", name)})

        data["invalid"] = []
        for lon, lat in [(200, 100), (180.0000001, 0), (-180.0000001, 0), (0, 85.05112879), (0, -85.05112879),
                         (0, 90), (181, 86), ("inf", 0), (0, "-inf"), (1e300, 0), (-1e-300, 86), (123.4567891, -85.1),
                         (-0.0000005, 85.0511288), (1e20, 1e-7), (-181.5, 0.0000004), (-181.5, 0.0000005)]:
            data["invalid"].append({"longitude": str(lon), "latitude": str(lat),
                                    "reply": r.call("GEOADD", "bad", lon, lat, "x")})

        data["zadd"] = []
        for score in ["-5", "0.5", "1e20", "inf", "-inf", "9007199254740993", "4503599627370495", "4503599627370496",
                      "13510798882111488", "18014398509481983", "-0.9"]:
            r.call("ZADD", "weird", score, "m")
            data["zadd"].append({"score": score, "zscore": r.call("ZSCORE", "weird", "m"),
                                 "geopos": r.call("GEOPOS", "weird", "m"), "geohash": r.call("GEOHASH", "weird", "m")})

        # Distances: random pairs and pairs sharing a longitude.
        data["distances"] = []
        units = ["m", "km", "ft", "mi", "M", "KM", "Ft", "mI"]
        same_longitude = {}
        for i, (lon, _) in enumerate(points):
            same_longitude.setdefault(lon, []).append(i)
        pairs = [(rnd.randrange(len(points)), rnd.randrange(len(points))) for _ in range(2000)]
        for group in same_longitude.values():
            if len(group) > 1:
                pairs += [(group[k], group[k + 1]) for k in range(min(len(group) - 1, 8))]
        for a, b in pairs:
            entry = {"a": a, "b": b, "default": r.call("GEODIST", "pts", "p%d" % a, "p%d" % b)}
            for unit in rnd.sample(units, 4):
                entry[unit] = r.call("GEODIST", "pts", "p%d" % a, "p%d" % b, unit)
            data["distances"].append(entry)

        # Searches.
        members = search_members(rnd)
        data["members"] = [{"member": "m%03d" % i, "longitude": lon, "latitude": lat}
                           for i, (lon, lat) in enumerate(members)]
        for i, (lon, lat) in enumerate(members):
            assert r.call("GEOADD", "s", lon, lat, "m%03d" % i) == ":1\r\n"
        decoded = []
        for i in range(len(members)):
            pos = r.call("GEOPOS", "s", "m%03d" % i).split("\r\n")
            decoded.append((float(pos[3]), float(pos[5])))
        data["searches"] = []

        def search(args):
            reply = r.call("GEOSEARCH", "s", *args)
            data["searches"].append({"args": [str(a) for a in args], "reply": reply})

        def options():
            groups = []
            for flag in ["WITHDIST", "WITHCOORD", "WITHHASH"]:
                if rnd.random() < 0.35:
                    groups.append([flag.lower() if rnd.random() < 0.2 else flag])
            order = rnd.choice([None, None, "ASC", "DESC"])
            if order:
                groups.append([order])
            count = rnd.random()
            if count < 0.3:
                groups.append(["COUNT", str(rnd.randint(1, 12))])
            elif count < 0.45:
                groups.append(["COUNT", str(rnd.randint(1, 12)), "ANY"])
            if rnd.random() < 0.2:
                rnd.shuffle(groups)
            return [word for group in groups for word in group]

        centres = [(13.361389, 38.115556), (179.95, -16.5), (-179.9, 65.0), (0.0, 0.0), (20.0, 84.9),
                   (-73.98, 40.75)]
        for i in range(300):
            unit = rnd.choice(["m", "km", "ft", "mi"])
            per_unit = {"m": 1, "km": 1000, "ft": 0.3048, "mi": 1609.34}[unit]
            size_m = 10 ** rnd.uniform(1.5, 5.5)
            if i % 40 == 39:
                size_m = rnd.choice([2e6, 5e6, 1.5e7])  # the one-step grid that wraps
            if rnd.random() < 0.25:
                origin = ["FROMMEMBER", "m%03d" % rnd.randrange(len(members))]
            else:
                if rnd.random() < 0.3:
                    cx, cy = rnd.choice(centres)
                else:
                    cx, cy = decoded[rnd.randrange(len(members))]
                offset = size_m / 111000 * rnd.uniform(-1, 1)
                lon = max(-180, min(180, cx + offset))
                lat = max(-LAT_LIMIT, min(LAT_LIMIT, cy + offset * rnd.uniform(-0.5, 0.5)))
                origin = ["FROMLONLAT", text(lon), text(lat)]
            size = text(round(size_m / per_unit, rnd.randint(0, 4)))
            if rnd.random() < 0.5:
                shape = ["BYRADIUS", size, unit]
            else:
                height = text(round(size_m * 10 ** rnd.uniform(-1, 1) / per_unit, rnd.randint(0, 4)))
                shape = ["BYBOX", size, height, unit]
            args = origin + shape + options()
            if size_m > 1e6:
                args = [a for a in args if a not in ("WITHCOORD", "withcoord")]
            search(args)

        # Radii aimed exactly at a member's distance (inclusive edge, equal-longitude case).
        for i in range(40):
            target = rnd.randrange(len(members))
            tx, ty = decoded[target]
            cx = tx if i % 2 == 0 else tx + rnd.uniform(-0.01, 0.01)
            cy = max(-LAT_LIMIT, min(LAT_LIMIT, ty + rnd.uniform(-0.05, 0.05)))
            radius = redis_distance(cx, cy, tx, ty)
            search(["FROMLONLAT", text(cx), text(cy), "BYRADIUS", text(radius), "m", "WITHDIST", "ASC"])
            search(["FROMLONLAT", text(cx), text(cy), "BYRADIUS", text(math.nextafter(radius, 0)), "m", "WITHDIST"])
            width = 2 * redis_distance(tx, ty, cx, ty)
            height = 2 * EARTH_RADIUS * abs(cy * D_R - ty * D_R)
            search(["FROMLONLAT", text(cx), text(cy), "BYBOX", text(width), text(height), "m", "WITHDIST"])
        # Equal longitudes where the haversine and the meridian distance differ in the last bit: the
        # radius is the smaller of the two, so the reply shows which one Redis computes.
        aimed = 0
        while aimed < 30:
            target = rnd.randrange(len(members))
            tx, ty = decoded[target]
            cy = rnd.uniform(-LAT_LIMIT, LAT_LIMIT)
            lat1r, lat2r = cy * D_R, ty * D_R
            haversine = 2.0 * EARTH_RADIUS * math.asin(math.sqrt(math.sin((lat2r - lat1r) / 2) ** 2))
            meridian = redis_distance(tx, cy, tx, ty)
            if haversine != meridian:
                aimed += 1
                search(["FROMLONLAT", text(tx), text(cy), "BYRADIUS", text(min(haversine, meridian)), "m"])
        search(["FROMLONLAT", "0", "0", "BYRADIUS", "inf", "m", "COUNT", "5"])
        search(["FROMLONLAT", "0", "0", "BYRADIUS", "0", "m"])
        search(["FROMLONLAT", "179.99", "84.9", "BYBOX", "20000", "100", "km"])
        for lon, lat in [("180", "10"), ("-180", "10"), ("179.9999", "10"), ("10", "85"), ("10", "85.05112878"),
                         ("180", "85.05112878"), ("180", "-85.05112878"), ("0", "0")]:
            for radius in ["100", "20000"]:
                search(["FROMLONLAT", lon, lat, "BYRADIUS", radius, "km", "WITHDIST", "WITHHASH"])
            search(["FROMLONLAT", lon, lat, "BYBOX", "500", "300", "km", "ASC"])

        # COUNT below the number found, with ties: the partial sort (pqsort) decides their order.
        for centre in [["FROMMEMBER", "m%03d" % (len(members) - 7)], ["FROMLONLAT", "13.55", "38.1"],
                       ["FROMLONLAT", "13.361389", "38.115556"]]:
            for radius in ["50", "200"]:
                for count in [1, 2, 3, 5, 7, 10, 13, 20, 30]:
                    for order in [[], ["DESC"]]:
                        search(centre + ["BYRADIUS", radius, "km", "COUNT", str(count)] + order)

        data["errors"] = []
        for args in [["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "-1", "m"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYBOX", "1", "-1", "m"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "yd"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "m", "COUNT", "0"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "m", "ANY"],
                     ["GEOSEARCH", "s", "FROMMEMBER", "nobody", "BYRADIUS", "1", "m"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "x", "m"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYBOX", "x", "1", "m"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYBOX", "1", "x", "m"],
                     ["GEOSEARCH", "s", "FROMLONLAT", "0", "90", "BYRADIUS", "1", "m"],
                     ["geosearch", "s", "BYRADIUS", "1", "m", "WITHDIST", "ASC"],
                     ["GeoSearch", "s", "FROMLONLAT", "0", "0", "WITHDIST", "ASC"],
                     ["GEODIST", "pts", "p1", "p2", "furlong"]]:
            data["errors"].append({"args": args, "reply": r.call(*args)})
    finally:
        server.terminate()
        server.wait()

    sections = []
    for key, value in data.items():
        if isinstance(value, list):
            body = ",\n".join(json.dumps(item, separators=(",", ":")) for item in value)
            sections.append('"%s":[\n%s\n]' % (key, body))
        else:
            sections.append('"%s":%s' % (key, json.dumps(value)))
    with open(out_path, "w") as f:
        f.write("{\n" + ",\n".join(sections) + "\n}\n")


if __name__ == "__main__":
    main()
