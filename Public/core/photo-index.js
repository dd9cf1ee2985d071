// @ts-check
// The library as the page knows it: the summary (every id, aspect ratio and day, a few bytes a
// photo, in the order of the list: by date taken) and the records of the photos someone is near,
// fetched a block at a time, kept up to date by the server's events. It is also the sequence the
// pager and the zoom view read (count, indexOf, at, peek, subscribe: see photo-sequence.js), over
// the paged API. Its scope is the whole library, one album or one folder (`setScope`).

import { getPhoto, getSummary, listPage, statusOf } from './api.js';
import { changedIds } from './live-events.js';
import { listOf, photoHash } from './routes.js';

/** @typedef {import('./api.js').Photo} Photo */
/** @typedef {import('./api.js').Summary} Summary */
/** @typedef {import('./api.js').PhotoChanges} PhotoChanges */
/** @typedef {import('./photo-sequence.js').PhotoSequence} PhotoSequence */
/** @typedef {{ structural: boolean, ids?: number[] }} ChangeDetail what a `change` event says */

/** Photos per fetched block: about a screen and a half of a desktop grid. */
const BLOCK = 100;
/** Blocks fetched at once; the rest wait, and are dropped when scrolled past. */
const PARALLEL = 2;
/** Records kept, the least recently fetched going first: memory stays the same at any size. */
const KEEP = 3000;
const DAY = 86_400_000;
/** Least time between two fetches of the summary that events asked for (dates still being read). */
const RELOAD_MS = 1000;

/**
 * Emits `change` (a CustomEvent whose detail is a ChangeDetail) when photos are added, removed or
 * changed, and `records` when fetched records arrive.
 * @implements {PhotoSequence}
 */
export class PhotoIndex extends EventTarget {
  constructor() {
    super();
    // Typed arrays: 12 bytes a photo, outside the garbage-collected heap.
    this.ids = new Int32Array(0);
    this.ratios = new Float32Array(0);
    this.days = new Int32Array(0);
    /** @type {Map<number, Photo>} records by id, in the order of their last use */
    this.records = new Map();
    /** @type {Map<number, number>} id → epoch its record was fetched or pushed in */
    this.epochs = new Map();
    this.epoch = 0; // bumped after a gap in the events: older records are shown but fetched again
    /** @type {string | null} */
    this.etag = null;
    /** @type {Map<number, 'loading' | 'done'>} */
    this.blocks = new Map();
    /** @type {number[]} blocks waiting for their turn */
    this.waiting = [];
    this.inFlight = 0;
    /** @type {[number, number]} the first and last block wanted */
    this.wanted = [0, -1];
    this.generation = 0; // bumped when block boundaries move, so late answers are not mistaken
    /** @type {Map<number, number>} id → position */
    this.positions = new Map();
    /** @type {string | null} the list shown ('/albums/2', '/folders/5'), or null for the whole library */
    this.list = null;
    this.pendingResync = false;
    /** @type {number | null} */
    this.reloadTimer = null;
    /** @type {number | null} */
    this.lastReload = null;
  }

  /** The API path of the list: /photos, /albums/{id} or /folders/{id}. */
  get base() { return this.list ?? '/photos'; }

  /** What the page's URLs of this list start with after `#`: '', '/albums/{id}' or '/folders/{id}'. */
  get hashPrefix() { return this.list ?? ''; }

  /**
   * The URL of photo `id` in this list (the library's, an album's or a folder's), or of its zoom view.
   * @param {number} id
   * @param {boolean} [zoom]
   */
  photoHash(id, zoom = false) { return photoHash(this.hashPrefix, id, zoom); }

