// The page's views and the URL: #/ is the grid, #/photos/3 the pager at photo 3,
// #/photos/3/zoom its zoom view. Reload, Back and a shared link land on the same view.

import { listPhotos } from './api.js';
import { renderGrid } from './grid.js';
import { Pager } from './pager.js';
import { Composer } from './composer.js';
import { ZoomViewer } from './zoom-viewer.js';
import { tileURL } from './geometry.js';

const gridView = document.getElementById('grid-view');
const pagerView = document.getElementById('pager-view');
const zoomView = document.getElementById('zoom-view');
const pagerTitle = pagerView.querySelector('.pager-title');
let photos = [];
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

function show(route) {
  const index = route.view === 'grid' ? -1 : photos.findIndex((p) => p.id === route.id);
  if (route.view !== 'grid' && index < 0) {
    history.replaceState(null, '', '#/');
    return show({ view: 'grid' });
  }
  if (route.view === 'grid') {
    const last = pager.current;
    if (viewer.isOpen) viewer.close();
    pager.setCovered(false);
    pagerView.hidden = true;
    gridView.hidden = false;
    document.title = 'Photos';
    cameFromGrid = false;
    const cell = last && gridView.querySelector(`[data-photo-id="${last.id}"]`);
    if (cell) { cell.scrollIntoView({ block: 'nearest' }); cell.focus({ preventScroll: true }); }
    return;
  }
  // The grid is on screen before the first route is applied; a shared link did not come from it.
  const fromGrid = !gridView.hidden && landed;
  if (fromGrid) cameFromGrid = true;
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

/** What, of the list, the grid shows: a change in any of it redraws the grid. */
const signature = (list) => list.map((p) => `${p.id}:${p.status}:${p.version}:${p.title}`).join('|');

function applyPhotos(list) {
  photos = list;
  const count = document.getElementById('grid-count');
  count.textContent = photos.length === 1 ? '1 photo' : `${photos.length} photos`;
  document.getElementById('grid-status').textContent = photos.length ? '' : 'No photos yet. Put some in the photos folder.';
  renderGrid(document.getElementById('grid'), photos);
  pager.setPhotos(photos);
}

/**
 * New photos in the folder, and photos that finish processing, show up without a reload. Only
 * while the grid is on screen: pages are never rebuilt under someone reading or zooming.
 */
async function refresh() {
  if (!gridView.hidden && document.visibilityState === 'visible') {
    try {
      const list = await listPhotos();
      if (!gridView.hidden && signature(list) !== signature(photos)) {
        const focused = document.activeElement?.dataset?.photoId;
        applyPhotos(list);
        if (focused) gridView.querySelector(`[data-photo-id="${focused}"]`)?.focus({ preventScroll: true });
      }
    } catch { /* the next round tries again */ }
  }
  setTimeout(refresh, photos.some((p) => p.status === 'processing') ? 2000 : 5000);
}

async function start() {
  const status = document.getElementById('grid-status');
  let list;
  try {
    list = await listPhotos();
  } catch (error) {
    status.textContent = `The photos could not be loaded (${error.message}). Reload to try again.`;
    return;
  }
  applyPhotos(list);
  document.documentElement.dataset.ready = 'true';
  show(parseRoute(location.hash));
  landed = true;
  setTimeout(refresh, 5000);
}

start();
