// @ts-check
// The photos a search found, as the page knows them: how many, the ids of those paged through
// so far and the records near the screen. The grid draws it as it draws the library (count, ids,
// recordAt, want; `change` and `records` events), and the pager and the zoom view page through
// it as their sequence (count, indexOf, at, peek, subscribe: see photo-sequence.js).
//
// The answer comes in the server's order (best match first), a page after a given photo, so the
// ids are learnt from the start onwards: a position far down is reached by pages of up to 1,000
// ids, and records that were let go are asked for again after the photo before them. Memory stays
// the same at any size: 4 bytes an id, and at most KEEP records.

import { searchPhotos } from './api.js';
import { searchPhotoHash } from './routes.js';

/** @typedef {import('./api.js').Photo} Photo */
/** @typedef {import('./api.js').SearchPage} SearchPage */
/** @typedef {import('./photo-sequence.js').PhotoSequence} PhotoSequence */

/** Records asked for when a search is run: about a screen and a half of a desktop grid. */
const FIRST = 100;
/** The most records one request asks for (the server's limit). */
const MOST = 1000;
/** Records kept, the least recently fetched going first. */
const KEEP = 3000;

/**
 * Emits `change` (detail `{ structural: true }`) when another answer replaces the photos, and
 * `records` when fetched records arrive.
 * @implements {PhotoSequence}
 */
export class SearchResults extends EventTarget {
  constructor() {
    super();
    /** @type {string | null} the query answered, null before the first */
    this.query = null;
    /** Whether the server said its index was still being built when it answered. */
    this.partial = false;
    /** @type {Int32Array} ids by position; those from `known` on are not learnt yet (0) */
    this.ids = new Int32Array(0);
    this.known = 0;
    /** @type {Map<number, number>} id → position */
    this.positions = new Map();
    /** @type {Map<number, Photo>} records by id, in the order of their last use */
    this.records = new Map();
    /** Bumped by every new answer: a late page of an older one is dropped. */
    this.generation = 0;
    /** Bumped by every search asked for: only the latest one's answer is taken. */
    this.asked = 0;
    /** @type {[number, number]} the positions the grid wants */
    this.wanted = [0, -1];
    this.fetching = false;
    /** Always the whole library's scope: what the grid keeps in a scroll anchor. */
    /** @type {string | null} */
    this.list = null;
    /** Unused: the results have no month headers (see PhotoGrid's `months`). */
    this.days = new Int32Array(0);
  }

  /**
   * No date: the results are in the order of the best match, not of the date taken.
   * @param {number} _i
   * @returns {Date | null}
   */
  dateAt(_i) { return null; }

  /** Photos found. */
  get count() { return this.ids.length; }

  /**
   * Runs a search and resolves once its first page is in; an answer that arrives after a later
   * search was asked for is dropped (resolves false). A failure is thrown.
   * @param {string} query
   * @param {{ again?: boolean }} options `again`: asked even when this query is the one answered
   */
  async run(query, { again = false } = {}) {
    if (query === this.query && !again) return true;
    const asked = ++this.asked;
    const page = await searchPhotos(query, { limit: FIRST });
    if (asked !== this.asked) return false;
    if (query === this.query && this.same(page)) {
      // Asked again (the index still filling) and nothing moved: the cells drawn stay as they are.
      this.partial = page.partial === true;
      for (const photo of page.photos) this.keep(photo);
      this.emit('records', {});
    } else {
      this.replace(query, page);
    }
    return true;
  }

  /**
   * Whether a first page says what is held: as many photos, the same first ones in the same order.
   * @param {SearchPage} page
   */
  same(page) {
    return page.total === this.count && page.photos.every((photo, k) => k < this.known && this.ids[k] === photo.id);
  }

  /** No search: nothing found, nothing shown. */
  clear() {
    this.asked += 1;
    this.replace(null, { query: '', total: 0, photos: [], next: null });
  }

  /**
   * @param {string | null} query
   * @param {SearchPage} page
   */
  replace(query, page) {
    this.generation += 1;
    this.query = query;
    this.partial = page.partial === true;
    this.ids = new Int32Array(page.total);
    this.known = 0;
    this.positions = new Map();
    this.records.clear();
    this.fetching = false;
    this.take(0, page);
    this.emit('change', { structural: true });
  }

