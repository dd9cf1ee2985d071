"""A photo tapped open from the grid is drawn at fit from one image cut to its box on the screen
(IIIF's full/!w,h/), at the screen's device pixels, asked for as it flies; no tile of its level is
asked for at fit, and tiles come only once it is zoomed past fit."""

import math
import re

import pytest

from conftest import screenshot
from gestures import emulate, js, pinch, tap, wait_for
from pages import open_app, page_photo, wait_hash

# What the page asked the network for of one photo: its fitted images and its tiles, in order.
ASKED = """
const id = arguments[0];
const names = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname + new URL(e.name).search);
return {
  fitted: names.filter((n) => n.startsWith(`/iiif/3/${id}/full/`)),
  tiles: names.filter((n) => n.startsWith(`/photos/${id}/tiles/`)).map((n) => n.split('/tiles/')[1].split('.jpg')[0]),
};
"""

# The fitted image drawn on the page in front: its pixels and where it is on the screen.
DRAWN = """
const img = document.querySelector('.page.current .photo-open img.fitted.loaded');
if (!img) return null;
return {width: img.naturalWidth, height: img.naturalHeight, box: img.getBoundingClientRect().toJSON(),
        src: new URL(img.src).pathname + new URL(img.src).search, visible: getComputedStyle(img).visibility};
"""

SIZES = [("phone", 390, 844, 3, True), ("desktop", 1440, 900, 2, False)]


@pytest.mark.parametrize("name,width,height,dpr,mobile", SIZES, ids=[s[0] for s in SIZES])
def test_a_tapped_photo_lands_on_one_fitted_image_and_tiles_come_past_fit(phone, server, name, width, height, dpr, mobile):
    driver = phone
    emulate(driver, width, height, dpr=dpr, mobile=mobile)
    photo = server.photos["large"]
    open_app(driver, server)
    js(driver, "performance.clearResourceTimings(); performance.setResourceTimingBufferSize(5000)")
    cell = js(driver, f"const c = document.querySelector('#grid .cell[data-photo-id=\"{photo['id']}\"]'); "
                      "c.scrollIntoView({block: 'center'}); return c.getBoundingClientRect().toJSON()")
    if mobile:
        tap(driver, cell["left"] + cell["width"] / 2, cell["top"] + cell["height"] / 2)
    else:
        js(driver, f"document.querySelector('#grid .cell[data-photo-id=\"{photo['id']}\"]').click()")
    wait_hash(driver, f"#/photos/{photo['id']}")
    wait_for(lambda: js(driver, "return window.__pager.complete && !document.querySelector('.photo-flight')"),
             timeout=30, message="landed and sharp")

    # One image of the whole photo, at the device pixels of its box on the screen, under its version.
    shown = page_photo(driver)
    assert shown["scale"] == pytest.approx(shown["fit"]), "opened at fit"
    want_w = min(photo["width"], math.ceil(shown["width"] * dpr - 1e-6))
    want_h = min(photo["height"], math.ceil(shown["height"] * dpr - 1e-6))
    asked = js(driver, ASKED, photo["id"])
    assert asked["fitted"] == [f"/iiif/3/{photo['id']}/full/!{want_w},{want_h}/0/default.jpg?v={photo['version']}"], asked
    # No tile of the level the fit needs: only level 0, which the flying copy shows and stands in.
    assert set(asked["tiles"]) <= {"0/0/0"}, asked["tiles"]
    # What is drawn at the end is that image, over the photo's whole box, with a device pixel for
    # every pixel of the box: the screen's resolution.
    drawn = js(driver, DRAWN)
    assert drawn is not None, "no fitted image drawn"
    assert drawn["visible"] == "visible"
    assert drawn["src"] == asked["fitted"][0]
    assert drawn["box"]["left"] == pytest.approx(shown["left"], abs=1)
    assert drawn["box"]["top"] == pytest.approx(shown["top"], abs=1)
    assert drawn["box"]["width"] == pytest.approx(shown["width"], abs=1)
    assert drawn["box"]["height"] == pytest.approx(shown["height"], abs=1)
    assert drawn["width"] >= shown["width"] * dpr - 1 and drawn["height"] >= shown["height"] * dpr - 1, (drawn, shown)
    assert drawn["width"] <= shown["width"] * dpr + 1, "no more pixels than the screen shows"
    screenshot(driver, f"fitted-{name}")

    # Zoomed past fit (a pinch on the phone, a trackpad pinch on the desktop), tiles come, of the
    # level the zoom needs, and the fitted image is not asked for again.
    box = js(driver, "return document.querySelector('.page.current .photo-open').getBoundingClientRect().toJSON()")
    cx, cy = box["left"] + box["width"] / 2, box["top"] + box["height"] / 2
    js(driver, "performance.clearResourceTimings()")
    if mobile:
        pinch(driver, cx, cy, 60, 180)
    else:
        for _ in range(8):
            driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": cx, "y": cy,
                                                                "deltaX": 0, "deltaY": -30, "modifiers": 2})
    wait_for(lambda: js(driver, "const p = window.__pager.photo; return p.s > 1.5 * p.fitScale"), message="zoomed past fit")
    wait_for(lambda: js(driver, "return window.__pager.complete"), timeout=30, message="sharp when zoomed")
    zoomed = page_photo(driver)
    level = js(driver, "return window.__pager.photo.level")
    asked = js(driver, ASKED, photo["id"])
    assert asked["fitted"] == [], "the fitted image was asked for again"
    finer = [t for t in asked["tiles"] if t.startswith(f"{level}/")]
    assert finer, asked["tiles"]
    assert all(re.fullmatch(r"\d+/\d+/\d+", t) for t in asked["tiles"])
    # The fitted image stays under the tiles, where the photo is.
    drawn = js(driver, DRAWN)
    assert drawn is not None and drawn["box"]["width"] == pytest.approx(zoomed["width"], abs=2)
    screenshot(driver, f"fitted-{name}-zoomed")


