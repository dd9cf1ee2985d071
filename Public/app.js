// @ts-check
// The page: it builds the views and shows the one the URL names (core/routes.js), the photo
// flying between them. Reload, Back and a shared link land on the same view.

import { PhotoIndex } from './core/photo-index.js';
import { LiveEvents, changedIds } from './core/live-events.js';
import { connection } from './core/connection.js';
import { statusOf } from './core/api.js';
import { listOf, parseRoute, photoHash as hashOf, searchHash } from './core/routes.js';
import { PagerSequence } from './core/pager-sequence.js';
import { PhotoGrid } from './views/grid.js';
import { GridDensity } from './ui/grid-density.js';
import { AlbumsView } from './views/albums.js';
import { SearchView } from './views/search.js';
import { Pager } from './views/pager.js';
import { ZoomViewer } from './views/zoom-viewer.js';
import { Slideshow } from './views/slideshow.js';
import { messageView } from './views/message.js';
import { ConnectionStatus } from './ui/connection-status.js';
import { Scrubber } from './ui/scrubber.js';
import { Composer } from './ui/composer.js';
import { PhotoActions } from './ui/photo-actions.js';
import { FullScreen } from './ui/fullscreen.js';
import { UploadPanel } from './ui/upload-panel.js';
import { Selection, UndoToast } from './ui/selection.js';
import { FavouriteButton } from './ui/favourite-button.js';
import { AlbumActions } from './ui/album-actions.js';
import { FavouritesView, TrashView } from './views/collection.js';
import { admit } from './views/sign-in.js';
import { AccountMenu, forgetAndLeave } from './ui/account-menu.js';
import { ShareSheet } from './ui/share-sheet.js';
import { at, hideComments, moveInAlbum, onSessionEnd } from './core/api.js';
import { keepForOffline } from './core/offline.js';
import { canFly, flyPhoto, cancelFlight } from './photo/flight.js';
import { CellDrag } from './gestures/cell-drag.js';
import { CellTouchDrag } from './gestures/cell-touch-drag.js';
import { byId, element } from './util/dom.js';
import { Listeners } from './util/listeners.js';
import { Keys } from './util/keyboard.js';

/** @typedef {import('./core/api.js').Photo} Photo */
/** @typedef {import('./core/routes.js').Route} Route */
/** @typedef {import('./views/grid.js').GridAnchor} GridAnchor */

const gridView = byId('grid-view', HTMLElement);
const pagerView = byId('pager-view', HTMLElement);
const zoomView = byId('zoom-view', HTMLElement);
const albumsView = byId('albums-view', HTMLElement);
const searchView = byId('search-view', HTMLElement);
const gridStatus = byId('grid-status', HTMLElement);
const gridList = byId('grid', HTMLElement);
const pagerTitle = element(pagerView, '.pager-title', HTMLElement);
const pagerBack = element(pagerView, '.pager-back', HTMLAnchorElement);
const listeners = new Listeners();
// The library as the page knows it: the summary of every photo and the records near the screen.
// The grid draws it, and the pager and the zoom view page through it as their sequence
// (count / indexOf / at / peek / subscribe, see core/photo-sequence.js), or through a search's
// results when the photo was opened from those.
const library = new PhotoIndex();
// The server's live events, one stream while any view of the library is on screen (followLive):
// every open view stays true whatever changes the library, here, in another window or on
// another server of the same library.
const live = new LiveEvents();
library.follow(live);
// How dense every grid is (pinch, Ctrl+wheel, + and −): one choice for the library's, an album's,
// a folder's, Favourites and a search's results, so a photo is the same size in all of them.
const density = new GridDensity();
const grid = new PhotoGrid(gridList, library, { density });
new Scrubber(gridView, grid, library);
const search = new SearchView(searchView, { density });
const sequence = new PagerSequence(library);
// The lists' keys: `/` searches (from the grid, the albums, Favourites, Recently Deleted), and +
// (or =) and − make the photos of the grid, of Favourites and of a search's results larger or
// smaller (one density for every grid); one handler, listening while one of them is on screen
// (see listKeys). With Ctrl they are the browser's own zoom, left alone.
const listKey = new Keys((e) => {
  const target = e.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement
    || (target instanceof HTMLElement && target.isContentEditable);
  if (e.altKey || e.ctrlKey || e.metaKey || typing || document.querySelector('dialog[open]')) return;
  const direction = e.key === '-' ? 1 : e.key === '+' || e.key === '=' ? -1 : 0;
  if (e.key === '/' && searchView.hidden) {
    e.preventDefault();
    location.hash = searchHash('');
  } else if (direction && !gridView.hidden) {
    e.preventDefault();
    grid.step(direction);
  } else if (direction && !favouritesView.hidden) {
    e.preventDefault();
    favourites.step(direction);
  } else if (direction && !searchView.hidden) {
    e.preventDefault();
    search.grid.step(direction);
  }
});
/** Favourites' columns follow the grids' (its style sheet reads them from the root). */
function showDensity() {
  const columns = density.columns ?? (density.summary ? 15 : null);
  if (columns === null) delete document.documentElement.dataset.gridColumns;
  else document.documentElement.dataset.gridColumns = String(columns);
  document.documentElement.style.setProperty('--grid-columns', String(columns ?? 4));
}
showDensity();
listeners.on(density, 'change', showDensity);
const toast = new UndoToast(byId('undo-toast', HTMLElement));
const albums = new AlbumsView(albumsView, { toast });
albums.follow(live);
const selection = new Selection(gridView, {
  library, toast, showFromStart: (reordering) => grid.showFromStart(reordering),
  // Alt+arrow moves the one photo chosen in an album in its own order, kept on screen.
  arrange: {
    enabled: () => arrangeable(),
    columns: () => grid.columns,
    move: async (id, position) => {
      // The cell the keys were pressed on shows another photo once the grid draws the new order:
      // the focus follows the photo moved, so the next press moves it again.
      const focused = document.activeElement instanceof HTMLElement && gridList.contains(document.activeElement);
      const moved = await dropInAlbum([id], position);
      if (moved) {
        grid.reveal(library.position(id));
        const link = grid.linkAt(library.position(id));
        if (focused && link?.dataset.photoId === String(id) && document.activeElement !== link) link.focus({ preventScroll: true });
      }
      return moved;
    },
  },
});
/** Whether the list shown is an album in its own order, which this visitor may change. */
function arrangeable() {
  return albums.titles.get(library.list ?? '')?.order === 'custom' && document.documentElement.classList.contains('may-manage');
}
/**
 * The photos a drag of photo `id` moves in Select: the photos chosen, in the album's order, when it
 * is one of them, none when it is not; out of Select, a mouse drags the photo alone.
 * @param {number} id
 * @returns {number[]}
 */
