"""Synthetic places at constant density for scripts/bench-scale.sh.

Writes N places uniform over a square around 39° N 32° E whose area grows with N (250 places
per km², so a 500 m circle holds about 196 places at any N): a CSV for `vicinity import`
(id,name,lat,lon: ids p0…, names "Eczane 0"…, no other attributes) and the same points as
GEOADD commands for `redis-cli --pipe`. Coordinates are printed with 7 decimals, so both
servers read the same numbers. Deterministic (seed 20).

Usage: python3 scripts/scale_data.py N CSV REDIS
"""

import math
import sys

import numpy

PER_KM2 = 250.0
CENTER_LAT = 39.0
CENTER_LON = 32.0
CHUNK = 500_000


def main() -> None:
    count = int(sys.argv[1])
    side_km = math.sqrt(count / PER_KM2)
    half_lat = side_km / 2 / 111.0
    half_lon = side_km / 2 / (111.0 * math.cos(math.radians(CENTER_LAT)))
    random = numpy.random.default_rng(20)
    with open(sys.argv[2], "w") as csv, open(sys.argv[3], "w") as redis:
        csv.write("id,name,lat,lon\n")
        for start in range(0, count, CHUNK):
            size = min(CHUNK, count - start)
            lat = numpy.round(CENTER_LAT + random.uniform(-half_lat, half_lat, size), 7)
            lon = numpy.round(CENTER_LON + random.uniform(-half_lon, half_lon, size), 7)
            lat_text = numpy.char.mod("%.7f", lat)
            lon_text = numpy.char.mod("%.7f", lon)
            rows = []
            commands = []
            for offset in range(size):
                number = start + offset
                rows.append(f"p{number},Eczane {number},{lat_text[offset]},{lon_text[offset]}\n")
            for first in range(0, size, 500):
                last = min(size, first + 500)
                members = " ".join(
                    f"{lon_text[offset]} {lat_text[offset]} p{start + offset}" for offset in range(first, last)
                )
                commands.append(f"GEOADD city {members}\r\n")
            csv.write("".join(rows))
            redis.write("".join(commands))


if __name__ == "__main__":
    main()