  /**
   * Shows the whole library (null), one album or one folder; resolves once its summary is loaded.
   * @param {string | null} list
   */
  async setScope(list) {
    if (list === this.list && this.etag) return;
    if (list !== this.list) {
      // Another list: nothing of this one is shown meanwhile. (The first load keeps the page as
      // tall as it was until the summary is in, so the browser can put the scroll back.)
      this.list = list;
      this.ids = new Int32Array(0);
      this.ratios = new Float32Array(0);
      this.days = new Int32Array(0);
      this.positions = new Map();
      this.records.clear();
      this.epochs.clear();
      this.etag = null;
      this.forgetBlocks();
      this.emit('change', { structural: true });
    }
    // An album asked for by its id that is not there (never was, or holds no photos now) is an error.
    await this.load(false);
  }

  /** Photos in the library. */
  get count() { return this.ids.length; }

  /**
   * The position of a photo in the list, or -1.
   * @param {number} id
   */
  position(id) { return this.positions.get(id) ?? -1; }

  /**
   * The record at a position when fetched, else null.
   * @param {number} i
   */
  recordAt(i) { return this.records.get(this.ids[i]) ?? null; }

  // The sequence the pager and the zoom view read (photo-sequence.js).

  /**
   * Promise of the position of photo `id`, or -1.
   * @param {number} id
   */
  indexOf(id) { return this.positionOf(id); }

  /**
   * The Photo at `index` if it is at hand now, else undefined.
   * @param {number} index
   */
  peek(index) { return this.recordAt(index) ?? undefined; }

  /**
   * `listener()` whenever photos are added, removed or changed; returns the unsubscribe.
   * @param {() => void} listener
   */
  subscribe(listener) {
    const handler = () => listener();
    this.addEventListener('change', handler);
    return () => this.removeEventListener('change', handler);
  }

  /**
   * The photo's date, as a Date (UTC day), or null.
   * @param {number} i
   */
  dateAt(i) { return i >= 0 && i < this.days.length ? new Date(this.days[i] * DAY) : null; }

  /**
   * Fetches the summary; false when it had not changed.
   * @param {boolean} [goneIsEmpty] an album that has no summary (emptied meanwhile) is shown empty
   */
  async load(goneIsEmpty = true) {
    const list = this.list;
    /** @type {Summary | null} */
    const summary = await getSummary(this.etag, this.base).catch((error) => {
      // An album emptied meanwhile has no summary any more: it is shown empty.
      if (goneIsEmpty && list !== null && statusOf(error) === 404) return { total: 0, idRuns: [], ratios: [], days: [], etag: null };
      throw error;
    });
    if (!summary || list !== this.list) return false;
    const ids = new Int32Array(summary.total);
    const positions = new Map();
    let n = 0;
    for (const [first, count] of summary.idRuns) {
      for (let k = 0; k < count; k++) {
        positions.set(first + k, n);
        ids[n++] = first + k;
      }
    }
    this.ids = ids;
    this.positions = positions;
    this.ratios = Float32Array.from(summary.ratios);
    this.days = Int32Array.from(summary.days);
    this.etag = summary.etag;
    this.forgetBlocks();
    this.emit('change', { structural: true });
    return true;
  }

  /**
   * Photos this page just took out of the list (sent to the trash, moved out of the album shown):
   * gone at once, before the server's summary says so (resync() then asks it).
   * @param {number[]} ids
   */
  drop(ids) {
    const gone = new Set(ids.filter((id) => this.positions.has(id)));
    if (!gone.size) return;
    const kept = [];
    for (let i = 0; i < this.ids.length; i++) if (!gone.has(this.ids[i])) kept.push(i);
    const { ids: oldIds, ratios, days } = this;
    this.ids = Int32Array.from(kept, (i) => oldIds[i]);
    this.ratios = Float32Array.from(kept, (i) => ratios[i]);
    this.days = Int32Array.from(kept, (i) => days[i]);
    this.positions = new Map();
    this.ids.forEach((id, i) => this.positions.set(id, i));
    for (const id of gone) { this.records.delete(id); this.epochs.delete(id); }
    this.forgetBlocks();
    this.emit('change', { structural: true });
  }

  forgetBlocks() {
    this.blocks.clear();
    this.waiting = [];
    this.generation += 1;
  }