function movingWith(id) {
  if (!selection.selecting) return [id];
  if (!selection.selected.has(id)) return [];
  return [...selection.selected].filter((p) => library.position(p) >= 0).sort((a, b) => library.position(a) - library.position(b));
}
/**
 * Photo `id` dropped over the photo at `position`: it takes that photo's place, and the photos
 * chosen with it come along as one block in their order (the block goes after the photo dropped
 * on when it came from before it, before it otherwise).
 * @param {number} id
 * @param {number} position
 */
function dropOn(id, position) {
  const ids = movingWith(id);
  if (!ids.length) return;
  const moving = new Set(ids);
  let at = 0;
  for (let i = 0; i < position; i++) if (!moving.has(library.ids[i])) at++;
  if (library.position(id) < position && !moving.has(library.ids[position])) at++;
  dropInAlbum(ids, at);
}
/**
 * Photos `ids` dropped (or one moved with the keys) at `position` of the album shown without them:
 * the server puts them there in that order and the grid shows the album's new order. Resolves to
 * whether they moved.
 * @param {number[]} ids
 * @param {number} position
 * @returns {Promise<boolean>}
 */
async function dropInAlbum(ids, position) {
  const which = listOf(library.list);
  if (which?.kind !== 'albums' || !ids.length) return false;
  const moved = new Set(ids);
  const after = [...library.ids].filter((id) => !moved.has(id));
  after.splice(position, 0, ...ids);
  if (after.every((id, i) => library.ids[i] === id)) return false;
  const moving = moveInAlbum(which.id, ids, position).then(() => library.resync());
  // From now: the live events may bring the new order before the server's answer does.
  grid.showInPlace(moving.catch(() => {}));
  try {
    await moving;
  } catch (error) {
    toast.show(`Could not move ${ids.length === 1 ? 'the photo' : 'the photos'} (${error instanceof Error ? error.message : error}).`);
    return false;
  }
  return true;
}
// An album in its own order: a photo dragged with a mouse takes the place it is dropped on (in
// Select, a chosen one, with the others chosen).
new CellDrag(gridList, listeners, {
  enabled: () => arrangeable(),
  moving: movingWith,
  positionAt: (point) => grid.placeAt(point)?.position ?? null,
  drop: dropOn,
});
// And by touch, in Select: a chosen photo held for a moment lifts, and is dragged there.
const selectionBar = byId('selection-bar', HTMLElement);
new CellTouchDrag(gridList, listeners, {
  enabled: () => arrangeable() && selection.selecting,
  moving: movingWith,
  positionAt: (point) => grid.placeAt(point)?.position ?? null,
  idAt: (position) => library.ids[position] ?? 0,
  insets: () => ({ top: 0, bottom: selectionBar.hidden ? 0 : selectionBar.getBoundingClientRect().height }),
  lifted: () => selection.cancelPress(),
  drop: dropOn,
});
const favouritesView = byId('favourites-view', HTMLElement);
const trashView = byId('trash-view', HTMLElement);
const favourites = new FavouritesView(favouritesView, { density });
favourites.follow(live);
const albumActions = new AlbumActions(gridView, {
  list: () => library.list,
  title: () => byId('grid-title', HTMLElement).textContent || '',
  toast,
  order: () => albums.titles.get(library.list ?? '')?.order,
  onRenamed: (list, title) => { albums.titles.set(list, { ...albums.titles.get(list), title }); labelScope(); },
  onSorted: (list, order) => {
    const known = albums.titles.get(list);
    if (known) albums.titles.set(list, { ...known, order });
    if (library.list === list) grid.showFromStart(library.resync());
  },
  onDeleted: (kind) => { location.hash = `#/${kind}`; },
});
const trash = new TrashView(trashView, { toast });
trash.follow(live);
// The album shown renamed elsewhere: its title in the grid's header. Hearts marked elsewhere: in the grid.
listeners.on(live, 'albums', (e) => {
  const shown = listOf(library.list), ids = changedIds(e);
  if (shown?.kind !== 'albums' || (ids !== null && !ids.includes(shown.id))) return;
  const list = library.list;
  albums.load('albums').then(() => { if (library.list === list) labelScope(); }, () => {});
});
listeners.on(live, 'favourites', () => { selection.loadFavourites(); });
// Photos added with the Add button or dropped on the grid go into the list shown: a folder, or an
// album (they land in the dated uploads folder and join it), or the library; under a share link
// that lets photos be added, into its folder through the link.
const uploadPanel = new UploadPanel(byId('uploads', HTMLElement), {
  dropTarget: gridView,
  addButton: byId('add-photos', HTMLButtonElement),
  input: byId('add-input', HTMLInputElement),
  dropHint: byId('drop-hint', HTMLElement),
  album: () => { const shown = listOf(library.list); return shown?.kind === 'albums' ? shown.id : null; },
  folder: () => albums.titles.get(library.list ?? '')?.path ?? null,
  accepts: () => !gridView.hidden && mayAdd(),
  base: () => at('/uploads/'),
});

