// @ts-check
// Two lists beside the library: Favourites (the photos marked with a heart, each opening in the
// pager) and Recently Deleted (the trash: each photo's name and when it goes for good, with
// Restore, Restore All and Empty Trash).

import { emptyTrash, getPhoto, listFavourites, listTrash, restoreFromTrash } from '../core/api.js';
import { GridZoomGestures } from '../gestures/grid-zoom.js';
import { cellImageURL } from '../photo/pyramid.js';
import { GridDensity } from '../ui/grid-density.js';
import { coalesced } from '../util/coalesced.js';
import { byId, element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {import('../core/api.js').TrashItem} TrashItem */

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

export class FavouritesView {
  /**
   * @param {HTMLElement} root `#favourites-view`
   * @param {{ density: GridDensity }} options the grids' one density, which its columns follow
   */
  constructor(root, { density }) {
    this.root = root;
    this.density = density;
    this.list = element(root, '.favourites', HTMLElement);
    this.status = element(root, '.status', HTMLElement);
    this.listeners = new Listeners();
    /** The photos the list shows, as JSON: it is drawn again only when they change. */
    this.drawn = '';
    /** @type {Map<HTMLImageElement, Photo>} each cell's image and its photo */
    this.photoOf = new Map();
    this.refresh = coalesced(async () => { if (!this.root.hidden) await this.render(() => !this.root.hidden); });
    /** @type {number | null} the columns shown when a pinch began, null when none is on */
    this.pinchFrom = null;
    // Pinched and Ctrl+wheeled as the grid is (its style sheet then shows the columns chosen).
    new GridZoomGestures(root, this.listeners, () => !root.hidden, {
      start: () => { this.pinchFrom = this.columns; },
      pinch: (scale) => {
        if (this.pinchFrom !== null) this.density.set(GridDensity.nearest(this.pinchFrom / scale, false));
      },
      end: () => { this.pinchFrom = null; },
      step: (direction) => this.step(direction),
    });
    // Cells grown past their thumbnails (a column or two) draw a larger image.
    this.listeners.observe(new ResizeObserver(() => this.sharpen())).observe(this.list);
  }

  /** The columns its style sheet shows now (from the density chosen, or its own). */
  get columns() { return getComputedStyle(this.list).gridTemplateColumns.split(' ').length; }

  /**
   * One step denser (+1) or larger (−1) for every grid; Favourites has no Months or Years.
   * @param {1 | -1} direction
   */
  step(direction) {
    this.density.set(GridDensity.next(this.columns, direction, false));
  }

  /** Each cell's image as sharp as its cell: the thumbnail, or a larger one for a large cell. */
  sharpen() {
    const first = this.list.firstElementChild;
    if (!first) return;
    const side = first.getBoundingClientRect().width * (window.devicePixelRatio || 1);
    if (!side) return;
    for (const [img, photo] of this.photoOf) {
      const src = cellImageURL(photo, side);
      if (img.getAttribute('src') !== src) img.src = src;
    }
  }

  /**
   * Stays true while on screen: a photo marked or unmarked, or a favourite deleted or restored,
   * here or in another window, draws it again.
   * @param {import('../core/live-events.js').LiveEvents} live
   */
  follow(live) {
    this.listeners.on(live, 'favourites', () => this.refresh());
    this.listeners.on(live, 'reset', () => this.refresh());
    this.listeners.on(live, 'photos', (e) => {
      /** @type {import('../core/api.js').PhotoChanges} */
      const { added = [], removed = [] } = JSON.parse(/** @type {MessageEvent<string>} */ (e).data);
      if (added.length || removed.length) this.refresh();
    });
    this.listeners.on(live, 'open', () => this.refresh());
  }

  /**
   * Draws the favourites, unless the person went elsewhere meanwhile; resolves to whether it drew.
   * @param {() => boolean} stillWanted
   */
  async render(stillWanted) {
    /** @type {Photo[]} */
    let photos = [];
    try {
      const ids = await listFavourites();
      const found = await Promise.all(ids.map((id) => getPhoto(id).catch(() => null)));
      photos = /** @type {Photo[]} */ (found.filter((photo) => photo !== null));
      this.status.textContent = photos.length ? '' : 'No favourites yet. Select photos and tap ♥ to add them.';
    } catch (error) {
      this.status.textContent = `The favourites could not be loaded (${error instanceof Error ? error.message : error}).`;
    }
    if (!stillWanted()) return false;
    // Drawn again only when it changed: a live event's refetch that finds the same photos leaves
    // them (and a press on one) where they are.
    const drawn = JSON.stringify(photos);
    if (drawn === this.drawn) return true;
    this.drawn = drawn;
    this.photoOf.clear();
    this.list.replaceChildren(...photos.map((photo) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#/photos/${photo.id}`;
      link.className = 'favourite';
      link.dataset.photoId = String(photo.id);
      const img = document.createElement('img');
      img.src = photo.thumbnail;
      img.alt = photo.title;
      img.loading = 'lazy';
      this.photoOf.set(img, photo);
      link.append(img);
      item.append(link);
      return item;
    }));
    this.sharpen();
    element(this.root, '.subtitle', HTMLElement).textContent = photos.length === 1 ? '1 photo' : `${photos.length} photos`;
    return true;
  }
}