  /**
   * Asks for the records of positions first…last; they arrive as a `records` event.
   * @param {number} first
   * @param {number} last
   */
  want(first, last) {
    first = Math.max(0, first);
    last = Math.min(this.count - 1, last);
    this.wanted = [Math.floor(first / BLOCK), Math.floor(last / BLOCK)];
    this.waiting = this.waiting.filter((b) => b >= this.wanted[0] && b <= this.wanted[1]);
    for (let b = this.wanted[0]; b <= this.wanted[1]; b++) {
      if (this.blocks.has(b) || this.waiting.includes(b) || this.blockComplete(b)) continue;
      this.waiting.push(b);
    }
    this.pump();
  }

  /** @param {number} b */
  blockComplete(b) {
    const end = Math.min(this.count, (b + 1) * BLOCK);
    for (let i = b * BLOCK; i < end; i++) if (this.epochs.get(this.ids[i]) !== this.epoch) return false;
    return true;
  }

  pump() {
    while (this.inFlight < PARALLEL && this.waiting.length) {
      const b = /** @type {number} */ (this.waiting.shift());
      if (b < this.wanted[0] || b > this.wanted[1]) continue;
      this.fetchBlock(b);
    }
  }

  /** @param {number} b */
  async fetchBlock(b) {
    const generation = this.generation;
    this.blocks.set(b, 'loading');
    this.inFlight += 1;
    try {
      await this.fetchRange(b * BLOCK, BLOCK);
      if (generation === this.generation) this.blocks.set(b, 'done');
      this.emit('records', {});
    } catch {
      if (generation === this.generation) this.blocks.delete(b); // asked again on the next scroll
    } finally {
      this.inFlight -= 1;
      this.pump();
    }
  }

  /**
   * Fetches the records of `count` photos from position `start` (one request, up to 1,000).
   * @param {number} start
   * @param {number} count
   */
  async fetchRange(start, count) {
    const after = start > 0 ? this.ids[start - 1] : null;
    const page = await listPage({ after, limit: Math.min(1000, count), base: this.base });
    for (const photo of page.photos) this.keep(photo);
    return page.photos;
  }

  /** @param {Photo} photo */
  keep(photo) {
    this.records.delete(photo.id); // to the end: the Map's order is the order of use
    this.records.set(photo.id, photo);
    this.epochs.set(photo.id, this.epoch);
    if (this.records.size <= KEEP) return;
    for (const id of this.records.keys()) {
      if (this.records.size <= KEEP * 0.9) break;
      this.records.delete(id);
      this.epochs.delete(id);
      const i = this.position(id);
      if (i >= 0) this.blocks.delete(Math.floor(i / BLOCK)); // fetched again when wanted
    }
  }

  /**
   * The record at a position, fetched when needed.
   * @param {number} i
   */
  async at(i) {
    if (i < 0 || i >= this.count) return null;
    if (!this.recordAt(i)) await this.fetchRange(i, 1);
    return this.recordAt(i);
  }

  /**
   * The records of positions start…end − 1, in order (one request for up to 1,000).
   * @param {number} start
   * @param {number} end
   */
  async slice(start, end) {
    start = Math.max(0, start);
    end = Math.min(this.count, end);
    let missing = false;
    for (let i = start; i < end && !missing; i++) missing = !this.records.has(this.ids[i]);
    if (missing) await this.fetchRange(start, end - start);
    const photos = [];
    for (let i = start; i < end; i++) {
      const photo = this.recordAt(i);
      if (photo) photos.push(photo);
    }
    return photos;
  }

  /**
   * The position of a photo, asking the server when the summary does not have it (yet); -1 when it is not there.
   * @param {number} id
   */
  async positionOf(id) {
    const i = this.position(id);
    if (i >= 0) return i;
    try {
      const photo = await getPhoto(id);
      this.keep(photo);
      await this.load();
      return this.position(id);
    } catch {
      return -1;
    }
  }

