"""The search view (#/search?q=…): suggestions from the server as one types, a keyboard-navigable
listbox, the photos found in the library's grid opening the pager on them, the empty state, `/`
from the grid, Places and On This Day, and the same under a share link, which finds only the
link's photos. Screenshots of each state at phone and desktop size in build/screenshots/.

The photos are made here with their cameras, dates, places (GPS, named from a small GeoNames table
written beside the data) and file names; the server's index fills in the background after it
starts, so each test waits for the server to find them before it looks at the page."""

import datetime
import json
import os
import urllib.parse

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import screenshot, start_server
from gestures import emulate, js, wait_for
from pages import hash_of, open_app, visible_view
from photos import add_exif, camera_exif, make_photo
from test_a11y import clean
from test_access import api, users

OWNER, OWNER_PASSWORD = "ana", "correct horse battery"
TODAY = datetime.date.today()

# Two cities of GeoNames' cities table, as its columns lay them out (name, latitude, longitude,
# country and first-level region), and their regions' names.
CITIES = [("2267057", "Lisbon", "38.71667", "-9.13333", "PT", "14"), ("2735943", "Porto", "41.14961", "-8.61099", "PT", "17")]
REGIONS = [("PT.14", "Lisbon"), ("PT.17", "Porto")]

# path, taken, make, model, (latitude, longitude) or None
PHOTOS = [
    ("Trip/tram.jpg", "2019:07:14 10:00:00", "FUJIFILM", "X100V", (38.7139, -9.1394)),
    ("Trip/castle.jpg", "2019:07:15 17:30:00", "FUJIFILM", "X100V", (38.7139, -9.1335)),
    ("Trip/bridge.jpg", "2021:03:02 12:00:00", "SONY", "ILCE-7M3", (41.1406, -8.6110)),
    ("garden.jpg", "2020:05:01 09:00:00", "Apple", "iPhone 15 Pro", None),
    ("harbour.jpg", "2018:07:20 08:00:00", "FUJIFILM", "X100V", (38.7050, -9.1450)),
    # Taken on this month and day in earlier years: On This Day.
    ("birthday.jpg", f"{TODAY.year - 3}:{TODAY:%m:%d} 15:00:00", "Apple", "iPhone 15 Pro", None),
    ("birthday-cake.jpg", f"{TODAY.year - 3}:{TODAY:%m:%d} 15:10:00", "Apple", "iPhone 15 Pro", None),
    ("snow.jpg", f"{TODAY.year - 1}:{TODAY:%m:%d} 11:00:00", "SONY", "ILCE-7M3", None),
]


