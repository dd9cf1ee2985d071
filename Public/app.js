// @ts-check
// The page: it builds the views and shows the one the URL names (core/routes.js), the photo
// flying between them. Reload, Back and a shared link land on the same view.

import { PhotoIndex } from './core/photo-index.js';
import { connection } from './core/connection.js';
import { statusOf } from './core/api.js';
import { parseRoute, photoHash as hashOf } from './core/routes.js';
import { PhotoGrid } from './views/grid.js';
import { AlbumsView } from './views/albums.js';
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
import { at, hideComments, onSessionEnd } from './core/api.js';
import { keepForOffline } from './core/offline.js';
import { canFly, flyPhoto, cancelFlight } from './photo/flight.js';
import { byId, element } from './util/dom.js';
import { Listeners } from './util/listeners.js';

/** @typedef {import('./core/api.js').Photo} Photo */
/** @typedef {import('./core/routes.js').Route} Route */
/** @typedef {import('./views/grid.js').GridAnchor} GridAnchor */

const gridView = byId('grid-view', HTMLElement);
const pagerView = byId('pager-view', HTMLElement);
const zoomView = byId('zoom-view', HTMLElement);
const albumsView = byId('albums-view', HTMLElement);
const gridStatus = byId('grid-status', HTMLElement);
const gridList = byId('grid', HTMLElement);
const pagerTitle = element(pagerView, '.pager-title', HTMLElement);
const pagerBack = element(pagerView, '.pager-back', HTMLAnchorElement);
const listeners = new Listeners();
// The library as the page knows it: the summary of every photo and the records near the screen.
// The grid draws it, and the pager and the zoom view page through it as their sequence
// (count / indexOf / at / peek / subscribe, see core/photo-sequence.js).
const library = new PhotoIndex();
const sequence = library;
const grid = new PhotoGrid(gridList, library);
new Scrubber(gridView, grid, library);
const albums = new AlbumsView(albumsView);
const toast = new UndoToast(byId('undo-toast', HTMLElement));
const selection = new Selection(gridView, { library, toast });
const favouritesView = byId('favourites-view', HTMLElement);
const trashView = byId('trash-view', HTMLElement);
const favourites = new FavouritesView(favouritesView);
const albumActions = new AlbumActions(gridView, {
  album: () => library.album,
  title: () => byId('grid-title', HTMLElement).textContent || '',
  toast,
  onRenamed: (id, title) => { albums.titles.set(id, title); labelScope(); },
  onDeleted: () => { location.hash = '#/albums'; },
});
const trash = new TrashView(trashView, { toast });
// Photos added with the Add button or dropped on the grid go into the list shown (an album's folder, or the library);
// under a share link that lets photos be added, into its album through the link.
const uploadPanel = new UploadPanel(byId('uploads', HTMLElement), {
  dropTarget: gridView,
  addButton: byId('add-photos', HTMLButtonElement),
  input: byId('add-input', HTMLInputElement),
  dropHint: byId('drop-hint', HTMLElement),
  album: () => library.album,
  accepts: () => !gridView.hidden && mayAdd(),
  base: () => at('/uploads/'),
});

/** Whether this visitor may add photos: a manager, or the holder of a link that allows it. */
function mayAdd() {
  const root = document.documentElement.classList;
  return root.contains('may-manage') || root.contains('may-upload');
}

// The owner's Share sheet, for a photo (the pager's Share) or an album (its grid's Share).
const shareSheet = new ShareSheet(byId('share-sheet', HTMLDialogElement));
/** Under a share link of an album, the album's title: the grid's title. */
let linkTitle = /** @type {string | null} */ (null);
listeners.on(element(gridView, '.album-share', HTMLButtonElement), 'click', () => {
  if (library.album !== null) shareSheet.open({ album: library.album }, byId('grid-title', HTMLElement).textContent || 'Album');
});
const message = messageView();
new ConnectionStatus(byId('connection-status', HTMLElement));