export class TrashView {
  /**
   * @param {HTMLElement} root `#trash-view`
   * @param {{ toast: import('../ui/selection.js').UndoToast }} options
   */
  constructor(root, options) {
    this.root = root;
    this.toast = options.toast;
    this.list = element(root, '.trash', HTMLElement);
    this.status = element(root, '.status', HTMLElement);
    this.listeners = new Listeners();
    /** @type {TrashItem[]} */
    this.items = [];
    /** The items the list shows, as JSON: it is drawn again only when they change. */
    this.drawn = '';
    this.listeners.on(this.list, 'click', (e) => {
      const button = e.target instanceof Element ? e.target.closest('button.trash-restore') : null;
      const id = button instanceof HTMLElement ? button.dataset.item : undefined;
      if (id) this.restore({ items: [id] });
    });
    this.listeners.on(element(root, '.trash-restore-all', HTMLButtonElement), 'click', () => {
      this.restore({ items: this.items.map((item) => item.id) });
    });
    this.listeners.on(element(root, '.trash-empty', HTMLButtonElement), 'click', () => this.empty());
    this.refresh = coalesced(async () => { if (!this.root.hidden) await this.render(() => !this.root.hidden); });
  }

  /**
   * Stays true while on screen: photos deleted, restored or emptied out, here or in another
   * window, draw it again.
   * @param {import('../core/live-events.js').LiveEvents} live
   */
  follow(live) {
    this.listeners.on(live, 'trash', () => this.refresh());
    this.listeners.on(live, 'open', () => this.refresh());
  }

  /** @param {() => boolean} stillWanted */
  async render(stillWanted = () => true) {
    let days = 30;
    try {
      const answer = await listTrash();
      this.items = answer.items;
      days = answer.trashDays;
      this.status.textContent = this.items.length ? '' : 'Nothing here. Deleted photos stay here for a while before they go for good.';
    } catch (error) {
      this.items = [];
      this.status.textContent = `The trash could not be loaded (${error instanceof Error ? error.message : error}).`;
    }
    if (!stillWanted()) return false;
    element(this.root, '.subtitle', HTMLElement).textContent = `Photos are deleted for good ${days} days after.`;
    // Drawn again only when it changed (as Favourites).
    const drawn = JSON.stringify(this.items);
    if (drawn === this.drawn) return true;
    this.drawn = drawn;
    this.list.replaceChildren(...this.items.map((item) => {
      const row = document.createElement('li');
      row.className = 'trash-item';
      const name = document.createElement('span');
      name.className = 'trash-name';
      name.textContent = item.path;
      const when = document.createElement('span');
      when.className = 'trash-when';
      when.textContent = `Deleted ${dayFormat.format(new Date(item.deleted))} · goes ${dayFormat.format(new Date(item.expires))}`;
      const restore = document.createElement('button');
      restore.type = 'button';
      restore.className = 'trash-restore';
      restore.dataset.item = item.id;
      restore.textContent = 'Restore';
      row.append(name, when, restore);
      return row;
    }));
    for (const button of [element(this.root, '.trash-restore-all', HTMLButtonElement), element(this.root, '.trash-empty', HTMLButtonElement)]) {
      button.disabled = this.items.length === 0;
    }
    return true;
  }

  /** @param {{ items: string[] }} what */
  async restore(what) {
    try {
      const { photos } = await restoreFromTrash(what);
      this.toast.show(photos.length === 1 ? 'Restored 1 photo' : `Restored ${photos.length} photos`);
    } catch (error) {
      this.toast.show(`Could not restore (${error instanceof Error ? error.message : error}).`);
    }
    await this.render();
  }

  async empty() {
    if (!window.confirm(`Delete ${this.items.length === 1 ? 'this photo' : `these ${this.items.length} photos`} for good? This cannot be undone.`)) return;
    try { await emptyTrash(); } catch (error) {
      this.toast.show(`Could not empty the trash (${error instanceof Error ? error.message : error}).`);
    }
    await this.render();
  }

  destroy() { this.listeners.destroy(); }
}

/** The root of a collection view by its route name. */
export function collectionRoot(/** @type {'favourites' | 'trash'} */ view) {
  return byId(`${view}-view`, HTMLElement);
}
