"""The grid's density: pinched on a phone, Ctrl+wheeled or stepped with + and − on a desktop, from
1 to 15 columns and then Months and Years, the photo under the fingers (the mouse, the screen's
centre) staying under them; one choice for every grid, kept across a reload; and a month or a year
tapped brings its photos back at the top."""

import json
import time
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import screenshot
from gestures import emulate, js, pinch, tap, touch, wait_for
from pages import open_app, visible_view

COLUMNS = """
const lefts = [...document.querySelectorAll('#grid .cell')].map(a => Math.round(a.getBoundingClientRect().left));
return document.getElementById('grid').hidden ? 0 : new Set(lefts).size;
"""
# The photo whose place holds the point: its cell, or the gap after it (to its right, below it).
UNDER = """
const [x, y] = arguments;
const gap = parseFloat(getComputedStyle(document.getElementById('grid')).getPropertyValue('--grid-gap'));
const cell = [...document.querySelectorAll('#grid .cell')].find(a => {
    const r = a.getBoundingClientRect();
    return r.left <= x && x < r.right + gap && r.top <= y && y < r.bottom + gap;
});
return cell ? Number(cell.dataset.photoId) : null;
"""
SUMMARY = """
const list = document.querySelector('#grid-view .grid-summary');
if (!list || list.hidden) return null;
return {kind: list.dataset.kind, label: list.getAttribute('aria-label'),
        cards: [...list.querySelectorAll('.summary-card')].map(c => {
            const r = c.getBoundingClientRect();
            return {name: c.querySelector('.summary-name').textContent, first: Number(c.dataset.first),
                    x: r.left + r.width / 2, y: r.top + r.height / 2, top: r.top, bottom: r.bottom,
                    src: c.querySelector('img').getAttribute('src')};
        })};
"""
CELL = """
const a = document.querySelector(`#grid .cell[data-photo-id="${arguments[0]}"]`);
if (!a) return null;
const r = a.getBoundingClientRect();
return {left: r.left, top: r.top, width: r.width, listLeft: document.getElementById('grid').getBoundingClientRect().left};
"""


def columns(driver):
    return js(driver, COLUMNS)


def under(driver, x, y):
    return js(driver, UNDER, x, y)


def summary(driver):
    return js(driver, SUMMARY)


def drawn_around(driver, x, y):
    """The photo under (x, y), once the cell there has its thumbnail."""
    def drawn():
        id_ = under(driver, x, y)
        return id_ if id_ and js(driver, CELL_SRC, id_) else None
    return wait_for(drawn, message="a photo drawn under the point")


CELL_SRC = "return document.querySelector(`#grid .cell[data-photo-id='${arguments[0]}'] img`)?.getAttribute('src')"


def settles_at(driver, expected, anchor, x, y, what):
    """The grid comes to `expected` columns with `anchor` still at (x, y) (a wheel event or a key is
    handled after the call that sends it returns)."""
    seen = []

    def settled():
        seen[:] = [(columns(driver), under(driver, x, y))]
        return seen[0] == (expected, anchor)
    try:
        wait_for(settled, timeout=30, message=what)
    except AssertionError:
        raise AssertionError(f"{what}: (columns, photo at the point) {seen[0]!r}, not {(expected, anchor)!r}") from None


def pinched(driver, x, y, start_gap, end_gap):
    """A pinch, and two frames for the page to draw what it did (cells are placed in a frame)."""
    pinch(driver, x, y, start_gap, end_gap)
    driver.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done))")


def to_the_middle(driver):
    js(driver, "window.scrollTo(0, document.getElementById('grid').offsetHeight * 0.5)")


