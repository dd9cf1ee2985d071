"""An album's order, chosen in the page: Sort shows it by date taken or in its own order, and
Select's Move to Start puts the photos chosen first; the server keeps it (a reload shows it) and
another window showing the album follows at once."""

import json
import urllib.request

import pytest
from selenium.webdriver.support.select import Select

from conftest import screenshot
from gestures import emulate, js, tap, wait_for
from pages import open_app

# The album's photos as the grid draws them, in reading order.
ORDER = """
return [...document.querySelectorAll('#grid .cell')].map(a => ({id: Number(a.dataset.photoId), r: a.getBoundingClientRect()}))
    .sort((a, b) => a.r.top - b.r.top || a.r.left - b.r.left).map(c => c.id);
"""

# Whether the album's first photo starts its first row (no empty places before it).
FULL_ROWS = """
const cells = [...document.querySelectorAll('#grid .cell')].map(a => a.getBoundingClientRect());
const first = cells.reduce((a, b) => (b.top < a.top || (b.top === a.top && b.left < a.left) ? b : a));
return Math.abs(first.left - Math.min(...cells.map(r => r.left))) < 1;
"""

SIZES = [("phone", 390, 844, 3, True), ("desktop", 1440, 900, 2, False)]


def call(server, path, method="GET", body=None):
    request = urllib.request.Request(server.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def shows(driver, expected, what):
    return wait_for(lambda: js(driver, ORDER) == expected, timeout=30, message=what)


@pytest.mark.parametrize("name,width,height,dpr,mobile", SIZES, ids=[s[0] for s in SIZES])
def test_sort_and_move_to_start_order_an_album_here_and_in_another_window(phone, second_phone, server,
                                                                          name, width, height, dpr, mobile):
    driver = phone
    emulate(driver, width, height, dpr=dpr, mobile=mobile)
    ids = [p["id"] for p in server.all_photos()]
    album = call(server, "/albums", "POST", {"title": f"Order {name}"})
    try:
        call(server, f"/albums/{album['id']}/photos", "POST", {"ids": ids})
        taken = [p["id"] for p in call(server, f"/albums/{album['id']}")["photos"]]
        route = f"albums/{album['id']}"
        open_app(driver, server, route)
        shows(driver, taken, "the album by date taken")
        sort = Select(driver.find_element("css selector", "#grid-view .album-sort"))
        assert sort.first_selected_option.get_attribute("value") == "taken"
        open_app(second_phone, server, route)
        shows(second_phone, taken, "the album in the other window")

        # Sort: Custom Order, kept by the server.
        sort.select_by_value("custom")
        wait_for(lambda: call(server, f"/albums/{album['id']}")["order"] == "custom", message="custom order kept")

        # Select the last photo, Move to Start: first here, on the server, and in the other window.
        last = taken[-1]
        driver.find_element("id", "select-photos").click()
        cell = js(driver, f"const a = document.querySelector('#grid a[data-photo-id=\"{last}\"]'); "
                          "a.scrollIntoView({block: 'center'}); return a.getBoundingClientRect().toJSON()")
        if mobile:
            tap(driver, cell["left"] + cell["width"] / 2, cell["top"] + cell["height"] / 2)
        else:
            driver.find_element("css selector", f'#grid a[data-photo-id="{last}"]').click()
        wait_for(lambda: js(driver, "return document.querySelector('.selection-count').textContent") == "1 photo selected",
                 message="one photo chosen")
        screenshot(driver, f"album-order-{name}-chosen")
        driver.find_element("css selector", "#selection-bar .select-first").click()
        moved = [last] + taken[:-1]
        js(driver, "window.scrollTo(0, 0)")
        shows(driver, moved, "the photo moved to the start")
        assert js(driver, FULL_ROWS), "the moved photo starts the first row"
        answer = call(server, f"/albums/{album['id']}")
        assert answer["order"] == "custom" and [p["id"] for p in answer["photos"]] == moved, answer
        shows(second_phone, moved, "the other window following")
        assert Select(second_phone.find_element("css selector", "#grid-view .album-sort")).first_selected_option \
            .get_attribute("value") == "custom"
        screenshot(driver, f"album-order-{name}-moved")

        # A reload shows it as kept; Sort: Date Taken brings the dates' order back, everywhere.
        open_app(driver, server, route)
        shows(driver, moved, "the order after a reload")
        wait_for(lambda: js(driver, "return document.querySelector('#grid-view .album-sort').value") == "custom",
                 message="Sort says Custom Order")
        sort = Select(driver.find_element("css selector", "#grid-view .album-sort"))
        sort.select_by_value("taken")
        shows(driver, taken, "by date taken again")
        assert js(driver, FULL_ROWS)
        shows(second_phone, taken, "the other window by date taken again")
        assert call(server, f"/albums/{album['id']}")["order"] == "taken"
    finally:
        call(server, f"/albums/{album['id']}", "DELETE")


def mouse(driver, kind, x, y):
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                        "buttons": 0 if kind == "mouseReleased" else 1, "clickCount": 1})


def test_a_photo_dragged_with_a_mouse_takes_the_place_it_is_dropped_on(desktop, server):
    emulate(desktop, 1440, 900, dpr=2, mobile=False)
    ids = [p["id"] for p in server.all_photos()]
    album = call(server, "/albums", "POST", {"title": "Dragged"})
    try:
        call(server, f"/albums/{album['id']}/photos", "POST", {"ids": ids})
        call(server, f"/albums/{album['id']}", "PATCH", {"order": "custom"})
        kept = [p["id"] for p in call(server, f"/albums/{album['id']}")["photos"]]
        route = f"albums/{album['id']}"
        open_app(desktop, server, route)
        shows(desktop, kept, "the album in its own order")
        box = lambda i: js(desktop, f"return document.querySelector('#grid a[data-photo-id=\"{i}\"]').getBoundingClientRect().toJSON()")
        source, target = box(kept[-1]), box(kept[0])
        x0, y0 = source["left"] + source["width"] / 2, source["top"] + source["height"] / 2
        x1, y1 = target["left"] + target["width"] / 2, target["top"] + target["height"] / 2
        mouse(desktop, "mouseMoved", x0, y0)
        mouse(desktop, "mousePressed", x0, y0)
        for i in range(1, 11):
            mouse(desktop, "mouseMoved", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
        follows = box(kept[-1])
        assert abs(follows["left"] - target["left"]) < 2, "the photo follows the pointer"
        screenshot(desktop, "album-order-desktop-dragging")
        mouse(desktop, "mouseReleased", x1, y1)
        moved = [kept[-1]] + kept[:-1]
        shows(desktop, moved, "the photo dropped at the start")
        assert js(desktop, "return location.hash") == f"#/{route}", "a drag opens no photo"
        assert [p["id"] for p in call(server, f"/albums/{album['id']}")["photos"]] == moved
        # A click without a drag still opens the photo.
        desktop.find_element("css selector", f'#grid a[data-photo-id="{moved[1]}"]').click()
        wait_for(lambda: js(desktop, "return location.hash") == f"#/{route}/photos/{moved[1]}", message="the photo opened")
    finally:
        call(server, f"/albums/{album['id']}", "DELETE")
