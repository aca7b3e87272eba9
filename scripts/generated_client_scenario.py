"""The app developer's scenario through a client generated from openapi.yaml by
openapi-python-client (scripts/generated-client.sh generates it as the package `vicinity_client`
and runs this against a live `vicinity serve`).

Every reply is read through the generated models: a successful answer must come back as its
model, an error as `Problem` with the status and detail the contract promises. The few requests
a typed client cannot make (a wrong enum value, malformed JSON, no token on a write) are sent
with the generated client's own httpx client and their replies read with the generated models.

Usage: python3 generated_client_scenario.py BASE_URL ADMIN_TOKEN
"""

from __future__ import annotations

import sys
from typing import Any, TypeVar

import httpx
from vicinity_client import AuthenticatedClient, Client
from vicinity_client.types import Unset
from vicinity_client.api.maps import render_map
from vicinity_client.api.places import delete_place
from vicinity_client.api.queries import find_nearby, find_nearby_geo_json, find_nearest, find_nearest_geo_json
from vicinity_client.api.users import (
    delete_user,
    find_nearby_users,
    get_user,
    move_user,
    register_user,
    set_user_precision,
    set_user_visibility,
)
from vicinity_client.api.watches import watch_around_user, watch_nearby
from vicinity_client.models import (
    Location,
    NearbyFeatureCollection,
    NearbyResult,
    NearbyUsersResult,
    NearestFeatureCollection,
    NearestResult,
    Precision,
    PrecisionChange,
    PrivateVisibilityChange,
    PrivateVisibilityChangeVisibility,
    Problem,
    PublicVisibilityChange,
    PublicVisibilityChangeVisibility,
    RegisteredUser,
    ResultFormat,
    User,
    UserRegistration,
    Visibility,
)

T = TypeVar("T")

# The original app's "your location" in Levent, Istanbul (Data/pharmacies-istanbul-example.csv).
LAT, LON = 41.088154, 29.015615

checks = 0
failures = 0


def check(name: str, condition: bool, got: object = None) -> None:
    """Counts a check and prints it; a failure names what came back."""
    global checks, failures
    checks += 1
    if condition:
        print(f"ok   {name}")
    else:
        failures += 1
        print(f"FAIL {name}: got {got!r}")


def answer(name: str, reply: object, model: type[T]) -> T:
    """The reply as `model`; a reply of another type (a Problem, None) fails the scenario here."""
    if not isinstance(reply, model):
        print(f"FAIL {name}: expected {model.__name__}, got {reply!r}")
        sys.exit(1)
    check(name, True)
    return reply


def problem(name: str, reply: object, status: int, detail: str) -> Problem:
    """The reply as a Problem with this status whose detail is (or starts with) `detail`."""
    found = answer(name + f" is a {status} problem", reply, Problem)
    check(name + " status", found.status == status, found.status)
    check(name + " detail", found.detail.startswith(detail), found.detail)
    return found


def raw_problem(
    name: str, client: httpx.Client, method: str, path: str, status: int, detail: str, **kwargs: Any
) -> None:
    """A request a typed client cannot make, sent with the generated client's httpx client, its
    reply read with the generated `Problem` model."""
    response = client.request(method, path, **kwargs)
    check(name + " content type", response.headers.get("content-type") == "application/problem+json",
          response.headers.get("content-type"))
    found = problem(name, Problem.from_dict(response.json()), status, detail)
    check(name + " HTTP status", response.status_code == found.status, response.status_code)


