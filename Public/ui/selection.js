// @ts-check
// Choosing several photos in the grid and doing something with them: Select (or a long press on a
// phone, or ctrl/⌘-click and shift-click on a desktop) marks photos; the bar then favourites
// them (a heart), adds them to an album (a new one too) or, inside an album, takes them out of it
// (no file moves either way), or sends them to the trash with an Undo right after; in an album in
// its own order, Alt and an arrow move the one photo chosen. Marks are drawn by one style sheet keyed by photo id, so the grid's
// recycled cells always show the right ones. Favourites are marked with a heart the same way.

import { changeAlbumPhotos, changeFavourites, createAlbum, listAlbums, listFavourites, moveInAlbum, restoreFromTrash, statusOf, trashPhotos } from '../core/api.js';
import { listOf } from '../core/routes.js';
import { byId, element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';
import { Keys } from '../util/keyboard.js';

/** @typedef {import('../core/photo-index.js').PhotoIndex} PhotoIndex */

/** How long a finger rests on a photo to start choosing. */
const LONG_PRESS_MS = 500;

/**
 * Moving the one photo chosen in an album in its own order with Alt and an arrow key.
 * @typedef {object} Arrange
 * @property {() => boolean} enabled whether the list shown is such an album, which may be changed
 * @property {() => number} columns the grid's columns (Up and Down move a row)
 * @property {(id: number, position: number) => Promise<boolean>} move puts the photo there; whether it moved
 */

export class Selection {
  /**
   * @param {HTMLElement} gridView the grid's <main>
   * @param {{ library: PhotoIndex, toast: UndoToast, showFromStart: (reordering: Promise<void>) => void, arrange?: Arrange }} options
   *   showFromStart: the grid shows the list from its start once `reordering` brings its new order;
   *   arrange: Alt+arrow keys move the photo chosen (none without it)
   */
  constructor(gridView, options) {
    this.gridView = gridView;
    this.library = options.library;
    this.toast = options.toast;
    this.showFromStart = options.showFromStart;
    this.arrange = options.arrange ?? null;
    this.grid = element(gridView, '#grid', HTMLElement);
    this.bar = byId('selection-bar', HTMLElement);
    this.count = element(this.bar, '.selection-count', HTMLElement);
    /** Says where a photo moved with the keys went (for a screen reader: the bar shows no words for it). */
    this.news = element(this.bar, '.selection-news', HTMLElement);
    this.selectButton = byId('select-photos', HTMLButtonElement);
    this.sheet = byId('album-sheet', HTMLDialogElement);
    /** @type {number[] | null} the photos the album sheet is for when they are not the chosen ones */
    this.placing = null;
    this.marks = document.createElement('style');
    document.head.append(this.marks);
    /** @type {Set<number>} */
    this.selected = new Set();
    /** @type {Set<number>} */
    this.favourites = new Set();
    /** @type {(() => void)[]} who shows favourites elsewhere (the pager's heart) */
    this.favouriteWatchers = [];
    this.selecting = false;
    /** @type {number | null} the photo last chosen, where a shift-click's range starts */
    this.anchor = null;
    /** A long press just chose a photo: the click that ends it is not a tap. */
    this.swallowClick = false;
    this.pressTimer = 0;
    /** @type {{ x: number, y: number } | null} */
    this.pressAt = null;
    this.listeners = new Listeners();
    const on = this.listeners;
    on.on(this.selectButton, 'click', () => this.setSelecting(!this.selecting));
    on.on(this.grid, 'click', (e) => this.clicked(e), { capture: true });
    on.on(this.grid, 'pointerdown', (e) => this.pressed(e));
    on.on(this.grid, 'pointermove', (e) => {
      if (this.pressAt && Math.hypot(e.clientX - this.pressAt.x, e.clientY - this.pressAt.y) > 10) this.cancelPress();
    });
    on.on(this.grid, 'pointerup', () => this.cancelPress());
    on.on(this.grid, 'pointercancel', () => this.cancelPress());
    on.on(this.grid, 'contextmenu', (e) => { if (this.selecting && e.target instanceof Element && e.target.closest('a.cell')) e.preventDefault(); });
    // Escape ends choosing: its key listens only while photos are being chosen (keyboard.js).
    this.keys = new Keys((e) => {
      if (!this.selecting || this.sheet.open) return;
      if (e.key === 'Escape') this.setSelecting(false);
      else if (e.altKey) this.nudge(e);
    });
    on.add(() => { this.keys.on = false; });
    on.on(element(this.bar, '.select-favourite', HTMLButtonElement), 'click', () => this.favourite());
    on.on(element(this.bar, '.select-album', HTMLButtonElement), 'click', () => this.openSheet());
    on.on(element(this.bar, '.select-unalbum', HTMLButtonElement), 'click', () => this.takeOut());
    on.on(element(this.bar, '.select-first', HTMLButtonElement), 'click', () => { this.moveToStart(); });
    on.on(element(this.bar, '.select-delete', HTMLButtonElement), 'click', () => { this.trash(); });
    on.on(element(this.bar, '.select-done', HTMLButtonElement), 'click', () => this.setSelecting(false));
    on.on(element(this.sheet, 'form', HTMLFormElement), 'submit', (e) => this.place(e));
    on.on(element(this.sheet, '.sheet-cancel', HTMLButtonElement), 'click', () => this.sheet.close());
    on.add(() => this.marks.remove());
  }

  /** Asks for the favourites: only whoever may change the library has any (app.js, once it knows). */
  async loadFavourites() {
    try { this.favourites = new Set(await listFavourites()); } catch { /* offline: no hearts */ }
    this.draw();
  }

  /**
   * Runs `watcher` whenever the favourites change.
   * @param {() => void} watcher
   */
  onFavourites(watcher) { this.favouriteWatchers.push(watcher); }

  /**
   * Makes one photo a favourite or not (the pager's heart), saying so in the toast if it fails.
   * @param {number} id
   * @param {boolean} on
   */
  async setFavourite(id, on) {
    try {
      this.favourites = new Set(await changeFavourites(on ? [id] : [], on ? [] : [id]));
    } catch (error) {
      this.toast.show(`Could not change Favourites (${describe(error)}).`);
    }
    this.draw();
  }

  /** @param {boolean} on */
  setSelecting(on) {
    this.selecting = on;
    this.keys.on = on;
    if (!on) { this.selected.clear(); this.anchor = null; }
    this.gridView.classList.toggle('selecting', on);
    this.selectButton.textContent = on ? 'Cancel' : 'Select';
    this.selectButton.setAttribute('aria-pressed', String(on));
    this.draw();
  }

  /**
   * A tap or click on the grid: chooses a photo instead of opening it while choosing, or with
   * ctrl/⌘ (one more) or shift (the range from the last one chosen).
   * @param {MouseEvent} event
   */
  clicked(event) {
    const link = event.target instanceof Element ? event.target.closest('a.cell') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const id = Number(link.dataset.photoId);
    if (!Number.isFinite(id)) return;
    if (this.swallowClick) {
      this.swallowClick = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const modified = event.metaKey || event.ctrlKey || event.shiftKey;
    if (!this.selecting && !modified) return;
    event.preventDefault();
    event.stopPropagation();
    if (!this.selecting) this.setSelecting(true);
    if (event.shiftKey && this.anchor !== null) this.selectRange(this.anchor, id);
    else this.toggle(id);
    this.anchor = id;
    this.draw();
  }

  /** @param {number} id */
  toggle(id) {
    if (this.selected.has(id)) this.selected.delete(id); else this.selected.add(id);
  }

  /**
   * Every photo from `from` to `to` in the list's order.
   * @param {number} from
   * @param {number} to
   */
  selectRange(from, to) {
    const a = this.library.position(from), b = this.library.position(to);
    if (a < 0 || b < 0) { this.toggle(to); return; }
    for (let i = Math.min(a, b); i <= Math.max(a, b); i++) this.selected.add(this.library.ids[i]);
  }

  /** @param {PointerEvent} event */
  pressed(event) {
    if (event.pointerType === 'mouse') return;
    // A second finger down is a pinch (the grid's density), never a long press: also when the
    // first came down beside the photos (a title, the screen's edge), where no press began.
    if (this.pressAt || !event.isPrimary) {
      this.cancelPress();
      return;
    }
    const link = event.target instanceof Element ? event.target.closest('a.cell') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    this.pressAt = { x: event.clientX, y: event.clientY };
    this.pressTimer = this.listeners.timeout(() => {
      this.pressAt = null;
      const id = Number(link.dataset.photoId);
      if (!this.selecting) this.setSelecting(true);
      this.selected.add(id);
      this.anchor = id;
      this.swallowClick = true;
      this.draw();
    }, LONG_PRESS_MS);
  }

  /**
   * Alt+arrow, one photo chosen, in an album in its own order: the photo moves a place back or on
   * (Left, Right) or a row up or down (Up, Down), and where it went is said.
   * @param {KeyboardEvent} event
   */
  nudge(event) {
    const arrange = this.arrange;
    const columns = arrange?.columns() ?? 1;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns }[event.key];
    if (!arrange || !step || event.ctrlKey || event.metaKey || event.shiftKey || this.selected.size !== 1 || !arrange.enabled()) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    // Alt+Left and Alt+Right are also the browser's Back and Forward: here they move the photo.
    event.preventDefault();
    const [id] = this.selected;
    const from = this.library.position(id), count = this.library.count;
    if (from < 0) return;
    const to = Math.max(0, Math.min(count - 1, from + step));
    if (to === from) {
      this.say(to === 0 ? `Already first of ${count}` : `Already last of ${count}`);
      return;
    }
    arrange.move(id, to).then((moved) => { if (moved) this.say(`Moved to place ${to + 1} of ${count}`); });
  }

  /**
   * Words for a screen reader, said once (the same words again are said again).
   * @param {string} words
   */
  say(words) {
    this.news.textContent = this.news.textContent === words ? `${words}\u00a0` : words;
  }

  cancelPress() {
    this.pressAt = null;
    if (this.pressTimer) this.listeners.clear(this.pressTimer);
    this.pressTimer = 0;
  }

  /** The marks (chosen photos, hearts) and the bar. */
  draw() {
    const cell = (/** @type {number} */ id) => `#grid a[data-photo-id="${id}"]`;
    let css = '';
    if (this.selected.size) css += `${[...this.selected].map(cell).join(',')}{outline:3px solid var(--tint,#0a84ff);outline-offset:-3px}`
      + `${[...this.selected].map((id) => cell(id) + '::before').join(',')}{content:"✓";position:absolute;z-index:1;right:6px;bottom:6px;`
      + 'width:22px;height:22px;border-radius:11px;background:var(--tint,#0a84ff);color:#fff;font:700 14px/22px system-ui;text-align:center}';
    if (this.favourites.size) css += `${[...this.favourites].map((id) => cell(id) + '::after').join(',')}{content:"♥";position:absolute;`
      + 'left:6px;bottom:4px;color:#fff;font-size:18px;text-shadow:0 1px 3px rgba(0,0,0,.6);pointer-events:none}';
    this.marks.textContent = css;
    this.bar.hidden = !this.selecting;
    // Inside an album its photos may be taken out of it, or moved to its start.
    const album = listOf(this.library.list)?.kind === 'albums';
    element(this.bar, '.select-unalbum', HTMLButtonElement).hidden = !album;
    element(this.bar, '.select-first', HTMLButtonElement).hidden = !album;
    const n = this.selected.size;
    this.count.textContent = n === 0 ? 'Select photos' : n === 1 ? '1 photo selected' : `${n} photos selected`;
    for (const button of this.bar.querySelectorAll('.selection-actions button')) {
      if (button instanceof HTMLButtonElement) button.disabled = n === 0;
    }
    const heart = element(this.bar, '.select-favourite', HTMLButtonElement);
    const allFavourite = n > 0 && [...this.selected].every((id) => this.favourites.has(id));
    heart.setAttribute('aria-pressed', String(allFavourite));
    heart.title = allFavourite ? 'Remove from Favourites' : 'Add to Favourites';
    heart.setAttribute('aria-label', heart.title);
    for (const watcher of this.favouriteWatchers) watcher();
  }

  async favourite() {
    const ids = [...this.selected];
    const allFavourite = ids.every((id) => this.favourites.has(id));
    try {
      this.favourites = new Set(await changeFavourites(allFavourite ? [] : ids, allFavourite ? ids : []));
      this.toast.show(allFavourite ? `Removed from Favourites` : `Added to Favourites`);
    } catch (error) {
      this.toast.show(`Could not change Favourites (${describe(error)}).`);
    }
    this.draw();
  }

  /**
   * Add to Album for `ids` (the photos chosen, or the pager's photo in front).
   * @param {number[]} [ids]
   */
  async openSheet(ids) {
    this.placing = ids ?? null;
    const list = element(this.sheet, '.sheet-albums', HTMLSelectElement);
    list.replaceChildren(new Option('New album…', ''));
    try {
      const { albums } = await listAlbums();
      for (const album of albums) list.append(new Option(album.title, String(album.id)));
    } catch { /* a new album still works */ }
    element(this.sheet, '.sheet-name', HTMLInputElement).value = '';
    this.sheet.showModal();
  }

  /** @param {SubmitEvent} event */
  async place(event) {
    event.preventDefault();
    const chosen = element(this.sheet, '.sheet-albums', HTMLSelectElement).value;
    const name = element(this.sheet, '.sheet-name', HTMLInputElement).value.trim();
    if (!chosen && !name) { element(this.sheet, '.sheet-name', HTMLInputElement).focus(); return; }
    this.sheet.close();
    const fromSelection = !this.placing;
    const ids = this.placing ?? [...this.selected];
    this.placing = null;
    try {
      const id = chosen ? Number(chosen) : (await createAlbum(name)).id;
      const album = await changeAlbumPhotos(id, ids);
      const n = ids.length;
      this.toast.show(`Added ${n === 1 ? '1 photo' : `${n} photos`} to ${album.title}`);
      if (fromSelection) this.setSelecting(false);
      if (this.library.list === `/albums/${id}`) await this.library.load();
    } catch (error) {
      this.toast.show(`Could not add the photos to the album (${describe(error)}).`);
    }
  }

  /** Whether the list shown is an album (a collection), where photos can be taken out of it. */
  inAlbum() { return listOf(this.library.list)?.kind === 'albums'; }

  /**
   * Takes `ids` (the photos chosen, or the pager's photo in front) out of the album shown, with
   * Undo in the toast; they leave the list at once and stay in the library. Resolves to whether
   * they were taken out.
   * @param {number[]} [ids]
   */
  async takeOut(ids) {
    const which = listOf(this.library.list);
    if (which?.kind !== 'albums') return false;
    const chosen = !ids;
    const taken = ids ?? [...this.selected];
    try {
      const album = await changeAlbumPhotos(which.id, taken, true);
      if (chosen) this.setSelecting(false);
      this.library.drop(taken);
      this.library.resync();
      const n = taken.length;
      this.toast.show(`Removed ${n === 1 ? '1 photo' : `${n} photos`} from ${album.title}`, {
        label: 'Undo',
        run: () => { changeAlbumPhotos(which.id, taken).then(() => this.library.resync(), () => {}); },
      });
      return true;
    } catch (error) {
      this.toast.show(`Could not remove the photos from the album (${describe(error)}).`);
      return false;
    }
  }

  /**
   * Puts the photos chosen first in the album shown, in the order they are shown (iOS Photos'
   * custom order, made without dragging): the album is then shown in its own order, here at once
   * and in every other window through the live events. Resolves to whether they moved.
   */
  async moveToStart() {
    const which = listOf(this.library.list);
    if (which?.kind !== 'albums' || !this.selected.size) return false;
    const chosen = [...this.selected];
    const at = (/** @type {number} */ id) => this.library.ids.indexOf(id);
    chosen.sort((a, b) => at(a) - at(b));
    try {
      const album = await moveInAlbum(which.id, chosen, 0);
      this.setSelecting(false);
      this.showFromStart(this.library.resync());
      const n = chosen.length;
      this.toast.show(`Moved ${n === 1 ? '1 photo' : `${n} photos`} to the start of ${album.title}`);
      return true;
    } catch (error) {
      this.toast.show(`Could not move the photos (${describe(error)}).`);
      return false;
    }
  }

  /**
   * Sends `ids` (the photos chosen, or the pager's photo in front) to Recently Deleted, with Undo in
   * the toast; they leave the list shown at once. Resolves to whether they went.
   * @param {number[]} [ids]
   */
  async trash(ids) {
    const chosen = !ids;
    const gone = ids ?? [...this.selected];
    try {
      const { batch, items } = await trashPhotos(gone);
      if (chosen) this.setSelecting(false);
      this.library.drop(gone);
      this.library.resync();
      const n = items.length;
      this.toast.show(`Deleted ${n === 1 ? '1 photo' : `${n} photos`}`, batch ? {
        label: 'Undo',
        run: async () => {
          try {
            await restoreFromTrash({ batch });
            this.toast.show('Restored');
            this.library.resync();
          } catch (error) {
            this.toast.show(`Could not undo (${describe(error)}).`);
          }
        },
      } : undefined);
      return true;
    } catch (error) {
      this.toast.show(`Could not delete the photos (${describe(error)}).`);
      return false;
    }
  }

  destroy() { this.listeners.destroy(); }
}

/** A short message at the bottom of the screen, with one action (Undo) for a few seconds. */
export class UndoToast {
  /** @param {HTMLElement} root `#undo-toast` */
  constructor(root) {
    this.root = root;
    this.text = element(root, '.undo-text', HTMLElement);
    this.button = element(root, '.undo-action', HTMLButtonElement);
    this.listeners = new Listeners();
    this.timer = 0;
    /** @type {(() => void) | null} */
    this.action = null;
    this.listeners.on(this.button, 'click', () => {
      const action = this.action;
      this.hide();
      action?.();
    });
  }

  /**
   * @param {string} message
   * @param {{ label: string, run: () => void }} [action]
   */
  show(message, action) {
    this.text.textContent = message;
    this.action = action?.run ?? null;
    this.button.hidden = !action;
    this.button.textContent = action?.label ?? '';
    this.root.hidden = false;
    if (this.timer) this.listeners.clear(this.timer);
    this.timer = this.listeners.timeout(() => this.hide(), action ? 8000 : 3000);
  }

  hide() {
    this.root.hidden = true;
    this.action = null;
  }

  destroy() { this.listeners.destroy(); }
}

/** @param {unknown} error */
function describe(error) {
  if (statusOf(error) === 403) return 'only allowed on the machine the server runs on';
  return error instanceof Error ? error.message : String(error);
}
