// The page's views and the URL: #/ is the grid, #/photos/3 the pager at photo 3,
// #/photos/3/zoom its zoom view. Reload, Back and a shared link land on the same view.

import { PhotoIndex } from './photo-index.js';
import { PhotoGrid } from './grid.js';
import { Scrubber } from './scrubber.js';
import { Pager } from './pager.js';
import { Composer } from './composer.js';
import { ZoomViewer } from './zoom-viewer.js';
import { tileURL } from './geometry.js';

const gridView = document.getElementById('grid-view');
const pagerView = document.getElementById('pager-view');
const zoomView = document.getElementById('zoom-view');
const pagerTitle = pagerView.querySelector('.pager-title');
// The library as the page knows it; the grid draws it, and the pager reads it as a sequence.
const library = new PhotoIndex();
const grid = new PhotoGrid(document.getElementById('grid'), library);
new Scrubber(gridView, grid, library);
// The pager is handed the photos around the one opened (PAGER_REACH on each side), fetched in one
// request, and a new stretch when it reaches an end: a library of any size opens as fast as ten.
const PAGER_REACH = 25;
let photos = [];
let gridAnchor = null; // where the grid was scrolled when a photo was opened
let cameFromGrid = false;
let zoomPushed = false;
let landed = false; // the first view shown, straight from the URL (a reload or a shared link)

function parseRoute(hash) {
  const match = /^#\/photos\/(\d+)(\/zoom)?\/?$/.exec(hash);
  if (!match) return { view: 'grid' };
  return { view: match[2] ? 'zoom' : 'photo', id: Number(match[1]) };
}

const viewer = new ZoomViewer(zoomView, {
  onClose: closeZoom,
  onPage(step) {
    // A photo that could not be read has no tiles to zoom into: the swipe goes past it.
    let next = pager.index + step;
    while (next >= 0 && next < photos.length && photos[next].status === 'failed') next += step;
    if (next < 0 || next >= photos.length) return false;
    pager.goTo(next, 'instant');
    viewer.show(photos[next]);
    return true;
  },
  // Once the photo in front is on screen, the ones beside it are fetched, never before.
  onFirstScreen(photo) {
    preloadNeighbours(photos.indexOf(photo));
  },
});

const pager = new Pager(pagerView, {
  onChange(photo) {
    extendPager(photo);
    composer.setPhoto(photo);
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
    location.hash = `#/photos/${photo.id}/zoom`;
  },
  isBusy: () => viewer.isOpen,
});

const composer = new Composer(document.getElementById('composer'), {
  onPosted: (comment) => pager.addComment(comment),
});

/** The one-tile level 0 of the photos beside `index`, so a swipe in the zoom view never shows black. */
function preloadNeighbours(index) {
  for (const j of [index - 1, index + 1]) {
    const photo = photos[j];
    if (photo && photo.status !== 'failed') new Image().src = tileURL(photo, 0, 0, 0);
  }
}

let closingOn = null; // the photo the zoom view showed when it closed (it may have been swiped to)

function closeZoom() {
  const photo = pager.current;
  if (zoomPushed) {
    zoomPushed = false;
    closingOn = photo.id;
    history.back();
  } else {
    history.replaceState(history.state, '', `#/photos/${photo.id}`);
    show(parseRoute(location.hash));
  }
}

/** At either end of its stretch, the pager is handed the next one, centred on the photo in front. */
function extendPager(photo) {
  const i = photos.indexOf(photo);
  const position = library.indexOf(photo.id);
  const more = (i === 0 && position > 0) || (i === photos.length - 1 && position >= 0 && position < library.count - 1);
  if (!more) return;
  setTimeout(async () => {
    if (pager.current?.id !== photo.id || !(await loadPagerAround(photo.id))) return;
    pager.goTo(photos.findIndex((p) => p.id === photo.id), 'instant');
  }, 0);
}

