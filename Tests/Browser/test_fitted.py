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