def test_a_pinch_changes_the_columns_under_the_fingers_then_months_and_years(phone, collection_server):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    open_app(phone, collection_server)
    to_the_middle(phone)
    x, y = 150, 430
    anchor = drawn_around(phone, x, y)
    first = columns(phone)
    assert first == 4, first
    screenshot(phone, "grid-density-phone-4")

    # Fingers closing: more, smaller photos; the one under them stays under them.
    pinched(phone, x, y, 240, 110)
    more = columns(phone)
    assert first < more <= 15, more
    assert under(phone, x, y) == anchor
    screenshot(phone, f"grid-density-phone-{more}")
    # Fingers opening wide: fewer, larger ones, down to one column, the same photo under them.
    pinched(phone, x, y, 80, 320)
    fewer = columns(phone)
    assert 1 <= fewer < more, fewer
    assert under(phone, x, y) == anchor
    pinched(phone, x, y, 60, 340)
    assert columns(phone) == 1
    assert under(phone, x, y) == anchor
    screenshot(phone, "grid-density-phone-1")
    # And back in to the densest: 15 columns at most.
    pinched(phone, x, y, 340, 60)
    pinched(phone, x, y, 200, 80)
    densest = columns(phone)
    assert densest == 15, densest
    assert under(phone, x, y) == anchor
    assert not js(phone, "return document.getElementById('grid-view').classList.contains('selecting')"), \
        "a pinch is no long press: nothing chosen"
    screenshot(phone, "grid-density-phone-15")

    # Past the densest: Months, each month a card with its name and a key photo, in order taken,
    # the month of the photo under the fingers under them.
    pinched(phone, x, y, 240, 150)
    months = wait_for(lambda: summary(phone), message="Months shown")
    assert months["kind"] == "months" and months["label"] == "Months"
    assert 36 <= len(months["cards"]) <= 38, len(months["cards"])
    assert all(c["name"][-4:].isdigit() and " " in c["name"] for c in months["cards"]), months["cards"][:3]
    assert [c["first"] for c in months["cards"]] == sorted(c["first"] for c in months["cards"])
    firsts = [c["first"] for c in months["cards"]] + [10 ** 9]
    held = next(c for c, after in zip(months["cards"], firsts[1:]) if c["first"] < anchor <= after)
    assert held["top"] <= y <= held["bottom"], (held, y)
    wait_for(lambda: all(c["src"] for c in summary(phone)["cards"] if 0 < c["y"] < 844), message="key photos on screen")
    assert js(phone, "return document.querySelectorAll('#grid .cell').length") == 0, "the photos' cells gone meanwhile"
    screenshot(phone, "grid-density-phone-months")
    # Further: Years.
    pinched(phone, x, y, 260, 140)
    years = wait_for(lambda: (lambda s: s if s and s["kind"] == "years" else None)(summary(phone)), message="Years shown")
    assert 3 <= len(years["cards"]) <= 4 and all(c["name"].isdigit() for c in years["cards"]), years["cards"]
    wait_for(lambda: all(c["src"] for c in summary(phone)["cards"] if 0 < c["y"] < 844), message="key photos of the years")
    screenshot(phone, "grid-density-phone-years")

    # A year tapped: its photos at the columns shown before Months, its first photo at the top left.
    js(phone, "window.scrollTo(0, 0)")
    year = summary(phone)["cards"][1]
    tap(phone, year["x"], year["y"])
    wait_for(lambda: summary(phone) is None and columns(phone) == 15, message="the photos again")
    cell = wait_for(lambda: js(phone, CELL, year["first"] + 1), message="the year's first photo drawn")
    assert abs(cell["top"]) < 2 and abs(cell["left"] - cell["listLeft"]) < 2, cell
    label = wait_for(lambda: js(phone, "return document.querySelector('.grid-month-label').textContent"), message="month label")
    assert label.endswith(year["name"]), (label, year["name"])


