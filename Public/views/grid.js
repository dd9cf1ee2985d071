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
//
// Its density (how many columns, or Months and Years at its widest) is one choice shared by every
// grid (GridDensity): pinched, Ctrl+wheeled or stepped with + and −, the grid is laid out again
// with the photo under the fingers (the mouse, the screen's centre) where it was. Rows are counted
// from a `shift` of empty places before the first photo, so that photo keeps its column too. When
// the order changes under an open grid (dates read during a first ingest move photos), the photo
// at the screen's centre is kept in place the same way, and the grid does not jump.

import { GridZoomGestures } from '../gestures/grid-zoom.js';
import { COLUMN_STEPS, GridDensity } from '../ui/grid-density.js';
import { ImageRetry } from '../util/image-retry.js';
import { Listeners } from '../util/listeners.js';
import { failureText, shortFailure } from '../ui/photo-info.js';
import { GridSummary } from './grid-summary.js';
import { cellImageURL } from '../photo/pyramid.js';

/** How far the cells follow a pinch, larger or smaller, before they lift (the density chosen then follows the fingers all the way). */
const PINCH_MOST = 4;

/** @typedef {import('../core/api.js').Photo} Photo */
/**
 * What the grid draws: photos in order, their records fetched as they are wanted (the library's
 * PhotoIndex, a search's SearchResults). It emits `change` (detail: ChangeDetail) and `records`.
 * @typedef {EventTarget & { count: number, ids: Int32Array, days: Int32Array, list: string | null, dateAt: (i: number) => Date | null,
 *   recordAt: (i: number) => Photo | null, at: (i: number) => Promise<Photo | null>, want: (first: number, last: number) => void,
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
/**
 * A photo to keep at a point on screen while the grid is laid out anew: its position, the point,
 * and where in its cell the point is (0–1 across and down).
 * @typedef {{ position: number, x: number, y: number, across: number, down: number }} PlaceKept
 */
/** @typedef {import('../ui/grid-density.js').Density} Density */
/** @typedef {import('../ui/grid-density.js').DensityChange} DensityChange */

/** Rows drawn above and below the screen, so a fling rarely reaches an empty row. */
const OVERSCAN_ROWS = 4;
/**
 * Faster than this (screens a frame), the grid is being travelled through, not looked at: cells
 * are placed and named but no thumbnail is asked for, until the scrolling slows or stops.
 */
