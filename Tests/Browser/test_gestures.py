"""Gestures as a phone's own scroll views do them, each driven by DevTools touch events: a fling
glides on and settles, an over-drag springs back, a drag past a zoomed photo's edge ends on the
next photo (in the zoom view and in the pager), a drag down closes, a pinch on the pager zooms the
photo and never the page, double-tap goes to the point and back, rotation keeps the place."""


import pytest

from conftest import screenshot
from gestures import (double_tap, drag, emulate, js, line, pinch, release, sample_frames, samples, settled_viewer, still, tap,
                      viewer_state, wait_for)
from pages import hash_of, open_app, open_zoom, page_photo, pages, slides, sorted_photos, visible_view, wait_hash


def at_rest(driver, timeout=30):
    """The zoom view once nothing moves and every tile in view is there."""
    return wait_for(lambda: (lambda s: s if s and s["complete"] and not js(driver, "return window.__viewer.moving") else None)(
        viewer_state(driver)), timeout=timeout, message="zoom view at rest")


def test_a_fling_glides_on_after_the_finger_lifts_then_settles(phone, server):
    open_zoom(phone, server, server.photos["large"])
    pinch(phone, 195, 422, 40, 300, steps=12)
    before = at_rest(phone)
    assert before["scale"] > 5 * before["fitScale"]
    sample_frames(phone, "window.__viewer.photoRect.left", frames=300)
    drag(phone, line(300, 500, 180, 500, 6), pause=0.012)
    lifted = js(phone, "return performance.now()")
    final = still(phone, "window.__viewer.photoRect.left")
    after_lift = [(t, value) for t, value in samples(phone) if t > lifted]
    # The photo kept moving once the finger was gone: drawn at places short of where it came to
    # rest (however few frames a loaded machine drew; their number is bench/viewer.py's figure) ...
    moving = [(t, v) for t, v in after_lift if abs(v - final) > 1]
    assert len({round(v, 1) for _, v in moving}) >= 2, after_lift[:10]
    # ... further than the finger itself went, and came to rest inside the photo's bounds.
    travelled = before["photoRect"]["left"] - final
    assert travelled > 120 + 50
    rest = at_rest(phone)
    assert rest["photoRect"]["left"] <= 0.5 and rest["photoRect"]["left"] + rest["photoRect"]["width"] >= 389.5
    # Slower and slower: UIScrollView's deceleration, not a constant glide or a stop. Speeds are
    # per millisecond between the frames drawn, so they do not depend on how many there were.
    speeds = [abs(b - a) / (tb - ta) for (ta, a), (tb, b) in zip(moving, moving[1:]) if tb > ta and b != a]
    assert len(speeds) >= 2 and speeds[-1] < speeds[0], speeds