/** The routing state: what the views shown so far leave for the next route to know. */
const state = {
  /** @type {GridAnchor | null} where the grid was scrolled when a photo was opened (grid.anchor()) */
  gridAnchor: null,
  /** The pager was opened from the grid, so its way back is the browser's Back. */
  cameFromGrid: false,
  /** The grid is shown under the pager while a photo is pulled down. */
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

/**
 * The URL of a photo in the list shown (the library or one album), or of its zoom view.
 * @param {number} id
 * @param {boolean} [zoom]
 */
function photoHash(id, zoom = false) {
  return hashOf(library.hashPrefix, id, zoom);
}

/**
 * The grid cell of photo `id` and its box on screen, if the grid has drawn it.
 * @param {number} id
 */
function gridCell(id) {
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
    if (pulling && state.cameFromGrid && gridView.hidden) {
      gridView.hidden = false;
      grid.setActive(true);
      grid.restore(state.gridAnchor);
      state.gridUnder = true;
    } else if (!pulling && state.gridUnder) {
      state.gridUnder = false;
      hideGrid();
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
 * Shows what `route` names.
 * @param {Route} route
 * @returns {Promise<void>}
 */
async function show(route) {
  const token = ++state.routing;
  if (underLink) {
    route = linkScoped(route);
    if (route.view === 'favourites' || route.view === 'trash') return showNotShared(route.view);
  }
  if (route.view === 'albums') return showAlbums(token);
  if (route.view === 'favourites' || route.view === 'trash') return showCollection(route.view, token);
  favouritesView.hidden = trashView.hidden = true;
  if (route.album !== library.album || !library.etag) {
    try {
      await library.setScope(route.album);
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
  labelScope();
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
  // The grid is on screen before the first route is applied; a shared link did not come from it.
  const fromGrid = !gridView.hidden && state.landed;
  const fromPager = !pagerView.hidden && state.landed && !viewer.isOpen;
  // Taken now, not when the flight ends: a Back during the flight must still find the place.
  if (fromGrid) { state.cameFromGrid = true; rememberGrid(); }
  if (route.view === 'zoom' && photo.status === 'failed') {
    history.replaceState(history.state, '', photoHash(route.id));
    return show({ view: 'photo', id: route.id, album: route.album });
  }
  const cell = fromGrid ? gridCell(route.id) : null;
  // Out of sight before the pager is measured: a large grid laid out for nothing costs seconds.
  if (!fromGrid) hideGrid();
  // Flown open from the grid, the pager shows only its background until the photo lands.
  pager.setOpening(Boolean(cell) && route.view === 'photo' && canFly(photo));
  showPager(true);
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
  hideGrid();
}

/** The page was opened at a share link: what it shares is the page's whole list. */
let underLink = false;

/**
 * A route as a share link's holder has it: the link's photos are the whole list, under `#/`, so
 * the albums and an album's own URLs lead there (the URL says so), and nothing asks the library's
 * API, which would answer a link's holder that this library is private.
 * @param {Route} route
 * @returns {Route}
 */
function linkScoped(route) {
  if (route.view === 'albums' || (route.view === 'grid' && route.album !== null)) {
    history.replaceState(history.state, '', '#/');
    return { view: 'grid', album: null };
  }
  if ((route.view === 'photo' || route.view === 'zoom') && route.album !== null) {
    history.replaceState(history.state, '', hashOf('', route.id, route.view === 'zoom'));
    return { view: route.view, id: route.id, album: null };
  }
  return route;
}

/**
 * Favourites and Recently Deleted under a share link: not part of what it shares, said in words.
 * @param {'favourites' | 'trash'} view
 */
function showNotShared(view) {
  if (viewer.isOpen) viewer.close();
  hideGrid();
  showPager(false);
  albumsView.hidden = favouritesView.hidden = trashView.hidden = true;
  message.show({
    title: view === 'favourites' ? 'No Favourites Here' : 'No Recently Deleted Here',
    text: `This link shares ${linkTitle ? `the album ${linkTitle}` : 'a photo'}; ${view === 'favourites' ? 'favourites are' : 'deleted photos are'} not part of it.`,
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
 * A photo or an album the server says is not in the library gets a way back; a library that
 * could not be reached is asked for again by itself when the server answers.
 * @param {Route} route
 * @param {unknown} error what the server said (a 404), or that it could not be reached
 */
function showTrouble(route, error) {
  if (viewer.isOpen) viewer.close();
  hideGrid();
  showPager(false);
  albumsView.hidden = favouritesView.hidden = trashView.hidden = true;
  const status = statusOf(error);
  const back = { href: `#${library.hashPrefix}/`, label: library.album === null ? 'All photos' : 'Back to the album' };
  if (status === undefined && error !== null) {
    message.show({
      title: 'The photos could not be loaded',
      text: 'The server cannot be reached. This page tries again by itself as soon as it answers.',
      link: { href: '#/', label: 'All photos' },
    });
  } else if (route.view === 'photo' || route.view === 'zoom') {
    const where = library.album === null ? 'the library' : `album ${albums.titles.get(library.album) ?? library.album}`;
    message.show({
      title: 'No such photo',
      text: `There is no photo ${route.id} in ${where}: it may have been removed, or the link is wrong.`,
      link: back,
    });
  } else if (route.album !== null && status === 404) {
    message.show({
      title: 'No such album',
      text: `There is no album ${route.album}: no folder of the photos folder has that number, or it holds no photos now.`,
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
  else location.hash = `#${library.hashPrefix}/`;
}

listeners.on(window, 'hashchange', () => {
  let route = parseRoute(location.hash);
  // Back out of a zoom view that was paged lands on the photo it showed last, not the one it was
  // opened on: the swipes replaced the zoom view's entry, as they replace the pager's.
  const shown = viewer.photo;
  if (viewer.isOpen && state.zoomPushed && route.view === 'photo' && route.id === state.zoomOpenedOn && shown && shown.id !== route.id) {
    history.replaceState(history.state, '', photoHash(shown.id));
    route = { view: 'photo', id: shown.id, album: route.album };
  }
  show(route);
});
listeners.on(window, 'pagehide', () => {
  pager.setLive(false);
  if (!gridView.hidden) rememberGrid();
});
listeners.on(window, 'pageshow', (e) => { if (e.persisted) pager.setLive(true); });

/** The grid's title, the pager's way back and the tabs say which list is shown. */
function labelScope() {
  const album = library.album;
  const title = linkTitle ?? (album === null ? 'Photos' : (albums.titles.get(album) ?? `Album ${album}`));
  byId('grid-title', HTMLElement).textContent = title;
  element(gridView, '.album-back', HTMLElement).hidden = album === null;
  albumActions.setShown(album !== null);
  element(gridView, '.view-tabs', HTMLElement).hidden = album !== null;
  gridList.setAttribute('aria-label', album === null ? 'All photos' : title);
  pagerBack.href = `#${library.hashPrefix}/`;
  if (pagerBack.lastChild) pagerBack.lastChild.textContent = ` ${album === null ? 'Photos' : title}`;
  pagerBack.setAttribute('aria-label', album === null ? 'Back to all photos' : `Back to ${title}`);
  if (album !== null && !albums.titles.has(album)) {
    albums.load().then(() => { if (library.album === album) labelScope(); }, () => {});
  }
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
  hideGrid();
  showPager(false);
  albumsView.hidden = true;
  favouritesView.hidden = view !== 'favourites';
  trashView.hidden = view !== 'trash';
  if (root.hidden === false) window.scrollTo(0, 0);
  document.title = `${view === 'favourites' ? 'Favourites' : 'Recently Deleted'} · Photos`;
}

/**
 * The albums on screen, once they are drawn (unless another route came meanwhile).
 * @param {number} token
 */
async function showAlbums(token) {
  if (!await albums.render(() => token === state.routing)) return;
  message.hide();
  if (viewer.isOpen) viewer.close();
  hideGrid();
  showPager(false);
  favouritesView.hidden = trashView.hidden = true;
  const wasHidden = albumsView.hidden;
  albumsView.hidden = false;
  if (wasHidden) window.scrollTo(0, 0);
  document.title = 'Albums · Photos';
}

/**
 * The grid on screen again: where it was, with the photo last shown in view and focused, and live.
 * @param {Photo | undefined} last
 */
function showGrid(last) {
  albumsView.hidden = true;
  gridView.hidden = false;
  grid.setActive(true);
  grid.restore(state.gridAnchor);
  library.setLive(document.visibilityState === 'visible');
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

/**
 * The grid leaves the screen: where it was is kept for the way back, and the live list events
 * stop (a stream held open under the pager would take one of the browser's few connections to
 * the server from the tiles; coming back asks what changed meanwhile).
 */
function hideGrid() {
  if (gridView.hidden) return;
  rememberGrid();
  grid.setActive(false);
  library.setLive(false);
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
listeners.on(document, 'visibilitychange', () => {
  if (!gridView.hidden) library.setLive(document.visibilityState === 'visible');
});

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
    linkTitle = entry.link.album?.title ?? null;
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
    await library.setScope(first.view === 'albums' ? null : first.album);
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
  library.setLive(document.visibilityState === 'visible');
  await show(parseRoute(location.hash));
  state.landed = true;
  document.documentElement.dataset.ready = 'true';
}

start();

// The page and the photos seen, kept for opening them offline (sw.js).
keepForOffline(listeners);

// The views and the routing state, for a script that imports the page to look at them.
export { pager, viewer, slideshow, state, selection };
