// The page's views and the URL: #/ is the grid, #/photos/3 the pager at photo 3,
// #/photos/3/zoom its zoom view. Reload, Back and a shared link land on the same view.

import { listPhotos } from './api.js';
import { renderGrid } from './grid.js';
import { Pager } from './pager.js';
import { Composer } from './composer.js';
import { ZoomViewer } from './zoom-viewer.js';
import { ListSequence } from './photo-sequence.js';
import { flyPhoto, cancelFlight } from './photo-transition.js';
import { PhotoActions } from './photo-actions.js';
import { FullScreen } from './fullscreen.js';
import { Slideshow } from './slideshow.js';

const gridView = document.getElementById('grid-view');
const pagerView = document.getElementById('pager-view');
const zoomView = document.getElementById('zoom-view');
const pagerTitle = pagerView.querySelector('.pager-title');
let photos = [];
// What the pager and the zoom view page through: today the whole list, fetched at once; any
// object answering count / indexOf / at / peek / subscribe will do (see photo-sequence.js).
const sequence = new ListSequence();
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

/** The grid cell of photo `id` and its box on screen, if the grid has it. */
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
    gridView.hidden = false;
    const cell = last && gridCell(last.id);
    if (cell) { cell.cell.scrollIntoView({ block: 'nearest' }); cell.cell.focus({ preventScroll: true }); }
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
  if (!fromGrid) gridView.hidden = true;
  pagerView.hidden = false;
  if (route.view === 'zoom') pager.setCovered(true);
  pager.goTo(index, 'instant');
  // Under the zoom dialog the pager takes no focus and no clicks.
  pagerView.inert = route.view === 'zoom';
  if (route.view === 'zoom') {
    if (!viewer.isOpen || viewer.photo?.id !== route.id) viewer.open(index, { from: fromPager ? pager.zoomSource() : null });
    gridView.hidden = true;
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
  gridView.hidden = true;
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

/** What, of the list, the grid shows: a change in any of it redraws the grid. */
const signature = (list) => list.map((p) => `${p.id}:${p.status}:${p.version}:${p.title}`).join('|');

function applyPhotos(list) {
  photos = list;
  const count = document.getElementById('grid-count');
  count.textContent = photos.length === 1 ? '1 photo' : `${photos.length} photos`;
  document.getElementById('grid-status').textContent = photos.length ? '' : 'No photos yet. Put some in the photos folder.';
  renderGrid(document.getElementById('grid'), photos);
  sequence.replace(photos);
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
  await show(parseRoute(location.hash));
  landed = true;
  document.documentElement.dataset.ready = 'true';
  setTimeout(refresh, 5000);
}

start();