def test_an_over_drag_stretches_and_springs_back(phone, server):
    photos = sorted_photos(server)
    # Zoomed to fill the screen's height, the photo cannot move vertically: a drag down stretches.
    open_zoom(phone, server, server.photos["large"])
    double_tap(phone, 195, 422)
    zoomed = at_rest(phone)
    assert zoomed["photoRect"]["height"] == pytest.approx(844, abs=1)
    drag(phone, line(195, 300, 195, 550, 10), hold=0.15, lift=False)
    held = viewer_state(phone)["photoRect"]["top"]
    release(phone)
    # It follows the finger, but with resistance (250 px of finger show as about 120).
    assert 30 < held < 200, held
    assert at_rest(phone)["photoRect"]["top"] == pytest.approx(0, abs=0.5)

    # Past the first page of the pager the strip stretches the same way and comes back.
    open_app(phone, server, f"photos/{photos[0]['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
    drag(phone, line(60, 640, 260, 640, 10), hold=0.15, lift=False)
    stretched = -js(phone, "return window.__pager.position") * 398
    release(phone)
    assert 20 < stretched < 160, stretched
    assert still(phone, "window.__pager.position") == 0
    assert hash_of(phone) == f"#/photos/{photos[0]['id']}"


def test_a_drag_past_a_zoomed_photos_edge_brings_the_next_photo_in_the_zoom_view(phone, server):
    photos = sorted_photos(server)
    first, second = photos[0], photos[1]
    open_zoom(phone, server, first)
    pinch(phone, 195, 422, 40, 60, steps=8)  # one and a half times fit: wider than the screen
    zoomed = at_rest(phone)
    assert zoomed["photoRect"]["width"] > 500
    # One finger from the right edge leftwards: first the photo pans to its right edge ...
    drag(phone, line(389, 422, 150, 422, 12), hold=0.12, lift=False)
    mid = viewer_state(phone)
    shown = slides(phone)
    screenshot(phone, "zoom-nested-drag")
    current = next(s for s in shown if s["index"] == 0)
    beside = next(s for s in shown if s["index"] == 1)
    assert mid["photoRect"]["left"] + mid["photoRect"]["width"] == pytest.approx(current["right"], abs=1)
    # ... then the same drag moves the strip, the next photo sliding in 8 px beside it, already drawn.
    assert current["left"] < -100
    assert beside["left"] == pytest.approx(current["right"] + 8, abs=1)
    assert beside["tiles"] > 0
    drag(phone, line(150, 422, 10, 422, 6), pause=0.016, lift=False)
    release(phone)
    wait_for(lambda: (viewer_state(phone) or {}).get("photoId") == second["id"], message="next photo")
    wait_hash(phone, f"#/photos/{second['id']}/zoom")
    arrived = at_rest(phone)
    assert arrived["scale"] == pytest.approx(arrived["fitScale"], rel=1e-6)
    assert js(phone, "return window.__viewer.stripOffset") == 0


def test_a_drag_past_a_zoomed_photos_edge_brings_the_next_photo_in_the_pager(phone, server):
    photos = sorted_photos(server)
    first, second = photos[0], photos[1]
    open_app(phone, server, f"photos/{first['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
    box = page_photo(phone)["box"]
    cy = box["top"] + box["height"] / 2
    pinch(phone, 195, cy, 40, 60, steps=8)
    zoomed = wait_for(lambda: (lambda p: p if p and not p["moving"] and p["scale"] > 1.4 * p["fit"] else None)(page_photo(phone)),
                      message="page photo zoomed")
    assert js(phone, "return visualViewport.scale") == 1
    drag(phone, line(389, cy, 150, cy, 12), hold=0.12, lift=False)
    mid = page_photo(phone)
    shown = pages(phone)
    front = next(p for p in shown if p["id"] == str(first["id"]))
    beside = next(p for p in shown if p["id"] == str(second["id"]))
    screenshot(phone, "pager-nested-drag")
    # The photo went to its right edge, then the pages moved, the next one sliding in with the gap.
    assert mid["left"] + mid["width"] == pytest.approx(mid["box"]["right"], abs=1)
    assert front["left"] < -100
    assert beside["left"] == pytest.approx(front["right"] + 8, abs=1)
    assert beside["tiles"] > 0
    drag(phone, line(150, cy, 10, cy, 6), lift=False)
    release(phone)
    wait_hash(phone, f"#/photos/{second['id']}")
    assert still(phone, "window.__pager.position") == 1
    # The photo left behind is back at fit when it is swiped back to, as in Photos.
    assert zoomed["scale"] > zoomed["fit"]
    js(phone, "window.__pager_first = null")
    assert js(phone, f"""const slot = [...document.querySelectorAll('.page')].find(p => p.dataset.photoId === '{first["id"]}');
                        const z = slot.querySelector('.photo-open'); return !z.classList.contains('zoomed');""")


def test_a_drag_down_closes_the_zoom_view_and_a_short_one_springs_back(phone, server):
    photo = server.photos["large"]
    open_app(phone, server, f"photos/{photo['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
    js(phone, "document.querySelector('.page.current .photo-open').click()")
    wait_hash(phone, f"#/photos/{photo['id']}/zoom")
    fitted = at_rest(phone)
    # A short pull: the photo follows, then springs back, and the view stays.
    drag(phone, line(195, 400, 195, 440, 4), hold=0.12)
    back = at_rest(phone)
    assert back["photoRect"]["top"] == pytest.approx(fitted["photoRect"]["top"], abs=0.5)
    assert visible_view(phone) == "zoom"
    # A long one: the photo follows the finger, the black fades, and letting go closes the view.
    drag(phone, line(195, 400, 215, 700, 12), hold=0.12, lift=False)
    pulled = viewer_state(phone)
    backdrop = float(js(phone, "return getComputedStyle(document.querySelector('.zoom-backdrop')).opacity"))
    screenshot(phone, "zoom-pulled-down")
    release(phone)
    assert pulled["photoRect"]["top"] > fitted["photoRect"]["top"] + 200
    assert pulled["photoRect"]["width"] < fitted["photoRect"]["width"]
    assert backdrop < 0.7
    wait_for(lambda: visible_view(phone) == "pager", message="pager after the pull")
    wait_hash(phone, f"#/photos/{photo['id']}")


def test_a_drag_down_closes_the_pager_too_and_the_photo_lands_in_its_cell(phone, server):
    photos = sorted_photos(server)
    photo = photos[1]
    open_app(phone, server)
    phone.find_element("css selector", f'#grid .cell[data-photo-id="{photo["id"]}"]').click()
    wait_for(lambda: visible_view(phone) == "pager" and js(phone, "return window.__pager.complete"), message="pager")
    fitted = page_photo(phone)
    x, y = fitted["box"]["left"] + fitted["box"]["width"] / 2, fitted["box"]["top"] + fitted["box"]["height"] / 2
    # A short pull: the photo follows, then goes back, and the pager stays.
    drag(phone, line(x, y, x, y + 40, 4), hold=0.12)
    wait_for(lambda: page_photo(phone)["box"]["top"] == pytest.approx(fitted["box"]["top"], abs=0.5), message="back in place")
    assert visible_view(phone) == "pager" and hash_of(phone) == f"#/photos/{photo['id']}"
    assert js(phone, "return document.getElementById('grid-view').hidden"), "the grid goes away again"
    # A long one: the photo follows the finger and shrinks, the bars fade, and letting go closes the pager.
    drag(phone, line(x, y, x + 20, y + 300, 12), hold=0.12, lift=False)
    pulled = page_photo(phone)
    bar = float(js(phone, "return getComputedStyle(document.querySelector('.nav-bar')).opacity"))
    # The grid it came from shows through behind it, its cell there to land in.
    cell = js(phone, """const c = document.querySelector(`#grid .cell[data-photo-id="${arguments[0]}"]`);
        return !document.getElementById('grid-view').hidden && c ? c.getBoundingClientRect().toJSON() : null""", photo["id"])
    assert cell and 0 <= cell["top"] < 844, cell
    screenshot(phone, "pager-pulled-down")
    release(phone)
    assert pulled["box"]["top"] > fitted["box"]["top"] + 200
    assert pulled["box"]["width"] < fitted["box"]["width"]
    assert bar < 0.7
    wait_hash(phone, "#/")
    wait_for(lambda: visible_view(phone) == "grid", message="grid after the pull")
    assert js(phone, "return document.activeElement.dataset.photoId") == str(photo["id"])
    # Opened again, the photo is in its place, not where it was let go.
    phone.find_element("css selector", f'#grid .cell[data-photo-id="{photo["id"]}"]').click()
    wait_for(lambda: visible_view(phone) == "pager" and js(phone, "return window.__pager.complete"), message="pager again")
    assert page_photo(phone)["box"] == pytest.approx(fitted["box"], abs=0.5)


def test_a_pinch_on_the_pager_zooms_the_photo_never_the_page(phone, server):
    photo = server.photos["large"]
    open_app(phone, server, f"photos/{photo['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
    bar = js(phone, "return document.querySelector('.nav-bar').getBoundingClientRect().height")
    # On the text under the photo, a pinch does nothing at all.
    pinch(phone, 195, 560, 40, 200, steps=12)
    # (Each touch is handled before DevTools answers: by now the page has done whatever it does.)
    assert js(phone, "return window.__pager.animating") is False
    assert js(phone, "return visualViewport.scale") == 1
    assert page_photo(phone)["scale"] == pytest.approx(page_photo(phone)["fit"], rel=1e-6)
    # On the photo, the photo zooms around the fingers; the page, its bars and text stay as they were.
    box = page_photo(phone)["box"]
    pinch(phone, 195, box["top"] + box["height"] / 2, 40, 200, steps=12)
    zoomed = wait_for(lambda: (lambda p: p if not p["moving"] else None)(page_photo(phone)), message="pinch settled")
    assert zoomed["scale"] > 3 * zoomed["fit"]
    assert js(phone, "return visualViewport.scale") == 1
    assert js(phone, "return document.querySelector('.nav-bar').getBoundingClientRect().height") == bar
    assert zoomed["box"] == pytest.approx(box, abs=0.01), (zoomed["box"], box)
    screenshot(phone, "pager-photo-pinched")
    # A tap on the zoomed photo opens the zoom view on the same part of it.
    centre = ((195 - zoomed["left"]) / zoomed["scale"], (box["top"] + box["height"] / 2 - zoomed["top"]) / zoomed["scale"])
    tap(phone, 195, box["top"] + box["height"] / 2)
    wait_hash(phone, f"#/photos/{photo['id']}/zoom")
    opened = at_rest(phone)
    shown = ((195 - opened["photoRect"]["left"]) / opened["scale"], (422 - opened["photoRect"]["top"]) / opened["scale"])
    assert opened["scale"] / opened["fitScale"] == pytest.approx(zoomed["scale"] / zoomed["fit"], rel=0.02)
    assert shown[0] == pytest.approx(centre[0], abs=3)


def test_double_tap_zooms_to_the_tapped_point_and_back(phone, server):
    photo = server.photos["large"]
    fitted = open_zoom(phone, server, photo)
    x, y = 250, 380
    photo_x = (x - fitted["photoRect"]["left"]) / fitted["scale"]
    double_tap(phone, x, y)
    zoomed = at_rest(phone)
    assert zoomed["scale"] > 2 * fitted["scale"]
    # The tapped photo point stays under the finger (vertically the zoomed photo fills the screen).
    assert zoomed["photoRect"]["left"] + photo_x * zoomed["scale"] == pytest.approx(x, abs=1)
    double_tap(phone, x, y)
    back = at_rest(phone)
    assert back["scale"] == pytest.approx(fitted["scale"], rel=1e-6)
    assert back["photoRect"] == pytest.approx(fitted["photoRect"], abs=0.5)


def test_rotation_keeps_the_point_under_the_centre_and_the_zoom(phone, server):
    photo = server.photos["large"]
    open_zoom(phone, server, photo)
    pinch(phone, 120, 422, 40, 120, steps=10)
    before = at_rest(phone)

    def centre_point(state, w, h):
        r = state["photoRect"]
        return ((w / 2 - r["left"]) / state["scale"], (h / 2 - r["top"]) / state["scale"])
    point, relative = centre_point(before, 390, 844), before["scale"] / before["fitScale"]
    emulate(phone, 844, 390, dpr=1, mobile=True)
    after = wait_for(lambda: (lambda s: s if s["fitScale"] != before["fitScale"] and s["complete"] else None)(viewer_state(phone)),
                     message="rotated")
    assert after["scale"] / after["fitScale"] == pytest.approx(relative, rel=1e-3)
    assert centre_point(after, 844, 390) == pytest.approx(point, abs=1)
    # And the pager held sideways shows the photo large, not a strip of a box.
    js(phone, "document.querySelector('.zoom-close').click()")
    wait_for(lambda: visible_view(phone) == "pager", message="pager")
    box = wait_for(lambda: (lambda p: p if p and p["box"]["height"] > 1 else None)(page_photo(phone)), message="page photo")["box"]
    assert box["height"] >= 0.6 * 390, box
    screenshot(phone, "pager-phone-landscape")


def test_back_after_paging_in_the_zoom_view_lands_where_the_person_came_from(phone, server):
    photos = sorted_photos(server)
    first, second = photos[0], photos[1]
    for close in ("back", "done"):
        open_app(phone, server)
        cell = js(phone, f"""const r = document.querySelector('#grid .cell[data-photo-id="{first['id']}"]').getBoundingClientRect();
                             return [r.left + r.width / 2, r.top + r.height / 2];""")
        tap(phone, *cell)
        wait_hash(phone, f"#/photos/{first['id']}")
        wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
        js(phone, "document.querySelector('.page.current .photo-open').click()")
        wait_hash(phone, f"#/photos/{first['id']}/zoom")
        at_rest(phone)
        drag(phone, line(340, 420, 40, 425, 8))
        wait_hash(phone, f"#/photos/{second['id']}/zoom")
        if close == "back":
            phone.back()
        else:
            js(phone, "document.querySelector('.zoom-close').click()")
        # Out of the zoom view onto the photo it showed last, as the pager would have it ...
        wait_for(lambda: visible_view(phone) == "pager", message="pager")
        wait_hash(phone, f"#/photos/{second['id']}")
        wait_for(lambda: js(phone, "return window.__pager.index") == 1, message="pager on the second photo")
        # ... and one more Back is the grid, where the person started.
        phone.back()
        wait_for(lambda: visible_view(phone) == "grid", message=f"grid after Back ({close})")
