// The page's views and the URL: #/ is the grid, #/photos/3 the pager at photo 3,
// #/photos/3/zoom its zoom view. Reload, Back and a shared link land on the same view.

import { PhotoIndex } from './photo-index.js';
import { PhotoGrid } from './grid.js';
import { Scrubber } from './scrubber.js';
import { Pager } from './pager.js';
import { Composer } from './composer.js';
import { ZoomViewer } from './zoom-viewer.js';
import { flyPhoto, cancelFlight } from './photo-transition.js';
import { PhotoActions } from './photo-actions.js';
import { FullScreen } from './fullscreen.js';
import { Slideshow } from './slideshow.js';

const gridView = document.getElementById('grid-view');
const pagerView = document.getElementById('pager-view');
const zoomView = document.getElementById('zoom-view');
const pagerTitle = pagerView.querySelector('.pager-title');
// The library as the page knows it: the summary of every photo and the records near the screen.
// The grid draws it, and the pager and the zoom view page through it as their sequence
// (count / indexOf / at / peek / subscribe, see photo-sequence.js).
const library = new PhotoIndex();
const sequence = library;
const grid = new PhotoGrid(document.getElementById('grid'), library);
new Scrubber(gridView, grid, library);
let gridAnchor = null; // where the grid was scrolled when a photo was opened
let cameFromGrid = false;
let zoomPushed = false;   // the zoom view has a history entry of its own, pushed from the pager
let zoomOpenedOn = null;  // the photo that entry was pushed from
let landed = false; // the first view shown, straight from the URL (a reload or a shared link)
let routing = 0;    // the latest route shown; an older one still waiting for its photo gives way

function parseRoute(hash) {
  const match = /^#\/photos\/(\d+)(\/zoom)?\/?$/.exec(hash);
  if (!match) return { view: 'grid' };
  return { view: match[2] ? 'zoom' : 'photo', id: Number(match[1]) };
}

/** The grid cell of photo `id` and its box on screen, if the grid has drawn it. */
function gridCell(id) {
  const cell = gridView.querySelector(`[data-photo-id="${id}"]`);
  return cell ? { cell, rect: cell.getBoundingClientRect(), square: true } : null;
}

const viewer = new ZoomViewer(zoomView, {
  sequence,
  onClose: closeZoom,
  // A swipe in the zoom view moves the pager under it too, so closing lands on the same photo.
  onShow: (photo, index) => pager.goTo(index, 'instant'),
});

const pager = new Pager(pagerView, {
  sequence,
  onChange(photo) {
    composer.setPhoto(photo);
    actions.setPhoto(photo);
    pagerTitle.textContent = photo.title;
    document.title = `${photo.title} · Photos`;
    // A swipe replaces the URL rather than adding to history: Back leaves the pager, as in Photos.
    const route = parseRoute(location.hash);
    if (route.view !== 'grid' && route.id !== photo.id) {
      history.replaceState(history.state, '', route.view === 'zoom' ? `#/photos/${photo.id}/zoom` : `#/photos/${photo.id}`);
    }
  },
  onOpenZoom(photo) {
    zoomPushed = true;
    zoomOpenedOn = photo.id;
    location.hash = `#/photos/${photo.id}/zoom`;
  },
  isBusy: () => viewer.isOpen,
});

const fullscreen = new FullScreen({
  onChange: (active) => pagerView.querySelector('.action-fullscreen').setAttribute('aria-pressed', String(active)),
});
const slideshow = new Slideshow(document.getElementById('slideshow'), {
  sequence,
  // Stopped: the pager is at the photo the show had reached.
  onStop: (index) => pager.goTo(index, 'instant'),
});
const actions = new PhotoActions(pagerView, {
  pager, fullscreen, slideshow,
  // The link of a photo as the URL says it now, zoom view left out.
  link: (photo) => `${location.origin}${location.pathname}#/photos/${photo.id}`,
});

const composer = new Composer(document.getElementById('composer'), {
  onPosted: (comment) => pager.addComment(comment),
});

function closeZoom() {
  const photo = viewer.photo || pager.current;
  if (zoomPushed) {
    // Back, as the browser's own Back button would; the hashchange below lands on the photo shown.
    history.back();
  } else {
    history.replaceState(history.state, '', `#/photos/${photo.id}`);
    show(parseRoute(location.hash));
  }
}

/** The pager fades in or out while a photo flies between the grid and its page. */
function fadePager(opacity) { pagerView.style.opacity = opacity >= 1 ? '' : String(opacity); }