/** Whether this visitor may add photos: a manager, or the holder of a link that allows it. */
function mayAdd() {
  const root = document.documentElement.classList;
  return root.contains('may-manage') || root.contains('may-upload');
}

// The owner's Share sheet, for a photo (the pager's Share), an album or a folder (its grid's Share).
const shareSheet = new ShareSheet(byId('share-sheet', HTMLDialogElement));
/** Under a share link of an album or a folder, its title: the grid's title. */
let linkTitle = /** @type {string | null} */ (null);
listeners.on(element(gridView, '.album-share', HTMLButtonElement), 'click', () => {
  const shown = listOf(library.list);
  if (!shown) return;
  const title = byId('grid-title', HTMLElement).textContent || 'Album';
  shareSheet.open(shown.kind === 'albums' ? { album: shown.id } : { folder: shown.id }, title);
});
const message = messageView();
new ConnectionStatus(byId('connection-status', HTMLElement));

/** The routing state: what the views shown so far leave for the next route to know. */
const state = {
  /** @type {GridAnchor | null} where the grid was scrolled when a photo was opened (grid.anchor()) */
  gridAnchor: null,
  /** The pager was opened from the grid, so its way back is the browser's Back. */
  cameFromGrid: false,
  /** @type {GridAnchor | null} where the search's results were scrolled when a photo was opened */
  searchAnchor: null,
  /** The grid (or the search's results) is shown under the pager while a photo is pulled down. */
  gridUnder: false,
  /** The zoom view has a history entry of its own, pushed from the pager. */
  zoomPushed: false,
  /** @type {number | null} the photo that entry was pushed from */
  zoomOpenedOn: null,
  /** The first view was shown, straight from the URL (a reload or a shared link). */
  landed: false,
  /** The latest route shown; an older one still waiting for its photo gives way. */
  routing: 0,
};

/** Whether the pager pages through a search's results (else the library, or one album). */
function pagingSearch() { return sequence.list === search.results; }

/**
 * The URL of a photo in the list paged through (the library, one album, one folder or a search's
 * results), or of its zoom view.
 * @param {number} id
 * @param {boolean} [zoom]
 */
function photoHash(id, zoom = false) {
  return pagingSearch() ? search.results.photoHash(id, zoom) : hashOf(library.hashPrefix, id, zoom);
}

/** The URL of the list paged through: the grid (the library's or the album's), or the search. */
function listHash() {
  return pagingSearch() ? searchHash(search.results.query ?? '') : `#${library.hashPrefix}/`;
}

/**
 * The grid cell of photo `id` and its box on screen, if the grid on screen (the library's or
 * the search's) has drawn it.
 * @param {number} id
 */
function gridCell(id) {
  if (!searchView.hidden) return search.cell(id);
  const cell = gridView.querySelector(`[data-photo-id="${id}"]`);
  return cell ? { cell, rect: cell.getBoundingClientRect(), square: true } : null;
}

/** @type {ZoomViewer} */
const viewer = new ZoomViewer(zoomView, {
  sequence,
  onClose: closeZoom,
  // A swipe in the zoom view moves the pager under it too, so closing lands on the same photo.
  onShow: (photo, index) => pager.goTo(index, 'instant'),
});

