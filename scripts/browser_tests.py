#!/usr/bin/env python3
"""The browser map in headless Chromium against a live server (scripts/browser-tests.sh sets it up).

Environment: API (the server's base URL), ADMIN (the admin token), CLI (the vicinity command line
that writes to the server's database, as the server's user), DB (that database), SHOTS (the folder
the screenshots go to).
"""
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

API = os.environ["API"]
ADMIN = os.environ["ADMIN"]
CLI = shlex.split(os.environ["CLI"])
DB = os.environ["DB"]
SHOTS = os.environ["SHOTS"]
HOSTILE = "<img src=x onerror=alert(1)>"
# The original app's "your location" in Levent, Istanbul.
HERE = ("41.088154", "29.015615")
COMPASS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

failures = []
# The users' tokens, by id.
TOKENS = {}
# The server started again by `stream_lost`, stopped at the end.
RESTARTED = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"), flush=True)
    if not ok:
        failures.append(name)


def call(method, path, body=None, token=None):
    """The JSON answer of the API (raises on an error status)."""
    request = urllib.request.Request(API + path, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    data = None
    if body is not None:
        request.add_header("Content-Type", "application/json")
        data = json.dumps(body).encode()
    with urllib.request.urlopen(request, data, timeout=10) as response:
        return json.loads(response.read() or b"null")


def user_hit(user, token):
    """The user's hit in /v1/users/nearby around Mehmet (1 km), asked with `token`; None when absent."""
    around = call("GET", "/v1/users/nearby?lat=41.0890&lon=29.0160&radius=1000", token=token)
    return next((hit for hit in around["results"] if hit["id"] == user), None)


def after_move(user, token, before):
    """The user's hit once the server has followed a move made by another process (its published
    position differs from `before`'s), polled for up to 10 s."""
    for _ in range(200):
        hit = user_hit(user, token)
        if hit and (hit["lat"], hit["lon"]) != (before["lat"], before["lon"]):
            return hit
        time.sleep(0.05)
    check(f"the server follows {user}'s move", False, "its position did not change within 10 s")
    return hit


def size_of(path):
    with urllib.request.urlopen(API + path, timeout=10) as response:
        return len(response.read())


def distance_text(meters):
    """As the terminal map (and the page) writes a distance."""
    whole = round(meters)
    if whole < 1000:
        return f"{whole} m"
    km = meters / 1000
    return f"{km:.1f} km" if round(km * 10) < 100 else f"{km:.0f} km"


def direction_text(hit):
    if hit["distance_m"] == 0:
        return "here"
    return COMPASS[int(hit["bearing_deg"] % 360 / 22.5 + 0.5) % 16]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--no-first-run", "--disable-extensions",
                     # One raster thread, whole tiles: rounded corners then come out the same at every run.
                     "--num-raster-threads=1", "--disable-partial-raster"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    viewport(driver, 1280, 800, False)
    return driver


def viewport(driver, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    # A phone's overlay scrollbar fades out as time passes: without it the screenshots are the same
    # at every run.
    driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": True})


def wait(driver, condition, what, seconds=10):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition())
    except TimeoutException:
        states = driver.execute_script("""return ['places-status', 'people-status', 'stream-state']
            .map((id) => id + ': ' + document.getElementById(id).textContent).join(' | ');""")
        check(what, False, f"timed out ({states})")
        return None


def rows(driver, table):
    """The list's rows: (id, number, name, distance, direction)."""
    return [tuple(row) for row in driver.execute_script("""
        return [...document.querySelectorAll('#' + arguments[0] + ' tbody tr')].map((row) =>
            [row.dataset.id, ...[...row.cells].map((cell) => cell.textContent)]);""", table)]


def markers(driver):
    """The map's markers of hits: (id, label, lat, lon)."""
    return [(m[0], m[1], float(m[2]), float(m[3])) for m in driver.execute_script("""
        return [...document.querySelectorAll('.leaflet-marker-icon[data-id]')].map((m) =>
            [m.dataset.id, m.dataset.label, m.dataset.lat, m.dataset.lon]);""")]


def expected_rows(results):
    return [(hit["id"], str(index + 1), hit["name"], distance_text(hit["distance_m"]), direction_text(hit))
            for index, hit in enumerate(results)]


def shot(driver, name, width, height):
    viewport(driver, width, height, width < 600)
    time.sleep(0.5)
    os.makedirs(SHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SHOTS, name))
    overflow = driver.execute_script("return document.documentElement.scrollWidth")
    check(f"{name}: nothing wider than the {width} px viewport", overflow <= width, f"{overflow} px")
    viewport(driver, 1280, 800, False)


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def places_view(driver):
    # A hostile pharmacy name, 190 m north-east: markup in a name must reach the page as text.
    call("PUT", "/v1/places/pharmacy/evil", {"name": HOSTILE, "lat": 41.0895, "lon": 29.0170}, ADMIN)
    query = f"lat={HERE[0]}&lon={HERE[1]}&radius=700"
    driver.get(f"{API}/?{query}")
    answer = call("GET", f"/v1/nearby?{query}&kind=pharmacy")
    wait(driver, lambda: len(rows(driver, "places-table")) == len(answer["results"]), "the list loads")
    check("the list equals /v1/nearby: ids, numbers, names, distances and directions, nearest first",
          rows(driver, "places-table") == expected_rows(answer["results"]),
          f"{rows(driver, 'places-table')} != {expected_rows(answer['results'])}")
    want = sorted((hit["id"], str(index + 1), hit["lat"], hit["lon"]) for index, hit in enumerate(answer["results"]))
    check("the markers equal /v1/nearby: one per place, its number, at its coordinates",
          sorted(markers(driver)) == want, f"{sorted(markers(driver))} != {want}")
    names = driver.execute_script("""return [...document.querySelectorAll('#places-table th.name')]
        .map((cell) => cell.textContent);""")
    check("a hostile pharmacy name is text in the list", HOSTILE in names, str(names))
    check("... and no element of it was made",
          driver.execute_script("return document.querySelectorAll('img[src=\"x\"]').length") == 0)
    drawn = driver.execute_script("""return [document.querySelectorAll('.leaflet-control-scale-line').length,
        document.querySelectorAll('.leaflet-overlay-pane path').length, document.querySelectorAll('.leaflet-tile').length];""")
    check("without tiles the map still draws its scale and the radius's ring", drawn == [1, 1, 0], str(drawn))
    check("the link keeps the view: /?lat=…&lon=…&radius=…",
          driver.current_url == f"{API}/?lat={HERE[0]}&lon={HERE[1]}&radius=700", driver.current_url)

    # The empty case: nothing within 100 m; the page names the nearest place as `vicinity map` does.
    driver.get(f"{API}/?lat={HERE[0]}&lon={HERE[1]}&radius=100")
    empty = wait(driver, lambda: driver.find_element(By.ID, "places-empty").is_displayed() and
                 driver.find_element(By.ID, "places-empty").text, "the empty message shows")
    text_map = subprocess.run(CLI + ["map", HERE[0], HERE[1], "--radius", "100", "--width", "120", "--db", DB],
                              capture_output=True, text=True, check=True).stdout
    sentence = next((line.strip() for line in text_map.splitlines() if line.strip().startswith("No pharmacy")), None)
    check("the empty case names the nearest place beyond the radius, as the text map does",
          empty == sentence == "No pharmacy within 100 m. Nearest: Omur, 132 m WSW.", f"{empty!r} / {sentence!r}")
    check("... and shows it on the map", [m[0] for m in markers(driver)] == ["omur"], str(markers(driver)))

    # Blanks are no latitude (Number('  ') is 0): the form says what to type.
    field = driver.find_element(By.ID, "lat")
    field.clear()
    field.send_keys("   ", Keys.ENTER)
    refused = wait(driver, lambda: "Type a latitude" in driver.find_element(By.ID, "places-status").text,
                   "blanks are refused")
    check("a latitude of blanks is refused, not taken for 0", refused is not None and "lat=41.088154" in
          driver.current_url, driver.current_url)

    # Typing coordinates (keyboard only) instead of geolocation.
    field.clear()
    field.send_keys("41.086059")
    longitude = driver.find_element(By.ID, "lon")
    longitude.clear()
    longitude.send_keys("29.008232", Keys.ENTER)
    wait(driver, lambda: "lat=41.086059" in driver.current_url and rows(driver, "places-table"),
         "typed coordinates and Enter show the places there")
    check("typed coordinates: Emre is here, at 0 m",
          rows(driver, "places-table")[:1] == [("emre", "1", "Emre", "0 m", "here")], str(rows(driver, "places-table")))
    unlabelled = driver.execute_script("""return [...document.querySelectorAll('input, button')]
        .filter((c) => c.labels && c.labels.length === 0 && !c.textContent.trim()).map((c) => c.id);""")
    check("every control has a label", unlabelled == [], str(unlabelled))
    table = driver.execute_script("""const table = document.getElementById('places-table');
        return [document.getElementById(table.getAttribute('aria-labelledby')).textContent,
            table.querySelectorAll('thead th[scope=col]').length, table.querySelectorAll('tbody th[scope=row]').length,
            table.tBodies[0].rows.length];""")
    check("the list is a table named by its heading, with column headers and each name heading its row",
          table[0].endswith("nearest first") and table[1] == 4 and table[2] == table[3] > 0, str(table))

    # The browser's geolocation, when the link has no location: Arzu's position, granted.
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": API, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": 41.086854, "longitude": 29.007683, "accuracy": 10})
    driver.get(API + "/")
    located = wait(driver, lambda: rows(driver, "places-table")[:1] == [("arzu", "1", "Arzu", "0 m", "here")],
                   "the browser's location is used")
    check("without a location in the link, the browser's geolocation is asked for and used", located is not None)
    check("... and the link then holds it", "lat=41.086854&lon=29.007683&radius=500" in driver.current_url,
          driver.current_url)
    # A click on the map chooses the location instead (the fallback): west of the centre, farther away.
    ActionChains(driver).move_to_element_with_offset(driver.find_element(By.ID, "map"), -150, 0).click().perform()
    clicked = wait(driver, lambda: "lat=41.086854" not in driver.current_url and
                   float(driver.find_element(By.ID, "lon").get_attribute("value")) < 29.007683,
                   "a click on the map moves the location")
    check("a click on the map chooses the location", clicked is not None, driver.current_url)

    # Large text: bigger type, directions in words.
    driver.find_element(By.ID, "large-text").click()
    in_words = wait(driver, lambda: driver.execute_script("return document.documentElement.className") == "large" and
                    rows(driver, "places-table") and
                    all(r[4].islower() and len(r[4]) > 3 for r in rows(driver, "places-table")), "large text")
    check("large text: directions in words", in_words is not None, str(rows(driver, "places-table")))
    driver.find_element(By.ID, "large-text").click()

    # A value exactly halfway is rounded as printf (and the text map) rounds it, to even: 12.5 km is "12 km".
    driver.get(f"{API}/?lat={HERE[0]}&lon={HERE[1]}&radius=12500")
    title = wait(driver, lambda: "within" in driver.find_element(By.ID, "places-list-title").text and
                 driver.find_element(By.ID, "places-list-title").text, "the 12.5 km list loads")
    check("a radius of 12500 m is \"12 km\" as the text map writes it", bool(title) and "within 12 km," in title,
          str(title))

    # Screenshots of a busy neighbourhood: Oxford Circus, London, 500 m.
    driver.get(f"{API}/?lat=51.5152&lon=-0.1420&radius=500")
    wait(driver, lambda: len(rows(driver, "places-table")) > 3, "Oxford Circus loads")
    shot(driver, "pharmacies-desktop.png", 1280, 800)
    shot(driver, "pharmacies-phone.png", 390, 844)


