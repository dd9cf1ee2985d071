"""Open and close transitions (the photo grows out of its grid cell and out of its page, and
shrinks back), and prefers-reduced-motion turning every animation off."""

import pytest

from gestures import double_tap, js, sample_frames, samples, settled_viewer, tap, viewer_state, wait_for
from pages import current_dot, open_app, page_photo, sorted_photos, visible_view, wait_hash

FLIGHT = """(() => { const f = document.querySelector('.photo-flight');
    if (!f) return null; const r = f.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()"""


def box(rect):
    return [rect["left"], rect["top"], rect["width"], rect["height"]]


def slow_motion(driver, rate=0.25):
    """Plays the page's Web Animations (the flights) at `rate` of their speed, through DevTools:
    the same path, laid out over more frames, so a loaded machine still draws the flight in
    between its ends. The tests assert where the copy starts and ends and that it moves one way;
    how many frames it gets is bench/viewer.py's figure (a flight of some 400 ms drew only 4
    frames on a machine at load 12)."""
    driver.execute_cdp_cmd("Animation.enable", {})
    driver.execute_cdp_cmd("Animation.setPlaybackRate", {"playbackRate": rate})


def resting_cell(driver, photo_id):
    """The photo's cell once the grid has come to rest: just opened, it may still be placing its
    cells (dates read, the newest scrolled to), and a tap where a cell was is no tap on it."""
    script = f"return document.querySelector('#grid .cell[data-photo-id=\"{photo_id}\"]')?.getBoundingClientRect().toJSON()"
    seen = []

    def resting():
        seen.append(js(driver, script))
        return seen[-1] if len(seen) >= 3 and seen[-1] and seen[-1] == seen[-2] == seen[-3] else None
    return wait_for(resting, interval=0.1, message="the grid at rest")


def test_the_photo_grows_out_of_its_cell_and_shrinks_back_into_it(phone, server):
    photo = sorted_photos(server)[1]
    open_app(phone, server)
    slow_motion(phone)
    cell = resting_cell(phone, photo["id"])
    sample_frames(phone, FLIGHT, frames=300)
    tap(phone, cell["left"] + cell["width"] / 2, cell["top"] + cell["height"] / 2)
    wait_hash(phone, f"#/photos/{photo['id']}")
    # (The URL changes at once; the flight starts once the photo's record is in.)
    wait_for(lambda: visible_view(phone) == "pager" and page_photo(phone) and js(phone, "return !document.querySelector('.photo-flight')"),
             message="landed")
    flight = [v for _, v in samples(phone) if v]
    target = page_photo(phone)["box"]
    # Drawn at the cell and at its box on the page: it went from one to the other on screen.
    assert len(flight) >= 2, flight
    assert flight[0] == pytest.approx(box(cell), abs=6)
    assert flight[-1] == pytest.approx(box(target), abs=3)
    # It grows steadily from one to the other.
    widths = [f[2] for f in flight]
    assert widths == sorted(widths)

    sample_frames(phone, FLIGHT, frames=300)
    js(phone, "document.querySelector('.pager-back').click()")
    wait_for(lambda: visible_view(phone) == "grid" and js(phone, "return !document.querySelector('.photo-flight')"), message="back in the grid")
    flight = [v for _, v in samples(phone) if v]
    cell = js(phone, f"return document.querySelector('#grid .cell[data-photo-id=\"{photo['id']}\"]').getBoundingClientRect().toJSON()")
    assert len(flight) >= 2, flight
    assert flight[0] == pytest.approx(box(target), abs=6)
    assert flight[-1] == pytest.approx(box(cell), abs=3)
    # And it shrinks steadily back.
    widths = [f[2] for f in flight]
    assert widths == sorted(widths, reverse=True)


# While the photo flies open from the grid: whether the copy flies, how many tiles finer than level 0
# the pager's photos have asked for, which of the pager's parts are rendered (its background fades in
# under the copy), whether the photo in front has its level 0 drawn, whether it has focus, how many
# tiles finer than level 0 and fitted images its neighbours have asked for, whether it is sharp, and
# when the sample was taken (performance.now(): a frame's own time can be from before a long task).
# (The photo in front asks for its one fitted image as it takes off, so that it lands sharp.)
UNDER_FLIGHT = """(() => {
    const pager = document.getElementById('pager-view');
    if (pager.hidden) return null;
    const keys = [...pager.querySelectorAll('img.tile')].map((t) => t.dataset.tile);
    const shown = [...pager.children].filter((c) => c.getClientRects().length && getComputedStyle(c).visibility !== 'hidden'
        && getComputedStyle(c).opacity !== '0').map((c) => c.className);
    const whole = pager.querySelector('.page.current img.tile[data-tile="0/0/0"].loaded');
    const neighbours = pager.querySelectorAll('.page:not(.current) img.tile:not([data-tile^="0/"]), .page:not(.current) img.fitted').length;
    return [Boolean(document.querySelector('.photo-flight')), keys.filter((k) => !k.startsWith('0/')).length, shown, Boolean(whole),
            Boolean(document.activeElement?.matches('.page.current .photo-open')), neighbours, window.__pager.complete,
            performance.now()];
})()"""


