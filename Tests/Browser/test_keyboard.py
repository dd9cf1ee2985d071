"""Keys: every view takes its keys when it opens and gives them back when it closes
(Public/util/keyboard.js): as many key handlers listen on each view every time it is reached, and
one key press does one thing."""

import os

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import REPO
from gestures import js, wait_for
from pages import open_app, sorted_photos, visible_view, wait_hash
from test_photo_actions import STUB_FULLSCREEN


def listening(driver):
    """Key handlers as keyboard.js counts them, and keydown listeners as the browser has them."""
    return js(driver, "return [window.__keys.listening, window.__keys.listeners]")


def press(driver, key):
    ActionChains(driver).send_keys(key).perform()


def go(driver, hash_, view):
    js(driver, "location.hash = arguments[0]", hash_)
    wait_for(lambda: visible_view(driver) == view, message=f"the {view} on screen")


def test_views_opened_and_closed_leave_no_key_handler(desktop, server):
    photos = sorted_photos(server)
    photo = photos[0]
    open_app(desktop, server)
    assert visible_view(desktop) == "grid"
    # The grid takes one key of its own, / to search (its cells are links the browser moves through).
    on_grid = listening(desktop)
    assert on_grid == [1, 1], on_grid
    js(desktop, STUB_FULLSCREEN)
    on_pager = None
    # Twice round, to see the keys come back as they were (test_listeners.py goes round a hundred
    # times, counting these at every stop).
    for _ in range(2):
        go(desktop, f"#/photos/{photo['id']}", "pager")
        # The pager, its dots and its buttons' keys.
        wait_for(lambda: listening(desktop) == [3, 3], message="the pager's keys listening")
        on_pager = listening(desktop)
        go(desktop, f"#/photos/{photo['id']}/zoom", "zoom")
        wait_for(lambda: js(desktop, "return window.__viewer.open"), message="zoom view open")
        assert listening(desktop) == [4, 4], "the zoom view's keys, once"
        press(desktop, Keys.ESCAPE)
        wait_hash(desktop, f"#/photos/{photo['id']}")
        wait_for(lambda: visible_view(desktop) == "pager", message="back on the pager")
        assert listening(desktop) == on_pager, "the zoom view's keys gone with it"
        desktop.find_element("css selector", ".action-slideshow").click()
        wait_for(lambda: js(desktop, "return window.__slideshow.playing"), message="slideshow playing")
        assert listening(desktop) == [4, 4], "the slideshow's key, once"
        press(desktop, Keys.SPACE)
        wait_for(lambda: not js(desktop, "return window.__slideshow.playing"), message="slideshow stopped")
        assert listening(desktop) == on_pager, "the slideshow's key gone with it"
        go(desktop, "#/", "grid")
        wait_for(lambda: js(desktop, "return document.getElementById('pager-view').hidden"), message="pager hidden")
        assert listening(desktop) == on_grid, "back on the grid, as many key handlers as at the start"

    # One key press does one thing: "i" toggles the info panel (two handlers would toggle it twice),
    # an arrow moves one photo on, Escape closes the zoom view and nothing else.
    go(desktop, f"#/photos/{photo['id']}", "pager")
    wait_for(lambda: listening(desktop) == on_pager, message="the pager's keys listening")
    info_open = "return document.getElementById('pager-view').classList.contains('info-open')"
    was_open = js(desktop, info_open)
    press(desktop, "i")
    assert js(desktop, info_open) is not was_open, "one press of i, one toggle"
    press(desktop, "i")
    assert js(desktop, info_open) is was_open
    press(desktop, Keys.ARROW_RIGHT)
    wait_hash(desktop, f"#/photos/{photos[1]['id']}")
    wait_for(lambda: not js(desktop, "return window.__pager.moving"), message="pager at rest")
    assert js(desktop, "return window.__pager.index") == 1
    assert js(desktop, "return location.hash") == f"#/photos/{photos[1]['id']}"
    go(desktop, f"#/photos/{photos[1]['id']}/zoom", "zoom")
    press(desktop, Keys.ESCAPE)
    wait_for(lambda: visible_view(desktop) == "pager", message="zoom view closed")
    assert js(desktop, "return location.hash") == f"#/photos/{photos[1]['id']}", "Escape closed the zoom view only"
    assert listening(desktop) == on_pager


def test_the_shipped_page_has_no_test_hooks(desktop, server):
    """window.__viewer and the like come from the tests' own script, not from the page."""
    public = os.path.join(REPO, "Public")
    scripts = [os.path.join(folder, name) for folder, _, names in os.walk(public) for name in names
               if name.endswith((".js", ".html"))]
    assert len(scripts) > 30, scripts
    for path in scripts:
        with open(path) as f:
            assert "window.__" not in f.read(), f"{os.path.relpath(path, REPO)} exposes a test hook"
    # Without the tests' script, the page served has none of them, in any view.
    desktop.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": desktop.hooks_script})
    photo = sorted_photos(server)[0]
    open_app(desktop, server, f"photos/{photo['id']}/zoom")
    wait_for(lambda: visible_view(desktop) == "zoom", message="zoom view on screen")
    hooks = js(desktop, "return ['__viewer', '__pager', '__slideshow', '__keys'].filter((name) => name in window)")
    assert hooks == [], hooks


def test_escape_closes_the_pager_to_its_cell_with_focus_shown(desktop, server):
    photos = sorted_photos(server)
    open_app(desktop, server)
    cell = f'#grid .cell[data-photo-id="{photos[2]["id"]}"]'
    js(desktop, "document.querySelector(arguments[0]).focus()", cell)
    press(desktop, Keys.ENTER)
    wait_for(lambda: visible_view(desktop) == "pager" and js(desktop, "return window.__pager.index") == 2, message="pager")
    press(desktop, Keys.ESCAPE)
    wait_for(lambda: visible_view(desktop) == "grid", message="Escape closed the pager")
    wait_hash(desktop, "#/")
    # Back on the photo's own cell, and the ring says so.
    wait_for(lambda: js(desktop, "return document.activeElement.dataset.photoId") == str(photos[2]["id"]), message="focus on the cell")
    assert js(desktop, "return document.activeElement.matches(':focus-visible')")
    assert js(desktop, "return getComputedStyle(document.activeElement).outlineStyle") != "none"
    # The zoom stage reached by the keyboard shows where focus is too.
    press(desktop, Keys.ENTER)
    wait_for(lambda: visible_view(desktop) == "pager", message="pager again")
    js(desktop, "document.querySelector('.page.current .photo-open').focus()")
    press(desktop, Keys.ENTER)
    wait_for(lambda: js(desktop, "return window.__viewer.open"), message="zoom view")
    wait_for(lambda: js(desktop, "return document.activeElement.classList.contains('zoom-stage')"), message="stage focused")
    assert js(desktop, "return getComputedStyle(document.activeElement).outlineStyle") == "solid"