def sign_in(driver, user, token):
    driver.get(f"{API}/?view=people")
    driver.find_element(By.ID, "user-id").send_keys(user)
    driver.find_element(By.ID, "user-token").send_keys(token, Keys.ENTER)
    wait(driver, lambda: driver.find_element(By.ID, "stream-state").text.startswith("Live"), f"{user}'s page goes live")


def people_view(first, second):
    users = TOKENS
    for user, name, lat, lon in [("ayse", "Ayşe", 41.0870, 29.0140), ("mehmet", "Mehmet", 41.0890, 29.0160),
                                 ("hostile", HOSTILE, 41.0850, 29.0200), ("zeynep", "Zeynep", 41.0925, 29.0215),
                                 ("can", "Can", 41.0915, 29.0095)]:
        users[user] = call("POST", "/v1/users", {"id": user, "name": name, "location": {"lat": lat, "lon": lon}},
                           ADMIN)["token"]
    # Another user's token: Ayşe is public, so her profile answers it, but her watch does not.
    second.get(f"{API}/?view=people")
    second.find_element(By.ID, "user-id").send_keys("ayse")
    second.find_element(By.ID, "user-token").send_keys(users["mehmet"], Keys.ENTER)
    refused = wait(second, lambda: "not this user's" in second.find_element(By.ID, "people-status").text and
                   second.find_element(By.ID, "sign-in").is_displayed(), "another user's token is refused")
    check("signing in with another user's token fails and signs out", refused is not None and
          second.execute_script("return sessionStorage.getItem('vicinity.session')") is None)
    # The refused watch is logged by the browser, as expected; nothing else may be.
    unexpected = [error for error in console_errors(second) if "/nearby/watch" not in error or "403" not in error]
    check("... and logs nothing but the refused watch", unexpected == [], "\n".join(unexpected))
    sign_in(first, "ayse", users["ayse"])
    sign_in(second, "mehmet", users["mehmet"])
    check("the token is in session storage, never in the address",
          users["mehmet"] not in second.current_url and users["mehmet"] in
          second.execute_script("return sessionStorage.getItem('vicinity.session')"))

    def seen(driver):
        return {row[0] for row in rows(driver, "people-table")}

    # Mehmet's table is /v1/users/nearby around him, asked with his token (published places).
    around = call("GET", "/v1/users/nearby?lat=41.0890&lon=29.0160&radius=1000", token=users["mehmet"])
    want = [(hit["id"], "You" if hit["id"] == "mehmet" else None, hit["name"], distance_text(hit["distance_m"]),
             direction_text(hit)) for hit in around["results"]]
    got = [(row[0], "You" if row[1] == "You" else None, row[2], row[3], row[4]) for row in rows(second, "people-table")]
    check("the people table equals /v1/users/nearby around the user", got == want, f"{got} != {want}")
    published = next(hit for hit in around["results"] if hit["id"] == "ayse")
    placed = [m for m in markers(second) if m[0] == "ayse"]
    check("others are at their published position only",
          placed == [("ayse", placed[0][1] if placed else "", published["lat"], published["lon"])]
          and (published["lat"], published["lon"]) != (41.0870, 29.0140), f"{placed} vs {published}")
    names = [row[2] for row in rows(second, "people-table")]
    check("a hostile user name is text in the table", HOSTILE in names, str(names))
    check("... and no element of it was made",
          second.execute_script("return document.querySelectorAll('img[src=\"x\"]').length") == 0)
    shot(second, "people-desktop.png", 1280, 800)
    shot(second, "people-phone.png", 390, 844)

    # Ayşe turns "visible to others" off: she leaves Mehmet's map and table, live.
    switch = first.find_element(By.ID, "visible")
    check("the switch shows Ayşe visible", switch.is_selected())
    switch.send_keys(Keys.SPACE)
    gone = wait(second, lambda: "ayse" not in seen(second) and
                all(m[0] != "ayse" for m in markers(second)), "Ayşe leaves Mehmet's map")
    check("the visibility switch (Space) makes the user vanish from another session's map", gone is not None)
    check("... and the operation made her private",
          call("GET", "/v1/users/ayse", token=users["ayse"])["visibility"] == "private")
    # The switch is disabled while its PUT is in flight: click it once that has answered.
    wait(first, lambda: switch.is_enabled() and not switch.is_selected() and
         "You are private" in first.find_element(By.ID, "people-status").text, "Ayşe's switch answers")
    switch.click()
    wait(second, lambda: "ayse" in seen(second), "Ayşe is back on Mehmet's map once visible again")

    # A move made with the CLI, by another process on the same database: shows without a reload. It
    # takes Can (1.1 km west of her new position) out of Ayşe's radius, so her stream sends his exit
    # before her new centre.
    before = user_hit("ayse", users["mehmet"])
    subprocess.run(CLI + ["user", "move", "ayse", "41.0930", "29.0230", "--db", DB, "--token", users["ayse"]],
                   check=True, capture_output=True)
    hit = after_move("ayse", users["mehmet"], before)
    moved = wait(second, lambda: any(row[0] == "ayse" and row[3] == distance_text(hit["distance_m"])
                                     for row in rows(second, "people-table")), "the move shows")
    check("a move made with the CLI shows on an open page without a reload (distance "
          f"{distance_text(hit['distance_m'])})", moved is not None, str(rows(second, "people-table")))
    centred = wait(first, lambda: any(m[0] == "ayse" and abs(m[2] - 41.0930) < 1e-9 for m in markers(first)) or
                   first.execute_script("""return [...document.querySelectorAll('.marker.me')].length > 0 &&
                       [...document.querySelectorAll('.leaflet-marker-icon')].some((m) =>
                       m.dataset.lat === '41.093' && m.dataset.lon === '29.023')"""), "Ayşe's own map follows her")
    check("... and the user's own map is centred on the new position", bool(centred))
    left = wait(first, lambda: "can" not in seen(first) and all(m[0] != "can" for m in markers(first)),
                "Can leaves Ayşe's map")
    # The map refits on a move even when exits came first: her marker is in the middle of the map.
    offset = first.execute_script("""const me = document.querySelector('.marker.me').getBoundingClientRect();
        const box = document.getElementById('map').getBoundingClientRect();
        const inside = me.left >= box.left && me.right <= box.right && me.top >= box.top && me.bottom <= box.bottom;
        return inside ? Math.hypot(me.left + me.width / 2 - box.left - box.width / 2,
            me.top + me.height / 2 - box.top - box.height / 2) : null;""") if left else None
    check("a move that takes someone out of the radius refits the user's map on her",
          offset is not None and offset < 4, f"{offset} px from the map's middle")


