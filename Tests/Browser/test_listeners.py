"""Nothing outlives its view: every view listens through one registry (Public/util/listeners.js)
and lets go of everything when it closes or is destroyed. Counted as Chrome counts them
(DevTools' Memory.getDOMCounters after a garbage collection): the document's event listeners and
nodes stay flat over forty openings and closings of every view, and over forty views built
and destroyed."""

from gestures import wait_for
from pages import open_app, sorted_photos

CYCLES = 40
# A leak of one listener or one node per cycle would show as forty. (Measured: both counts come
# back exactly to what they were; the slack is for a late answer's text still on its way.)
LISTENER_SLACK = 6
NODE_SLACK = 30


def counters(driver):
    """The document's nodes and listeners that are still reachable. Garbage is not counted at once:
    a node let go of in the last moments (a late answer's, a text replaced) goes only with a later
    collection of the renderer's own heap. So: collections with a frame between them, until two
    readings agree, and the lowest reading seen (garbage only ever adds to a reading)."""
    readings = []
    for _ in range(8):
        driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
        driver.execute_async_script("requestAnimationFrame(() => setTimeout(arguments[0]))")
        readings.append(driver.execute_cdp_cmd("Memory.getDOMCounters", {}))
        if len(readings) >= 2 and readings[-1] == readings[-2]:
            break
    return min(readings, key=lambda r: (r["nodes"], r["jsEventListeners"]))


def indexed(server):
    """The search's index, filled in the background after the server starts, finds the three
    photos of 2024."""
    wait_for(lambda: server.get_json("/search?q=2024")["total"] == 3, timeout=60, message="the photos of 2024 indexed")


# Runs in the page: `until(condition)` waits a frame at a time, failing after a few seconds.
HELPERS = """
const until = async (what, condition, ms = 8000) => {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error('timed out waiting for ' + what);
    await new Promise((r) => requestAnimationFrame(r));
  }
};
const shown = (id) => !document.getElementById(id).hidden;
const key = (k, target = document) => target.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
// Chromium drops a page's location changes past about 200 in 10 s (its navigation flooding
// guard), and a cycle makes seven (five here, two by the views): at most 100 of ours in any 10 s
// keeps every cycle's below that, however fast the views draw.
const navigations = [];
const go = async (hash) => {
  while (navigations.length >= 100 && performance.now() - navigations[navigations.length - 100] < 10000) {
    await new Promise((r) => setTimeout(r, 10000 - (performance.now() - navigations[navigations.length - 100])));
  }
  navigations.push(performance.now());
  location.hash = hash;
};
"""

# One cycle through every view, as a person goes: a photo's page, its info panel, its zoom view
# (closed with Escape), the slideshow (stopped by a key), the folders, a search and its results,
# and back to the grid.
CYCLE = HELPERS + """
const [ids, cycles, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
// The key handlers listening at each stop, as keyboard.js counts them and as the browser has them:
// the same every time round.
const keys = {};
const stop = (name) => {
  const now = `${window.__keys.listening}/${window.__keys.listeners}`;
  keys[name] ??= now;
  if (keys[name] !== now) throw new Error(`${name}: ${now} key handlers, ${keys[name]} the first time`);
};
(async () => {
  for (let i = 0; i < cycles; i++) {
    const id = ids[i % ids.length];
    await go(`#/photos/${id}`);
    await until('pager', () => shown('pager-view') && window.__pager.complete
      && document.querySelector('.page.current')?.dataset.photoId === String(id));
    stop('pager');
    key('i'); key('i');
    await go(`#/photos/${id}/zoom`);
    await until('zoom view', () => window.__viewer.open && window.__viewer.photoId === id && window.__viewer.complete);
    stop('zoom view');
    key('Escape');
    await until('zoom view closed', () => !shown('zoom-view') && shown('pager-view'));
    stop('pager');
    document.querySelector('.action-slideshow').click();
    await until('slideshow', () => window.__slideshow.playing);
    stop('slideshow');
    key(' ');
    await until('slideshow stopped', () => !window.__slideshow.playing && !shown('slideshow'));
    stop('pager');
    await go('#/folders');
    await until('albums', () => shown('albums-view') && document.querySelectorAll('#albums li').length > 0);
    stop('albums');
    await go('#/search?q=2024');
    await until('search', () => shown('search-view') && document.querySelectorAll('#search-results .cell img[src]').length === 3);
    stop('search');
    await go('#/');
    await until('grid', () => shown('grid-view') && !shown('pager-view'));
    stop('grid');
  }
  return keys;
})().then((keys) => done(keys), (e) => done(String(e)));
"""


