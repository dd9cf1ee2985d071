"""An album's order, chosen in the page: Sort shows it by date taken or in its own order, and
Select's Move to Start puts the photos chosen first; a photo dragged (a mouse, or a finger in
Select) or moved with Alt and an arrow takes another place; in Select, a chosen photo dragged
takes the other chosen ones with it; the server keeps it (a reload shows it) and another window
showing the album follows at once."""

import json
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import screenshot
from gestures import emulate, js, release, swipe, tap, touch, wait_for
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


def open_arrangeable(driver, server, route, kept, opener=open_app):
    """Opens the album at `route` (with `opener`), shown in its own order `kept` and ready to be
    rearranged."""
    opener(driver, server, route)
    shows(driver, kept, "the album in its own order")
    arrangeable(driver)


def arrangeable(driver):
    """Waits until the page knows the album shown keeps its own order and that this visitor may
    change it: the photos can be drawn before the albums' list (and so its order) comes, and a
    drag pressed before then is no drag, as it should be."""
    wait_for(lambda: js(driver, """return document.querySelector('.album-sort')?.value === 'custom'
        && !document.querySelector('.album-actions').hidden
        && document.documentElement.classList.contains('may-manage')"""), message="the album's own order known, and changes allowed")


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


def test_a_photo_dragged_with_a_mouse_takes_the_place_it_is_dropped_on(desktop, server, own_order_album):
    emulate(desktop, 1440, 900, dpr=2, mobile=False)
    album, kept = own_order_album("Dragged")
    route = f"albums/{album['id']}"
    open_arrangeable(desktop, server, route, kept)
    box = lambda i: js(desktop, f"return document.querySelector('#grid a[data-photo-id=\"{i}\"]').getBoundingClientRect().toJSON()")
    source, target = box(kept[-1]), box(kept[0])
    x0, y0 = source["left"] + source["width"] / 2, source["top"] + source["height"] / 2
    x1, y1 = target["left"] + target["width"] / 2, target["top"] + target["height"] / 2
    mouse(desktop, "mouseMoved", x0, y0)
    mouse(desktop, "mousePressed", x0, y0)
    for i in range(1, 11):
        mouse(desktop, "mouseMoved", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
    # Pointer moves are handled at the next frame, not as they are sent.
    wait_for(lambda: abs(box(kept[-1])["left"] - target["left"]) < 2, message="the photo follows the pointer")
    screenshot(desktop, "album-order-desktop-dragging")
    mouse(desktop, "mouseReleased", x1, y1)
    moved = [kept[-1]] + kept[:-1]
    shows(desktop, moved, "the photo dropped at the start")
    assert js(desktop, FULL_ROWS), "the photo dropped starts the first row (no empty place before it)"
    assert js(desktop, "return location.hash") == f"#/{route}", "a drag opens no photo"
    assert [p["id"] for p in call(server, f"/albums/{album['id']}")["photos"]] == moved
    # A click without a drag still opens the photo.
    desktop.find_element("css selector", f'#grid a[data-photo-id="{moved[1]}"]').click()
    wait_for(lambda: js(desktop, "return location.hash") == f"#/{route}/photos/{moved[1]}", message="the photo opened")


def mouse_drag(driver, start, end, dropped=True):
    """A mouse pressed at `start`, moved to `end` in ten steps, and let go there when `dropped`."""
    (x0, y0), (x1, y1) = start, end
    mouse(driver, "mouseMoved", x0, y0)
    mouse(driver, "mousePressed", x0, y0)
    for i in range(1, 11):
        mouse(driver, "mouseMoved", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
    if dropped:
        mouse(driver, "mouseReleased", x1, y1)


SELECTED = "return document.querySelector('.selection-count').textContent"


def test_chosen_photos_dragged_with_a_mouse_move_together(desktop, server, own_order_album):
    emulate(desktop, 1440, 900, dpr=2, mobile=False)
    album, kept = own_order_album("Dragged together")
    route = f"albums/{album['id']}"
    open_arrangeable(desktop, server, route, kept)
    desktop.find_element("id", "select-photos").click()
    for photo, count in ((kept[1], 1), (kept[3], 2)):
        desktop.find_element("css selector", f'#grid a[data-photo-id="{photo}"]').click()
        wait_for(lambda: js(desktop, SELECTED) == ("1 photo selected" if count == 1 else f"{count} photos selected"),
                 message=f"{count} chosen")
    # The last chosen, dragged over the first photo: it carries the count, and nothing moves before the drop.
    mouse_drag(desktop, centre(desktop, kept[3]), centre(desktop, kept[0]), dropped=False)
    wait_for(lambda: js(desktop, "return document.querySelector('#grid .cell.dragged .moving-count')?.textContent") == "2",
             message="the dragged photo says two photos move")
    wait_for(lambda: js(desktop, f"return getComputedStyle(document.querySelector('#grid a[data-photo-id=\"{kept[1]}\"]')).opacity")
             == "0.3", message="the other photo moving dimmed in its place")
    assert server_order(server, album) == kept, "nothing moves before the drop"
    screenshot(desktop, "album-order-desktop-dragging-two")
    x1, y1 = centre(desktop, kept[0])
    mouse(desktop, "mouseReleased", x1, y1)
    # Both land at the start as one block, in their order (the one dragged was the later).
    moved = [kept[1], kept[3], kept[0], kept[2]]
    shows(desktop, moved, "the two chosen photos dropped at the start")
    assert server_order(server, album) == moved
    assert js(desktop, "return location.hash") == f"#/{route}", "a drag opens no photo"
    assert js(desktop, SELECTED) == "2 photos selected", "the drop chose or let go of nothing"
    assert not js(desktop, "return document.querySelector('.moving-count') !== null"), "the count goes with the drag"
    screenshot(desktop, "album-order-desktop-dropped-two")
    # The other way: the first chosen dropped over the last photo, the block goes after it.
    mouse_drag(desktop, centre(desktop, moved[0]), centre(desktop, moved[-1]))
    back = [kept[0], kept[2], kept[1], kept[3]]
    shows(desktop, back, "the two chosen photos dropped at the end")
    assert server_order(server, album) == back


# Touch: in Select, a chosen photo held for a moment lifts, follows the finger and takes the place
# it is dropped on; the grid scrolls while it is held near an edge. Every other touch does what it
# did: a finger that moves at once scrolls, a long press chooses.

LIFTED = "return document.querySelector('.cell-lifted') !== null"
# The columns the grid shows.
COLUMNS = "return new Set([...document.querySelectorAll('#grid .cell')].map(a => Math.round(a.getBoundingClientRect().left))).size"


@pytest.fixture
def own_order_album(server):
    """Makes a new album of every photo, in its own order, titled as asked: the album and its
    photos in that order. The albums made are deleted when the test ends, passed or failed."""
    made = []

    def make(title):
        album = call(server, "/albums", "POST", {"title": title})
        made.append(album)
        call(server, f"/albums/{album['id']}/photos", "POST", {"ids": [p["id"] for p in server.all_photos()]})
        call(server, f"/albums/{album['id']}", "PATCH", {"order": "custom"})
        return album, [p["id"] for p in call(server, f"/albums/{album['id']}")["photos"]]

    yield make
    for album in made:
        call(server, f"/albums/{album['id']}", "DELETE")


def centre(driver, photo):
    """The centre on screen of a photo's cell, scrolled into view (the middle of the screen) first."""
    box = js(driver, f"const a = document.querySelector('#grid a[data-photo-id=\"{photo}\"]'); "
                     "a.scrollIntoView({block: 'center'}); return a.getBoundingClientRect().toJSON()")
    return box["left"] + box["width"] / 2, box["top"] + box["height"] / 2


def choose(driver, photo, count):
    """Taps a photo in Select; `count` photos are then chosen."""
    x, y = centre(driver, photo)
    tap(driver, x, y)
    wait_for(lambda: js(driver, "return document.querySelector('.selection-count').textContent")
             == ("1 photo selected" if count == 1 else f"{count} photos selected"), message=f"{count} chosen")


def lift(driver, x, y):
    """A finger down at (x, y), held until the photo there lifts."""
    touch(driver, "touchStart", [(x, y)])
    wait_for(lambda: js(driver, LIFTED), message="the photo lifted")


def slide(driver, x0, y0, x1, y1):
    """The finger down moved from (x0, y0) to (x1, y1) in ten steps."""
    for i in range(1, 11):
        touch(driver, "touchMove", [(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)])


def server_order(server, album):
    return [p["id"] for p in call(server, f"/albums/{album['id']}")["photos"]]


def one_column(driver, server, route):
    """The grid at its largest (a photo a row), so that four photos are more than a screen."""
    open_app(driver, server, route)
    js(driver, "localStorage.setItem('photoscroll.gridDensity', '1')")
    open_app(driver, server, route)
    wait_for(lambda: js(driver, "return document.querySelector('#grid .cell')?.getBoundingClientRect().width ?? 0") > 300,
             message="one photo a row")


def test_a_chosen_photo_dragged_by_touch_takes_the_place_it_is_dropped_on(phone, server, own_order_album):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    album, kept = own_order_album("Touch arranged")
    route = f"albums/{album['id']}"
    open_arrangeable(phone, server, route, kept)
    phone.find_element("id", "select-photos").click()
    choose(phone, kept[-1], 1)
    x0, y0 = centre(phone, kept[-1])
    x1, y1 = centre(phone, kept[0])
    lift(phone, x0, y0)
    slide(phone, x0, y0, x1, y1)
    # Touch moves are handled at the next frame, not as they are sent.
    copy = lambda: js(phone, "return document.querySelector('.cell-lifted').getBoundingClientRect().toJSON()")
    # At the screen's left edge, the copy (a little larger than the cell) is kept whole on screen, a few pixels right.
    wait_for(lambda: (lambda c: abs(c["left"] + c["width"] / 2 - x1) < 0.05 * c["width"] + 2 and c["left"] >= -0.5
                      and abs(c["top"] + c["height"] / 2 - y1) < 2)(copy()),
             message="the photo follows the finger")
    assert js(phone, ORDER) == kept, "nothing moves before the drop"
    screenshot(phone, "album-order-phone-touch-dragging")
    release(phone)
    moved = [kept[-1]] + kept[:-1]
    shows(phone, moved, "the photo dropped at the start")
    assert js(phone, FULL_ROWS), "the photo dropped starts the first row (no empty place before it)"
    assert server_order(server, album) == moved
    assert not js(phone, LIFTED)
    assert js(phone, "return location.hash") == f"#/{route}", "a drag opens no photo"
    assert js(phone, "return document.querySelector('.selection-count').textContent") == "1 photo selected", \
        "the photo moved is still chosen (the touch that dropped it was no tap)"
    screenshot(phone, "album-order-phone-touch-dropped")

    # The other way: the first photo dropped on the last takes its place, the others move up.
    x0, y0 = centre(phone, moved[0])
    x1, y1 = centre(phone, moved[-1])
    lift(phone, x0, y0)
    slide(phone, x0, y0, x1, y1)
    release(phone)
    shows(phone, kept, "the photo dropped at the end")
    assert server_order(server, album) == kept


def test_chosen_photos_dragged_by_touch_move_together(phone, server, own_order_album):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    album, kept = own_order_album("Touch together")
    route = f"albums/{album['id']}"
    open_arrangeable(phone, server, route, kept)
    phone.find_element("id", "select-photos").click()
    choose(phone, kept[1], 1)
    choose(phone, kept[3], 2)
    x0, y0 = centre(phone, kept[3])
    x1, y1 = centre(phone, kept[0])
    lift(phone, x0, y0)
    assert js(phone, "return document.querySelector('.cell-lifted .moving-count')?.textContent") == "2", \
        "the lifted copy says two photos move"
    slide(phone, x0, y0, x1, y1)
    wait_for(lambda: js(phone, f"return getComputedStyle(document.querySelector('#grid a[data-photo-id=\"{kept[0]}\"]')).outlineStyle")
             == "dashed", message="the photo under the finger marked")
    assert js(phone, f"return getComputedStyle(document.querySelector('#grid a[data-photo-id=\"{kept[1]}\"]')).opacity") == "0.3", \
        "the other photo moving dimmed in its place"
    assert js(phone, ORDER) == kept, "nothing moves before the drop"
    screenshot(phone, "album-order-phone-touch-dragging-two")
    release(phone)
    moved = [kept[1], kept[3], kept[0], kept[2]]
    shows(phone, moved, "the two chosen photos dropped at the start")
    assert server_order(server, album) == moved
    assert not js(phone, LIFTED)
    assert js(phone, "return location.hash") == f"#/{route}", "a drag opens no photo"
    assert js(phone, SELECTED) == "2 photos selected", "the drop chose or let go of nothing"
    screenshot(phone, "album-order-phone-touch-dropped-two")
    # The other way: the first chosen dropped over the last photo, the block goes after it.
    x0, y0 = centre(phone, moved[0])
    x1, y1 = centre(phone, moved[-1])
    lift(phone, x0, y0)
    slide(phone, x0, y0, x1, y1)
    release(phone)
    back = [kept[0], kept[2], kept[1], kept[3]]
    shows(phone, back, "the two chosen photos dropped at the end")
    assert server_order(server, album) == back


# The lifted copy's box on screen.
COPY = "return document.querySelector('.cell-lifted').getBoundingClientRect().toJSON()"


def test_a_lifted_photo_stays_whole_on_screen_at_its_edges(phone, server, own_order_album):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    album, kept = own_order_album("Touch at the edge")
    route = f"albums/{album['id']}"
    open_arrangeable(phone, server, route, kept)
    phone.find_element("id", "select-photos").click()
    choose(phone, kept[0], 1)
    box = js(phone, f"return document.querySelector('#grid a[data-photo-id=\"{kept[0]}\"]').getBoundingClientRect().toJSON()")
    assert box["left"] < 20, f"the first photo is at the screen's left edge: {box}"
    width = js(phone, "return document.documentElement.clientWidth")
    # Held near its right side, the copy grows to the left as it lifts: past the edge, were it not kept in.
    x0, y0 = box["left"] + box["width"] * 0.9, box["top"] + box["height"] / 2
    lift(phone, x0, y0)
    wait_for(lambda: js(phone, COPY)["left"] >= -0.5, message="the lifted copy whole on screen at the left")
    # The finger at the very left edge, then the right: the copy stays whole, at the edge.
    for i in range(1, 6):
        touch(phone, "touchMove", [(x0 + (1 - x0) * i / 5, y0)])
    wait_for(lambda: abs(js(phone, COPY)["left"]) < 0.5, message="the copy at the left edge, not past it")
    screenshot(phone, "album-order-phone-touch-left-edge")
    for i in range(1, 6):
        touch(phone, "touchMove", [(1 + (width - 2) * i / 5, y0)])
    wait_for(lambda: abs(js(phone, COPY)["right"] - width) < 0.5, message="the copy at the right edge, not past it")
    # Back where it was lifted, and let go there: nothing moves.
    touch(phone, "touchMove", [(x0, y0)])
    wait_for(lambda: abs(js(phone, COPY)["left"] - box["left"]) < box["width"] * 0.1, message="the copy back")
    release(phone)
    wait_for(lambda: not js(phone, LIFTED), message="the copy gone")
    assert js(phone, ORDER) == kept and server_order(server, album) == kept


def test_a_touch_that_moves_at_once_scrolls_two_fingers_pinch_and_a_long_press_chooses(phone, server, own_order_album):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    album, kept = own_order_album("Touch scrolled")
    route = f"albums/{album['id']}"
    open_arrangeable(phone, server, route, kept, one_column)
    phone.find_element("id", "select-photos").click()
    choose(phone, kept[1], 1)
    # A finger moving at once, on the photo chosen: the grid scrolls, nothing lifts or moves.
    x, y = centre(phone, kept[1])
    before = js(phone, "return window.scrollY")
    swipe(phone, x, y + 150, x, y - 150)
    wait_for(lambda: abs(js(phone, "return window.scrollY") - before) > 100, message="the grid scrolled")
    assert not js(phone, LIFTED)
    assert js(phone, ORDER) == kept and server_order(server, album) == kept, "a scroll moves no photo"
    # A second finger beside one that lifted the photo chosen: the photo goes back, and the two pinch the grid denser.
    x, y = centre(phone, kept[1])
    lift(phone, x - 100, y)
    touch(phone, "touchStart", [(x - 100, y), (x + 100, y)])
    assert not js(phone, LIFTED), "a second finger puts the photo back"
    for i in range(1, 13):
        touch(phone, "touchMove", [(x - 100 + 80 * i / 12, y), (x + 100 - 80 * i / 12, y)])
    release(phone)
    wait_for(lambda: js(phone, COLUMNS) > 1, message="the pinch made the grid denser")
    assert not js(phone, LIFTED)
    assert js(phone, ORDER) == kept and server_order(server, album) == kept, "a pinch moves no photo"
    # Done, then a long press: Select again, with that photo chosen, and nothing lifted or moved.
    phone.find_element("css selector", "#selection-bar .select-done").click()
    x, y = centre(phone, kept[2])
    touch(phone, "touchStart", [(x, y)])
    wait_for(lambda: js(phone, "return document.querySelector('.selection-count').textContent") == "1 photo selected",
             message="a long press chose the photo")
    release(phone)
    assert not js(phone, LIFTED)
    assert js(phone, f"return getComputedStyle(document.querySelector('#grid a[data-photo-id=\"{kept[2]}\"]')).outlineStyle") \
        == "solid", "the photo pressed is marked chosen"
    assert js(phone, ORDER) == kept and server_order(server, album) == kept, "a long press moves no photo"
    # In Select, a long press on a photo not chosen chooses it too, and lifts nothing.
    x, y = centre(phone, kept[0])
    touch(phone, "touchStart", [(x, y)])
    wait_for(lambda: js(phone, "return document.querySelector('.selection-count').textContent") == "2 photos selected",
             message="a second photo chosen by a long press")
    release(phone)
    assert not js(phone, LIFTED)
    assert server_order(server, album) == kept


def test_a_lifted_photo_held_near_the_top_scrolls_the_grid_to_its_start(phone, server, own_order_album):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    album, kept = own_order_album("Touch scrolled to")
    route = f"albums/{album['id']}"
    open_arrangeable(phone, server, route, kept, one_column)
    phone.find_element("id", "select-photos").click()
    choose(phone, kept[-1], 1)
    js(phone, "window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for(lambda: js(phone, "return window.scrollY") > 600, message="at the end")
    x, y = centre(phone, kept[-1])
    lift(phone, x, y)
    # Held at the top of the screen: the grid scrolls up to its first photo, under the finger.
    slide(phone, x, y, x, 20)
    wait_for(lambda: js(phone, "return window.scrollY") == 0, message="the grid scrolled to its start")
    screenshot(phone, "album-order-phone-touch-scrolled")
    first = js(phone, f"return document.querySelector('#grid a[data-photo-id=\"{kept[0]}\"]').getBoundingClientRect().toJSON()")
    x1, y1 = first["left"] + first["width"] / 2, first["top"] + first["height"] / 2
    for i in range(1, 6):
        touch(phone, "touchMove", [(x, 20 + (y1 - 20) * i / 5)])
    release(phone)
    moved = [kept[-1]] + kept[:-1]
    shows(phone, moved, "the photo dropped at the start")
    assert server_order(server, album) == moved


def test_alt_and_an_arrow_move_the_photo_chosen_and_say_where(desktop, server, own_order_album):
    emulate(desktop, 1440, 900, dpr=2, mobile=False)
    album, kept = own_order_album("Keyed")
    route = f"albums/{album['id']}"
    open_arrangeable(desktop, server, route, kept)
    desktop.find_element("id", "select-photos").click()
    desktop.find_element("css selector", f'#grid a[data-photo-id="{kept[0]}"]').click()
    news = "return document.querySelector('#selection-bar .selection-news').textContent.trim()"
    focused = "return document.activeElement?.closest?.('#grid a.cell')?.dataset.photoId ?? null"
    wait_for(lambda: js(desktop, focused) == str(kept[0]), message="the photo chosen focused")
    ActionChains(desktop).key_down(Keys.ALT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.ALT).perform()
    once = [kept[1], kept[0]] + kept[2:]
    shows(desktop, once, "the photo a place on")
    wait_for(lambda: js(desktop, news) == f"Moved to place 2 of {len(kept)}", message="where it went, said")
    assert server_order(server, album) == once
    assert js(desktop, "return location.hash") == f"#/{route}", "Alt+Right is no Forward here"
    # The focus stays on the photo moved (its cell, not the one that now shows another photo).
    wait_for(lambda: js(desktop, focused) == str(kept[0]), message="the focus on the photo moved")
    ActionChains(desktop).key_down(Keys.ALT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.ALT).perform()
    twice = [kept[1], kept[2], kept[0]] + kept[3:]
    shows(desktop, twice, "the photo a place on again")
    wait_for(lambda: js(desktop, news) == f"Moved to place 3 of {len(kept)}", message="where it went, said")
    wait_for(lambda: js(desktop, focused) == str(kept[0]), message="the focus still on the photo moved")
    screenshot(desktop, "album-order-desktop-keyed-focus")
    ActionChains(desktop).key_down(Keys.ALT).send_keys(Keys.ARROW_LEFT).key_up(Keys.ALT).perform()
    shows(desktop, once, "the photo a place back")
    wait_for(lambda: js(desktop, focused) == str(kept[0]), message="the focus still on the photo moved")
    ActionChains(desktop).key_down(Keys.ALT).send_keys(Keys.ARROW_LEFT).key_up(Keys.ALT).perform()
    shows(desktop, kept, "the photo back in its place")
    wait_for(lambda: js(desktop, news) == f"Moved to place 1 of {len(kept)}", message="where it went, said")
    wait_for(lambda: js(desktop, focused) == str(kept[0]), message="the focus still on the photo moved")
    assert js(desktop, "return location.hash") == f"#/{route}", "Alt+Left is no Back here"
    ActionChains(desktop).key_down(Keys.ALT).send_keys(Keys.ARROW_LEFT).key_up(Keys.ALT).perform()
    wait_for(lambda: js(desktop, news) == f"Already first of {len(kept)}", message="the start, said")
    assert server_order(server, album) == kept