def stream_lost(first, second):
    """The server gone under an open page: it says so, reconnects, and catches up with what it missed."""
    before = {name: console_errors(driver) for name, driver in [("first", first), ("second", second)]}
    for name, errors in before.items():
        check(f"no console errors in the {name} session", errors == [], "\n".join(errors))
    # The server stops (its streams end), a move is made while it is down, and it starts again.
    os.kill(int(os.environ["SERVER_PID"]), signal.SIGTERM)
    lost = wait(second, lambda: second.find_element(By.ID, "stream-state").text == "Stream lost, reconnecting…",
                "the page says the stream is lost")
    check("a lost stream shows \"Stream lost, reconnecting…\"", lost is not None)
    subprocess.run(CLI + ["user", "move", "ayse", "41.0885", "29.0158", "--db", DB, "--token", TOKENS["ayse"]],
                   check=True, capture_output=True)
    stopped = False
    for _ in range(100):
        try:
            size_of("/healthz")
            time.sleep(0.1)
        except OSError:
            stopped = True
            break
    check("the server stops within 10 s of SIGTERM", stopped)
    log = open(os.environ["SERVE_LOG"], "w")
    RESTARTED.append(subprocess.Popen(shlex.split(os.environ["SERVE"]), stderr=log))
    for _ in range(100):
        try:
            size_of("/healthz")
            break
        except OSError:
            time.sleep(0.1)
    log.close()
    with open(os.environ["SERVE_LOG"]) as written:
        check("the server starts again (its own, not the old one, answers)", RESTARTED[-1].poll() is None,
              written.read()[-2000:])
    after = call("GET", "/v1/users/nearby?lat=41.0890&lon=29.0160&radius=1000", token=TOKENS["mehmet"])
    hit = next(hit for hit in after["results"] if hit["id"] == "ayse")
    back = wait(second, lambda: second.find_element(By.ID, "stream-state").text.startswith("Live") and any(
        row[0] == "ayse" and row[3] == distance_text(hit["distance_m"]) for row in rows(second, "people-table")),
        "the page reconnects", seconds=20)
    check("... reconnects and shows the move made while it was cut off", back is not None,
          str(rows(second, "people-table")))
    # What the cut itself logged (the reconnections refused while the server was down) is expected.
    second.get_log("browser")


def main():
    total = sum(size_of(path) for path in ["/", "/map.js", "/map.css", "/favicon.svg"])
    check(f"the page's own files total under 50 KB ({total} bytes)", total < 50_000)
    drivers = []
    try:
        first = browser()
        drivers.append(first)
        second = browser()
        drivers.append(second)
        places_view(first)
        people_view(first, second)
        for name, driver in [("first", first), ("second", second)]:
            try:
                driver.switch_to.alert
                check(f"no alert in the {name} session", False, "an alert is open")
            except NoAlertPresentException:
                pass
        stream_lost(first, second)
    finally:
        for driver in drivers:
            driver.quit()
        for server in RESTARTED:
            server.terminate()
            server.wait()
    if failures:
        print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