async function show(route) {
  const token = ++routing;
  // The photo opened comes as GET /photos/{id} gives it: examined now if the server had not yet,
  // and first in line for its pyramid.
  if (route.view !== 'grid' && pagerView.hidden) await library.get(route.id).catch(() => null);
  const index = route.view === 'grid' ? -1 : await sequence.indexOf(route.id);
  const photo = index >= 0 ? await sequence.at(index) : null;
  if (token !== routing) return;
  if (route.view !== 'grid' && !photo) {
    history.replaceState(null, '', '#/');
    return show({ view: 'grid' });
  }
  cancelFlight();
  if (route.view === 'grid') {
    const last = pager.current;
    if (viewer.isOpen) viewer.close();
    pager.setCovered(false);
    zoomPushed = false;
    document.title = 'Photos';
    cameFromGrid = false;
    const from = !pagerView.hidden ? pager.zoomSource() : null;
    showGrid(last);
    const cell = last && gridCell(last.id);
    // The photo shrinks back into its cell while the pager fades away over the grid.
    pagerView.inert = true;
    if (from) from.element.style.opacity = '0';
    await flyPhoto(last, from, cell && gridCell(last.id), (p) => fadePager(1 - p));
    if (from) from.element.style.opacity = '';
    if (token !== routing) return;
    pagerView.hidden = true;
    pagerView.inert = false;
    fadePager(1);
    return;
  }
  // The grid is on screen before the first route is applied; a shared link did not come from it.
  const fromGrid = !gridView.hidden && landed;
  const fromPager = !pagerView.hidden && landed && !viewer.isOpen;
  if (fromGrid) cameFromGrid = true;
  if (route.view === 'zoom' && photo.status === 'failed') {
    history.replaceState(history.state, '', `#/photos/${route.id}`);
    return show({ view: 'photo', id: route.id });
  }
  const cell = fromGrid ? gridCell(route.id) : null;
  // Out of sight before the pager is measured: a large grid laid out for nothing costs seconds.
  if (!fromGrid) hideGrid();
  pagerView.hidden = false;
  if (route.view === 'zoom') pager.setCovered(true);
  pager.goTo(index, 'instant');
  // Under the zoom dialog the pager takes no focus and no clicks.
  pagerView.inert = route.view === 'zoom';
  if (route.view === 'zoom') {
    if (!viewer.isOpen || viewer.photo?.id !== route.id) viewer.open(index, { from: fromPager ? pager.zoomSource() : null });
    hideGrid();
    return;
  }
  if (viewer.isOpen) {
    pager.setCovered(false);
    zoomPushed = false;
    viewer.close({ to: pager.zoomSource() });
    pager.focusPhoto();
  }
  if (fromGrid) {
    pager.focusPhoto();
    const to = pager.zoomSource();
    if (to) to.element.style.opacity = '0';
    await flyPhoto(photo, cell, to, (p) => fadePager(p));
    if (to) to.element.style.opacity = '';
    fadePager(1);
    if (token !== routing) return;
  }
  hideGrid();
}

// A finger on the pager while the photo still flies in: it lands at once, and the finger takes over.
pagerView.addEventListener('pointerdown', () => cancelFlight(), true);

pagerView.querySelector('.pager-back').addEventListener('click', (e) => {
  // Back to the grid is the browser's Back when the grid is where the person came from.
  if (cameFromGrid) { e.preventDefault(); history.back(); }
});

window.addEventListener('hashchange', () => {
  let route = parseRoute(location.hash);
  // Back out of a zoom view that was paged lands on the photo it showed last, not the one it was
  // opened on: the swipes replaced the zoom view's entry, as they replace the pager's.
  if (viewer.isOpen && zoomPushed && route.view === 'photo' && route.id === zoomOpenedOn && viewer.photo && viewer.photo.id !== route.id) {
    history.replaceState(history.state, '', `#/photos/${viewer.photo.id}`);
    route = { view: 'photo', id: viewer.photo.id };
  }
  show(route);
});
window.addEventListener('pagehide', () => pager.setLive(false));
window.addEventListener('pageshow', (e) => { if (e.persisted) pager.setLive(true); });

/** The grid on screen again: where it was, with the photo last shown in view and focused, and live. */
function showGrid(last) {
  gridView.hidden = false;
  grid.setActive(true);
  grid.restore(gridAnchor);
  library.setLive(document.visibilityState === 'visible');
  if (last) {
    const position = library.position(last.id);
    grid.reveal(position);
    grid.linkAt(position)?.focus({ preventScroll: true });
  }
}

/**
 * The grid leaves the screen: where it was is kept for the way back, and the live list events
 * stop (a stream held open under the pager would take one of the browser's few connections to
 * the server from the tiles; coming back asks what changed meanwhile).
 */
function hideGrid() {
  if (gridView.hidden) return;
  gridAnchor = grid.anchor();
  sessionStorage.setItem('photoscroll.grid', JSON.stringify(gridAnchor));
  grid.setActive(false);
  library.setLive(false);
  gridView.hidden = true;
}

function updateCount() {
  const count = library.count;
  document.getElementById('grid-count').textContent = count === 1 ? '1 photo' : `${count.toLocaleString()} photos`;
  document.getElementById('grid-status').textContent = count ? '' : 'No photos yet. Put some in the photos folder.';
}

library.addEventListener('change', updateCount);
document.addEventListener('visibilitychange', () => {
  if (!gridView.hidden) library.setLive(document.visibilityState === 'visible');
});

async function start() {
  const status = document.getElementById('grid-status');
  try {
    await library.load();
  } catch (error) {
    status.textContent = `The photos could not be loaded (${error.message}). Reload to try again.`;
    return;
  }
  updateCount();
  try { gridAnchor = JSON.parse(sessionStorage.getItem('photoscroll.grid')); } catch { gridAnchor = null; }
  grid.layout();
  // Also under a photo opened by a reload or a link: Back to the grid lands where it was.
  grid.restore(gridAnchor);
  library.setLive(document.visibilityState === 'visible');
  await show(parseRoute(location.hash));
  landed = true;
  document.documentElement.dataset.ready = 'true';
}

start();