/** Hands the pager the stretch of the library around photo `id`; false when there is no such photo. */
async function loadPagerAround(id) {
  const position = await library.positionOf(id);
  if (position < 0) return false;
  // The photo opened comes as GET /photos/{id} gives it: examined, if the server had not yet.
  const [stretch, opened] = await Promise.all([
    library.slice(position - PAGER_REACH, position + PAGER_REACH + 1), library.get(id).catch(() => null)]);
  if (!opened || !stretch.some((p) => p.id === id)) return false;
  photos = stretch.map((p) => (p.id === id ? opened : p));
  pager.setPhotos(photos);
  return true;
}

async function show(route) {
  // Opened from the grid (or a link): the stretch around it, fresh; paging within it: as it is.
  if (route.view !== 'grid' && (!gridView.hidden || !photos.some((p) => p.id === route.id))) {
    if (!(await loadPagerAround(route.id))) {
      history.replaceState(null, '', '#/');
      return show({ view: 'grid' });
    }
  }
  const index = route.view === 'grid' ? -1 : photos.findIndex((p) => p.id === route.id);
  if (route.view === 'grid') {
    const last = pager.current;
    if (viewer.isOpen) viewer.close();
    pager.setCovered(false);
    pagerView.hidden = true;
    gridView.hidden = false;
    document.title = 'Photos';
    cameFromGrid = false;
    showGrid(last);
    return;
  }
  // The grid is on screen before the first route is applied; a shared link did not come from it.
  const fromGrid = !gridView.hidden && landed;
  if (fromGrid) cameFromGrid = true;
  if (!gridView.hidden) hideGrid();
  gridView.hidden = true;
  pagerView.hidden = false;
  if (route.view === 'zoom' && photos[index].status !== 'failed') pager.setCovered(true);
  pager.goTo(index, 'instant');
  if (fromGrid) pager.focusPhoto();
  if (route.view === 'zoom' && photos[index].status === 'failed') {
    history.replaceState(history.state, '', `#/photos/${route.id}`);
    return show({ view: 'photo', id: route.id });
  }
  // Under the zoom dialog the pager takes no focus and no clicks.
  pagerView.inert = route.view === 'zoom';
  if (route.view === 'zoom') {
    pager.setCovered(true);
    if (!viewer.isOpen || viewer.photo.id !== route.id) viewer.open(photos[index]);
  } else if (viewer.isOpen) {
    viewer.close();
    pager.setCovered(false);
    zoomPushed = false;
    pagerView.querySelector('.page.current .photo-open')?.focus({ preventScroll: true });
  }
}

pagerView.querySelector('.pager-back').addEventListener('click', (e) => {
  // Back to the grid is the browser's Back when the grid is where the person came from.
  if (cameFromGrid) { e.preventDefault(); history.back(); }
});

window.addEventListener('hashchange', () => {
  let route = parseRoute(location.hash);
  if (closingOn !== null && route.view === 'photo' && route.id !== closingOn) {
    // Back closed the zoom view, but onto the photo it was opened on: stay on the one it showed last.
    history.replaceState(history.state, '', `#/photos/${closingOn}`);
    route = { view: 'photo', id: closingOn };
  }
  closingOn = null;
  show(route);
});
window.addEventListener('pagehide', () => pager.setLive(false));
window.addEventListener('pageshow', (e) => { if (e.persisted) pager.setLive(true); });

/** The grid on screen again: where it was, with the photo last shown in view and focused, and live. */
function showGrid(last) {
  grid.setActive(true);
  grid.restore(gridAnchor);
  library.setLive(document.visibilityState === 'visible');
  if (last) {
    const position = library.indexOf(last.id);
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
  gridAnchor = grid.anchor();
  sessionStorage.setItem('photoscroll.grid', JSON.stringify(gridAnchor));
  grid.setActive(false);
  library.setLive(false);
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
  if (parseRoute(location.hash).view === 'grid') grid.restore(gridAnchor);
  library.setLive(document.visibilityState === 'visible');
  await show(parseRoute(location.hash));
  landed = true;
  document.documentElement.dataset.ready = 'true';
}

start();