def main(base_url: str, admin_token: str) -> None:
    public = Client(base_url=base_url, raise_on_unexpected_status=True)
    admin = AuthenticatedClient(base_url=base_url, token=admin_token, raise_on_unexpected_status=True)

    # ---- queries, with no token: the public operations take a plain Client ----------------
    nearby = answer("nearby as JSON", find_nearby.sync(client=public, lat=LAT, lon=LON, radius=700),
                    NearbyResult)
    check("nearby ids", [hit.id for hit in nearby.results] == ["omur", "emre", "arzu"], nearby.results)
    check("nearby total", nearby.total == 3, nearby.total)
    check("nearby distance", round(nearby.results[0].distance_m, 3) == 131.936, nearby.results[0].distance_m)

    collection = answer("nearby as GeoJSON",
                        find_nearby_geo_json.sync(client=public, lat=LAT, lon=LON, radius=500),
                        NearbyFeatureCollection)
    check("GeoJSON feature id", [feature.id for feature in collection.features] == ["omur"], collection.features)
    check("GeoJSON position is [lon, lat]",
          collection.features[0].geometry.coordinates == [29.014096, 41.087853],
          collection.features[0].geometry.coordinates)
    check("GeoJSON total", collection.total == 1, collection.total)

    # A first-version client's format=geojson is sent on to the GeoJSON operation.
    legacy = find_nearby.sync_detailed(client=public, lat=LAT, lon=LON, radius=500, format_=ResultFormat.GEOJSON)
    location = legacy.headers.get("location", "")
    check("format=geojson is a 303", legacy.status_code == 303, legacy.status_code)
    check("303 to nearby.geojson", location.startswith("/v1/nearby.geojson?lat=41.088154&lon=29.015615"), location)
    followed = NearbyFeatureCollection.from_dict(public.get_httpx_client().get(location).json())
    check("303 followed is the same collection", followed.to_dict() == collection.to_dict(), followed)

    nearest = answer("nearest", find_nearest.sync(client=public, lat=LAT, lon=LON, count=2), NearestResult)
    check("nearest ids", [hit.id for hit in nearest.results] == ["omur", "emre"], nearest.results)
    nearest_geo = answer("nearest as GeoJSON",
                         find_nearest_geo_json.sync(client=public, lat=LAT, lon=LON, count=1),
                         NearestFeatureCollection)
    check("nearest GeoJSON id", [feature.id for feature in nearest_geo.features] == ["omur"], nearest_geo.features)

    drawn = answer("map", render_map.sync(client=public, lat=LAT, lon=LON, radius=500, width=60, height=20), str)
    check("map names Omur", "Omur" in drawn, drawn)

    # ---- a user: register, move, private, public, remove -------------------------------------
    registration = UserRegistration(id="ayse", name="Ayşe", location=Location(lat=41.0885, lon=29.0158),
                                    precision=Precision.STREET)
    registered = answer("register", register_user.sync(client=admin, body=registration), RegisteredUser)
    check("registered public", registered.user.visibility == Visibility.PUBLIC, registered.user.visibility)
    check("registered at street precision", registered.user.precision == Precision.STREET, registered.user)
    check("token is 43 characters", len(registered.token) == 43, registered.token)
    ayse = AuthenticatedClient(base_url=base_url, token=registered.token, raise_on_unexpected_status=True)

    users = answer("nearby users", find_nearby_users.sync(client=public, lat=LAT, lon=LON), NearbyUsersResult)
    check("ayse is near", [hit.id for hit in users.results] == ["ayse"], users.results)

    moved = answer("move", move_user.sync("ayse", client=ayse, body=Location(lat=41.0882, lon=29.0157)), User)
    check("moved", isinstance(moved.location, Location) and moved.location.lat == 41.0882, moved.location)

    # ---- read-your-writes: a write's position, then reads that ask for it --------------------
    detailed = move_user.sync_detailed("ayse", client=ayse, body=Location(lat=41.0882, lon=29.0157))
    position_text = detailed.headers.get("Vicinity-Position", "")
    check("a write answers its position", position_text.isdigit() and int(position_text) > 0, position_text)
    position = int(position_text) if position_text.isdigit() else 0
    # The read-your-writes headers are described in the contract's introduction, not declared
    # on each operation: a client sets them as headers (a client of its own: `with_headers` also
    # changes the client it is called on once that one has made a request).
    at_position = AuthenticatedClient(base_url=base_url, token=registered.token, raise_on_unexpected_status=True,
                                      headers={"Vicinity-Min-Position": str(position)})
    seen = answer("a read at that position", get_user.sync("ayse", client=at_position), User)
    check("the read sees the write", isinstance(seen.location, Location) and seen.location.lat == 41.0882, seen)
    # Everyone else sees the centre of her 100 m cell (LocationPrecision.street), and no timer.
    published = answer("her record to others", get_user.sync("ayse", client=public), User)
    check("others see the published location",
          isinstance(published.location, Location) and published.location.lat == 41.0884615
          and published.location.lon == 29.0152368 and published.precision == Precision.STREET
          and isinstance(published.location_expires_at, Unset), published)
    district = answer("precision", set_user_precision.sync(
        "ayse", client=ayse, body=PrecisionChange(precision=Precision.DISTRICT)), User)
    check("precision changed", district.precision == Precision.DISTRICT, district)
    answer("precision back", set_user_precision.sync(
        "ayse", client=ayse, body=PrecisionChange(precision=Precision.STREET)), User)
    problem("a position not applied in time",
            get_user.sync("ayse", client=Client(
                base_url=base_url, raise_on_unexpected_status=True,
                headers={"Vicinity-Min-Position": str(position + 1000), "Vicinity-Wait-Ms": "50"})), 503,
            f"position {position + 1000} was not applied within 50 ms")

    hidden = answer("private", set_user_visibility.sync(
        "ayse", client=ayse, body=PrivateVisibilityChange(visibility=PrivateVisibilityChangeVisibility.PRIVATE)), User)
    check("private", hidden.visibility == Visibility.PRIVATE, hidden.visibility)
    users = answer("nearby users once private", find_nearby_users.sync(client=public, lat=LAT, lon=LON),
                   NearbyUsersResult)
    check("private user not listed", users.total == 0 and users.results == [], users)
    problem("private user to others", get_user.sync("ayse", client=public), 404, 'no user "ayse" that you can see')
    own = answer("private user to herself", get_user.sync("ayse", client=ayse), User)
    check("own record is private", own.visibility == Visibility.PRIVATE, own.visibility)

    timed = answer("private for an hour", set_user_visibility.sync(
        "ayse", client=ayse, body=PrivateVisibilityChange(visibility=PrivateVisibilityChangeVisibility.PRIVATE, for_seconds=3600)), User)
    check("private with a timer", not isinstance(timed.private_until, Unset), timed)
    shown = answer("public", set_user_visibility.sync(
        "ayse", client=ayse, body=PublicVisibilityChange(visibility=PublicVisibilityChangeVisibility.PUBLIC)), User)
    check("public again", shown.visibility == Visibility.PUBLIC, shown.visibility)
    check("no timer once public", isinstance(shown.private_until, Unset), shown)
    answer("public user to others", get_user.sync("ayse", client=public), User)

    # ---- errors, each a Problem of the status the contract lists -----------------------------
    problem("bad latitude", find_nearby.sync(client=public, lat=95, lon=LON), 400,
            'invalid latitude "95": expected a number of degrees from -90 to 90')
    problem("bad radius", find_nearby_users.sync(client=public, lat=LAT, lon=LON, radius=3e7), 400,
            'invalid radius "30000000.0": expected 0 to 20000000 meters')
    problem("bad map width", render_map.sync(client=public, lat=LAT, lon=LON, width=5), 400,
            'invalid width "5": expected a whole number from 30 to 1000')
    for path in ("/v1/users/nearby", "/v1/map", "/v1/nearby"):
        raw_problem(f"latitude with a space on {path}", public.get_httpx_client(), "GET",
                    f"{path}?lat=%2041&lon=29", 400,
                    'invalid latitude " 41": expected a number of degrees from -90 to 90')
    raw_problem("bad model", public.get_httpx_client(), "GET", "/v1/nearest?lat=41&lon=29&model=GEODESIC", 400,
                'invalid model "GEODESIC": expected geodesic, haversine or projected')
    raw_problem("bad enum in a body", ayse.get_httpx_client(), "PUT", "/v1/users/ayse/visibility", 400,
                'invalid visibility "PRIVATE" at /visibility: expected public or private',
                json={"visibility": "PRIVATE"})
    raw_problem("bad precision in a body", ayse.get_httpx_client(), "PUT", "/v1/users/ayse/precision", 400,
                'invalid precision "fine" at /precision: expected exact, street, district or city',
                json={"precision": "fine"})
    raw_problem("a timer with public", ayse.get_httpx_client(), "PUT", "/v1/users/ayse/visibility", 422,
                'unknown field "for_seconds" at /: a time limit goes only with visibility private',
                json={"visibility": "public", "for_seconds": 60})
    raw_problem("malformed JSON", ayse.get_httpx_client(), "PUT", "/v1/users/ayse/visibility", 400,
                "the body is not valid JSON: unexpected '}', expected a value at line 2, column 16 (byte 17)",
                content=b'{\n "visibility": }', headers={"Content-Type": "application/json"})
    raw_problem("body not JSON", ayse.get_httpx_client(), "PUT", "/v1/users/ayse/location", 415,
                "the body is text/plain: expected application/json",
                content=b"lat=41", headers={"Content-Type": "text/plain"})
    raw_problem("write without a token", public.get_httpx_client(), "DELETE", "/v1/users/ayse", 401,
                "this needs a token: send Authorization: Bearer <token>")
    # The watches stream Server-Sent Events without end (scripts/watch-sse.sh reads them with
    # curl); their refusals are answers like any other.
    problem("watch with a bad latitude", watch_nearby.sync(client=public, lat=95, lon=LON), 400,
            'invalid latitude "95": expected a number of degrees from -90 to 90')
    problem("watch following a user without their token",
            watch_around_user.sync("ayse", client=public, kind="user"), 403, "not allowed: ")
    stranger = AuthenticatedClient(base_url=base_url, token="A" * 43, raise_on_unexpected_status=True)
    problem("unknown token", delete_user.sync_detailed("ayse", client=stranger).parsed, 401,
            "the token matches no user")
    problem("a user may not remove a place", delete_place.sync_detailed("pharmacy", "omur", client=ayse).parsed,
            403, "not allowed")
    problem("unknown user", get_user.sync("nobody", client=public), 404, 'no user "nobody" that you can see')
    problem("id taken", register_user.sync(client=admin, body=UserRegistration(id="ayse")), 409,
            'user "ayse" already exists')
    problem("body too large", register_user.sync(client=admin, body=UserRegistration(id="big", name="x" * 300_000)),
            413, "the body is")
    # httpx refuses a query over 64 KiB itself; a header makes the head as long.
    padded = Client(base_url=base_url, headers={"X-Padding": "p" * 90_000}, raise_on_unexpected_status=True)
    problem("head too long", find_nearby.sync(client=padded, lat=LAT, lon=LON), 414,
            "the request line and headers are over 80 KiB")
    raw_problem("Accept nothing the API answers", public.get_httpx_client(), "GET",
                "/v1/distance?from_lat=0&from_lon=0&to_lat=1&to_lon=1", 406, "the request does not match the API",
                headers={"Accept": "text/html"})

    # ---- remove -------------------------------------------------------------------------------
    removed = delete_user.sync_detailed("ayse", client=ayse)
    check("remove", removed.status_code == 204, removed.status_code)
    problem("removed user", get_user.sync("ayse", client=admin), 404, 'no user "ayse" that you can see')

    print(f"generated client: {checks - failures} passed, {failures} failed")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
