"""Zoom viewer benchmark, in headless Chromium against the real server on loopback.

1. Time to first screen: from opening the zoom view (a fresh page, browser cache off) to the moment
   every visible tile of the fitted level is decoded (performance.now() in the page). Reference,
   measured in the same run: the same tiles fetched and decoded by a bare loop of
   fetch + createImageBitmap in the same browser, nothing else on the page.
2. Tiles for one pinch from fit to native resolution: tile requests the viewer made during and
   after one continuous two-finger pinch, against what a perfect viewer needs: the visible tiles
   at the final level (the level shown at fit is already on screen and not counted).

Run through bench/viewer.sh; env RUNS (default 5), WIDTH×HEIGHT of the photo (default 8000×6000).
"""

import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Browser"))

from conftest import new_driver, start_server  # noqa: E402
from gestures import emulate, js, pinch, settled_viewer  # noqa: E402
from photos import make_photo  # noqa: E402

RUNS = int(os.environ.get("RUNS", "5"))
WIDTH = int(os.environ.get("WIDTH", "8000"))
HEIGHT = int(os.environ.get("HEIGHT", "6000"))
SCREENS = [("phone 390x844 @2x", 390, 844, 2), ("desktop 1280x800 @1x", 1280, 800, 1)]

REFERENCE = """
const [urls, done] = [arguments[0], arguments[arguments.length - 1]];
const start = performance.now();
Promise.all(urls.map(u => fetch(u, {cache: 'no-store'}).then(r => r.blob()).then(b => createImageBitmap(b))))
  .then(() => done(performance.now() - start), e => done(-1));
"""


def first_screen(driver, server, photo):
    driver.get("about:blank")
    driver.get(f"{server.url}/#/photos/{photo['id']}/zoom")
    state = settled_viewer(driver, timeout=60)
    timing = js(driver, "return [window.__viewer.openedAt, window.__viewer.completeAt]")
    urls = [f"{server.url}{photo['tiles'].replace('{z}', z).replace('{x}', x).replace('{y}', y)}"
            for z, x, y in (t.split("/") for t in state["wanted"])]
    return timing[1] - timing[0], urls


def reference(driver, server, urls):
    driver.get(f"{server.url}/favicon.svg")
    return driver.execute_async_script(REFERENCE, urls)


def pinch_to_native(driver, server, photo, width, height):
    driver.get("about:blank")
    driver.get(f"{server.url}/#/photos/{photo['id']}/zoom")
    state = settled_viewer(driver, timeout=60)
    js(driver, "window.__viewer.resetRequests(); performance.clearResourceTimings()")
    ratio = state["maxScale"] / state["scale"]
    # Both fingers stay on the screen the whole time, as real ones do.
    start_gap = 30
    cx, cy = width / 2, height / 2
    end_gap = min(start_gap * ratio * 1.1, width * 0.95)
    pinch(driver, cx, cy, start_gap, end_gap, steps=60, pause=0.016)
    final = settled_viewer(driver, timeout=60)
    if final["scale"] < final["maxScale"] - 1e-9:
        raise SystemExit(f"the pinch stopped short of native resolution ({final['scale']} < {final['maxScale']})")
    fetched = js(driver, "return performance.getEntriesByType('resource').filter(e => e.name.includes('/tiles/')).length")
    return final["requestCount"], len(final["wanted"]), fetched, final["level"]


def main():
    work = tempfile.mkdtemp(prefix="photoscroll-viewer-bench-")
    photos = os.path.join(work, "photos")
    os.makedirs(photos)
    make_photo(os.path.join(photos, "deep.jpg"), WIDTH, HEIGHT)
    server = start_server(photos, os.path.join(work, "data"), comments_per_minute=0, expected_photos=1)
    try:
        photo = server.photos["deep"]
        print(f"photo {WIDTH}x{HEIGHT}, maxZoom {photo['maxZoom']}, server {server.url}, {RUNS} runs each")
        for name, width, height, dpr in SCREENS:
            driver = new_driver(width, height)
            try:
                emulate(driver, width, height, dpr=dpr, mobile=True)
                driver.execute_cdp_cmd("Network.enable", {})
                driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
                ours, ideal = [], []
                for _ in range(RUNS):
                    elapsed, urls = first_screen(driver, server, photo)
                    ours.append(elapsed)
                    ideal.append(reference(driver, server, urls))
                ours_ms, ideal_ms = statistics.median(ours), statistics.median(ideal)
                print(f"[{name}] first complete screen: viewer {ours_ms:.1f} ms, bare fetch+decode of the same "
                      f"{len(urls)} tiles {ideal_ms:.1f} ms, ratio viewer/bare {ours_ms / ideal_ms:.2f}")
                requests, perfect, fetched, level = pinch_to_native(driver, server, photo, width, height)
                print(f"[{name}] one pinch fit→native: {requests} tile requests ({fetched} in resource timing), "
                      f"perfect viewer {perfect} (visible tiles at level {level}), ratio {requests / perfect:.2f}")
            finally:
                driver.quit()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