  /**
   * Takes a page's photos from position `start` on.
   * @param {number} start
   * @param {SearchPage} page
   */
  take(start, page) {
    page.photos.forEach((photo, k) => {
      const i = start + k;
      if (i >= this.ids.length) return;
      this.ids[i] = photo.id;
      this.positions.set(photo.id, i);
      this.keep(photo);
    });
    this.known = Math.max(this.known, Math.min(this.ids.length, start + page.photos.length));
    // The index changed under the search (a photo found or gone meanwhile): nothing more lies past
    // an answer that ended early.
    if (page.next === null && this.known < this.ids.length && start + page.photos.length === this.known) {
      this.ids = this.ids.slice(0, this.known);
      this.emit('change', { structural: true });
    }
  }

  /** @param {Photo} photo */
  keep(photo) {
    this.records.delete(photo.id); // to the end: the Map's order is the order of use
    this.records.set(photo.id, photo);
    if (this.records.size <= KEEP) return;
    for (const id of this.records.keys()) {
      if (this.records.size <= KEEP * 0.9) break;
      this.records.delete(id);
    }
  }

  /**
   * The URL of the photo `id` among these results.
   * @param {number} id
   * @param {boolean} [zoom]
   */
  photoHash(id, zoom = false) { return searchPhotoHash(this.query ?? '', id, zoom); }

  /**
   * The position of a photo among the results learnt so far, or -1.
   * @param {number} id
   */
  position(id) { return this.positions.get(id) ?? -1; }

  /**
   * The record at a position when fetched, else null.
   * @param {number} i
   */
  recordAt(i) { return i < this.known ? this.records.get(this.ids[i]) ?? null : null; }

  /**
   * Asks for the records of positions first…last; they arrive as a `records` event.
   * @param {number} first
   * @param {number} last
   */
  want(first, last) {
    this.wanted = [Math.max(0, first), Math.min(this.count - 1, last)];
    this.pump();
  }

  /** One request at a time, for the first position wanted that has no record. */
  async pump() {
    if (this.fetching || this.query === null) return;
    const [first, last] = this.wanted;
    let i = first;
    while (i <= last && this.recordAt(i)) i++;
    if (i > last) return;
    this.fetching = true;
    const generation = this.generation;
    try {
      await this.fetchFrom(i, last - Math.min(i, this.known) + 1);
    } catch {
      // Asked again when the grid next wants something (a scroll, the connection back).
      if (generation === this.generation) this.fetching = false;
      return;
    }
    if (generation !== this.generation) return;
    this.fetching = false;
    this.emit('records', {});
    this.pump();
  }

  /**
   * Fetches records from position `i` on (or from the first id not learnt yet, when `i` lies
   * beyond it): `count` of them, at least a block of FIRST and at most MOST.
   * @param {number} i
   * @param {number} count
   */
  async fetchFrom(i, count) {
    const start = Math.min(i, this.known);
    const generation = this.generation;
    const query = this.query ?? '';
    const after = start > 0 ? this.ids[start - 1] : null;
    const page = await searchPhotos(query, { after, limit: Math.max(FIRST, Math.min(MOST, count)) });
    if (generation === this.generation) this.take(start, page);
  }

  // The sequence the pager and the zoom view read (photo-sequence.js).

  /**
   * The position of photo `id`, learning more of the results while it is not found; -1 when it is not among them.
   * @param {number} id
   */
  async indexOf(id) {
    const generation = this.generation;
    while (this.position(id) < 0 && this.known < this.count && generation === this.generation) {
      const known = this.known;
      await this.fetchFrom(known, MOST);
      if (this.known === known) break; // the answer shrank under it: nothing more to learn
    }
    return this.position(id);
  }

  /**
   * The record at `i`, fetched when needed.
   * @param {number} i
   */
  async at(i) {
    const generation = this.generation;
    while (i >= 0 && i < this.count && !this.recordAt(i) && generation === this.generation) {
      const known = this.known;
      await this.fetchFrom(i, i - Math.min(i, known) + 1);
      if (i >= known && this.known === known) break; // no further on: the answer shrank under it
    }
    return this.recordAt(i);
  }

  /**
   * The record at `i` if it is at hand now.
   * @param {number} i
   */
  peek(i) { return this.recordAt(i) ?? undefined; }

  /**
   * `listener()` whenever another answer replaces the photos; returns the unsubscribe.
   * @param {() => void} listener
   */
  subscribe(listener) {
    const handler = () => listener();
    this.addEventListener('change', handler);
    return () => this.removeEventListener('change', handler);
  }

  /**
   * @param {'change' | 'records'} type
   * @param {{ structural?: boolean }} detail
   */
  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }
}
