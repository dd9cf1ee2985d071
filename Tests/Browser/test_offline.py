"""Offline (Public/sw.js): a photo seen opens again with the server stopped (the page, the photo and
the tiles seen come from what the service worker kept), the page says once that the server cannot
be reached, and a photo never seen says it cannot be shown; what is kept stays within its bound,
oldest stored out first; sign-in answers and a 401 are never kept, and a 401 forgets the rest."""

import math
import os
import re
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from conftest import REPO, screenshot, start_server
from gestures import emulate, js, settled_viewer, wait_for
from pages import open_app, photo_drawn, sorted_photos
from photos import make_library

# The page here registers its service worker (conftest keeps it out of the other files' tests).
pytestmark = pytest.mark.service_worker

CONTROLLED = "return navigator.serviceWorker.controller !== null"

# Every cache and what it holds (path and query of each request), in the order they were stored.
KEPT = """const done = arguments[arguments.length - 1];
(async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    kept[name] = (await (await caches.open(name)).keys()).map((r) => { const u = new URL(r.url); return u.pathname + u.search; });
  }
  return kept;
})().then(done, (e) => done(String(e)));"""

BANNER = "const b = document.getElementById('connection-status'); return b.hidden ? null : b.querySelector('.connection-words').textContent"

# The pager's buttons the banner lies over (none, when it is where it should be).
COVERED = """const banner = document.getElementById('connection-status').getBoundingClientRect();
return [...document.querySelectorAll('#pager-view .action, #pager-view .pager-back')].filter((b) => {
  const r = b.getBoundingClientRect();
  return r.width > 0 && r.left < banner.right && banner.left < r.right && r.top < banner.bottom && banner.top < r.bottom;
}).map((b) => b.className)"""

TROUBLE = """return [...document.querySelectorAll(arguments[0])].filter(t => !t.hidden && t.closest('[hidden]') === null)
    .map(t => t.querySelector('p').textContent)"""

SIZES = [("phone", 390, 844, 3, True), ("desktop", 1440, 900, 2, False)]


def kept(driver):
    answer = driver.execute_async_script(KEPT)
    assert isinstance(answer, dict), answer
    return answer


def scheme(driver, name):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": name}]})