/** @type {Pager} */
const pager = new Pager(pagerView, {
  sequence,
  onChange(photo) {
    composer.setPhoto(photo);
    actions.setPhoto(photo);
    favouriteButton.setPhoto(photo);
    pagerTitle.textContent = photo.title;
    document.title = `${photo.title} · Photos`;
    // A swipe replaces the URL rather than adding to history: Back leaves the pager, as in Photos.
    const route = parseRoute(location.hash);
    if ((route.view === 'photo' || route.view === 'zoom') && route.id !== photo.id) {
      history.replaceState(history.state, '', photoHash(photo.id, route.view === 'zoom'));
    }
  },
  onOpenZoom(photo) {
    state.zoomPushed = true;
    state.zoomOpenedOn = photo.id;
    location.hash = photoHash(photo.id, true);
  },
  onClose: closePager,
  // Pulled down, the photo shows the grid it came from behind it, as in Photos.
  onPull: (pulling) => {
    if (pulling && state.cameFromGrid && pagingSearch() && searchView.hidden) {
      search.setShown(true);
      search.grid.restore(state.searchAnchor);
      state.gridUnder = true;
    } else if (pulling && state.cameFromGrid && gridView.hidden) {
      gridView.hidden = false;
      grid.setActive(true);
      grid.restore(state.gridAnchor);
      state.gridUnder = true;
    } else if (!pulling && state.gridUnder) {
      state.gridUnder = false;
      hideLists();
    }
  },
  isBusy: () => viewer.isOpen || fullscreen.ownFallback || slideshow.playing,
});

const fullscreenButton = element(pagerView, '.action-fullscreen', HTMLButtonElement);
const fullscreen = new FullScreen({
  onChange: (active) => fullscreenButton.setAttribute('aria-pressed', String(active)),
});
const slideshow = new Slideshow(byId('slideshow', HTMLElement), {
  sequence,
  // Stopped: the pager is at the photo the show had reached.
  onStop: (index) => pager.goTo(index, 'instant'),
});
const actions = new PhotoActions(pagerView, {
  pager, fullscreen, slideshow, selection,
  favourite: () => { favouriteButton.toggle(); },
  // The last photo of the list deleted: back to its (empty) grid.
  onEmpty: () => closePager(),
  // The link of a photo as the URL says it now, zoom view left out.
  link: (photo) => `${location.origin}${location.pathname}${photoHash(photo.id)}`,
  // The owner shares with a link of its own; anyone else passes on the page's address.
  share: (photo) => {
    if (!document.documentElement.classList.contains('may-share')) return false;
    shareSheet.open({ photo: photo.id }, photo.title);
    return true;
  },
});

const composer = new Composer(byId('composer', HTMLFormElement), {
  onPosted: (comment) => pager.addComment(comment),
});

// The heart in the pager's bar, for whoever may change the library.
const favouriteButton = new FavouriteButton(pagerView, selection);

function closeZoom() {
  const photo = viewer.photo || pager.current;
  if (state.zoomPushed) {
    // Back, as the browser's own Back button would; the hashchange below lands on the photo shown.
    history.back();
  } else if (photo) {
    history.replaceState(history.state, '', photoHash(photo.id));
    show(parseRoute(location.hash));
  }
}

/**
 * The pager on screen or off it, and its keys with it.
 * @param {boolean} shown
 */
function showPager(shown) {
  pager.setShown(shown);
  actions.setShown(shown);
}

/**
 * Shows what `route` names, and the keys of what is then on screen.
 * @param {Route} route
 * @returns {Promise<void>}
 */
async function show(route) {
  await showRoute(route);
  listKeys();
  followLive();
}

/**
 * The live events while a view of the library is on screen (the grid, the albums or folders,
 * Favourites, Recently Deleted) and the page is visible; none under the pager and the zoom view.
 */
function followLive() {
  const shown = !gridView.hidden || !albumsView.hidden || !favouritesView.hidden || !trashView.hidden;
  live.setLive(shown && document.visibilityState === 'visible');
}

/** `/` searches (and + − size the photos) while a list of photos is on screen (in the search view, + − only), and the pager or zoom view is not. */
function listKeys() {
  const list = !gridView.hidden || !albumsView.hidden || !favouritesView.hidden || !trashView.hidden || !searchView.hidden;
  listKey.on = list && pagerView.hidden && !viewer.isOpen;
}

/**
 * Shows what `route` names.
 * @param {Route} route
 * @returns {Promise<void>}
 */