def test_every_view_opened_and_closed_forty_times_leaves_nothing_behind(desktop, album_server):
    # Without motion every change lands at once: the cycles run as fast as the views can draw.
    desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    desktop.set_script_timeout(300)
    # The cycles are one command: on a loaded machine they may take longer than the
    # driver's 120 s wait for a command's answer, which the script's own 300 s should govern.
    desktop.command_executor._client_config.timeout = 330
    ids = [p["id"] for p in sorted_photos(album_server)]
    indexed(album_server)
    open_app(desktop, album_server)
    # The first rounds make what is made once (page slots, spare grid cells, the albums' cards).
    first = desktop.execute_async_script(CYCLE, ids, 3)
    assert isinstance(first, dict), first
    # Key handlers: the grid's and the albums' one (/ to search); the search field's and the lists'
    # (+ and − on its results); the pager, its dots and its buttons; one more for the zoom view,
    # one more for the slideshow.
    assert first == {"pager": "3/3", "zoom view": "4/4", "slideshow": "4/4", "albums": "1/1", "search": "2/2",
                     "grid": "1/1"}, first
    before = counters(desktop)
    assert desktop.execute_async_script(CYCLE, ids, CYCLES) == first
    after = counters(desktop)
    assert after["documents"] == before["documents"], (before, after)
    assert after["jsEventListeners"] <= before["jsEventListeners"] + LISTENER_SLACK, (before, after)
    assert after["nodes"] <= before["nodes"] + NODE_SLACK, (before, after)
    desktop.command_executor._client_config.timeout = 120


# Each view and piece built on a copy of its markup, used a little, and destroyed: what it added
# (listeners, observers, timers, elements) goes with it.
BUILD_AND_DESTROY = HELPERS + """
const [rounds, done] = [arguments[0], arguments[arguments.length - 1]];
const load = (path) => import(new URL(path, location.origin + '/').href);
(async () => {
  const [{ Pager }, { ZoomViewer }, { PhotoGrid }, { Slideshow }, { Scrubber }, { Composer },
         { PhotoActions }, { FullScreen }, { PhotoIndex }, { SearchView }] = await Promise.all([
    'views/pager.js', 'views/zoom-viewer.js', 'views/grid.js', 'views/slideshow.js',
    'ui/scrubber.js', 'ui/composer.js', 'ui/photo-actions.js', 'ui/fullscreen.js', 'core/photo-index.js',
    'views/search.js'].map(load));
  const { photos } = await (await fetch('/photos')).json();
  const sequence = {
    get count() { return photos.length; },
    indexOf: async (id) => photos.findIndex((p) => p.id === id),
    at: async (i) => photos[i],
    peek: (i) => photos[i],
    subscribe: () => () => {},
  };
  const copy = (id) => {
    const root = document.getElementById(id).cloneNode(true);
    root.removeAttribute('id');
    for (const e of root.querySelectorAll('[id]')) e.removeAttribute('id');
    document.body.appendChild(root);
    return root;
  };
  const library = new PhotoIndex();
  await library.setScope(null);
  for (let i = 0; i < rounds; i++) {
    const pagerRoot = copy('pager-view'), zoomRoot = copy('zoom-view'), showRoot = copy('slideshow'), searchRoot = copy('search-view');
    const gridView = document.createElement('main'), list = document.createElement('ul');
    gridView.appendChild(list);
    document.body.appendChild(gridView);
    const grid = new PhotoGrid(list, library);
    grid.layout();
    const scrubber = new Scrubber(gridView, grid, library);
    const pager = new Pager(pagerRoot, { sequence, onChange() {}, onOpenZoom() {}, isBusy: () => false });
    pagerRoot.hidden = false;
    pager.setShown(true);
    pager.goTo(i % photos.length, 'instant');
    // Every tenth round the views are drawn to the last tile before they go; the others go with
    // their tiles, threads and records still on their way.
    const drawn = i % 10 === 0;
    if (drawn) await until('page drawn', () => pager.page?.zoomable?.complete);
    const viewer = new ZoomViewer(zoomRoot, { sequence, onClose() {}, onShow() {} });
    viewer.open(i % photos.length);
    if (drawn) await until('zoom drawn', () => viewer.current?.complete);
    else await new Promise((r) => requestAnimationFrame(r));
    const fullscreen = new FullScreen();
    const slideshow = new Slideshow(showRoot, { sequence, onStop() {} });
    // The grid's Select is not built here: the actions ask of it only whether an album is shown
    // (and, on their keys, whether its sheet is open).
    const selection = { inAlbum: () => false, sheet: { open: false } };
    const actions = new PhotoActions(pagerRoot, { pager, fullscreen, slideshow, link: () => '', selection, favourite: () => {}, onEmpty: () => {} });
    actions.setPhoto(photos[i % photos.length]);
    const composer = new Composer(pagerRoot.querySelector('form'), { onPosted() {} });
    const search = new SearchView(searchRoot);
    search.setShown(true);
    const searched = search.show(i % 2 ? '2024' : '');
    if (drawn) await searched;
    for (const view of [composer, actions, slideshow, fullscreen, viewer, pager, scrubber, grid, search]) view.destroy();
    for (const root of [pagerRoot, zoomRoot, showRoot, gridView, searchRoot]) root.remove();
  }
})().then(() => done(null), (e) => done(String(e && e.stack || e)));
"""


def test_views_built_and_destroyed_forty_times_leave_nothing_behind(desktop, album_server):
    desktop.set_script_timeout(300)
    indexed(album_server)
    open_app(desktop, album_server)
    assert desktop.execute_async_script(BUILD_AND_DESTROY, 2) is None
    before = counters(desktop)
    assert desktop.execute_async_script(BUILD_AND_DESTROY, CYCLES) is None
    after = counters(desktop)
    assert after["jsEventListeners"] <= before["jsEventListeners"] + LISTENER_SLACK, (before, after)
    assert after["nodes"] <= before["nodes"] + NODE_SLACK, (before, after)