@pytest.fixture(scope="module")
def search_server(work_dir):
    """A library whose photos a search tells apart, an owner (who makes share links) made with the
    command line, and place names from a GeoNames table of two cities."""
    photos = os.path.join(work_dir, "photos-search")
    data = os.path.join(work_dir, "data-search")
    for i, (relative, taken, make, model, where) in enumerate(PHOTOS):
        path = os.path.join(photos, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        make_photo(path, 640, 480, i)
        latitude, longitude = where or (None, None)
        add_exif(path, camera_exif(make=make, model=model, taken=taken, offset="+00:00", latitude=latitude, longitude=longitude))
    geonames = os.path.join(data, "geonames")
    os.makedirs(geonames, exist_ok=True)
    with open(os.path.join(geonames, "cities15000.txt"), "w") as f:
        for geonameid, name, latitude, longitude, country, region in CITIES:
            f.write("\t".join([geonameid, name, name, "", latitude, longitude, "P", "PPLA", country, "", region,
                               "", "", "", "500000", "", "50", "Europe/Lisbon", "2024-01-01"]) + "\n")
    with open(os.path.join(geonames, "admin1CodesASCII.txt"), "w") as f:
        for code, name in REGIONS:
            f.write(f"{code}\t{name}\t{name}\t0\n")
    assert users(data, "add", OWNER, "--owner", password=OWNER_PASSWORD).returncode == 0
    running = start_server(photos, data, comments_per_minute=0, expected_photos=len(PHOTOS),
                           env_extra={"PHOTOSCROLL_SHOW_LOCATION": "true"})
    running.photos_dir = photos
    # The index is filled in the background: every photo is found by its year, and those taken in
    # Lisbon by its name, before a test looks.
    for year in {taken[:4] for _, taken, *_ in PHOTOS}:
        wanted = sum(taken.startswith(year) for _, taken, *_ in PHOTOS)
        wait_for(lambda: found(running, year) >= wanted, timeout=120, message=f"the photos of {year} indexed")
    wait_for(lambda: found(running, "lisbon") == 3, timeout=120, message="the photos of Lisbon indexed")
    yield running
    running.stop()


def found(server, query, prefix=""):
    """How many photos the server finds for `query` (under a share link's `prefix`)."""
    return server.get_json(f"{prefix}/search?q={urllib.parse.quote(query)}&limit=1")["total"]


def titles_found(driver):
    """The titles of the result cells drawn, in order."""
    return js(driver, """return [...document.querySelectorAll('#search-results .cell[data-photo-id]')]
        .sort((a, b) => a.parentElement.getAttribute('aria-posinset') - b.parentElement.getAttribute('aria-posinset'))
        .map((cell) => cell.querySelector('.cell-title').textContent);""")


def wait_results(driver, expected, message):
    """The result cells named, as many as `expected`; returns their titles."""
    return wait_for(lambda: (lambda t: len(t) == expected and all(t) and t)(titles_found(driver)), timeout=30, message=message)


def search_shown(driver):
    return js(driver, "return !document.getElementById('search-view').hidden")


def open_search(driver, server, query=None, base=None):
    """The search view straight from its URL, ready."""
    route = "search" if query is None else f"search?q={urllib.parse.quote(query)}"
    if base is None:
        open_app(driver, server, route)
    else:
        driver.get("about:blank")
        driver.get(f"{base}#/{route}")
        wait_for(lambda: js(driver, "return document.documentElement.dataset.ready === 'true'"), message="page ready")
    wait_for(lambda: search_shown(driver), message="the search view")


def suggestions(driver):
    return js(driver, """return [...document.querySelectorAll('#search-suggestions [role=option]')].map((o) => ({
        text: o.querySelector('.suggestion-text').textContent, selected: o.getAttribute('aria-selected'), id: o.id}));""")


def field(driver):
    return driver.find_element(By.CSS_SELECTOR, "#search-input")


def shoot(driver, name, prepare=lambda: None):
    """The view `prepare` leaves on screen, on a phone and a desktop."""
    for device, (width, height, dpr, mobile) in (("phone", (390, 844, 3, True)), ("desktop", (1440, 900, 2, False))):
        emulate(driver, width, height, dpr=dpr, mobile=mobile)
        prepare()
        screenshot(driver, f"search-{name}-{device}")


def test_typing_shows_the_servers_suggestions_and_choosing_one_shows_its_photos(desktop, search_server):
    open_search(desktop, search_server)
    assert js(desktop, "return document.activeElement.id") == "search-input", "the field takes the focus"
    box = field(desktop)
    assert box.get_attribute("role") == "combobox" and box.get_attribute("aria-expanded") == "false"
    box.send_keys("fuji")
    wait_for(lambda: [s["text"] for s in suggestions(desktop)], message="suggestions")
    offered = [s["text"] for s in suggestions(desktop)]
    asked = [s["text"] for s in search_server.get_json("/search/suggest?q=fuji")["suggestions"]]
    assert offered == asked, (offered, asked)
    assert any("X100V" in text for text in offered), offered
    assert box.get_attribute("aria-expanded") == "true"
    assert box.get_attribute("aria-controls") == "search-suggestions"
    # ↓ marks the first suggestion (the field keeps the focus and names it), Enter searches for it.
    box.send_keys(Keys.ARROW_DOWN)
    first = suggestions(desktop)[0]
    assert first["selected"] == "true" and box.get_attribute("aria-activedescendant") == first["id"]
    box.send_keys(Keys.ARROW_DOWN, Keys.ARROW_UP)
    assert box.get_attribute("aria-activedescendant") == first["id"], "↑ came back to the first"
    chosen = search_server.get_json("/search/suggest?q=fuji")["suggestions"][0]
    shoot(desktop, "suggestions")
    emulate(desktop, 1280, 800, dpr=1, mobile=False)
    box.send_keys(Keys.ENTER)
    wait_for(lambda: hash_of(desktop) == "#/search?q=" + urllib.parse.quote(chosen["query"], safe=""), message="the search's URL")
    x100v = sorted(os.path.splitext(os.path.basename(p))[0] for p, _, _, model, _ in PHOTOS if model == "X100V")
    assert sorted(wait_results(desktop, len(x100v), "the X100V's photos")) == x100v
    assert box.get_attribute("aria-expanded") == "false"
    status = js(desktop, "return document.querySelector('.search-status').textContent")
    assert status == f"{len(x100v)} photos", status


def test_a_suggestion_clicked_and_a_reload_show_the_same_photos(phone, search_server):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    open_search(phone, search_server)
    field(phone).send_keys("lisb")
    wait_for(lambda: any(s["text"] == "Lisbon" for s in suggestions(phone)), message="Lisbon suggested")
    option = next(o for o in phone.find_elements(By.CSS_SELECTOR, "#search-suggestions [role=option]")
                  if o.find_element(By.CSS_SELECTOR, ".suggestion-text").text == "Lisbon")
    option.click()
    lisbon = sorted(["tram", "castle", "harbour"])
    assert sorted(wait_results(phone, 3, "Lisbon's photos")) == lisbon
    # The newest of equally good matches first.
    assert titles_found(phone) == ["castle", "tram", "harbour"]
    before = hash_of(phone)
    phone.refresh()
    wait_for(lambda: search_shown(phone) and js(phone, "return document.documentElement.dataset.ready === 'true'"), message="reloaded")
    assert hash_of(phone) == before
    assert titles_found(phone) == ["castle", "tram", "harbour"] or wait_results(phone, 3, "the same photos") == ["castle", "tram", "harbour"]
    assert field(phone).get_attribute("value") == urllib.parse.unquote(before.split("q=", 1)[1])


def test_a_search_that_matches_nothing_says_so(phone, search_server):
    open_search(phone, search_server, "zanzibar")
    wait_for(lambda: js(phone, "return document.querySelector('.search-status').textContent") == "No photos match “zanzibar”.",
             message="the empty state")
    assert js(phone, "return document.querySelectorAll('#search-results li').length") == 0
    assert js(phone, "return !document.querySelector('.search-hint').hidden")
    shoot(phone, "empty", lambda: wait_for(lambda: js(phone, "return document.querySelector('.search-status').getBoundingClientRect().height") > 0,
                                           message="drawn"))


def test_slash_opens_search_from_the_grid_and_a_result_opens_the_pager_on_it(desktop, search_server):
    open_app(desktop, search_server)
    wait_for(lambda: visible_view(desktop) == "grid", message="the grid")
    assert js(desktop, "return document.querySelector('#search-button').getAttribute('href')") == "#/search"
    ActionChains(desktop).send_keys("/").perform()
    wait_for(lambda: search_shown(desktop), message="the search view")
    assert hash_of(desktop) == "#/search"
    wait_for(lambda: js(desktop, "return document.activeElement.id") == "search-input", message="the field focused")
    assert field(desktop).get_attribute("value") == "", "the / typed nothing"
    field(desktop).send_keys("2021", Keys.ENTER)
    assert wait_results(desktop, 1, "the photo of 2021") == ["bridge"]
    bridge = search_server.photos["bridge"]
    desktop.find_element(By.CSS_SELECTOR, f"#search-results [data-photo-id='{bridge['id']}']").click()
    wait_for(lambda: visible_view(desktop) == "pager" and js(desktop, "return window.__pager.photo?.photo?.id") == bridge["id"],
             message="the pager on the bridge")
    assert hash_of(desktop) == f"#/search/photos/{bridge['id']}?q=2021"
    assert js(desktop, "return window.__pager.count") == 1, "the pager pages through the results only"
    back = desktop.find_element(By.CSS_SELECTOR, ".pager-back")
    assert back.get_attribute("aria-label") == "Back to the photos matching 2021"
    ActionChains(desktop).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: search_shown(desktop) and js(desktop, "return document.getElementById('pager-view').hidden"),
             message="back on the results")
    assert hash_of(desktop) == "#/search?q=2021"
    wait_for(lambda: js(desktop, "return document.activeElement.dataset.photoId") == str(bridge["id"]), message="its cell focused")