async function showRoute(route) {
  const token = ++state.routing;
  if (underLink) {
    route = linkScoped(route);
    if (route.view === 'favourites' || route.view === 'trash') return showNotShared(route.view);
  }
  if (route.view === 'albums' || route.view === 'folders') return showAlbums(route.view, token);
  if (route.view === 'favourites' || route.view === 'trash') return showCollection(route.view, token);
  if (route.view === 'search') return showSearch(route.query, token);
  favouritesView.hidden = trashView.hidden = true;
  // A photo opened from a search pages through its results; any other through the library's list.
  const query = route.view === 'grid' ? undefined : route.search;
  if (query !== undefined) {
    try {
      await search.results.run(query);
    } catch (error) {
      if (token === state.routing) showTrouble(route, error);
      return;
    }
    if (token !== state.routing) return;
    sequence.use(search.results);
  } else if (route.list !== library.list || !library.etag) {
    try {
      await library.setScope(route.list);
    } catch (error) {
      if (token === state.routing) showTrouble(route, error);
      return;
    }
    if (token !== state.routing) return;
    grid.layout();
    if (route.view === 'grid') {
      window.scrollTo(0, 0);
      grid.restore(state.gridAnchor);
    }
  }
  if (route.view !== 'grid' && query === undefined) sequence.use(library);
  if (query !== undefined) labelSearch(query); else labelScope();
  // The photo opened comes as GET /photos/{id} gives it: examined now if the server had not yet,
  // and first in line for its pyramid.
  /** @type {unknown} why the photo could not be had */
  let missing = null;
  if (route.view !== 'grid' && pagerView.hidden) await library.get(route.id).catch((error) => { missing = error; });
  const index = route.view === 'grid' ? -1 : await sequence.indexOf(route.id);
  const photo = index >= 0 ? await sequence.at(index).catch(() => null) : null;
  if (token !== state.routing) return;
  if (route.view !== 'grid' && !photo) {
    showTrouble(route, missing);
    return;
  }
  message.hide();
  cancelFlight();
  if (route.view === 'grid') {
    state.gridUnder = false;
    const last = pager.current;
    if (viewer.isOpen) viewer.close();
    pager.setCovered(false);
    state.zoomPushed = false;
    document.title = 'Photos';
    state.cameFromGrid = false;
    const from = !pagerView.hidden ? pager.zoomSource() : null;
    showGrid(last);
    const cell = last && gridCell(last.id);
    // The photo shrinks back into its cell while the pager fades away over the grid.
    pagerView.inert = true;
    if (from) from.element.style.opacity = '0';
    await flyPhoto(last, from, cell && last && gridCell(last.id), [{ element: pagerView, from: 1, to: 0 }]);
    if (from) from.element.style.opacity = '';
    if (token !== state.routing) return;
    showPager(false);
    pagerView.inert = false;
    return;
  }
  if (!photo) return;
  albumsView.hidden = true;
  // The grid (or the search's results) is on screen before the first route is applied; a shared
  // link did not come from it.
  const fromGrid = (!gridView.hidden || !searchView.hidden) && state.landed;
  const fromPager = !pagerView.hidden && state.landed && !viewer.isOpen;
  // Taken now, not when the flight ends: a Back during the flight must still find the place.
  if (fromGrid) { state.cameFromGrid = true; rememberLists(); }
  if (route.view === 'zoom' && photo.status === 'failed') {
    history.replaceState(history.state, '', photoHash(route.id));
    return show({ view: 'photo', id: route.id, list: route.list, search: query });
  }
  const cell = fromGrid ? gridCell(route.id) : null;
  // Out of sight before the pager is measured: a large grid laid out for nothing costs seconds.
  if (!fromGrid) hideLists();
  // Flown open from the grid, the pager shows only its background until the photo lands.
  pager.setOpening(Boolean(cell) && route.view === 'photo' && canFly(photo));
  showPager(true);
  if (route.view === 'zoom') pager.setCovered(true);
  pager.goTo(index, 'instant');
  // Under the zoom dialog the pager takes no focus and no clicks.
  pagerView.inert = route.view === 'zoom';
  if (route.view === 'zoom') {
    if (!viewer.isOpen || viewer.photo?.id !== route.id) viewer.open(index, { from: fromPager ? pager.zoomSource() : null });
    hideLists();
    return;
  }
  if (viewer.isOpen) {
    pager.setCovered(false);
    state.zoomPushed = false;
    viewer.close({ to: pager.zoomSource() });
    pager.focusPhoto();
  }
  if (fromGrid) {
    pager.focusPhoto();
    const to = pager.zoomSource();
    if (to) to.element.style.opacity = '0';
    await flyPhoto(photo, cell, to, [{ element: pagerView, from: 0, to: 1 }]);
    if (to) to.element.style.opacity = '';
    pager.setOpening(false);
    if (token !== state.routing) return;
  }
  hideLists();
}

/**
 * The search view on screen, for `query` (nothing typed: On This Day and the Places); from the
 * pager, the photo shrinks back into its cell among the results, as into the grid's.
 * @param {string} query
 * @param {number} token
 */