def test_only_the_flying_photo_is_drawn_until_it_lands(desktop, server):
    # A photo of many tiles, opened beside neighbours that have theirs too.
    photo = server.photos["large"]
    open_app(desktop, server)
    slow_motion(desktop)
    sample_frames(desktop, UNDER_FLIGHT, frames=600)
    js(desktop, f"document.querySelector('#grid .cell[data-photo-id=\"{photo['id']}\"]').click()")
    wait_hash(desktop, f"#/photos/{photo['id']}")
    wait_for(lambda: js(desktop, "return window.__pager.complete && !document.querySelector('.photo-flight')"), message="landed and sharp")
    timed = [(t, v) for t, v in samples(desktop) if v is not None]
    frames = [v for _, v in timed]
    flying = [f for f in frames if f[0]]
    assert flying, frames
    # Under the flight the pager draws only its background, and its photos ask for no tile but the
    # one of level 0 (the flying copy's own): nothing for the machine to fetch, decode or raster.
    assert all(f[1] == 0 for f in flying), [f[1] for f in flying]
    assert all(f[2] == [] for f in flying), [f[2] for f in flying]
    # The keyboard is on the photo from the start, as it was before it flew: Enter opens the zoom view.
    assert all(f[4] for f in flying), [f[4] for f in flying]
    # Landed, it all shows at once, and the photo is never blank: its level 0 is there first.
    landed = next(f for f in frames[frames.index(flying[-1]):] if not f[0])
    assert "pager-strip" in landed[2] and "nav-bar" in landed[2], landed
    assert landed[3], "the photo's level 0 was not drawn when the flight landed"
    # Sharp now: from its fitted image (asked for as it took off), or its tiles.
    assert js(desktop, "return document.querySelectorAll('#pager-view .page.current img.fitted.loaded, "
                       "#pager-view .page.current img.tile:not([data-tile^=\"0/\"])').length") > 0
    # The photo in front is sharp first: its neighbours ask for their images once it is, or once the
    # page's two seconds for it have run from the landing. Those run from after the last frame the
    # copy flew in, so a sample taken less than that long after it, before the photo was sharp,
    # must show no neighbour asking, however slowly the machine drew.
    after = timed[frames.index(landed):]
    sharp = next((t for t, v in after if v[6]), None)
    last_flying = flying[-1][7]
    early = [round(v[7] - last_flying) for t, v in after if v[5] and (sharp is None or t < sharp) and v[7] - last_flying < 1900]
    assert not early, early
    wait_for(lambda: js(desktop, "return document.querySelectorAll('#pager-view .page:not(.current) img.fitted, "
                                 "#pager-view .page:not(.current) img.tile:not([data-tile^=\"0/\"])').length") > 0,
             message="the neighbours' images asked for")


def test_the_zoom_view_grows_out_of_the_page_and_shrinks_back_into_it(phone, server):
    photo = server.photos["portrait"]
    open_app(phone, server, f"photos/{photo['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
    slow_motion(phone)
    on_page = page_photo(phone)
    sample_frames(phone, "window.__viewer.open ? [window.__viewer.photoRect.left, window.__viewer.photoRect.top, window.__viewer.photoRect.width] : null", frames=300)
    js(phone, "document.querySelector('.page.current .photo-open').click()")
    fitted = settled_viewer(phone)
    frames = [v for _, v in samples(phone) if v]
    assert frames[0] == pytest.approx([on_page["left"], on_page["top"], on_page["width"]], abs=4)
    assert frames[-1] == pytest.approx(box(fitted["photoRect"])[:3], abs=1)
    # Drawn at both ends: it went from the page to the fitted view on screen.
    assert len(frames) >= 2, frames

    sample_frames(phone, "window.__viewer.open || document.querySelector('.zoom-view.closing') ? [window.__viewer.photoRect.left, window.__viewer.photoRect.top, window.__viewer.photoRect.width] : null", frames=300)
    js(phone, "document.querySelector('.zoom-close').click()")
    wait_for(lambda: js(phone, "return document.getElementById('zoom-view').hidden"), message="closed")
    frames = [v for _, v in samples(phone) if v]
    assert frames[0] == pytest.approx(box(fitted["photoRect"])[:3], abs=4)
    assert frames[-1] == pytest.approx([on_page["left"], on_page["top"], on_page["width"]], abs=4)


ANIMATIONS = """(() => {
    const running = document.getAnimations().filter(a => a.playState === 'running').length;
    const moving = (window.__pager?.animating ? 1 : 0) + (window.__viewer?.animating ? 1 : 0);
    return [running, moving, document.querySelectorAll('.photo-flight').length,
            [window.__pager?.animating, window.__viewer?.animating, location.hash].join()];
})()"""


def test_reduced_motion_turns_every_animation_off(phone, server):
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    photos = sorted_photos(server)
    open_app(phone, server)
    cell = js(phone, f"return document.querySelector('#grid .cell[data-photo-id=\"{photos[0]['id']}\"]').getBoundingClientRect().toJSON()")
    sample_frames(phone, ANIMATIONS, frames=400)
    # Into the pager without a flight ...
    tap(phone, cell["left"] + cell["width"] / 2, cell["top"] + cell["height"] / 2)
    wait_hash(phone, f"#/photos/{photos[0]['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
    # ... to the next photo with a key, the dots and the strip jumping, not sliding ...
    js(phone, "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))")
    assert js(phone, "return window.__pager.position") == 1
    assert current_dot(phone)["index"] == 1
    # ... and into the zoom view, already fitted, where a double tap zooms at once.
    js(phone, "document.querySelector('.page.current .photo-open').click()")
    state = viewer_state(phone)
    assert state["scale"] == pytest.approx(state["fitScale"], rel=1e-6)
    double_tap(phone, 195, 422)
    assert viewer_state(phone)["scale"] > state["scale"]
    js(phone, "document.querySelector('.zoom-close').click()")
    wait_for(lambda: visible_view(phone) == "pager", message="pager")
    frames = [v for _, v in samples(phone)]
    assert frames, "no frames sampled"
    assert max(f[0] for f in frames) == 0, "a CSS animation or transition ran"
    assert max(f[1] for f in frames) == 0, [f[3] for f in frames if f[1]]
    assert max(f[2] for f in frames) == 0, "the photo flew"