def test_a_photo_opened_from_a_search_pages_through_its_results(phone, search_server):
    query = "july 2019"
    expected = search_server.get_json(f"/search?q={urllib.parse.quote(query)}")["photos"]
    assert [p["title"] for p in expected] == ["castle", "tram"]
    first = expected[0]
    open_app(phone, search_server, f"search/photos/{first['id']}?q={urllib.parse.quote(query)}")
    wait_for(lambda: js(phone, "return window.__pager.photo?.photo?.id") == first["id"], message="the pager from the URL")
    assert js(phone, "return window.__pager.count") == 2
    js(phone, "document.querySelector('.pager-next').click()")
    wait_for(lambda: js(phone, "return window.__pager.photo?.photo?.id") == expected[1]["id"], message="the next result")
    wait_for(lambda: hash_of(phone) == f"#/search/photos/{expected[1]['id']}?q=july%202019", message="its URL")


def test_places_and_on_this_day_run_their_searches(phone, search_server):
    places = search_server.get_json("/places")["places"]
    assert [p["name"] for p in places] == ["Lisbon", "Porto"], places
    open_search(phone, search_server)
    wait_for(lambda: js(phone, "return !document.querySelector('.search-places').hidden"), message="the places")
    cards = js(phone, """return [...document.querySelectorAll('.places a')].map((a) => ({
        name: a.querySelector('.card-name').textContent, about: a.querySelector('.card-about').textContent,
        href: a.getAttribute('href'), cover: a.querySelector('img').getAttribute('src')}));""")
    assert [c["name"] for c in cards] == ["Lisbon", "Porto"]
    assert cards[0]["about"] == "3 photos · Portugal", cards[0]
    assert cards[0]["cover"] == places[0]["cover"]["thumbnail"]
    wait_for(lambda: js(phone, "return !document.querySelector('.search-memories').hidden"), message="On This Day")
    years = js(phone, "return [...document.querySelectorAll('.memories a .card-name')].map((n) => n.textContent)")
    assert years == [str(TODAY.year - 1), str(TODAY.year - 3)], years
    for scheme in ("light", "dark"):
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        clean(phone, f"On This Day and the Places, {scheme}")
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    shoot(phone, "home", lambda: js(phone, "document.activeElement.blur(); window.scrollTo(0, 0)"))
    emulate(phone, 390, 844, dpr=1, mobile=True)
    phone.find_element(By.CSS_SELECTOR, ".places a").click()
    assert sorted(wait_results(phone, 3, "Lisbon's photos")) == ["castle", "harbour", "tram"]
    assert hash_of(phone) == "#/search?q=" + urllib.parse.quote(places[0]["query"], safe="")
    phone.back()
    wait_for(lambda: js(phone, "return !document.querySelector('.search-memories').hidden"), message="On This Day again")
    # The row is drawn again when /memories answers anew, so a card found first can be replaced
    # before a click reaches it: found and clicked in one step in the page.
    js(phone, "document.querySelector('.memories a').click()")
    assert wait_results(phone, 1, "last year's photo of today") == ["snow"]
    shoot(phone, "results")