async function showSearch(query, token) {
  message.hide();
  cancelFlight();
  selection.setSelecting(false);
  const fromPager = !pagerView.hidden && state.landed;
  const last = fromPager ? pager.current : undefined;
  const from = fromPager && !viewer.isOpen ? pager.zoomSource() : null;
  if (viewer.isOpen) viewer.close();
  pager.setCovered(false);
  state.zoomPushed = false;
  state.cameFromGrid = false;
  state.gridUnder = false;
  hideGrid();
  albumsView.hidden = favouritesView.hidden = trashView.hidden = true;
  const wasHidden = searchView.hidden;
  search.setShown(true);
  document.title = query ? `${query} · Search · Photos` : 'Search · Photos';
  if (wasHidden && !fromPager) {
    window.scrollTo(0, 0);
    // Opened to type in (the button, `/`): the field takes the focus.
    if (!query) search.focusField();
  }
  await search.show(query, { stillWanted: () => token === state.routing });
  if (token !== state.routing || !fromPager) {
    if (token === state.routing) showPager(false);
    return;
  }
  search.grid.restore(state.searchAnchor);
  const position = last ? search.results.position(last.id) : -1;
  search.grid.reveal(position);
  search.grid.linkAt(position)?.focus({ preventScroll: true });
  // The photo shrinks back into its cell while the pager fades away over the results.
  pagerView.inert = true;
  if (from) from.element.style.opacity = '0';
  await flyPhoto(last, from, last ? search.cell(last.id) : null, [{ element: pagerView, from: 1, to: 0 }]);
  if (from) from.element.style.opacity = '';
  if (token !== state.routing) return;
  showPager(false);
  pagerView.inert = false;
}

/** The page was opened at a share link: what it shares is the page's whole list. */
let underLink = false;

/**
 * A route as a share link's holder has it: the link's photos are the whole list, under `#/`, so
 * the albums, the folders and their own URLs lead there (the URL says so), and nothing asks the library's
 * API, which would answer a link's holder that this library is private.
 * @param {Route} route
 * @returns {Route}
 */
function linkScoped(route) {
  if (route.view === 'albums' || route.view === 'folders' || (route.view === 'grid' && route.list !== null)) {
    history.replaceState(history.state, '', '#/');
    return { view: 'grid', list: null };
  }
  if ((route.view === 'photo' || route.view === 'zoom') && route.list !== null) {
    history.replaceState(history.state, '', hashOf('', route.id, route.view === 'zoom'));
    return { view: route.view, id: route.id, list: null };
  }
  return route;
}

/**
 * Favourites and Recently Deleted under a share link: not part of what it shares, said in words.
 * @param {'favourites' | 'trash'} view
 */
function showNotShared(view) {
  if (viewer.isOpen) viewer.close();
  hideLists();
  showPager(false);
  albumsView.hidden = favouritesView.hidden = trashView.hidden = true;
  message.show({
    title: view === 'favourites' ? 'No Favourites Here' : 'No Recently Deleted Here',
    text: `This link shares ${linkTitle ? linkTitle : 'a photo'}; ${view === 'favourites' ? 'favourites are' : 'deleted photos are'} not part of it.`,
    link: { href: '#/', label: 'The shared photos' },
  });
}

/**
 * What went wrong, in a few words.
 * @param {unknown} error
 */
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What the URL names is not there, or could not be had: said in the message view, the URL kept.
 * A photo, an album or a folder the server says is not in the library gets a way back; a library that
 * could not be reached is asked for again by itself when the server answers.
 * @param {Route} route
 * @param {unknown} error what the server said (a 404), or that it could not be reached
 */
function showTrouble(route, error) {
  if (viewer.isOpen) viewer.close();
  hideLists();
  showPager(false);
  albumsView.hidden = favouritesView.hidden = trashView.hidden = true;
  const status = statusOf(error);
  const shownList = listOf(library.list);
  const back = { href: `#${library.hashPrefix}/`, label: shownList === null ? 'All photos' : `Back to the ${shownList.kind === 'albums' ? 'album' : 'folder'}` };
  if (status === undefined && error !== null) {
    message.show({
      title: 'The photos could not be loaded',
      text: 'The server cannot be reached. This page tries again by itself as soon as it answers.',
      link: { href: '#/', label: 'All photos' },
    });
  } else if (route.view === 'photo' || route.view === 'zoom') {
    const where = shownList === null ? 'the library'
      : `${shownList.kind === 'albums' ? 'album' : 'folder'} ${albums.titles.get(library.list ?? '')?.title ?? shownList.id}`;
    message.show({
      title: 'No such photo',
      text: `There is no photo ${route.id} in ${where}: it may have been removed, or the link is wrong.`,
      link: back,
    });
  } else if (route.list !== null && status === 404) {
    const asked = listOf(route.list);
    message.show(asked?.kind === 'folders' ? {
      title: 'No such folder',
      text: `There is no folder ${asked.id}: no folder of the photos folder has that number, or it holds no photos now.`,
      link: { href: '#/folders', label: 'All folders' },
    } : {
      title: 'No such album',
      text: `There is no album ${asked?.id}: it was deleted, or the link is wrong.`,
      link: { href: '#/albums', label: 'All albums' },
    });
  } else {
    message.show({ title: 'The photos could not be loaded', text: describe(error), link: { href: '#/', label: 'All photos' } });
  }
}

// The server is back: a view that could not be loaded for want of it is loaded now.
listeners.on(connection, 'back', () => {
  if (message.shown && state.landed) show(parseRoute(location.hash));
});

