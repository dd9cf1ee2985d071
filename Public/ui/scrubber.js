// @ts-check
// The scrubber: a thumb at the right edge that appears while the grid scrolls. Dragging it
// travels through the whole library at once, with the month under the finger in a bubble and
// a few dates along the track, so photo 80,000 is one drag away rather than a minute of flings.

import { Listeners } from '../util/listeners.js';

/** @typedef {import('../views/grid.js').PhotoGrid} PhotoGrid */
/** @typedef {import('../core/photo-index.js').PhotoIndex} PhotoIndex */

/** Dates marked along the track while dragging. */
const MARKS = 8;
/** How long the thumb stays after the grid stops scrolling (or the mouse leaves it), in milliseconds. */
const LINGER = 1500;

export class Scrubber {
  /**
   * @param {HTMLElement} view where it goes
   * @param {PhotoGrid} grid what it scrolls
   * @param {PhotoIndex} index where the dates come from
   */
  constructor(view, grid, index) {
    this.grid = grid;
    this.index = index;
    this.listeners = new Listeners();
    this.hideTimer = 0;
    this.marked = false;
    this.root = document.createElement('div');
    this.root.className = 'scrubber';
    this.root.setAttribute('role', 'scrollbar');
    this.root.setAttribute('aria-controls', grid.list.id);
    this.root.setAttribute('aria-orientation', 'vertical');
    this.root.setAttribute('aria-label', 'Scroll through the photos by date');
    this.root.setAttribute('aria-valuemin', '0');
    this.root.setAttribute('aria-valuemax', '100');
    this.root.setAttribute('aria-valuenow', '0');
    this.thumb = document.createElement('div');
    this.thumb.className = 'scrubber-thumb';
    this.label = document.createElement('div');
    this.label.className = 'scrubber-label';
    this.marks = document.createElement('div');
    this.marks.className = 'scrubber-marks';
    this.root.append(this.marks, this.thumb, this.label);
    view.appendChild(this.root);
    this.dragging = false;
    /** Whether a mouse rests on it: the thumb does not fade under a pointer about to take it. */
    this.hovered = false;
    this.scheduled = false;

    const on = this.listeners;
    on.on(window, 'scroll', () => this.scrolled(), { passive: true });
    on.on(this.root, 'pointerdown', (e) => this.start(e));
    on.on(this.root, 'pointerenter', (e) => {
      if (e.pointerType !== 'mouse') return;
      this.hovered = true;
      this.show();
    });
    on.on(this.root, 'pointerleave', (e) => {
      if (e.pointerType !== 'mouse') return;
      this.hovered = false;
      this.show();
    });
    on.on(this.root, 'pointermove', (e) => { if (this.dragging) this.move(e); });
    on.on(this.root, 'pointerup', () => this.end());
    on.on(this.root, 'pointercancel', () => this.end());
    on.on(this.root, 'lostpointercapture', () => this.end());
    on.on(index, 'change', (e) => {
      if (/** @type {CustomEvent<import('../core/photo-index.js').ChangeDetail>} */ (e).detail.structural) this.marked = false;
    });
    on.add(() => this.root.remove());
  }

  /** Worth showing only when the grid is several screens tall. */
  get useful() { return this.grid.list.offsetHeight > window.innerHeight * 4; }

  scrolled() {
    if (!this.grid.active || !this.useful) return;
    this.show();
    if (this.scheduled) return;
    this.scheduled = true;
    this.listeners.frame(() => {
      this.scheduled = false;
      this.follow();
    });
  }

  show() {
    this.root.classList.add('shown');
    this.listeners.clear(this.hideTimer);
    if (!this.dragging && !this.hovered) this.hideTimer = this.listeners.timeout(() => this.root.classList.remove('shown'), LINGER);
  }

  /** The thumb where the screen is. */
  follow() {
    const { fraction } = this.grid.progress();
    const travel = this.root.clientHeight - this.thumb.offsetHeight;
    this.thumb.style.transform = `translateY(${fraction * travel}px)`;
    this.root.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
  }

  /** @param {PointerEvent} e */
  start(e) {
    if (!this.useful) return;
    e.preventDefault();
    this.root.setPointerCapture(e.pointerId);
    this.dragging = true;
    this.root.classList.add('dragging');
    this.show();
    if (!this.marked) this.mark();
    this.move(e);
  }

  /** @param {PointerEvent} e */
  move(e) {
    // The finger holds the thumb by its middle, so both ends are within reach of the track's ends.
    const box = this.root.getBoundingClientRect();
    const thumb = this.thumb.offsetHeight;
    const fraction = Math.max(0, Math.min(1, (e.clientY - box.top - thumb / 2) / Math.max(1, box.height - thumb)));
    this.grid.scrollToFraction(fraction);
    this.label.textContent = this.month(this.grid.positionAtFraction(fraction));
    this.label.style.transform = `translateY(${e.clientY - box.top}px) translateY(-50%)`;
    this.follow();
  }

  end() {
    if (!this.dragging) return;
    this.dragging = false;
    this.root.classList.remove('dragging');
    this.show();
  }

  /** A few months along the track, where the photos of that month are. */
  mark() {
    this.marked = true;
    /** @type {{ fraction: number, text: string }[]} */
    const labels = [];
    for (let k = 0; k < MARKS; k++) {
      const fraction = k / (MARKS - 1);
      const text = this.month(this.grid.positionAtFraction(fraction));
      if (text && text !== labels.at(-1)?.text) labels.push({ fraction, text });
    }
    this.marks.replaceChildren(...labels.map(({ fraction, text }) => {
      const mark = document.createElement('span');
      mark.className = 'scrubber-mark';
      mark.style.top = `${fraction * 100}%`;
      mark.textContent = text;
      return mark;
    }));
  }

  /**
   * "May 2024": the month of the photo at a position (its date as the index carries it).
   * @param {number} i
   */
  month(i) {
    const date = this.index.dateAt(i);
    return date ? date.toLocaleDateString(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' }) : '';
  }

  /** Lets go of every listener and timer, and leaves the page. */
  destroy() { this.listeners.destroy(); }
}