# The zoom view's fitted image drawn on the slide in front, as DRAWN for the pager.
ZOOM_DRAWN = DRAWN.replace(".page.current .photo-open", ".zoom-slide.current")


@pytest.mark.parametrize("name,width,height,dpr,mobile", SIZES, ids=[s[0] for s in SIZES])
def test_the_zoom_view_at_fit_is_one_fitted_image_and_tiles_come_once_zoomed_in(phone, server, name, width, height, dpr, mobile):
    driver = phone
    emulate(driver, width, height, dpr=dpr, mobile=mobile)
    photo = server.photos["large"]
    open_app(driver, server, f"photos/{photo['id']}/zoom")
    # Everything asked for from the start of this document: the page's own record of it.
    js(driver, "performance.setResourceTimingBufferSize(5000)")
    wait_for(lambda: js(driver, "return window.__viewer.open && window.__viewer.complete"), timeout=30, message="zoom view sharp")
    state = js(driver, "const v = window.__viewer; return {scale: v.scale, fit: v.fitScale, rect: v.photoRect}")
    assert state["scale"] == pytest.approx(state["fit"]), "opened at fit"
    rect = state["rect"]
    asked = js(driver, ASKED, photo["id"])
    # At fit, not one tile of the level the screen needs: the one-tile level 0 at most, and one image.
    assert set(asked["tiles"]) <= {"0/0/0"}, asked["tiles"]
    want_w = min(photo["width"], math.ceil(rect["width"] * dpr - 1e-6))
    want_h = min(photo["height"], math.ceil(rect["height"] * dpr - 1e-6))
    zoom_image = f"/iiif/3/{photo['id']}/full/!{want_w},{want_h}/0/default.jpg?v={photo['version']}"
    assert zoom_image in asked["fitted"], asked
    drawn = js(driver, ZOOM_DRAWN)
    assert drawn is not None and drawn["src"] == zoom_image and drawn["visible"] == "visible", drawn
    assert drawn["box"]["width"] == pytest.approx(rect["width"], abs=1)
    assert drawn["box"]["height"] == pytest.approx(rect["height"], abs=1)
    assert drawn["width"] >= rect["width"] * dpr - 1 and drawn["height"] >= rect["height"] * dpr - 1, (drawn, rect)
    screenshot(driver, f"zoom-fitted-{name}")

    # Zoomed in (its + button), the tiles of the level the zoom needs come, over the image.
    js(driver, "performance.clearResourceTimings()")
    js(driver, "document.querySelector('.zoom-view .zoom-in').click()")
    wait_for(lambda: js(driver, "const v = window.__viewer; return v.scale > 1.5 * v.fitScale && v.complete"),
             timeout=30, message="sharp zoomed in")
    level = js(driver, "return window.__viewer.level")
    asked = js(driver, ASKED, photo["id"])
    assert asked["fitted"] == [], "the fitted image was asked for again"
    assert [t for t in asked["tiles"] if t.startswith(f"{level}/")], asked["tiles"]
    assert js(driver, ZOOM_DRAWN) is not None, "the fitted image stays under the tiles"
    screenshot(driver, f"zoom-fitted-{name}-zoomed")