// A finger on the pager while the photo still flies in: it lands at once, and the finger takes over.
listeners.on(pagerView, 'pointerdown', () => cancelFlight(), { capture: true });

listeners.on(pagerBack, 'click', (e) => {
  // Back to the grid is the browser's Back when the grid is where the person came from.
  if (state.cameFromGrid) { e.preventDefault(); history.back(); }
});

/** Back to the grid (Esc, a swipe down): the browser's Back when the grid is where the person came from. */
function closePager() {
  if (state.cameFromGrid) history.back();
  else location.hash = listHash();
}

listeners.on(window, 'hashchange', () => {
  let route = parseRoute(location.hash);
  // Back out of a zoom view that was paged lands on the photo it showed last, not the one it was
  // opened on: the swipes replaced the zoom view's entry, as they replace the pager's.
  const shown = viewer.photo;
  if (viewer.isOpen && state.zoomPushed && route.view === 'photo' && route.id === state.zoomOpenedOn && shown && shown.id !== route.id) {
    history.replaceState(history.state, '', photoHash(shown.id));
    route = { view: 'photo', id: shown.id, list: route.list, search: route.search };
  }
  show(route);
});
listeners.on(window, 'pagehide', () => {
  pager.setLive(false);
  live.setLive(false);
  if (!gridView.hidden) rememberGrid();
});
listeners.on(window, 'pageshow', (e) => {
  if (!e.persisted) return;
  pager.setLive(true);
  followLive();
});

/** The grid's title, the pager's way back and the tabs say which list is shown. */
function labelScope() {
  const list = library.list, shown = listOf(list);
  const title = linkTitle ?? (list === null ? 'Photos'
    : (albums.titles.get(list)?.title ?? `${shown?.kind === 'folders' ? 'Folder' : 'Album'} ${shown?.id}`));
  byId('grid-title', HTMLElement).textContent = title;
  const back = element(gridView, '.album-back', HTMLAnchorElement);
  back.hidden = list === null;
  back.href = `#/${shown?.kind ?? 'albums'}`;
  if (back.lastChild) back.lastChild.textContent = shown?.kind === 'folders' ? ' Folders' : ' Albums';
  albumActions.setShown(list !== null);
  element(gridView, '.view-tabs', HTMLElement).hidden = list !== null;
  gridList.setAttribute('aria-label', list === null ? 'All photos' : title);
  labelPagerBack(`#${library.hashPrefix}/`, list === null ? 'Photos' : title, list === null ? 'Back to all photos' : `Back to ${title}`);
  if (shown && !albums.titles.has(list ?? '')) {
    albums.load(shown.kind).then(() => { if (library.list === list) labelScope(); }, () => {});
  }
}

/**
 * The pager's way back: where it leads, its word and what it is read as.
 * @param {string} href
 * @param {string} text
 * @param {string} label
 */
function labelPagerBack(href, text, label) {
  pagerBack.href = href;
  if (pagerBack.lastChild) pagerBack.lastChild.textContent = ` ${text}`;
  pagerBack.setAttribute('aria-label', label);
}

/**
 * The pager pages through the results of a search for `query`: its way back leads to them.
 * @param {string} query
 */
function labelSearch(query) {
  labelPagerBack(searchHash(query), 'Search', `Back to the photos matching ${query}`);
}

/**
 * Favourites or Recently Deleted on screen, once drawn (unless another route came meanwhile).
 * @param {'favourites' | 'trash'} view
 * @param {number} token
 */
async function showCollection(view, token) {
  const root = view === 'favourites' ? favouritesView : trashView;
  const drawn = view === 'favourites' ? await favourites.render(() => token === state.routing) : await trash.render(() => token === state.routing);
  if (!drawn) return;
  message.hide();
  if (viewer.isOpen) viewer.close();
  selection.setSelecting(false);
  hideLists();
  showPager(false);
  albumsView.hidden = true;
  favouritesView.hidden = view !== 'favourites';
  trashView.hidden = view !== 'trash';
  if (root.hidden === false) window.scrollTo(0, 0);
  document.title = `${view === 'favourites' ? 'Favourites' : 'Recently Deleted'} · Photos`;
}

/**
 * The albums or the folders on screen, once they are drawn (unless another route came meanwhile).
 * @param {'albums' | 'folders'} kind
 * @param {number} token
 */
async function showAlbums(kind, token) {
  if (!await albums.render(kind, () => token === state.routing)) return;
  message.hide();
  if (viewer.isOpen) viewer.close();
  hideLists();
  showPager(false);
  favouritesView.hidden = trashView.hidden = true;
  const wasHidden = albumsView.hidden;
  albumsView.hidden = false;
  if (wasHidden) window.scrollTo(0, 0);
  document.title = `${kind === 'albums' ? 'Albums' : 'Folders'} · Photos`;
}

/**
 * The grid on screen again: where it was, with the photo last shown in view and focused, and live.
 * @param {Photo | undefined} last
 */