  /**
   * The photo's full record (examined by the server when it had not been).
   * @param {number} id
   */
  async get(id) {
    const photo = await getPhoto(id);
    this.keep(photo);
    const i = this.position(id);
    if (i >= 0 && photo.width > 0 && photo.height > 0) this.ratios[i] = photo.width / photo.height;
    return photo;
  }

  /**
   * Follows the server's events (core/live-events.js) for as long as the page lives.
   * @param {import('./live-events.js').LiveEvents} live
   */
  follow(live) {
    // A stream started (the page's first, the grid back from a photo, a hidden tab) missed what
    // happened while none was open: a restore, an upload, another window's change, even between
    // the list's first answer and the first stream. The summary is asked for again (a 304 when
    // nothing changed, and then nothing is redrawn).
    live.addEventListener('open', (e) => {
      const kind = /** @type {CustomEvent<import('./live-events.js').OpenKind>} */ (e).detail;
      if (kind === 'reconnected') this.resync();
      else this.load().catch(() => { this.pendingResync = true; });
    });
    live.addEventListener('hello', () => { if (this.pendingResync) this.resync(); });
    live.addEventListener('photos', (e) => this.apply(JSON.parse(/** @type {MessageEvent<string>} */ (e).data)));
    live.addEventListener('reset', () => this.resync());
    // Photos put into the album shown or taken out of it (here or in another window): its list again.
    live.addEventListener('albums', (e) => {
      const shown = listOf(this.list), ids = changedIds(e);
      if (shown?.kind === 'albums' && (ids === null || ids.includes(shown.id))) this.reloadSoon();
    });
  }

  /** After a gap in the events: the summary again, and records fetched afresh as they are needed. */
  async resync() {
    this.pendingResync = false;
    try {
      // Records on screen stay shown until their blocks are fetched again.
      this.epoch += 1;
      const changed = await this.load();
      this.forgetBlocks();
      if (!changed) this.emit('change', { structural: false });
    } catch {
      this.pendingResync = true;
    }
  }

  /**
   * One batch of events: {added, changed, removed, total}. Records are updated in place; a photo
   * added, removed or dated anew moves others in the order, which only the server knows, so the
   * summary is fetched again (at most once a second while dates are being read).
   * @param {PhotoChanges} changes
   */
  apply({ added = [], changed = [], removed = [] }) {
    // An album or a folder learns from a reload whether a photo added is one of its own, and a
    // folder whether a photo changed was moved into it or out of it.
    let reorder = removed.length > 0 || added.length > 0 || (this.list !== null && changed.length > 0);
    for (const id of removed) {
      this.records.delete(id);
      this.epochs.delete(id);
    }
    for (const photo of [...added, ...changed]) {
      const i = this.position(photo.id);
      if (this.list !== null && i < 0) continue; // another list's
      this.keep(photo);
      if (i >= 0) {
        this.ratios[i] = ratio(photo);
        if (this.days[i] !== dayOf(photo)) reorder = true;
      } else {
        reorder = true;
      }
    }
    if (reorder) this.reloadSoon();
    this.emit('change', { structural: false, ids: [...added, ...changed].map((p) => p.id).concat(removed) });
  }

  reloadSoon() {
    if (this.reloadTimer) return;
    const wait = Math.max(0, (this.lastReload ?? 0) + RELOAD_MS - performance.now());
    this.reloadTimer = window.setTimeout(async () => {
      this.lastReload = performance.now();
      try { await this.load(); } catch { this.pendingResync = true; }
      this.reloadTimer = null;
    }, wait);
  }

  /**
   * @param {'change' | 'records'} type
   * @param {ChangeDetail | {}} detail
   */
  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }
}

/**
 * The day a photo was taken, as the summary counts days: since 1970-01-01 on its own clock.
 * @param {Photo} photo
 */
function dayOf(photo) {
  return Math.floor(Date.parse((photo.date || '').replace(/Z$/, '') + 'Z') / DAY);
}

/** @param {Photo} photo */
function ratio(photo) {
  return photo.width > 0 && photo.height > 0 ? Math.round((photo.width / photo.height) * 1000) / 1000 : 0;
}