def test_ctrl_wheel_and_keys_step_the_density_where_the_mouse_or_the_centre_is(desktop, collection_server):
    emulate(desktop, 1440, 900, dpr=2, mobile=False)
    open_app(desktop, collection_server)
    to_the_middle(desktop)
    x, y = 700, 500
    anchor = drawn_around(desktop, x, y)
    first = columns(desktop)
    assert first == 7, first
    screenshot(desktop, "grid-density-desktop-7")

    def wheel(delta, ctrl=True):
        desktop.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0,
                                                             "deltaY": delta, "modifiers": 2 if ctrl else 0})

    # Ctrl+wheel down: one step denser, the photo under the mouse still under it, the page not zoomed.
    wheel(100)
    settles_at(desktop, 9, anchor, x, y, "Ctrl+wheel down")
    assert js(desktop, "return visualViewport.scale") == 1
    wheel(-100)
    settles_at(desktop, 7, anchor, x, y, "Ctrl+wheel up")
    wheel(-100)
    settles_at(desktop, 6, anchor, x, y, "Ctrl+wheel up again")
    # A wheel without Ctrl scrolls, as ever.
    before = js(desktop, "return scrollY")
    wheel(300, ctrl=False)
    wait_for(lambda: js(desktop, "return scrollY") > before, message="scrolled by the wheel")
    assert columns(desktop) == 6

    # + and − step around the photo at the screen's centre; = is + without Shift.
    centre = (720, 450)
    anchor = drawn_around(desktop, *centre)
    body = desktop.find_element(By.TAG_NAME, "body")
    body.send_keys("-")
    settles_at(desktop, 7, anchor, *centre, "-")
    for key, expected in (("-", 9), ("-", 11), ("-", 13), ("-", 15), ("+", 13), ("=", 11)):
        ActionChains(desktop).send_keys(key).perform()
        settles_at(desktop, expected, anchor, *centre, key)
        screenshot(desktop, f"grid-density-desktop-{expected}")
    for expected in (9, 7, 6, 5, 4, 3, 2, 1):
        ActionChains(desktop).send_keys("+").perform()
        settles_at(desktop, expected, anchor, *centre, "+")
    screenshot(desktop, "grid-density-desktop-1")

    # Not while typing: − in the search field is a character.
    js(desktop, "location.hash = '#/search'")
    wait_for(lambda: visible_view(desktop) == "search", message="search")
    desktop.find_element(By.CSS_SELECTOR, "#search-input").send_keys("-")
    js(desktop, "location.hash = '#/'")
    wait_for(lambda: visible_view(desktop) == "grid" and columns(desktop) > 0, message="the grid again")
    assert columns(desktop) == 1

    # The same density in a folder's grid, and after a reload.
    for _ in range(3):
        ActionChains(desktop).send_keys("-").perform()
    assert columns(desktop) == 4
    folder = collection_server.get_json("/folders")["folders"][0]
    js(desktop, "location.hash = arguments[0]", f"#/folders/{folder['id']}")
    wait_for(lambda: js(desktop, "return document.getElementById('grid-title').textContent") == folder["title"]
             and columns(desktop) == 4, message="the folder's grid at 4 columns")
    desktop.refresh()
    wait_for(lambda: js(desktop, "return document.documentElement.dataset.ready === 'true'") and columns(desktop) == 4,
             message="4 columns after a reload")
    # Favourites has the same columns, and + and − there change every grid's.
    js(desktop, "location.hash = '#/favourites'")
    wait_for(lambda: js(desktop, "return !document.getElementById('favourites-view').hidden"), message="Favourites")
    favourites = "return getComputedStyle(document.querySelector('.favourites')).gridTemplateColumns.split(' ').length"
    assert js(desktop, favourites) == 4
    ActionChains(desktop).send_keys("-").perform()
    wait_for(lambda: js(desktop, favourites) == 5, message="5 columns in Favourites")
    ActionChains(desktop).send_keys("+").perform()
    wait_for(lambda: js(desktop, favourites) == 4, message="4 columns in Favourites again")

    # − past 15: Months, then Years; a month chosen with the keyboard shows its photos.
    js(desktop, "location.hash = '#/'")
    wait_for(lambda: js(desktop, "return document.getElementById('grid-title').textContent") == "Photos", message="library")
    for _ in range(7):
        ActionChains(desktop).send_keys("-").perform()
    assert columns(desktop) == 15
    ActionChains(desktop).send_keys("-").perform()
    months = wait_for(lambda: summary(desktop), message="Months")
    assert months["kind"] == "months"
    wait_for(lambda: all(c["src"] for c in summary(desktop)["cards"] if 0 < c["y"] < 900), message="key photos on screen")
    screenshot(desktop, "grid-density-desktop-months")
    ActionChains(desktop).send_keys("-").perform()
    assert summary(desktop)["kind"] == "years"
    wait_for(lambda: all(c["src"] for c in summary(desktop)["cards"] if 0 < c["y"] < 900), message="key photos on screen")
    screenshot(desktop, "grid-density-desktop-years")
    ActionChains(desktop).send_keys("+").perform()
    month = summary(desktop)["cards"][5]
    js(desktop, "document.querySelectorAll('#grid-view .summary-card')[5].focus()")
    ActionChains(desktop).send_keys("\n").perform()
    wait_for(lambda: summary(desktop) is None and columns(desktop) == 15, message="the photos at 15 columns")
    cell = wait_for(lambda: js(desktop, CELL, month["first"] + 1), message="the month's first photo drawn")
    assert abs(cell["top"]) < 2 and abs(cell["left"] - cell["listLeft"] - 16) < 2, cell
    label = wait_for(lambda: js(desktop, "return document.querySelector('.grid-month-label').textContent"), message="label")
    assert label == month["name"], (label, month["name"])


# The columns a list of cells shows (distinct left edges), and its cells' width.
LIST_COLUMNS = """
const cells = [...document.querySelectorAll(arguments[0])].filter(a => a.getBoundingClientRect().width > 0);
return {columns: new Set(cells.map(a => Math.round(a.getBoundingClientRect().left))).size,
        width: cells.length ? cells[0].getBoundingClientRect().width : 0,
        kept: localStorage.getItem('photoscroll.gridDensity')};
"""
SEARCH_CELLS = "#search-view .search-results .cell"
FAVOURITE_CELLS = "#favourites-view .favourites .favourite"


def favourite(server, ids, add=True):
    request = urllib.request.Request(server.url + "/favourites", method="POST",
                                     data=json.dumps({"add" if add else "remove": ids}).encode(),
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).read()


def list_shows(driver, selector, columns):
    return wait_for(lambda: (lambda s: s if s["columns"] == columns and s["kept"] == str(columns) else None)(
        js(driver, LIST_COLUMNS, selector)), message=f"{columns} columns in {selector}")