def test_under_a_share_link_search_sees_only_the_links_photos(phone, search_server):
    _, session, headers = api(search_server, "/session", "POST", {"username": OWNER, "password": OWNER_PASSWORD})
    cookie = headers["Set-Cookie"].split(";")[0]
    trip = next(a["id"] for a in api(search_server, "/folders", cookie=cookie)[1]["folders"] if a["title"] == "Trip")
    status, link, _ = api(search_server, "/shares", "POST", {"folder": trip}, cookie)
    assert status == 201, link
    prefix = urllib.parse.urlparse(link["url"]).path
    # The library has three X100V photos; the link (its folder Trip), two. It does not show where
    # photos were taken, so no place is suggested or found through it.
    assert found(search_server, "x100v") == 3 and found(search_server, "x100v", prefix) == 2
    open_search(phone, search_server, base=link["url"])
    field(phone).send_keys("x100")
    wait_for(lambda: suggestions(phone), message="suggestions under the link")
    for suggestion in search_server.get_json(f"{prefix}/search/suggest?q=x100")["suggestions"]:
        assert suggestion["count"] <= 2, suggestion
    field(phone).send_keys(Keys.ENTER)
    assert sorted(wait_results(phone, 2, "the link's X100V photos")) == ["castle", "tram"]
    asked = js(phone, """return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
        .filter((p) => /\\/search(\\/suggest)?$/.test(p))""")
    assert asked and all(path.startswith(prefix + "/search") for path in asked), asked
    # No place is offered through a link that does not show where photos were taken.
    open_search(phone, search_server, base=link["url"])
    field(phone).send_keys("lisb")
    field(phone).send_keys(Keys.ENTER)
    wait_for(lambda: js(phone, "return document.querySelector('.search-status').textContent") == "No photos match “lisb”.",
             message="no place through the link")
    tram = search_server.photos["tram"]
    open_search(phone, search_server, "2019", base=link["url"])
    wait_results(phone, 2, "the link's photos of 2019")
    phone.find_element(By.CSS_SELECTOR, f"#search-results [data-photo-id='{tram['id']}']").click()
    wait_for(lambda: js(phone, "return window.__pager.photo?.photo?.id") == tram["id"], message="the pager under the link")
    clean(phone, "a search's photo under a link")
    shoot(phone, "link", lambda: None)


