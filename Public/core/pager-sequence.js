// @ts-check
// The photos the pager, the zoom view and the slideshow page through: the list the photo was
// opened from, the library (or an album of it) or a search's results. They are built once, over
// this; the page points it at another list (`use`), and they hear it as any change of the list.

/** @typedef {import('./photo-sequence.js').PhotoSequence} PhotoSequence */

/** @implements {PhotoSequence} */
export class PagerSequence {
  /** @param {PhotoSequence} list the list paged through first */
  constructor(list) {
    this.list = list;
    /** @type {Set<() => void>} */
    this.listeners = new Set();
    this.unsubscribe = list.subscribe(() => this.changed());
  }

  /**
   * Pages through `list` from now on; its listeners hear a change when it is another list.
   * @param {PhotoSequence} list
   */
  use(list) {
    if (list === this.list) return;
    this.unsubscribe();
    this.list = list;
    this.unsubscribe = list.subscribe(() => this.changed());
    this.changed();
  }

  changed() { for (const listener of [...this.listeners]) listener(); }

  get count() { return this.list.count; }

  /** @param {number} id */
  indexOf(id) { return this.list.indexOf(id); }

  /** @param {number} index */
  at(index) { return this.list.at(index); }

  /** @param {number} index */
  peek(index) { return this.list.peek(index); }

  /**
   * @param {() => void} listener
   * @returns {() => void}
   */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }
}