@pytest.fixture
def offline_server(work_dir):
    """A server of its own, to stop under the page: a large photo and five small ones."""
    folder = os.path.join(work_dir, "photos-offline")
    shapes = [("wide", 3000, 2000)] + [(f"small{i}", 640, 480) for i in range(5)]
    made = make_library(folder, shapes) if not os.path.isdir(folder) else dict.fromkeys(name for name, _, _ in shapes)
    running = start_server(folder, os.path.join(work_dir, "data-offline"), 0, len(made),
                           env_extra={"PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "1"})
    yield running
    running.stop()


def test_a_photo_seen_opens_again_with_the_server_stopped(phone, offline_server):
    server = offline_server
    order = sorted_photos(server)
    wide = server.photos["wide"]
    at = [p["id"] for p in order].index(wide["id"])
    # Farther than the pager's neighbours, whose tiles it loads too: never on screen.
    never = max(order, key=lambda p: abs(order.index(p) - at))
    assert abs(order.index(never) - at) >= 3
    open_app(phone, server)
    wait_for(lambda: js(phone, CONTROLLED), timeout=30, message="the service worker in control")
    for _, width, height, dpr, mobile in SIZES:
        emulate(phone, width, height, dpr=dpr, mobile=mobile)
        open_app(phone, server, f"photos/{wide['id']}")
        wait_for(lambda: photo_drawn(phone), timeout=30, message="the photo drawn")
        js(phone, "document.querySelector('.page.current .photo-open').click()")
        fitted = settled_viewer(phone, timeout=30)
        ActionChains(phone).send_keys("+").perform()
        zoomed = settled_viewer(phone, timeout=30)
        assert zoomed["scale"] > fitted["scale"]
    images = kept(phone)["photoscroll-images-1"]
    assert any(f"/photos/{wide['id']}/tiles/" in url for url in images), images
    assert all("?v=" in url for url in images), "only versioned images are kept"
    assert not any(f"/photos/{never['id']}/tiles/" in url for url in images), "the photo never seen has no tile kept"

    phone.get("about:blank")
    server.stop()
    for name, width, height, dpr, mobile in SIZES:
        emulate(phone, width, height, dpr=dpr, mobile=mobile)
        scheme(phone, "light")
        open_app(phone, server, f"photos/{wide['id']}")
        wait_for(lambda: photo_drawn(phone), timeout=30, message="the photo drawn from what was kept")
        banner = wait_for(lambda: js(phone, BANNER), message="the page says the server cannot be reached")
        assert banner == "The server cannot be reached. Trying again…"
        assert js(phone, "return document.querySelectorAll('.connection-status').length") == 1
        assert js(phone, COVERED) == [], "the banner covers none of the pager's buttons"
        assert js(phone, TROUBLE, ".page.current .photo-trouble") == [], "said once, for the page, not over the photo"
        screenshot(phone, f"offline-reload-{name}-light")
        scheme(phone, "dark")
        screenshot(phone, f"offline-reload-{name}-dark")
        scheme(phone, "light")
        if name == "phone":
            # Its zoom view, at fit and zoomed in as it was seen, draws every tile too.
            js(phone, "document.querySelector('.page.current .photo-open').click()")
            settled_viewer(phone, timeout=30)
            ActionChains(phone).send_keys("+").perform()
            settled_viewer(phone, timeout=30)
    # A photo never seen: nothing of it was kept, and it says so.
    js(phone, "location.hash = arguments[0]", f"#/photos/{never['id']}")
    note = wait_for(lambda: js(phone, TROUBLE, ".page.current .photo-trouble"), message="the photo never seen says so")
    assert note == ["This photo was not kept on this device, so it cannot be shown until the server answers."], note
    assert js(phone, "return document.querySelector('.page.current .photo-retry').hidden") is True
    screenshot(phone, "offline-photo-never-seen-desktop")


def test_a_first_visit_opens_again_with_the_server_stopped(phone, offline_server):
    """The first visit ever, straight to a photo: the list and the photo were loaded before the
    worker was in control, and a reload offline still shows them, and the grid."""
    server = offline_server
    wide = server.photos["wide"]
    emulate(phone, 390, 844, dpr=3, mobile=True)
    open_app(phone, server, f"photos/{wide['id']}")
    wait_for(lambda: photo_drawn(phone), timeout=30, message="the photo drawn")
    wait_for(lambda: js(phone, CONTROLLED), timeout=30, message="the service worker in control")

    def kept_enough():
        everything = kept(phone)
        data = everything.get("photoscroll-data-1", [])
        images = everything.get("photoscroll-images-1", [])
        return "/photos/summary" in data and any(f"/photos/{wide['id']}/tiles/" in url for url in images)
    wait_for(kept_enough, timeout=30, message=f"the list and the photo of the first load kept (kept: {kept(phone)})")

    phone.get("about:blank")
    server.stop()
    # At the size it was seen: another size would want tiles of another level, never loaded.
    open_app(phone, server, f"photos/{wide['id']}")
    wait_for(lambda: photo_drawn(phone), timeout=30, message="the photo drawn from what the first load kept")
    wait_for(lambda: js(phone, BANNER), message="the page says the server cannot be reached")
    screenshot(phone, "offline-first-visit-phone")
    assert js(phone, COVERED) == [], "the banner covers none of the pager's buttons"
    # It can be dismissed, and stays dismissed while nothing changes.
    phone.find_element("css selector", "#connection-status .connection-dismiss").click()
    wait_for(lambda: js(phone, BANNER) is None, message="the banner dismissed")
    js(phone, "location.hash = '#/'")
    wait_for(lambda: js(phone, "return document.getElementById('grid-view').hidden === false"), message="the grid shown")
    cells = wait_for(lambda: js(phone, "return document.querySelectorAll('#grid [data-photo-id]').length"),
                     message="the grid's cells drawn from the kept list")
    assert cells == len(server.photos)
    assert js(phone, "return document.getElementById('message-view').hidden") is True, "no 'could not be loaded'"
    screenshot(phone, "offline-first-visit-grid")


def tile_urls(photo):
    """Every tile of the photo's pyramid, coarsest level first."""
    urls = []
    for z in range(photo["maxZoom"] + 1):
        scale = 2 ** (z - photo["maxZoom"])
        columns = math.ceil(math.ceil(photo["width"] * scale) / photo["tileSize"])
        rows = math.ceil(math.ceil(photo["height"] * scale) / photo["tileSize"])
        for y in range(rows):
            for x in range(columns):
                urls.append(photo["tiles"].replace("{z}", str(z)).replace("{x}", str(x)).replace("{y}", str(y)))
    return urls


def test_what_is_kept_stays_within_its_bound_and_sign_in_is_never_kept(desktop, server):
    photo = max(server.photos.values(), key=lambda p: p["width"] * p["height"])
    urls = [url.replace(server.url, "") for url in tile_urls(photo)][:14]
    assert len(urls) == 14 and all("?v=" in url for url in urls), urls
    # A view with no image in it (an unknown photo): the page asks for nothing but these tiles.
    open_app(desktop, server, "photos/99999")
    wait_for(lambda: js(desktop, CONTROLLED), timeout=30, message="the service worker in control")
    # The same worker with a bound of 8 images.
    js(desktop, "navigator.serviceWorker.register('/sw.js?images=8')")
    wait_for(lambda: js(desktop, "return navigator.serviceWorker.controller?.scriptURL.endsWith('?images=8')"),
             timeout=30, message="the bounded worker in control")
    fetched = desktop.execute_async_script("""const done = arguments[arguments.length - 1];
(async () => {
  const statuses = [];
  for (const url of arguments[0]) statuses.push((await fetch(url)).status);
  // Neither sign-in answers nor an image without its version are ever kept.
  statuses.push((await fetch('/session')).status);
  statuses.push((await fetch(arguments[0][0].split('?')[0] + '?x=1')).status);
  return statuses;
})().then(done, (e) => done(String(e)));""", urls)
    assert fetched[:14] == [200] * 14, fetched
    # The last 8 stored, in order: the first tiles went first. The worker stores after it has
    # answered, and a browser under load (three at once beside the builds) takes seconds for it.
    wait_for(lambda: kept(desktop)["photoscroll-images-1"] == urls[-8:], timeout=30,
             message=f"the 8 newest images kept (kept: {kept(desktop)['photoscroll-images-1']})")
    everything = [url for urls_of in kept(desktop).values() for url in urls_of]
    assert not any(url.startswith("/session") for url in everything), everything
    assert not any("?x=1" in url for url in everything), everything


def test_a_401_is_never_kept_and_forgets_what_was(desktop, work_dir):
    folder = os.path.join(work_dir, "photos-offline-private")
    os.makedirs(folder, exist_ok=True)
    server = start_server(folder, os.path.join(work_dir, "data-offline-private"), 0, 0,
                          env_extra={"PHOTOSCROLL_ACCESS": "private", "PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "1"})
    try:
        desktop.get(server.url + "/")
        wait_for(lambda: js(desktop, CONTROLLED), timeout=30, message="the service worker in control")
        # As if photos had been kept while a session lasted.
        status = desktop.execute_async_script("""const done = arguments[arguments.length - 1];
(async () => {
  await (await caches.open('photoscroll-images-1')).put('/photos/1/thumbnail.jpg?v=1', new Response('jpeg'));
  await (await caches.open('photoscroll-data-1')).put('/photos/1', new Response('{}'));
  return (await fetch('/photos/summary')).status;
})().then(done, (e) => done(String(e)));""")
        assert status == 401
        wait_for(lambda: kept(desktop).get("photoscroll-images-1") == [] and kept(desktop).get("photoscroll-data-1") == [],
                 timeout=30, message=f"the kept photos forgotten (kept: {kept(desktop)})")
        assert "/" in kept(desktop)["photoscroll-shell-1"], "the page itself holds nothing private and stays"
    finally:
        desktop.get("about:blank")
        server.stop()


def test_the_worker_is_served_fresh_from_the_root_and_keeps_every_file_of_the_page(server):
    with urllib.request.urlopen(server.url + "/sw.js") as answer:
        assert answer.headers["Cache-Control"] == "no-cache"
        assert answer.headers["Content-Type"].startswith("text/javascript")
        source = answer.read().decode()
    shell = set(re.findall(r"'(/[^']*)'", source[source.index("const SHELL = ["):source.index("];", source.index("const SHELL = ["))]))
    public = os.path.join(REPO, "Public")
    files = {"/" + os.path.relpath(os.path.join(folder, name), public)
             for folder, _, names in os.walk(public) for name in names if not name.endswith(".md")}
    assert shell == (files - {"/sw.js", "/index.html"}) | {"/"}, "sw.js's SHELL lists every file of the page"