function showGrid(last) {
  hideSearch();
  albumsView.hidden = true;
  gridView.hidden = false;
  grid.setActive(true);
  grid.restore(state.gridAnchor);
  followLive();
  if (last) {
    const position = library.position(last.id);
    grid.reveal(position);
    grid.linkAt(position)?.focus({ preventScroll: true });
  }
}

/** Where the grid is scrolled, kept for the way back and for a reload of the page. */
function rememberGrid() {
  state.gridAnchor = grid.anchor();
  sessionStorage.setItem('photoscroll.grid', JSON.stringify(state.gridAnchor));
}

/** Where the grid or the search's results on screen are scrolled, kept for the way back. */
function rememberLists() {
  if (!gridView.hidden) rememberGrid();
  if (!searchView.hidden) state.searchAnchor = search.grid.anchor();
}

/** The search's results leave the screen, where they were scrolled kept for the way back. */
function hideSearch() {
  if (searchView.hidden) return;
  state.searchAnchor = search.grid.anchor();
  search.setShown(false);
}

/** Neither the grid nor the search's results are on screen. */
function hideLists() {
  hideGrid();
  hideSearch();
}

/**
 * The grid leaves the screen: where it was is kept for the way back (the live events stop once
 * no view of the library is left on screen: followLive).
 */
function hideGrid() {
  if (gridView.hidden) return;
  rememberGrid();
  grid.setActive(false);
  gridView.hidden = true;
}

function updateCount() {
  const count = library.count;
  byId('grid-count', HTMLElement).textContent = count === 1 ? '1 photo' : `${count.toLocaleString()} photos`;
  gridStatus.textContent = count ? '' : 'No photos yet. Add some with + or put them in the photos folder.';
  // Nothing to choose in an empty library.
  byId('select-photos', HTMLButtonElement).hidden = count === 0;
  if (count === 0 && selection.selecting) selection.setSelecting(false);
}

listeners.on(library, 'change', updateCount);
listeners.on(document, 'visibilitychange', followLive);

/**
 * What the visitor may do shows on the page: classes on <html> that styles/access.css reads
 * (controls marked data-needs="…" hide), the account button, and the way out when the session
 * ends while the page is open.
 * @param {import('./views/sign-in.js').Entry} entry
 */
function enter(entry) {
  const root = document.documentElement.classList;
  if (entry.kind === 'link') {
    underLink = true;
    root.add('is-link');
    if (entry.link.comments) root.add('may-comment'); else hideComments();
    if (entry.link.upload) root.add('may-upload');
    linkTitle = entry.link.album?.title ?? entry.link.folder?.title ?? null;
    // A link to one photo opens on it.
    if (typeof entry.link.photo === 'number' && parseRoute(location.hash).view === 'grid') {
      history.replaceState(null, '', `#/photos/${entry.link.photo}`);
    }
    return;
  }
  const session = entry.session;
  root.add('may-comment');
  if (session.signedIn || session.manage) root.add('may-manage');
  if (session.signedIn) {
    root.add('signed-in');
    composer.signedInAs(session.username);
    onSessionEnd(() => { forgetAndLeave(); });
  }
  if (session.signedIn && session.role === 'owner') root.add('may-share');
  new AccountMenu({ button: byId('account-button', HTMLButtonElement), menu: byId('account-menu', HTMLDialogElement),
    password: byId('password-sheet', HTMLDialogElement) }, session);
}

async function start() {
  const entry = await admit(byId('sign-in-view', HTMLElement));
  enter(entry);
  // Opened from what this device kept, without the server: once it answers, the page starts
  // again as the visitor may see it (signed in or not, what they may change).
  if (entry.kind === 'library' && entry.offline) listeners.on(connection, 'back', () => location.reload(), { once: true });
  // Uploads kept from an earlier visit go on, now that the page knows where it adds photos.
  if (mayAdd()) uploadPanel.restore();
  const first = underLink ? linkScoped(parseRoute(location.hash)) : parseRoute(location.hash);
  try {
    await library.setScope(first.list);
  } catch (error) {
    showTrouble(first, error);
    document.documentElement.dataset.ready = 'true';
    // Once the server answers again, the page starts as it would have.
    listeners.on(connection, 'back', () => { if (!state.landed && message.shown) start(); }, { once: true });
    return;
  }
  updateCount();
  // Hearts, for whoever may change the library (anyone else is refused and sees none; a link's holder does not ask).
  if (!underLink) selection.loadFavourites();
  try { state.gridAnchor = JSON.parse(sessionStorage.getItem('photoscroll.grid') ?? 'null'); } catch { state.gridAnchor = null; }
  grid.layout();
  // Also under a photo opened by a reload or a link: Back to the grid lands where it was.
  grid.restore(state.gridAnchor);
  followLive();
  await show(parseRoute(location.hash));
  state.landed = true;
  document.documentElement.dataset.ready = 'true';
}

start();

// The page and the photos seen, kept for opening them offline (sw.js).
keepForOffline(listeners);

// The views and the routing state, for a script that imports the page to look at them.
export { pager, viewer, slideshow, state, selection };