SIZES = [("phone", 390, 844, 3, True), ("desktop", 1440, 900, 2, False)]


LISTS = [("search", SEARCH_CELLS), ("favourites", FAVOURITE_CELLS)]


@pytest.mark.parametrize("name,width,height,dpr,mobile", SIZES, ids=[s[0] for s in SIZES])
@pytest.mark.parametrize("route,selector", LISTS, ids=[route for route, _ in LISTS])
def test_search_results_and_favourites_take_the_same_density_gestures(phone, server, route, selector,
                                                                      name, width, height, dpr, mobile):
    driver = phone
    emulate(driver, width, height, dpr=dpr, mobile=mobile)
    ids = [p["id"] for p in server.all_photos()]
    favourite(server, ids)
    try:
        open_app(driver, server)
        js(driver, "localStorage.setItem('photoscroll.gridDensity', '2')")
        if route == "search":
            route = "search?q=" + js(driver, "return String(new Date().getFullYear())")
        open_app(driver, server, route)
        wait_for(lambda: len(js(driver, f"return [...document.querySelectorAll('{selector} img')]"
                                       ".filter(i => i.complete && i.naturalWidth > 0)")) == len(ids),
                 timeout=30, message=f"every photo drawn in {route}")
        two = list_shows(driver, selector, 2)
        box = js(driver, f"return document.querySelector('{selector}').getBoundingClientRect().toJSON()")
        # Across the middle of the screen, at the height of the first photo.
        x, y = width / 2, box["top"] + box["height"] / 2
        view = route.split("?")[0]
        if mobile:
            # Fingers closing: smaller photos, more of them; opening: larger again.
            pinched(driver, x, y, 240, 110)
            more = wait_for(lambda: (lambda s: s if s["columns"] > 2 else None)(js(driver, LIST_COLUMNS, selector)),
                            message=f"a pinch in {route}")
            assert more["width"] < two["width"] and more["kept"] == str(more["columns"]), more
            screenshot(driver, f"grid-density-{name}-{view}-pinched")
            pinched(driver, x, y, 80, 320)
            wait_for(lambda: js(driver, LIST_COLUMNS, selector)["columns"] < more["columns"], message="pinched open")
        else:
            # − and + as on the grid (not while typing in the search field), and Ctrl+wheel, a trackpad's pinch.
            js(driver, "document.activeElement?.blur()")
            ActionChains(driver).send_keys("-").perform()
            three = list_shows(driver, selector, 3)
            assert three["width"] < two["width"]
            driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0,
                                                                "deltaY": 100, "modifiers": 2})
            list_shows(driver, selector, 4)
            assert js(driver, "return visualViewport.scale") == 1
            screenshot(driver, f"grid-density-{name}-{view}-4")
            ActionChains(driver).send_keys("+").perform()
            list_shows(driver, selector, 3)
    finally:
        favourite(server, ids, add=False)


def test_the_cells_scale_with_the_fingers_and_snap_to_a_density_when_they_lift(phone, server):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    open_app(phone, server)
    js(phone, "localStorage.removeItem('photoscroll.gridDensity')")
    open_app(phone, server)
    wait_for(lambda: columns(phone) == 4, message="the phone's four columns")
    js(phone, "window.scrollTo(0, 0)")
    first = js(phone, "return document.querySelector('#grid .cell').getBoundingClientRect().toJSON()")
    x, y = 195, first["top"] + first["height"] / 2
    anchor = under(phone, x, y)
    # Two fingers down and opening to half as far apart again, still on the glass.
    touch(phone, "touchStart", [(x - 60, y), (x + 60, y)])
    for gap in range(130, 181, 10):
        touch(phone, "touchMove", [(x - gap / 2, y), (x + gap / 2, y)])
        time.sleep(0.016)
    phone.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done))")
    live = js(phone, "return document.querySelector('#grid .cell').getBoundingClientRect().width")
    # The cells as the fingers have them, 1.5 times as large, not yet another number of columns.
    assert abs(live - first["width"] * 1.5) < 3, (live, first["width"])
    assert js(phone, "return localStorage.getItem('photoscroll.gridDensity')") is None, "no density chosen mid-pinch"
    screenshot(phone, "grid-density-phone-mid-pinch")
    phone.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    # Lifted: the nearest density (4 / 1.5 columns: 3), laid out, the photo under the fingers still there.
    wait_for(lambda: columns(phone) == 3, message="three columns once the fingers lift")
    width = js(phone, "return document.querySelector('#grid .cell').getBoundingClientRect().width")
    assert abs(width - (390 - 2 * 2) / 3) < 2, width
    assert under(phone, x, y) == anchor
