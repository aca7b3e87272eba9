#!/usr/bin/env python3
"""Writes geodesic-reference.csv: WGS84 inverse-geodesic reference values for GeodesicReferenceTests.

README: the committed CSV *is* the reference. It is generated once, by hand, with this script and
committed; the tests only read it and never run this script or import geographiclib. Regenerate it
only on purpose (for example to add a category), and review the diff.

How to run (from the package root):

    pip install geographiclib==2.1
    python3 Tests/GeoTests/Fixtures/make_geodesic_reference.py

The committed table was made with geographiclib 2.1 (PyPI, C. F. F. Karney's pure-Python port of
GeographicLib) on CPython 3.11.7. The output is deterministic: a fixed seed drives Python's
Mersenne Twister (`random.Random`), whose sequence Python guarantees across versions for
`random()`, and every float is written with `repr`, the shortest string that reads back to the
same double.

Columns: lat1, lon1, lat2, lon2 (degrees, the inputs exactly as given to `Inverse`), s12_m (geodesic
distance, meters), azi1_deg (initial azimuth at point 1, degrees clockwise from north in
(-180, 180] as geographiclib returns it), category (which family of hard cases the row tests).

Categories, each aimed at a place where geodesic code tends to go wrong:
  short                   1 m to 5 km apart, starting anywhere (latitudes uniform in -90...90)
  short-polar             1 m to 5 km apart with the start within 0.01 degrees of a pole
  antipodal-near          just off the antipode, offsets 1e-9 to 1 degree (the hard Newton cases)
  antipodal-equatorial    on or next to the equator with lon12 near 180 (geodesic leaves the equator)
  antipodal-exact         exact antipodes (lat2 = -lat1, lon2 = lon1 +/- 180): azimuth is not unique
  pole-start              start exactly at latitude +/-90 (the azimuth follows lon1 by convention)
  pole-end                end exactly at latitude +/-90 from anywhere, and pole to pole
  pole-near               latitudes 89.9999... / -89.9999..., including pairs across the pole
  antimeridian            pairs straddling +/-180 (179.9999 / -179.9999) and longitudes exactly +/-180
  equator                 both points on or within 1e-9 degrees of the equator
  random                  uniform on the sphere
  coincident              identical inputs, and the same point written with longitude 180 and -180
"""

import math
import random
import sys
from pathlib import Path

import geographiclib
from geographiclib.geodesic import Geodesic

SEED = 20_250_601
OUTPUT = Path(__file__).with_name("geodesic-reference.csv")
GEOD = Geodesic.WGS84
MASK = Geodesic.DISTANCE | Geodesic.AZIMUTH

rng = random.Random(SEED)
rows = []


def wrap(lon):
    """Longitude wrapped to [-180, 180]."""
    while lon > 180:
        lon -= 360
    while lon < -180:
        lon += 360
    return lon


def add(lat1, lon1, lat2, lon2, category):
    assert -90 <= lat1 <= 90 and -90 <= lat2 <= 90, (lat1, lat2)
    assert -180 <= lon1 <= 180 and -180 <= lon2 <= 180, (lon1, lon2)
    result = GEOD.Inverse(lat1, lon1, lat2, lon2, MASK)
    rows.append((lat1, lon1, lat2, lon2, result["s12"], result["azi1"], category))


def uniform_latitude():
    """A latitude uniform on the sphere's area."""
    return math.degrees(math.asin(2 * rng.random() - 1))