const TRAVEL_SCREENS_PER_FRAME = 0.5;
/** Still for this long (ms), travelling ends. */
const SETTLE_MS = 90;
/** Cells narrower than this (CSS px) are too small for words: grid.css then shows none. */
const DENSE_CELL = 64;
const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export class PhotoGrid {
  /**
   * @param {HTMLElement} list the <ul>
   * @param {GridList} index the photos it shows
   * @param {{ months?: boolean, density?: GridDensity }} options `months`: the photos are in the order
   *   taken, so the month at the top floats over the grid, it opens at the newest, and its widest
   *   densities are Months and Years (a search's results: none of these); `density`: the choice
   *   shared with the other grids
   */
  constructor(list, index, { months = true, density = new GridDensity() } = {}) {
    this.list = list;
    this.index = index;
    this.months = months;
    this.density = density;
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
    /** Empty places before the first photo (less than a row): what keeps a photo in its column. */
    this.shift = 0;
    /** Photos in the list when it was last laid out: more now, and it grew. */
    this.drawnCount = 0;
    /** True while a reorder the person chose is on its way (see showFromStart). */
    this.fromStart = false;
    /** True while a photo the person moved by hand is on its way to its place (see showInPlace). */
    this.inPlace = false;
    /** @type {Density | null} the density shown when a pinch began, null when none is on */
    this.pinchFrom = null;
    /** Where the pinch began (the fingers' centre), and how far they have scaled since. */
    this.pinchAt = { x: 0, y: 0 };
    this.pinchScale = 1;
    /** @type {HTMLElement | null} what the pinch scales (the photos, or Months or Years) */
    this.pinchTarget = null;
    /** The Months and Years, for a list in the order taken. */
    this.summary = months ? new GridSummary(list, index, this.listeners, (group) => this.showGroup(group.first)) : null;
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
      const src = cell.img.getAttribute('src');
      if (cell.photo && cell.photo.status !== 'failed' && src) cell.retry.failed(src);
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
      if (detail.structural) this.reordered(); else this.refill(detail.ids);
    });
    on.on(density, 'change', (e) => this.densityChanged(/** @type {CustomEvent<DensityChange>} */ (e).detail));
    const zoomArea = list.parentElement ?? list;
    new GridZoomGestures(zoomArea, on, () => this.active && !zoomArea.closest('[hidden]'), {
      start: (point) => this.pinchStarted(point),
      pinch: (scale) => this.pinched(scale),
      end: () => this.pinchEnded(),
      step: (direction, point) => this.step(direction, point),
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

  /**
   * Columns, cell size and height from the list's width, its CSS properties and the density chosen.
   * @param {PlaceKept | null} [keep] a photo to keep where it is on screen
   * @param {{ atEndGrew?: boolean }} [options] whether to stay at the end, the list having grown there
   */
  layout(keep = null, options = {}) {
    const { atEndGrew = false } = options;
    if (!this.active || (this.list.parentElement ?? this.list).closest('[hidden]')) return;
    const summary = this.months ? this.density.summary : null;
    this.list.hidden = summary !== null;
    if (summary && this.summary) {
      this.showSummary(summary, keep);
      return;
    }
    this.summary?.hide();
    const style = getComputedStyle(this.list);
    const number = (/** @type {string} */ name, /** @type {number} */ fallback) => Number.parseFloat(style.getPropertyValue(name)) || fallback;
    const width = this.list.clientWidth - number('padding-left', 0) - number('padding-right', 0);
    const gap = number('--grid-gap', 2);
    const minimum = number('--grid-min-cell', 96);
    const most = number('--grid-max-columns', 0);
    const fit = Math.max(1, Math.floor((width + gap) / (minimum + gap)));
    // A search's results at Months or Years show the densest photos instead.
    const chosen = this.density.columns ?? (this.density.summary ? COLUMN_STEPS[COLUMN_STEPS.length - 1] : null);
    const columns = chosen ?? (most > 0 ? Math.min(most, fit) : fit);
    if (columns !== this.columns) this.shift = 0;
    this.columns = columns;
    this.drawnCount = this.index.count;
    this.gap = gap;
    this.cell = (width - gap * (columns - 1)) / columns;
    this.list.classList.toggle('grid-dense', this.cell < DENSE_CELL);
    this.left = number('padding-left', 0);
    if (keep) this.shift = mod(Math.floor(keep.x >= 0 ? this.columnAtX(keep.x) : 0) - keep.position, columns);
    const height = Math.ceil((this.index.count + this.shift) / columns) * this.rowHeight;
    this.list.style.height = `${Math.max(0, height - gap) + number('padding-bottom', 0)}px`;
    // Held at the end (the newest) while it grows there, as Photos is: a photo arriving is seen.
    if (atEndGrew) window.scrollTo(0, document.documentElement.scrollHeight);
    else if (keep) window.scrollTo(0, this.listTop() + this.yOf(keep.position) + keep.down * this.cell - keep.y);
    // The drawn cells are moved and refilled in place, never rebuilt: one of them may have the focus.
    for (const [i, cell] of this.cells) {
      if (i >= this.index.count) continue;
      this.place(cell, i);
      this.fill(cell, i);
    }
    this.update();
  }

  /**
   * Months or Years in place of the photos; the month (or year) of `keep` where its photo was.
   * @param {'months' | 'years'} kind
   * @param {PlaceKept | null} keep
   */
  showSummary(kind, keep) {
    const summary = /** @type {GridSummary} */ (this.summary);
    for (const [i, cell] of this.cells) { this.cells.delete(i); this.release(cell); }
    this.list.style.height = '0px';
    if (this.monthLabel) { this.month = ''; this.monthLabel.hidden = true; }
    const fresh = !summary.shown || summary.kind !== kind;
    summary.show(kind);
    if (keep) summary.reveal(keep.position, keep.y);
    else if (fresh) window.scrollTo(0, document.documentElement.scrollHeight);
  }

  /** What is shown: the columns, or Months or Years. */
  get shown() {
    return this.summary?.shown && this.density.summary ? this.density.summary : this.columns;
  }

  /**
   * The photo at a point on screen, to keep there: in the photos, the one drawn there (or the
   * nearest); in Months or Years, the first of the card's.
   * @param {{ x: number, y: number }} point
   * @returns {PlaceKept | null}
   */
  placeAt(point) {
    if (!this.index.count) return null;
    if (this.summary?.shown) {
      const group = this.summary.groupAt(point);
      return group ? { position: group.first, x: point.x, y: point.y, across: 0.5, down: 0.5 } : null;
    }
    const y = point.y - this.list.getBoundingClientRect().top;
    const row = Math.max(0, Math.floor(y / this.rowHeight));
    const column = Math.max(0, Math.min(this.columns - 1, Math.floor(this.columnAtX(point.x))));
    const position = Math.max(0, Math.min(this.index.count - 1, row * this.columns + column - this.shift));
    const cellX = this.list.getBoundingClientRect().left + this.left + mod(position + this.shift, this.columns) * (this.cell + this.gap);
    const across = Math.max(0, Math.min(1, (point.x - cellX) / this.cell));
    const down = Math.max(0, Math.min(1, (y - this.yOf(position)) / this.cell));
    return { position, x: point.x, y: point.y, across, down };
  }

  /**
   * The column (a fraction: 2.5 is the middle of the third) at x on screen.
   * @param {number} x
   */
  columnAtX(x) {
    const left = this.list.getBoundingClientRect().left + this.left;
    return Math.max(0, Math.min(this.columns - 0.5, (x - left) / (this.cell + this.gap)));
  }

  /**
   * Another density chosen (here or in another grid): laid out anew, what was under its point
   * kept there, or the position asked for shown at the top.
   * @param {DensityChange} change
   */
  densityChanged({ point, position }) {
    if (!this.active) return;
    if (position !== null) {
      this.layout({ position, x: -1, y: 0, across: 0, down: 0 });
      return;
    }
    const at = point ?? { x: window.innerWidth / 2, y: window.innerHeight / 2 };
    this.layout(this.placeAt(at));
  }

  /**
   * One step denser (+1) or larger (−1), keeping the photo at `point` (the screen's centre) there.
   * @param {1 | -1} direction
   * @param {{ x: number, y: number } | null} [point]
   */
  step(direction, point = null) {
    this.density.set(GridDensity.next(this.shown, direction, this.months), { point });
  }

  /**
   * Two fingers down: what is shown (the photos, or Months or Years) scales with them from here.
   * @param {{ x: number, y: number }} point
   */
  pinchStarted(point) {
    this.pinchFrom = this.shown;
    this.pinchAt = point;
    this.pinchScale = 1;
    this.pinchTarget = this.summary?.shown ? this.summary.root : this.list;
    const box = this.pinchTarget.getBoundingClientRect();
    this.pinchTarget.style.transformOrigin = `${point.x - box.left}px ${point.y - box.top}px`;
  }

  /**
   * A pinch going on: the cells grow and shrink with the fingers, as in Photos (one composited
   * scale, nothing laid out anew); the density changes once they lift.
   * @param {number} scale the fingers' distance over the one at the start
   */
  pinched(scale) {
    if (this.pinchFrom === null || !this.pinchTarget) return;
    this.pinchScale = scale;
    this.pinchTarget.style.transform = `scale(${Math.min(PINCH_MOST, Math.max(1 / PINCH_MOST, scale))})`;
  }

  /** The fingers lifted: the density nearest to the columns it started from scaled by them, the photo under them kept there. */
  pinchEnded() {
    if (this.pinchTarget) this.pinchTarget.style.transform = this.pinchTarget.style.transformOrigin = '';
    this.pinchTarget = null;
    const from = this.pinchFrom;
    this.pinchFrom = null;
    if (from === null) return;
    const density = GridDensity.nearest(GridDensity.worth(from) / this.pinchScale, this.months);
    if (density !== this.shown) this.density.set(density, { point: this.pinchAt });
  }

  /**
   * A month or a year chosen in Months or Years: its photos, from the first, at the top of the
   * screen, at the columns shown before (the style sheet's if none was chosen).
   * @param {number} first
   */
  showGroup(first) {
    this.density.set(this.density.lastColumns, { position: first });
  }

  /**
   * The list is being reordered by the person's own choice (an album sorted, photos moved to its
   * start): once `reordering` brings the new order, it is shown from its first photo at the top,
   * in full rows, not with the empty places that keep a photo where it was when the order
   * changes from elsewhere.
   * @param {Promise<void>} reordering
   */
  showFromStart(reordering) {
    this.fromStart = true;
    reordering.finally(() => { this.fromStart = false; });
  }

  /**
   * A photo is being moved by hand (dragged, or moved with the keys) to another place of the
   * list: once `reordering` brings the new order, the grid stays where it is, in full rows, so
   * only the photos between its old and new places move, and not every photo by the empty places
   * that would keep the photo at the screen's centre in its column.
   * @param {Promise<void>} reordering
   */
  showInPlace(reordering) {
    this.inPlace = true;
    reordering.finally(() => { this.inPlace = false; });
  }

  /**
   * The list changed under the grid: at the end while it grew there, it stays at the end;
   * otherwise the photo at the screen's centre stays where it is, whatever moved around it.
   */
  reordered() {
    if (this.fromStart) {
      this.layout({ position: 0, x: -1, y: 0, across: 0, down: 0 });
      return;
    }
    if (this.inPlace) {
      this.shift = 0;
      this.layout();
      return;
    }
    const grew = this.index.count > this.drawnCount;
    const atEnd = this.months && this.atEnd() && window.scrollY > 0;
    const centre = { x: window.innerWidth / 2, y: window.innerHeight / 2 };
    // Where the centre's photo was is read from the cells drawn before the change.
    const before = this.summary?.shown || !this.drawnCount ? null : this.placeAt(centre);
    const id = before ? this.cells.get(before.position)?.id : undefined;
    const position = id ? this.index.position(id) : -1;
    const keep = before && position >= 0 && !(atEnd && grew) ? { ...before, position } : null;
    this.layout(keep, { atEndGrew: atEnd && !keep });
  }

  get rowHeight() { return this.cell + this.gap; }

  /**
   * The top of the row of position i, in list coordinates.
   * @param {number} i
   */
  yOf(i) { return Math.floor((Math.max(0, i) + this.shift) / this.columns) * this.rowHeight; }

  /**
   * The first position of the row at y (list coordinates).
   * @param {number} y
   */
  positionAtY(y) {
    const rows = Math.ceil((this.index.count + this.shift) / this.columns);
    const row = Math.max(0, Math.min(rows - 1, Math.floor(y / this.rowHeight)));
    return Math.max(0, row * this.columns - this.shift);
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
    // A pixel in: a row scrolled to the top lands there to within the screen's rounding.
    const top = window.scrollY - this.listTop() + 1;
    const date = this.index.count ? this.index.dateAt(this.positionAtY(Math.max(0, top))) : null;
    const month = date && !Number.isNaN(date.getTime()) && date.getTime() > 0 ? monthFormat.format(date) : '';
    if (month === this.month) return;
    this.month = month;
    this.monthLabel.textContent = month;
    this.monthLabel.hidden = month === '';
  }

  update() {
    if (!this.active || this.summary?.shown) return;
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
    const x = this.left + ((i + this.shift) % this.columns) * (this.cell + this.gap);
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
    // A cell grown past its thumbnail (a density of a column or two) asks for a larger image.
    const src = photo ? cellImageURL(photo, this.cell * (window.devicePixelRatio || 1)) : null;
    const same = cell.photo === photo && cell.id === id;
    if (same && (!photo || photo.status === 'failed' || cell.img.getAttribute('src') === src)) return;
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
    } else if (src && img.getAttribute('src') !== src) {
      // The same photo at another size keeps what it shows until the new image is drawn over it.
      if (!same || link.classList.contains('broken')) link.classList.remove('broken', 'drawn');
      img.src = src;
    } else if (src && link.classList.contains('broken')) {
      // The same image failed before and the photo's record has changed since (its pyramid
      // built, say): ask again now rather than at the next retry.
      cell.retry.now(src);
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
    if (this.summary?.shown) return null;
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
    // In Months or Years, the card of the anchor's month (or year) at the middle of the screen.
    if (this.summary?.shown) {
      this.summary.reveal(i, window.innerHeight / 2);
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

/**
 * a mod n, never negative.
 * @param {number} a
 * @param {number} n
 */
function mod(a, n) { return ((a % n) + n) % n; }
