"""The zoom view: fitted and centred, pinch around the fingers, native resolution as the limit
(devicePixelRatio counts), only the visible tiles of the right level, refit on resize."""

import math
import re

import pytest

from conftest import screenshot
from gestures import double_tap, emulate, js, pinch, settled_viewer, swipe, tap, viewer_state, wait_for
from pages import hash_of, open_app, sorted_photos, wait_hash


def expected_tiles(photo, state, fitted=True):
    """The tiles a perfect viewer shows for this transform, worked out here from DESIGN.md's geometry."""
    W, H, T, top = photo["width"], photo["height"], photo["tileSize"], photo["maxZoom"]
    s, dpr = state["scale"], state["dpr"]
    z = max(0, min(top, math.ceil(top + math.log2(s * dpr) - 1e-6)))
    if fitted and z > 0 and s <= state["fitScale"] * (1 + 1e-6):
        # At fit the photo is one image cut to the screen (test_fitted.py), no tile of its level.
        return z, set()
    rect, stage = state["photoRect"], state["stageRect"]
    tx, ty = rect["left"] - stage["left"], rect["top"] - stage["top"]
    x0, y0 = max(0, -tx / s), max(0, -ty / s)
    x1, y1 = min(W, (stage["width"] - tx) / s), min(H, (stage["height"] - ty) / s)
    lw, lh = math.ceil(W * 2 ** (z - top)), math.ceil(H * 2 ** (z - top))
    columns, rows = math.ceil(lw / T), math.ceil(lh / T)
    c0, r0 = int(x0 * lw / W // T), int(y0 * lh / H // T)
    c1, r1 = min(columns - 1, math.ceil(x1 * lw / W / T) - 1), min(rows - 1, math.ceil(y1 * lh / H / T) - 1)
    return z, {f"{z}/{x}/{y}" for x in range(c0, c1 + 1) for y in range(r0, r1 + 1)}


def server_tile_requests(server, photo, since):
    """Tiles of this photo the server was asked for, from its access log lines after `since`."""
    pattern = re.compile(rf"GET /photos/{photo['id']}/tiles/(\d+)/(\d+)/(\d+)\.jpg")
    found = set()
    for line in server.lines[since:]:
        match = pattern.search(line)
        if match:
            found.add("/".join(match.groups()))
    return found


# The viewer asks for a level's tiles once a pinch pauses for a quarter of a second; a stall of the
# test's own finger moves longer than this is such a pause, and then tiles of a passing level are
# asked for too (and dropped again). Exactness is asserted for gestures without such a stall.
PAUSE = 0.2


def assert_exact_tiles(driver, server, photo, log_mark, on_screen=frozenset(), stalled=False):
    try:
        state = settled_viewer(driver)
    except AssertionError:
        print("SERVER LOG", "".join(server.lines[log_mark:]))
        raise
    level, expected = expected_tiles(photo, state)
    assert state["level"] == level
    assert set(state["wanted"]) == expected
    # Since the last reset the viewer asked for exactly these (but not again for those already on
    # screen), plus the one-tile underlay at most.
    requested = set(state["requested"]) - {"0/0/0"}
    if stalled:
        assert requested >= expected - set(on_screen)
        # Whatever a pause fetched that is no longer in view is gone from the screen.
        kept = set(js(driver, "return [...document.querySelectorAll('.zoom-slide.current .tile-layer img[data-tile]')].map(i => i.dataset.tile)"))
        kept_here = {t for t in kept if t.split("/")[0] == str(level)}
        assert kept_here <= expected
        # Under them only the level the photo is fitted at (kept until the finer one is drawn) and 0/0/0.
        coarser = {int(t.split("/")[0]) for t in kept - kept_here - {"0/0/0"}}
        assert len(coarser) <= 1 and all(z < level for z in coarser), kept
    else:
        assert requested == expected - set(on_screen)
    # The access log is written in batches after the responses: the tiles that arrived show first.
    wait_for(lambda: server_tile_requests(server, photo, log_mark) >= expected - set(on_screen),
             message="the tiles that arrived in the server's log")
    assert server_tile_requests(server, photo, log_mark) <= (requested if stalled else expected) | {"0/0/0"}
    return state


def open_zoom(driver, server, photo):
    open_app(driver, server, f"photos/{photo['id']}/zoom")
    return settled_viewer(driver)


@pytest.mark.parametrize("name,width,height", [
    ("landscape", 390, 844), ("portrait", 390, 844), ("portrait", 844, 390), ("panorama", 390, 844)])
def test_opens_fitted_and_centred(phone, server, name, width, height):
    emulate(phone, width, height, dpr=1, mobile=True)
    photo = server.photos[name]
    state = open_zoom(phone, server, photo)
    fit = min(width / photo["width"], height / photo["height"])
    assert state["scale"] == pytest.approx(fit, rel=1e-6)
    assert state["fitScale"] == pytest.approx(fit, rel=1e-6)
    rect = state["photoRect"]
    assert rect["width"] == pytest.approx(photo["width"] * fit, abs=0.5)
    assert rect["left"] == pytest.approx((width - rect["width"]) / 2, abs=0.5)
    assert rect["top"] == pytest.approx((height - rect["height"]) / 2, abs=0.5)
    # As large as fits: one axis fills the screen.
    assert min(abs(rect["width"] - width), abs(rect["height"] - height)) < 0.5
    # The tiles on screen really are drawn there.
    drawn = js(phone, """return [...document.querySelectorAll('.zoom-slide.current .tile-layer img.loaded')].map(i => i.getBoundingClientRect())
                         .reduce((a, r) => ({l: Math.min(a.l, r.left), t: Math.min(a.t, r.top), r: Math.max(a.r, r.right), b: Math.max(a.b, r.bottom)}),
                                 {l: 1e9, t: 1e9, r: -1e9, b: -1e9});""")
    assert drawn["l"] == pytest.approx(rect["left"], abs=1) and drawn["r"] == pytest.approx(rect["left"] + rect["width"], abs=1)
    assert drawn["t"] == pytest.approx(rect["top"], abs=1) and drawn["b"] == pytest.approx(rect["top"] + rect["height"], abs=1)
    screenshot(phone, f"zoom-fit-{name}-{width}x{height}")


def test_pinch_pan_and_tiles(phone, server):
    photo = server.photos["large"]
    log_mark = len(server.lines)
    state = open_zoom(phone, server, photo)
    js(phone, "window.__viewer.resetRequests()")
    # At fit, the tiles are those a perfect viewer would ask for.
    js(phone, "window.__viewer.resetRequests()")
    open_app(phone, server, f"photos/{photo['id']}/zoom")
    assert_exact_tiles(phone, server, photo, log_mark)

    # Pinch around a point left of the middle: the photo point under the fingers stays under them.
    state = viewer_state(phone)
    cx, cy = 120, state["photoRect"]["top"] + state["photoRect"]["height"] / 2
    px = (cx - state["photoRect"]["left"]) / state["scale"]
    js(phone, "window.__viewer.resetRequests()")
    log_mark = len(server.lines)
    stall = pinch(phone, cx, cy, 60, 150)
    after = assert_exact_tiles(phone, server, photo, log_mark, stalled=stall > PAUSE)
    assert after["scale"] == pytest.approx(state["scale"] * 2.5, rel=0.02)
    assert after["photoRect"]["left"] + px * after["scale"] == pytest.approx(cx, abs=3)
    screenshot(phone, "zoom-pinched")

    # Zoomed in, the same horizontal swipe pans instead of paging (and glides on after the finger
    # lifts), and only the newly visible tiles come.
    js(phone, "window.__viewer.resetRequests()")
    log_mark = len(server.lines)
    swipe(phone, 300, 420, 100, 420)
    panned = assert_exact_tiles(phone, server, photo, log_mark, on_screen=set(after["wanted"]))
    assert panned["photoId"] == photo["id"]
    edge = 390 - panned["photoRect"]["width"]
    assert panned["photoRect"]["left"] <= after["photoRect"]["left"] - 200 + 6 or panned["photoRect"]["left"] == pytest.approx(edge, abs=1)
    assert set(panned["requested"]), "panning showed no new tiles"


@pytest.mark.parametrize("dpr", [1, 2])
def test_native_resolution_is_the_limit(phone, server, dpr):
    emulate(phone, 390, 844, dpr=dpr, mobile=True)
    photo = server.photos["large"]
    open_zoom(phone, server, photo)
    for _ in range(4):
        pinch(phone, 195, 422, 40, 320, steps=10)
        state = settled_viewer(phone)
        if state["scale"] >= state["maxScale"] - 1e-9:
            break
    assert state["maxScale"] == pytest.approx(1 / dpr)
    assert state["scale"] == pytest.approx(1 / dpr)
    # One photo pixel per device pixel: the photo is W / devicePixelRatio CSS px wide.
    assert state["photoRect"]["width"] == pytest.approx(photo["width"] / dpr, abs=0.5)
    assert state["level"] == photo["maxZoom"]
    js(phone, "window.__viewer.resetRequests()")
    log_mark = len(server.lines)
    stall = pinch(phone, 195, 422, 40, 320, steps=10)
    beyond = assert_exact_tiles(phone, server, photo, log_mark, on_screen=set(state["wanted"]), stalled=stall > PAUSE)
    assert beyond["scale"] == pytest.approx(1 / dpr)
    screenshot(phone, f"zoom-native-dpr{dpr}")


def test_double_tap_swipe_at_fit_and_resize(phone, server):
    photos = sorted_photos(server)
    photo, following = photos[0], photos[1]
    state = open_zoom(phone, server, photo)
    fit = state["scale"]
    double_tap(phone, 195, 422)
    fill = max(390 / photo["width"], 844 / photo["height"])
    zoomed = wait_for(lambda: (lambda s: s if s["scale"] == pytest.approx(min(max(2 * fit, fill), s["maxScale"]), rel=1e-3) else None)(viewer_state(phone)),
                      message="double tap zooms in")
    assert zoomed["scale"] > fit
    # A double tap is not two single taps: no single tap waits to act, and the bar stays. One tap
    # alone hides it (once no second can follow), the next brings it back.
    bare = "return document.getElementById('zoom-view').classList.contains('bare')"
    assert js(phone, "return window.__viewer.tapPending") is False
    assert js(phone, bare) is False
    tap(phone, 300, 600)
    assert js(phone, "return window.__viewer.tapPending") is True
    wait_for(lambda: js(phone, bare), message="single tap hides the bar")
    tap(phone, 300, 600)
    wait_for(lambda: not js(phone, bare), message="next tap shows it")

    # Back to fit, then a resize (a phone turned sideways): fitted again to the new screen.
    double_tap(phone, 195, 422)
    wait_for(lambda: (lambda s: s if s["scale"] == pytest.approx(fit, rel=1e-6) else None)(settled_viewer(phone)),
             message="second double tap returns to fit")
    emulate(phone, 844, 390, dpr=1, mobile=True)
    refit = min(844 / photo["width"], 390 / photo["height"])
    state = wait_for(lambda: (lambda s: s if s["scale"] == pytest.approx(refit, rel=1e-6) else None)(viewer_state(phone)),
                     message="refit after resize")
    assert state["photoRect"]["left"] == pytest.approx((844 - state["photoRect"]["width"]) / 2, abs=0.5)
    assert state["photoRect"]["top"] == pytest.approx((390 - state["photoRect"]["height"]) / 2, abs=0.5)
    settled_viewer(phone)

    # At fit, a horizontal swipe brings the next photo, and the URL follows.
    swipe(phone, 700, 200, 200, 205, steps=8)
    wait_for(lambda: (viewer_state(phone) or {}).get("photoId") == following["id"], message="next photo")
    wait_hash(phone, f"#/photos/{following['id']}/zoom")
    assert hash_of(phone) == f"#/photos/{following['id']}/zoom"
    # The new photo is fitted and centred where it belongs, not left where the finger dragged the old one.
    arrived = settled_viewer(phone)
    assert js(phone, "return window.__viewer.stripOffset") == 0
    drawn = js(phone, "return [...document.querySelectorAll('.zoom-slide.current .tile-layer img.loaded')].map(i => i.getBoundingClientRect().left)")
    assert min(drawn) == pytest.approx(arrived["photoRect"]["left"], abs=1)


def test_wheel_and_double_click_zoom_around_the_cursor(desktop, server):
    photo = server.photos["large"]
    state = open_zoom(desktop, server, photo)
    # Horizontally the photo starts narrower than the window and stays centred until it is wider,
    # so the cursor sits on the centre line; vertically it fills the window and the anchor must hold.
    x, y = state["stageRect"]["width"] / 2, 150
    photo_x = (x - state["photoRect"]["left"]) / state["scale"]
    photo_y = (y - state["photoRect"]["top"]) / state["scale"]
    # A trackpad pinch arrives as ctrl+wheel; the page itself must not zoom.
    for _ in range(5):
        desktop.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": -20, "modifiers": 2})
    wheeled = settled_viewer(desktop)
    assert wheeled["scale"] > state["scale"] * 2
    assert wheeled["photoRect"]["left"] + photo_x * wheeled["scale"] == pytest.approx(x, abs=2)
    assert wheeled["photoRect"]["top"] + photo_y * wheeled["scale"] == pytest.approx(y, abs=2)
    assert js(desktop, "return window.visualViewport.scale") == 1
    _, expected = expected_tiles(photo, wheeled)
    assert set(wheeled["wanted"]) == expected

    screenshot(desktop, "zoom-wheel-desktop")
    # Double-click on a zoomed photo: back to fit; again: in to the clicked point.
    from selenium.webdriver.common.action_chains import ActionChains
    stage = desktop.find_element("css selector", ".zoom-stage")
    ActionChains(desktop).move_to_element_with_offset(stage, 0, 0).double_click().perform()
    wait_for(lambda: (lambda s: s if s["scale"] == pytest.approx(s["fitScale"], rel=1e-6) else None)(settled_viewer(desktop)),
             message="double-click returns to fit")
    fitted = viewer_state(desktop)
    point = (fitted["photoRect"]["left"] + fitted["photoRect"]["width"] / 4, fitted["photoRect"]["top"] + fitted["photoRect"]["height"] / 4)
    photo_point = ((point[0] - fitted["photoRect"]["left"]) / fitted["scale"], (point[1] - fitted["photoRect"]["top"]) / fitted["scale"])
    ActionChains(desktop).move_to_element_with_offset(stage, point[0] - fitted["stageRect"]["width"] / 2,
                                                      point[1] - fitted["stageRect"]["height"] / 2).double_click().perform()
    doubled = wait_for(lambda: (lambda s: s if s["scale"] > 1.5 * s["fitScale"] and s["complete"] else None)(viewer_state(desktop)),
                       message="double-click zooms in")
    # The clicked photo point stays under the pointer, unless the photo's edge would have come into view.
    shown_x = doubled["photoRect"]["left"] + photo_point[0] * doubled["scale"]
    shown_y = doubled["photoRect"]["top"] + photo_point[1] * doubled["scale"]
    assert shown_x == pytest.approx(point[0], abs=2) or doubled["photoRect"]["left"] == pytest.approx(0, abs=1)
    assert shown_y == pytest.approx(point[1], abs=2) or doubled["photoRect"]["top"] == pytest.approx(0, abs=1)


def test_tiles_that_leave_the_view_before_arriving_are_cancelled(phone, server):
    photo = server.photos["large"]
    open_zoom(phone, server, photo)
    pinch(phone, 60, 422, 40, 300, steps=10)  # towards native, near the left edge
    phone.execute_cdp_cmd("Network.enable", {})
    # DevTools slows the page's own requests, not its service worker's fetches: past the worker,
    # the tiles are as slow as the network they are cancelled on.
    phone.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        js(phone, "window.__viewer.resetRequests()")
        # Pan right across the photo while the tiles are still on their way.
        for _ in range(3):
            swipe(phone, 360, 300, 30, 300, steps=6, pause=0.01)
        wait_for(lambda: not js(phone, "return window.__viewer.moving"), message="the pan came to rest")
        moved = viewer_state(phone)
        pending = js(phone, "return [...document.querySelectorAll('.zoom-slide.current .tile-layer img[data-tile]:not(.loaded)')].map(i => [i.dataset.tile, i.getAttribute('src')])")
        # Every tile still loading is one in view; those that went out of view were dropped, src and all.
        assert {key for key, _ in pending} <= set(moved["wanted"])
        assert all(src for _, src in pending)
        assert set(moved["requested"]) - set(moved["wanted"]) - {"0/0/0"}, "the pan should have passed over tiles"
        dropped = js(phone, "return document.querySelectorAll('.zoom-slide.current .tile-layer img[data-tile]:not([src])').length")
        assert dropped == 0
    finally:
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    final = settled_viewer(phone, timeout=30)
    _, expected = expected_tiles(photo, final)
    assert set(final["wanted"]) == expected


def test_closing_after_swiping_stays_on_the_photo_shown(phone, server):
    photos = sorted_photos(server)
    open_app(phone, server, f"photos/{photos[0]['id']}")
    wait_for(lambda: js(phone, "return window.__pager?.complete === true"), message="photo drawn")
    phone.find_element("css selector", ".page.current .photo-open").click()
    wait_hash(phone, f"#/photos/{photos[0]['id']}/zoom")
    settled_viewer(phone)
    swipe(phone, 340, 420, 40, 425, steps=8)
    wait_for(lambda: (viewer_state(phone) or {}).get("photoId") == photos[1]["id"], message="next photo in zoom")
    js(phone, "document.querySelector('.zoom-close').click()")
    wait_for(lambda: viewer_state(phone) is None, message="zoom closed")
    wait_hash(phone, f"#/photos/{photos[1]['id']}")
    wait_for(lambda: js(phone, "return document.querySelector('.page.current')?.dataset.photoId") == str(photos[1]["id"]),
             message="pager on the photo last shown")


BUTTONS = "return ['.zoom-in', '.zoom-out', '.zoom-fit'].map(s => document.querySelector(s).disabled)"


def test_every_photo_zooms_and_controls_that_can_do_nothing_are_disabled(desktop, server):
    # 1600×1000 on a 1440×900 screen at 2×: fitted, it is already past native resolution (0.9 CSS px
    # per photo px against 0.5), yet it still zooms, to twice its fitted size.
    emulate(desktop, 1440, 900, dpr=2, mobile=False)
    photo = server.photos["landscape"]
    state = open_zoom(desktop, server, photo)
    assert state["fitScale"] == pytest.approx(0.9)
    assert state["maxScale"] == pytest.approx(1.8)
    assert js(desktop, BUTTONS) == [False, True, True]  # at fit nothing zooms out
    js(desktop, "document.querySelector('.zoom-in').click()")
    zoomed = wait_for(lambda: (lambda s: s if s["complete"] and s["scale"] == pytest.approx(1.8) else None)(settled_viewer(desktop)),
                      message="zoomed to twice the fit")
    assert zoomed["level"] == photo["maxZoom"]
    assert js(desktop, BUTTONS) == [True, False, False]  # at the limit nothing zooms in
    js(desktop, "document.querySelector('.zoom-fit').click()")
    wait_for(lambda: js(desktop, BUTTONS) == [False, True, True], message="back at fit")
    # A photo larger than the screen stops at native pixels, as before.
    state = open_zoom(desktop, server, server.photos["large"])
    assert state["maxScale"] == pytest.approx(0.5)


def test_tiles_that_failed_are_asked_for_again(phone, server):
    # Tiles that fail for a moment (a busy server's 503, a dropped connection) are asked for again
    # while they are still wanted, so the photo does not stay blurred until the next pan.
    photo = server.photos["large"]
    phone.execute_cdp_cmd("Network.enable", {})
    # The image cut to the screen fails too, so the photo at fit is drawn from its tiles.
    phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/tiles/*", "*/iiif/3/*"]})
    try:
        open_app(phone, server, f"photos/{photo['id']}/zoom")
        failed = wait_for(lambda: js(phone, """
            const tiles = [...document.querySelectorAll('.zoom-slide.current .tile-layer img[src]')];
            return window.__viewer?.open && tiles.length && tiles.every(i => i.complete && i.naturalWidth === 0) && tiles.length;
        """), message="every tile asked for failed")
        assert failed >= 1 and not js(phone, "return window.__viewer.complete")
    finally:
        phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    state = settled_viewer(phone, timeout=30)
    _, expected = expected_tiles(photo, state, fitted=False)
    assert set(state["wanted"]) == expected
