#!/usr/bin/env python3
"""Writes bearing-reference.csv: initial azimuths on WGS84 from GeographicLib for ServedBearingTests.

The committed CSV *is* the reference: generated once with this script and committed; the tests
only read it and never run this script or import geographiclib. Regenerate it only on purpose and
review the diff.

How to run (from the package root, in a throwaway virtual environment):

    python3 -m venv /tmp/geovenv && /tmp/geovenv/bin/pip install geographiclib==2.1
    /tmp/geovenv/bin/python Tests/GeoTests/Fixtures/make_bearing_reference.py

Source: geographiclib 2.1 (PyPI), C. F. F. Karney's Python port of GeographicLib, on CPython
3.11.7. The output is deterministic: a fixed seed drives Python's Mersenne Twister
(`random.Random`), and every float is written with `repr`, the shortest text that reads back to
the same double.

Each row is a pair of points as a query serves them: a centre, and a place at a distance a query
can reach (radii up to 20,000 km). The place comes from `Direct` (centre, random azimuth, random
distance); the reference azimuth and distance then come from `Inverse` on the two points exactly
as written, so the row is self-consistent for any reader of the doubles.

Columns: lat1, lon1, lat2, lon2 (degrees), s12_m (geodesic distance, meters), azi1_deg (initial
azimuth at the centre, degrees clockwise from north in (-180, 180] as geographiclib returns it),
category.

Categories (400 rows of each of the first five, 400 of `long`: 2,400 rows):
  short        1 m to 5 km, centre anywhere (latitude uniform on the sphere)
  submetre     0.5 mm to 1 m, centre anywhere
  polar        1 mm to 5 km, centre within 0.2 degrees of a pole (both sides of 89.9)
  antimeridian 1 mm to 5 km, centre within 0.001 degrees of longitude +/-180, or on it
  equator      1 mm to 5 km, centre on the equator
  long         5 km to 20,000 km, centre anywhere (80 rows of each other family's centres)
"""

import math
import random
import sys

from geographiclib.geodesic import Geodesic

SEED = 20_261_126
ROWS_PER_CATEGORY = 400


def log_uniform(rng, low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def centre(rng, category):
    if category == "polar":
        latitude = rng.choice([-1.0, 1.0]) * (89.8 + 0.2 * rng.random())
        longitude = rng.uniform(-180.0, 180.0)
    elif category == "antimeridian":
        latitude = math.degrees(math.asin(rng.uniform(-1.0, 1.0)))
        longitude = rng.choice([180.0, -180.0, 180.0 - 0.001 * rng.random(), -180.0 + 0.001 * rng.random()])
    elif category == "equator":
        latitude = 0.0
        longitude = rng.uniform(-180.0, 180.0)
    else:
        latitude = math.degrees(math.asin(rng.uniform(-1.0, 1.0)))
        longitude = rng.uniform(-180.0, 180.0)
    return latitude, longitude


def distance(rng, category):
    if category == "short":
        return log_uniform(rng, 1.0, 5_000.0)
    if category == "submetre":
        return log_uniform(rng, 0.0005, 1.0)
    if category == "long":
        return log_uniform(rng, 5_000.0, 20_000_000.0)
    return log_uniform(rng, 0.001, 5_000.0)


def main():
    rng = random.Random(SEED)
    geod = Geodesic.WGS84
    out = sys.stdout
    out.write("lat1,lon1,lat2,lon2,s12_m,azi1_deg,category\n")
    families = ["short", "submetre", "polar", "antimeridian", "equator"]
    plan = [(family, family) for family in families for _ in range(ROWS_PER_CATEGORY)]
    plan += [("long", family) for family in families for _ in range(ROWS_PER_CATEGORY // 5)]
    for category, centre_family in plan:
        lat1, lon1 = centre(rng, centre_family)
        s12 = distance(rng, category)
        azimuth = rng.uniform(-180.0, 180.0)
        direct = geod.Direct(lat1, lon1, azimuth, s12)
        lat2 = direct["lat2"]
        lon2 = direct["lon2"]
        # Longitudes as a query serves them: in [-180, 180].
        if lon2 > 180.0:
            lon2 -= 360.0
        if lon2 < -180.0:
            lon2 += 360.0
        inverse = geod.Inverse(lat1, lon1, lat2, lon2)
        out.write(
            f"{lat1!r},{lon1!r},{lat2!r},{lon2!r},{inverse['s12']!r},{inverse['azi1']!r},{category}\n")


if __name__ == "__main__":
    main()