def test_search_offline_says_it_needs_the_server(phone, search_server):
    open_search(phone, search_server)
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        field(phone).send_keys("tram", Keys.ENTER)
        wait_for(lambda: "cannot be reached" in js(phone, "return document.querySelector('.search-status').textContent"),
                 message="the offline note")
        assert js(phone, "return document.getElementById('search-view').classList.contains('search-offline')")
    finally:
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    # Back online, the search runs by itself.
    assert wait_results(phone, 1, "the search run again") == ["tram"]


def test_thousands_of_results_stay_windowed_and_are_paged_through_to_the_last(desktop, collection_server):
    """2,500 photos named IMG_…: all of them match `img`. The grid sizes itself for all of them at
    once, draws only the rows near the screen, and the last is reached by paging through the
    server's answer (a page after the last photo of the one before)."""
    count = len(collection_server.paths)
    wait_for(lambda: found(collection_server, "img") == count, timeout=180, message="every photo indexed")
    open_search(desktop, collection_server, "img")
    wait_for(lambda: js(desktop, "return document.querySelector('.search-status').textContent") == f"{count:,} photos",
             message="the count")
    # Sized for every row at once (at least 2,500 / 8 columns of 150 px), whatever is drawn.
    assert js(desktop, "return document.getElementById('search-results').offsetHeight") > count / 8 * 150
    js(desktop, "window.scrollTo(0, document.body.scrollHeight)")
    oldest = os.path.splitext(os.path.basename(collection_server.paths[0]))[0]
    wait_for(lambda: js(desktop, """const cells = [...document.querySelectorAll('#search-results li')];
        const last = cells.find((li) => li.getAttribute('aria-posinset') === li.getAttribute('aria-setsize'));
        return last?.querySelector('.cell-title').textContent""") == oldest, timeout=30, message="the last result, the oldest photo")
    drawn = js(desktop, "return document.querySelectorAll('#search-results li').length")
    assert drawn < 300, drawn
    asked = js(desktop, """return performance.getEntriesByType('resource').map((e) => new URL(e.name))
        .filter((u) => u.pathname === '/search').map((u) => Number(u.searchParams.get('limit')))""")
    assert max(asked) <= 1000 and sum(asked) < 2 * count, asked


# The first answer to a search says the index is still being filled and found nothing yet, as a
# server just started answers before its index has the photos; later answers are the server's own.
PARTIAL_FIRST = """
const serverFetch = window.fetch;
let answered = 0;
window.fetch = async (url, init) => {
  const response = await serverFetch(url, init);
  if (new URL(String(url), location.href).pathname !== '/search' || answered++ > 0) return response;
  const page = await response.json();
  return new Response(JSON.stringify({ ...page, total: 0, photos: [], next: null, partial: true }),
                      { headers: { 'Content-Type': 'application/json' } });
};"""


def test_while_the_index_is_filled_it_says_so_and_asks_again(desktop, search_server):
    desktop.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PARTIAL_FIRST})
    open_search(desktop, search_server, "2021")
    wait_for(lambda: js(desktop, "return !document.querySelector('.search-note').hidden"), message="the note")
    assert "still being indexed" in js(desktop, "return document.querySelector('.search-note').textContent")
    # Asked again by itself, the photo comes and the note goes.
    assert wait_results(desktop, 1, "the photo found when asked again") == ["bridge"]
    wait_for(lambda: js(desktop, "return document.querySelector('.search-note').hidden"), message="the note gone")
    asked = js(desktop, "return performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === '/search').length")
    assert asked >= 2, asked
