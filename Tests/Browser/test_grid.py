"""The grid over a collection of thousands: windowed, in order, scrubbable, live without polling,
and back where it was after opening a photo."""

import os
import shutil
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import screenshot
from gestures import js, wait_for
from pages import open_app, visible_view, wait_hash

TOTAL = 2500
# A photo added to the shared collection stays: the runner puts this file after the collection's others.
CHANGES_SHARED_FIXTURE = True

DRAWN = """
return [...document.querySelectorAll('#grid .cell')].map(a => {
    const r = a.getBoundingClientRect();
    return {id: Number(a.dataset.photoId), top: r.top, left: r.left, w: r.width, h: r.height,
            src: a.querySelector('img').getAttribute('src')};
});
"""


def drawn(driver):
    return js(driver, DRAWN)


def elements(driver):
    return js(driver, "return document.getElementsByTagName('*').length")


def test_only_the_rows_near_the_screen_exist_in_order(phone, collection_server):
    open_app(phone, collection_server)
    assert js(phone, "return document.getElementById('grid-count').textContent") == "2,500 photos"
    # It opens on the newest photos, at the end, as Photos does; the oldest are at the top.
    wait_for(lambda: any(c["id"] == TOTAL and 0 < c["top"] < js(phone, "return innerHeight") for c in drawn(phone)),
             message="the newest photo on screen")
    assert js(phone, "return window.scrollY + innerHeight >= document.documentElement.scrollHeight - 4")
    screenshot(phone, "grid-collection-opened")
    js(phone, "window.scrollTo(0, 0)")
    wait_for(lambda: any(c["id"] == 1 for c in drawn(phone)), message="the oldest photo drawn at the top")
    top = drawn(phone)
    assert 16 <= len(top) <= 80, len(top)
    assert [c["id"] for c in top] == list(range(1, len(top) + 1)), "document order is photo order"
    assert all(abs(c["w"] - c["h"]) < 1 and c["w"] > 60 for c in top)
    wait_for(lambda: all(c["src"] for c in drawn(phone)[:8]), message="records of the first rows fetched")
    at_top = elements(phone)

    # The whole collection is scrollable, yet the bottom holds as few elements as the top.
    height = js(phone, "return document.getElementById('grid').offsetHeight")
    assert height > 2500 / 4 * 90
    js(phone, "window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for(lambda: any(c["id"] == TOTAL for c in drawn(phone)), message="last photo drawn")
    bottom = drawn(phone)
    assert [c["id"] for c in bottom] == sorted(c["id"] for c in bottom)
    assert len(bottom) <= 80
    assert elements(phone) <= at_top + 120, (elements(phone), at_top)
    wait_for(lambda: all(c["src"] for c in drawn(phone) if c["top"] > 0), message="records at the bottom fetched")
    screenshot(phone, "grid-collection-bottom")
    # Each row is laid out once: cells of a row share a top, rows follow each other.
    rows = sorted({round(c["top"]) for c in bottom})
    assert all(b - a > 60 for a, b in zip(rows, rows[1:]))


def records_on_screen(driver):
    """Cells on screen, each with its record. Right after a jump the cells drawn may still be the
    old ones, none of them on screen, and "all of none" would wait for nothing."""
    cells = [c for c in drawn(driver) if 100 < c["top"] < 700]
    return bool(cells) and all(c["src"] for c in cells)


def test_opening_a_photo_and_coming_back_keeps_the_place(phone, collection_server):
    open_app(phone, collection_server)
    js(phone, "window.scrollTo(0, document.getElementById('grid').offsetHeight * 0.6)")
    wait_for(lambda: records_on_screen(phone), message="records on screen")
    before = js(phone, "return window.scrollY")
    target = next(c for c in drawn(phone) if 200 < c["top"] < 600)
    phone.find_element(By.CSS_SELECTOR, f'#grid .cell[data-photo-id="{target["id"]}"]').click()
    wait_hash(phone, f"#/photos/{target['id']}")
    wait_for(lambda: visible_view(phone) == "pager", message="pager shown")
    assert js(phone, "return document.querySelector('.pager-title').textContent") == f"IMG_{target['id'] - 1:06d}"
    phone.back()
    wait_for(lambda: visible_view(phone) == "grid", message="grid again")
    after = js(phone, "return window.scrollY")
    assert abs(after - before) < 120, (before, after)
    focused = js(phone, "return Number(document.activeElement?.dataset?.photoId || 0)")
    assert focused == target["id"]
    # A reload of the grid lands in the same place too.
    phone.refresh()
    wait_for(lambda: js(phone, "return document.documentElement.dataset.ready === 'true'"), message="reloaded")
    assert abs(js(phone, "return window.scrollY") - before) < 120


def test_the_scrubber_travels_the_whole_collection_by_month(desktop, collection_server):
    open_app(desktop, collection_server)
    js(desktop, "window.scrollTo(0, 0)")
    # Shown while the page scrolls (read in the page, at the scroll: it fades 1.5 s after).
    shown = desktop.execute_async_script("""
        const done = arguments[0];
        addEventListener('scroll', () => requestAnimationFrame(() =>
            done(document.querySelector('.scrubber').classList.contains('shown'))), { once: true });
        scrollBy(0, 400);
    """)
    assert shown, "the scrubber shown while scrolling"
    box = js(desktop, "const r = document.querySelector('.scrubber').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    x = box[0] + box[2] / 2
    # A mouse wheeling at the track and resting there keeps it (however slow this machine is
    # between the wheel and the mouse's next move, the thumb does not fade under it).
    scrubber = desktop.find_element(By.CSS_SELECTOR, ".scrubber")

    def wheeled_and_held():
        for kind, extra in (("mouseWheel", {"deltaX": 0, "deltaY": 20}), ("mouseMoved", {})):
            desktop.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": box[1] + 5, **extra})
        return "shown" in scrubber.get_attribute("class") and js(desktop, "return document.querySelector('.scrubber:hover') !== null")
    wait_for(wheeled_and_held, message="the scrubber held under the mouse")
    # Past the fade after scrolling (a timer in the page, so the wait is the page's own).
    assert desktop.execute_async_script("""
        const done = arguments[0];
        setTimeout(() => done(document.querySelector('.scrubber').classList.contains('shown')), 2000);
    """), "the thumb faded under the mouse"
    actions = ActionChains(desktop)
    actions.move_by_offset(x, box[1] + 5).click_and_hold()
    for k in range(1, 11):
        actions.move_by_offset(0, (box[3] - 10) / 10)
    actions.perform()
    label = js(desktop, "return document.querySelector('.scrubber-label').textContent")
    marks = js(desktop, "return [...document.querySelectorAll('.scrubber-mark')].map(m => m.textContent)")
    screenshot(desktop, "grid-scrubber")
    ActionChains(desktop).release().perform()
    assert js(desktop, "return window.scrollY + innerHeight >= document.documentElement.scrollHeight - 400")
    wait_for(lambda: any(c["id"] == TOTAL for c in drawn(desktop)), message="the end reached")
    # The collection spans three years: the bubble names a month of the last one, the marks several.
    assert label and label[-4:].isdigit(), label
    assert len(marks) >= 3 and len({m[-4:] for m in marks}) >= 2, marks


def summary_tag(server):
    """The ETag of the server's summary now: it changes exactly when the list does."""
    with urllib.request.urlopen(server.url + "/photos/summary", timeout=30) as response:
        return response.headers["ETag"]


def test_changes_arrive_as_events_not_by_polling(phone, collection_server):
    open_app(phone, collection_server)
    # The live stream's opening makes the page ask for the summary again (a change may have come
    # between the list's first answer and the stream): on a loaded machine the stream may open
    # after the grid is drawn, so the mark is taken once it has opened and that answer has come.
    wait_for(lambda: js(phone, "return window.__network.streamsOpened >= 1 && window.__network.fetching === 0"),
             timeout=40, message="the live stream open and the summary asked again")
    # The collection's ingest may still be examining photos on a loaded machine, and each photo it
    # changes is an event the page answers with a summary fetch: "nothing changes" is read from
    # the server, not assumed.
    tag = summary_tag(collection_server)
    mark = js(phone, "performance.setResourceTimingBufferSize(10000); performance.clearResourceTimings(); return performance.now()")
    # Once drawn, the grid comes to rest with no timer or animation frame left to run: without an
    # event (from the server, or the person) it can do nothing more, so it can fetch nothing.
    # (On a loaded machine, with the collection's ingest still running, it takes longer to get there.)
    wait_for(lambda: js(phone, "return window.__timers.idle"), timeout=40, message="the grid idle, nothing scheduled")
    # Fetched since the mark (a request already on its way then, through the service worker
    # starting beside the page, may end after it: that is no new fetch).
    listings = ("return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0]).map(e => e.name)"
                ".filter(n => /\\/photos(\\?|\\/summary)/.test(n))")
    fetched = js(phone, listings, mark)
    unchanged = summary_tag(collection_server) == tag
    if unchanged:
        assert fetched == [], "no list or summary fetched while nothing changes"
    else:
        assert all(n.endswith("/photos/summary") for n in fetched), ("the list changed: its summary, no page", fetched)
    seen = len(fetched)
    assert js(phone, "return document.readyState") == "complete"
    # A new photo in a new folder reaches the open grid as an event, without a summary or list fetch.
    folder = os.path.join(collection_server.photos_dir, "2099", "12")
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(collection_server.photos_dir, collection_server.paths[0])
    # Made beside the folder and moved in whole (bytes of its own, so it is no copy of the first
    # photo): one arrival, where a copy then an append would be two changes a busy server may
    # report apart, each with its own summary fetch.
    staged = os.path.join(os.path.dirname(collection_server.photos_dir), "late-arrival.jpg")
    shutil.copyfile(source, staged)
    with open(staged, "ab") as f:
        f.write(b"different bytes")
    os.rename(staged, os.path.join(folder, "late-arrival.jpg"))
    wait_for(lambda: js(phone, "return document.getElementById('grid-count').textContent") == "2,501 photos",
             timeout=30, message="count updated by the event")
    arrived = summary_tag(collection_server)
    # Where it goes in the date order only the server knows: the event makes the page fetch the
    # summary once, and no page of the list.
    fetched = js(phone, listings, mark)
    assert all(n.endswith("/photos/summary") for n in fetched), fetched
    if unchanged and summary_tag(collection_server) == arrived:
        assert len(fetched) - seen <= 2, fetched
    js(phone, "window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for(lambda: js(phone, "return [...document.querySelectorAll('#grid .cell-title')].some(t => t.textContent === 'late-arrival')"),
             timeout=30, message="the new photo drawn at the end")


CELLS = """
return [...document.querySelectorAll('#grid .cell')].filter(a => a.querySelector('img').getAttribute('src'))
    .map(a => { const i = a.querySelector('img');
                return {id: Number(a.dataset.photoId), broken: a.classList.contains('broken'),
                        loaded: i.complete && i.naturalWidth > 0}; });
"""


def test_thumbnails_that_failed_are_asked_for_again(phone, collection_server):
    # A busy or restarting server fails some thumbnails for a moment (503 with Retry-After, a dropped
    # connection). Here every thumbnail fails at first; once the server answers again, the cells
    # mend themselves, without a scroll or a reload.
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/thumbnail.jpg*"]})
    try:
        open_app(phone, collection_server)
        broken = wait_for(lambda: (lambda c: c if c and all(x["broken"] for x in c) else None)(js(phone, CELLS)),
                          message="every thumbnail on screen failed")
        assert len(broken) >= 16, broken
    finally:
        phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    seen = []

    def mended_cells():
        seen[:] = [js(phone, CELLS)]
        return seen[0] if seen[0] and all(x["loaded"] and not x["broken"] for x in seen[0]) else None
    try:
        # Each cell's next attempt comes after its doubling wait (1, 2, 4, 8, 16 s): on a busy machine
        # a cell may have failed three or four times before all of them had, so allow the whole series.
        mended = wait_for(mended_cells, timeout=40, message="every thumbnail on screen arrived after all")
    except AssertionError:
        raise AssertionError(f"thumbnails still missing: {[c for c in seen[0] if c['broken'] or not c['loaded']]!r}") from None
    assert {c["id"] for c in mended} >= {c["id"] for c in broken}