def log_uniform(low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def signed(value):
    return value if rng.random() < 0.5 else -value


def direct(lat1, lon1, distance):
    """The point `distance` meters away from (lat1, lon1) in a random direction."""
    result = GEOD.Direct(lat1, lon1, rng.uniform(-180, 180), distance)
    return min(90.0, max(-90.0, result["lat2"])), wrap(result["lon2"])


# short: 1 m - 5 km at all latitudes.
for _ in range(400):
    lat1, lon1 = rng.uniform(-90, 90), rng.uniform(-180, 180)
    add(lat1, lon1, *direct(lat1, lon1, log_uniform(1, 5000)), "short")

# short-polar: the start within 0.01 degrees of a pole; many of these pass over or near it.
for _ in range(100):
    lat1, lon1 = signed(90 - log_uniform(1e-9, 1e-2)), rng.uniform(-180, 180)
    add(lat1, lon1, *direct(lat1, lon1, log_uniform(1, 5000)), "short-polar")

# antipodal-near: offsets from the exact antipode of 1e-9 to 1 degree in latitude and longitude.
for _ in range(200):
    lat1, lon1 = uniform_latitude(), rng.uniform(-180, 180)
    lat2 = max(-90.0, min(90.0, -lat1 + signed(log_uniform(1e-9, 1))))
    lon2 = wrap(lon1 + 180 + signed(log_uniform(1e-9, 1)))
    add(lat1, lon1, lat2, lon2, "antipodal-near")

# antipodal-equatorial: lon12 within 180 f (about 0.6 degrees) of 180 on or just off the equator,
# where the shortest path is not along the equator, plus exact equatorial antipodes.
for _ in range(100):
    lon1 = rng.uniform(-180, 180)
    lat2 = 0.0 if rng.random() < 0.4 else signed(log_uniform(1e-9, 1e-1))
    lon2 = wrap(lon1 + 180 - signed(log_uniform(1e-9, 0.7)))
    add(0.0, lon1, lat2, lon2, "antipodal-equatorial")
for lon1 in (0.0, 90.0, -90.0, 180.0, -180.0, 45.5, -135.25, 179.5, -0.5, 10.0):
    add(0.0, lon1, 0.0, wrap(lon1 + 180) if lon1 < 0 else lon1 - 180, "antipodal-exact")

# antipodal-exact: lat2 = -lat1 exactly, lon2 = lon1 +/- 180 exactly (values with few binary digits
# so that the sum is exact).
for _ in range(50):
    lat1 = round(rng.uniform(-89, 89), 3)
    lon1 = round(rng.uniform(-180, 180), 2)
    add(lat1, lon1, -lat1, lon1 - 180 if lon1 >= 0 else lon1 + 180, "antipodal-exact")

# pole-start: from exactly +/-90 with assorted longitudes to anywhere, including the other pole.
for _ in range(80):
    lat1 = signed(90.0)
    lon1 = rng.choice([0.0, 180.0, -180.0, 90.0, -90.0, rng.uniform(-180, 180)])
    roll = rng.random()
    if roll < 0.3:
        lat2, lon2 = direct(lat1, lon1, log_uniform(1, 5000))
    elif roll < 0.4:
        lat2, lon2 = -lat1, rng.uniform(-180, 180)
    else:
        lat2, lon2 = uniform_latitude(), rng.uniform(-180, 180)
    add(lat1, lon1, lat2, lon2, "pole-start")

# pole-end: to exactly +/-90 from anywhere (short and long), and pole to pole.
for _ in range(60):
    lat2 = signed(90.0)
    lon2 = rng.choice([0.0, 180.0, -180.0, rng.uniform(-180, 180)])
    if rng.random() < 0.5:
        lat1 = math.copysign(90 - log_uniform(1e-8, 0.05), lat2)
    else:
        lat1 = uniform_latitude()
    add(lat1, rng.uniform(-180, 180), lat2, lon2, "pole-end")
for lon1, lon2 in ((0.0, 0.0), (0.0, 180.0), (-180.0, 180.0), (37.5, -142.5), (90.0, 90.0)):
    add(90.0, lon1, -90.0, lon2, "pole-end")
    add(-90.0, lon1, 90.0, lon2, "pole-end")

# pole-near: 89.9999... and -89.9999..., across the pole (lon12 near 180) and beside each other.
for _ in range(80):
    sign = signed(1.0)
    lat1 = sign * (90 - log_uniform(1e-9, 1e-3))
    lat2 = sign * (90 - log_uniform(1e-9, 1e-3))
    lon1 = rng.uniform(-180, 180)
    lon2 = wrap(lon1 + 180 + signed(log_uniform(1e-6, 10))) if rng.random() < 0.5 else rng.uniform(-180, 180)
    add(lat1, lon1, lat2, lon2, "pole-near")
for lat in (89.9999, 89.99999999, -89.9999, -89.999999999):
    add(lat, 0.0, lat, 180.0, "pole-near")
    add(lat, 45.0, lat, -135.0, "pole-near")

# antimeridian: 179.9999 / -179.9999 and exactly +/-180, short and long.
for _ in range(120):
    lat1 = uniform_latitude() if rng.random() < 0.7 else rng.uniform(-90, 90)
    lon1 = rng.choice([180.0, -180.0, 179.9999, -179.9999, 180 - log_uniform(1e-9, 1e-2)])
    roll = rng.random()
    if roll < 0.4:
        lat2 = lat1 + signed(log_uniform(1e-7, 1e-2))
        lat2 = max(-90.0, min(90.0, lat2))
        lon2 = rng.choice([-180.0, 180.0, -179.9999, 179.9999, -180 + log_uniform(1e-9, 1e-2)])
    elif roll < 0.7:
        lat2, lon2 = direct(lat1, lon1, log_uniform(1, 5000))
    else:
        lat2, lon2 = uniform_latitude(), rng.choice([180.0, -180.0, rng.uniform(-180, 180)])
    if rng.random() < 0.5:
        lon1 = -lon1
    add(lat1, lon1, lat2, lon2, "antimeridian")
for lat in (0.0, 45.0, -60.0, 89.0):
    add(lat, 179.9999, lat, -179.9999, "antimeridian")
    add(lat, -179.9999, lat, 179.9999, "antimeridian")
    add(lat, 180.0, lat + 0.001, -180.0, "antimeridian")

# equator: both points on the equator (or within 1e-9 degrees), every separation below 180(1 - f).
for _ in range(100):
    lon1 = rng.uniform(-180, 180)
    lon12 = log_uniform(1e-5, 179) if rng.random() < 0.7 else rng.uniform(0, 179)
    lat1 = 0.0 if rng.random() < 0.7 else signed(log_uniform(1e-12, 1e-9))
    lat2 = 0.0 if rng.random() < 0.7 else signed(log_uniform(1e-12, 1e-9))
    add(lat1, lon1, lat2, wrap(lon1 + signed(lon12)), "equator")

# random: uniform on the sphere.
for _ in range(250):
    add(uniform_latitude(), rng.uniform(-180, 180), uniform_latitude(), rng.uniform(-180, 180), "random")

# coincident: the same point twice, and +/-180 spellings of one meridian.
for _ in range(30):
    lat, lon = uniform_latitude(), rng.uniform(-180, 180)
    add(lat, lon, lat, lon, "coincident")
for lat, lon1, lon2 in ((90.0, 0.0, 0.0), (-90.0, 123.0, 123.0), (0.0, 180.0, -180.0), (45.0, -180.0, 180.0),
                        (90.0, 180.0, -180.0), (-33.5, 180.0, 180.0)):
    add(lat, lon1, lat, lon2, "coincident")

with OUTPUT.open("w", newline="\n") as out:
    out.write("lat1,lon1,lat2,lon2,s12_m,azi1_deg,category\n")
    for row in rows:
        out.write(",".join(repr(float(value)) for value in row[:6]) + "," + row[6] + "\n")

print(f"wrote {len(rows)} rows to {OUTPUT} with geographiclib {geographiclib.__version__}, "
      f"Python {sys.version.split()[0]}")
