// @ts-check
// The grid: square thumbnails that are real links to each photo's page, with the photo's state
// (processing, failed and why) shown on the cell instead of being hidden.
//
// Windowed: only the rows near the screen exist, as absolutely placed cells that are reused as
// the page scrolls, so the DOM, its listeners and the memory stay the same at 10 photos or
// 100,000. The layout (columns, cell size, gap) comes from CSS custom
// properties on the list.
//
// The photos come in the order they were taken, oldest at the top and newest at the bottom, and
// the grid opens at the bottom, as Photos does (restore()). It is one continuous grid, as Photos'
// All Photos: whatever the dates, every row is full (a month is not a row of its own), and the
// month at the top of the screen floats over it as a label. So a position's place is a division.
// A list in another order (a search's results, best match first) is drawn without the month
// label and opens at its top.

import { ImageRetry } from '../util/image-retry.js';
import { Listeners } from '../util/listeners.js';
import { failureText, shortFailure } from '../ui/photo-info.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/**
 * What the grid draws: photos in order, their records fetched as they are wanted (the library's
 * PhotoIndex, a search's SearchResults). It emits `change` (detail: ChangeDetail) and `records`.
 * @typedef {EventTarget & { count: number, ids: Int32Array, days: Int32Array, list: string | null, dateAt: (i: number) => Date | null,
 *   recordAt: (i: number) => Photo | null, want: (first: number, last: number) => void,
 *   position: (id: number) => number, photoHash: (id: number) => string }} GridList
 */
/** @typedef {import('../core/photo-index.js').ChangeDetail} ChangeDetail */
/**
 * One drawn cell, reused for another photo as the grid scrolls.
 * @typedef {object} Cell
 * @property {HTMLLIElement} item
 * @property {HTMLAnchorElement} link
 * @property {HTMLImageElement} img
 * @property {HTMLSpanElement} title
 * @property {HTMLSpanElement | null} badge
 * @property {HTMLSpanElement | null} error
 * @property {Photo | null | undefined} photo the record drawn (null: only its link; undefined: nothing yet)
 * @property {number} id
 * @property {ImageRetry} retry
 * @property {number} [size] the cell size it was last given
 * @property {number} [setSize] the aria-setsize it was last given
 */
/**
 * Where the grid was scrolled: the photo at the top left, how far its row was under the top.
 * @typedef {{ id: number, offset: number, list: string | null }} GridAnchor
 */

/** Rows drawn above and below the screen, so a fling rarely reaches an empty row. */
const OVERSCAN_ROWS = 4;
/**
 * Faster than this (screens a frame), the grid is being travelled through, not looked at: cells
 * are placed and named but no thumbnail is asked for, until the scrolling slows or stops.
 */
const TRAVEL_SCREENS_PER_FRAME = 0.5;
/** Still for this long (ms), travelling ends. */
const SETTLE_MS = 90;
const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export class PhotoGrid {
  /**
   * @param {HTMLElement} list the <ul>
   * @param {GridList} index the photos it shows
   * @param {{ months?: boolean }} options `months`: the photos are in the order taken, so the month at
   *   the top floats over the grid and it opens at the newest (a search's results: neither)
   */
  constructor(list, index, { months = true } = {}) {
    this.list = list;
    this.index = index;
    this.months = months;
    this.listeners = new Listeners();
    /** @type {Map<number, Cell>} position → cell */
    this.cells = new Map();
    /** @type {Cell[]} */
    this.spare = [];
    /** @type {HTMLElement | null} the floating month label (the element before the list), its words */
    this.monthLabel = months && list.previousElementSibling instanceof HTMLElement
      && list.previousElementSibling.classList.contains('grid-month-label') ? list.previousElementSibling : null;
    this.month = '';
    this.columns = 1;
    this.cell = 100;
    this.gap = 0;
    this.top = 0;
    this.left = 0;
    this.settleTimer = 0;
    this.scheduled = false;
    this.active = true;
    this.travelling = false;
    this.lastScroll = { y: window.scrollY, t: performance.now() };
    /** @type {WeakMap<EventTarget, Cell>} <img> → its cell */
    this.cellOf = new WeakMap();
    const on = this.listeners;
    // One listener each, for every cell: a broken thumbnail marks its cell, and is asked for again
    // later unless its photo cannot be shown at all.
    on.on(list, 'error', (e) => {
      const cell = e.target && this.cellOf.get(e.target);
      if (!cell) return;
      cell.link.classList.add('broken');
      if (cell.photo && cell.photo.status !== 'failed') cell.retry.failed(cell.photo.thumbnail);
    }, { capture: true });
    on.on(list, 'load', (e) => {
      const cell = e.target && this.cellOf.get(e.target);
      if (!cell) return;
      cell.link.classList.remove('broken');
      cell.link.classList.add('drawn');
      cell.retry.reset();
    }, { capture: true });
    on.on(window, 'scroll', () => this.schedule(), { passive: true });
    on.observe(new ResizeObserver(() => this.layout())).observe(list);
    on.on(index, 'change', (e) => {
      const detail = /** @type {CustomEvent<ChangeDetail>} */ (e).detail;
      if (detail.structural) this.layout(); else this.refill(detail.ids);
    });
    on.on(index, 'records', () => this.refill());
    // Its cells and their pending retries go with it.
    on.add(() => {
      for (const cell of [...this.cells.values(), ...this.spare]) { cell.retry.reset(); cell.item.remove(); }
      this.cells.clear();
      this.spare = [];
    });
  }

  /**
   * Whether the grid is on screen; hidden, it draws nothing.
   * @param {boolean} active
   */
  setActive(active) {
    this.active = active;
    if (active) this.layout();
  }

  schedule() {
    if (this.scheduled || !this.active) return;
    this.scheduled = true;
    this.listeners.frame((t) => {
      this.scheduled = false;
      this.track(t);
      this.update();
    });
  }

  /**
   * Notices travel (very fast scrolling, a scrubber drag) and its end.
   * @param {number} t
   */
  track(t) {
    const y = window.scrollY;
    const frames = Math.max(1, (t - this.lastScroll.t) / 16.7);
    const speed = Math.abs(y - this.lastScroll.y) / frames / Math.max(1, window.innerHeight);
    this.lastScroll = { y, t };
    if (speed > TRAVEL_SCREENS_PER_FRAME) this.travelling = true;
    this.listeners.clear(this.settleTimer);
    if (this.travelling) {
      this.settleTimer = this.listeners.timeout(() => {
        this.travelling = false;
        this.refill();
        this.update();
      }, SETTLE_MS);
    }
  }

  /** Columns, cell size and height from the list's width and its CSS properties. */
  layout() {
    if (!this.active || this.list.closest('[hidden]')) return;
    const style = getComputedStyle(this.list);
    const number = (/** @type {string} */ name, /** @type {number} */ fallback) => Number.parseFloat(style.getPropertyValue(name)) || fallback;
    const width = this.list.clientWidth - number('padding-left', 0) - number('padding-right', 0);
    const gap = number('--grid-gap', 2);
    const minimum = number('--grid-min-cell', 96);
    const most = number('--grid-max-columns', 0);
    const fit = Math.max(1, Math.floor((width + gap) / (minimum + gap)));
    const columns = most > 0 ? Math.min(most, fit) : fit;
    this.columns = columns;
    this.gap = gap;
    this.cell = (width - gap * (columns - 1)) / columns;
    this.left = number('padding-left', 0);
    // Held at the end (the newest) while it grows, as Photos is: a photo arriving is seen.
    const atEnd = this.months && this.atEnd() && window.scrollY > 0;
    const height = Math.ceil(this.index.count / columns) * this.rowHeight;
    this.list.style.height = `${Math.max(0, height - gap) + number('padding-bottom', 0)}px`;
    if (atEnd && !this.atEnd()) window.scrollTo(0, document.documentElement.scrollHeight);
    // The drawn cells are moved and refilled in place, never rebuilt: one of them may have the focus.
    for (const [i, cell] of this.cells) {
      if (i >= this.index.count) continue;
      this.place(cell, i);
      this.fill(cell, i);
    }
    this.update();
  }

  get rowHeight() { return this.cell + this.gap; }

  /**
   * The top of the row of position i, in list coordinates.
   * @param {number} i
   */
  yOf(i) { return Math.floor(Math.max(0, i) / this.columns) * this.rowHeight; }

  /**
   * The first position of the row at y (list coordinates).
   * @param {number} y
   */
  positionAtY(y) {
    const rows = Math.ceil(this.index.count / this.columns);
    const row = Math.max(0, Math.min(rows - 1, Math.floor(y / this.rowHeight)));
    return row * this.columns;
  }

  /** The list's top in document coordinates. */
  listTop() { return this.list.getBoundingClientRect().top + window.scrollY; }

  /** Positions first…last of the rows on or near the screen. */
  range() {
    const top = window.scrollY - this.listTop();
    const margin = OVERSCAN_ROWS * this.rowHeight;
    const first = this.positionAtY(top - margin);
    const last = this.positionAtY(top + window.innerHeight + margin) + this.columns - 1;
    return [first, Math.min(this.index.count - 1, last)];
  }

  /** The month of the photos at the top of the screen, in the floating label. */
  updateMonth() {
    if (!this.monthLabel) return;
    const top = window.scrollY - this.listTop();
    const date = this.index.count ? this.index.dateAt(this.positionAtY(Math.max(0, top))) : null;
    const month = date && !Number.isNaN(date.getTime()) && date.getTime() > 0 ? monthFormat.format(date) : '';
    if (month === this.month) return;
    this.month = month;
    this.monthLabel.textContent = month;
    this.monthLabel.hidden = month === '';
  }

  update() {
    if (!this.active) return;
    this.updateMonth();
    const [first, last] = this.range();
    let lowest = Infinity;
    for (const [i, cell] of this.cells) {
      if (i < first || i > last) {
        this.cells.delete(i);
        this.release(cell);
      } else if (i < lowest) {
        lowest = i;
      }
    }
    // The cells stay in the document in the order of their photos (reading and Tab order): the
    // drawn ones are one run, so new ones go before it or after it.
    const before = this.cells.get(lowest)?.item ?? null;
    for (let i = first; i <= last; i++) {
      if (this.cells.has(i)) continue;
      const cell = this.spare.pop() ?? this.make();
      this.cells.set(i, cell);
      this.place(cell, i);
      this.fill(cell, i);
      if (i < lowest && before) this.list.insertBefore(cell.item, before); else this.list.appendChild(cell.item);
    }
    if (last >= first && !this.travelling) this.index.want(first, last);
  }

  /** @param {Cell} cell */
  release(cell) {
    cell.retry.reset();
    cell.item.remove();
    this.spare.push(cell);
  }

  /** @returns {Cell} */
  make() {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.className = 'cell';
    const img = document.createElement('img');
    img.alt = '';
    img.loading = 'lazy';
    img.decoding = 'async';
    img.width = 256;
    img.height = 256;
    const title = document.createElement('span');
    title.className = 'cell-title';
    link.append(img, title);
    item.appendChild(link);
    const cell = { item, link, img, title, badge: null, error: null, photo: undefined, id: 0, retry: new ImageRetry(img) };
    this.cellOf.set(img, cell);
    return cell;
  }

  /**
   * @param {Cell} cell
   * @param {number} i
   */
  place(cell, i) {
    const x = this.left + (i % this.columns) * (this.cell + this.gap);
    const y = this.yOf(i);
    // Only what differs is written: a style or attribute write costs a recalculation.
    if (cell.size !== this.cell) {
      cell.size = this.cell;
      cell.item.style.width = cell.item.style.height = `${this.cell}px`;
    }
    cell.item.style.transform = `translate(${x}px, ${y}px)`;
    cell.item.setAttribute('aria-posinset', String(i + 1));
    if (cell.setSize !== this.index.count) {
      cell.setSize = this.index.count;
      cell.item.setAttribute('aria-setsize', String(this.index.count));
    }
  }

  /**
   * Draws the photo at position i into a cell: its record when fetched, its link at least.
   * @param {Cell} cell
   * @param {number} i
   */
  fill(cell, i) {
    const id = this.index.ids[i];
    const photo = this.travelling ? null : this.index.recordAt(i);
    if (cell.photo === photo && cell.id === id) return;
    cell.retry.reset();
    cell.photo = photo;
    cell.id = id;
    const { link, img, title } = cell;
    // Ids start at 1: a 0 is a photo whose id is not known yet (a search's results further on).
    if (id) {
      link.href = this.index.photoHash(id);
      link.dataset.photoId = String(id);
    } else {
      link.removeAttribute('href');
      delete link.dataset.photoId;
    }
    if (!photo) {
      link.classList.remove('broken', 'drawn');
      img.removeAttribute('src');
      img.alt = '';
      title.textContent = '';
      this.setState(cell, null);
      return;
    }
    if (photo.status === 'failed') {
      // A photo that cannot be shown has no thumbnail either: asking would only log a 404.
      link.classList.remove('drawn');
      link.classList.add('broken');
      img.removeAttribute('src');
    } else if (img.getAttribute('src') !== photo.thumbnail) {
      link.classList.remove('broken', 'drawn');
      img.src = photo.thumbnail;
    } else if (link.classList.contains('broken')) {
      // The same thumbnail failed before and the photo's record has changed since (its pyramid
      // built, say): ask again now rather than at the next retry.
      cell.retry.now(photo.thumbnail);
    }
    // The link is named by its title; an alt saying it again would be read twice.
    title.textContent = photo.title;
    this.setState(cell, photo);
  }

  /**
   * @param {Cell} cell
   * @param {Photo | null} photo
   */
  setState(cell, photo) {
    const { link } = cell;
    const status = photo && photo.status !== 'ready' ? photo.status : null;
    if (!status) {
      cell.badge?.remove();
      cell.error?.remove();
      cell.badge = cell.error = null;
      link.removeAttribute('aria-label');
      return;
    }
    if (!cell.badge) {
      cell.badge = document.createElement('span');
      link.append(cell.badge);
    }
    cell.badge.className = `badge badge-${status}`;
    cell.badge.textContent = status === 'failed' ? 'Failed' : 'Processing…';
    cell.badge.title = photo?.error ? failureText(photo) : '';
    if (photo?.error) {
      if (!cell.error) {
        cell.error = document.createElement('span');
        cell.error.className = 'cell-error';
        link.insertBefore(cell.error, cell.badge);
      }
      cell.error.textContent = shortFailure(photo);
    } else {
      cell.error?.remove();
      cell.error = null;
    }
    if (photo) link.setAttribute('aria-label', `${photo.title} (${status === 'failed' ? failureText(photo) : status})`);
  }

  /**
   * Redraws the drawn cells whose records arrived or changed (all of them without `ids`).
   * @param {number[]} [ids]
   */
  refill(ids) {
    const only = ids ? new Set(ids) : null;
    for (const [i, cell] of this.cells) {
      if (!only || only.has(this.index.ids[i])) this.fill(cell, i);
    }
  }

  /**
   * The photo at the top left of the screen, and how far its row is scrolled under the top.
   * @returns {GridAnchor | null}
   */
  anchor() {
    const top = window.scrollY - this.listTop();
    const i = Math.min(this.index.count - 1, this.positionAtY(Math.max(0, top)));
    return i < 0 ? null : { id: this.index.ids[i], offset: top - this.yOf(i), list: this.index.list };
  }

  /**
   * Scrolls back to an anchor taken before (the same photo at the same place); without one for
   * this list (a first visit, another album), to the newest photos at the end, as Photos opens.
   * @param {GridAnchor | null} anchor
   */
  restore(anchor) {
    const i = anchor && (anchor.list ?? null) === this.index.list ? this.index.position(anchor.id) : -1;
    if (!anchor || i < 0) {
      if (this.months) this.scrollToEnd();
      return;
    }
    window.scrollTo(0, this.listTop() + this.yOf(i) + anchor.offset);
    this.update();
  }

  /** Scrolls to the end of the list: the newest photos, at the bottom. */
  scrollToEnd() {
    window.scrollTo(0, document.documentElement.scrollHeight);
    this.update();
  }

  /** Whether the screen shows the end of the list (within a few pixels): the grid then stays there as it grows. */
  atEnd() {
    return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 4;
  }

  /**
   * Scrolls just enough for the photo at position i to be on screen.
   * @param {number} i
   */
  reveal(i) {
    if (i < 0) return;
    const y = this.listTop() + this.yOf(i);
    if (y < window.scrollY) window.scrollTo(0, y);
    else if (y + this.cell > window.scrollY + window.innerHeight) window.scrollTo(0, y + this.cell - window.innerHeight);
    this.update();
  }

  /**
   * The link of the photo at position i, when drawn.
   * @param {number} i
   */
  linkAt(i) { return this.cells.get(i)?.link ?? null; }

  /**
   * Scrolls to a fraction (0–1) of the whole grid, as the scrubber asks.
   * @param {number} fraction
   */
  scrollToFraction(fraction) {
    const top = this.listTop();
    const height = this.list.offsetHeight - window.innerHeight;
    window.scrollTo(0, top + Math.max(0, Math.min(1, fraction)) * Math.max(0, height));
  }

  /** Where the screen is, as a fraction of the grid, and the position at the top of the screen. */
  progress() {
    const top = this.listTop();
    const height = this.list.offsetHeight - window.innerHeight;
    const fraction = height > 0 ? Math.max(0, Math.min(1, (window.scrollY - top) / height)) : 0;
    return { fraction, position: this.positionAtFraction(fraction) };
  }

  /**
   * The first position of the row shown at the top when scrolled to a fraction.
   * @param {number} fraction
   */
  positionAtFraction(fraction) {
    const height = Math.max(0, this.list.offsetHeight - window.innerHeight);
    return Math.max(0, Math.min(this.index.count - 1, this.positionAtY(fraction * height)));
  }

  /** Lets go of its cells, listeners, observers and timers. */
  destroy() { this.listeners.destroy(); }
}
