// @ts-check
// Page dots as UIPageControl draws them for many pages: at most nine, the current one red, the
// ones at an end shrinking where more pages lie beyond it, the row sliding along as the current
// page nears an end of it. Where dots cannot say where you are, a "3 of 1,200" counter does.
// The whole control is one tab stop (a slider): arrow keys, Home, End, Page Up and Page Down move.

import { prefersReducedMotion } from '../util/motion.js';
import { Keys } from '../util/keyboard.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

const MAX_DOTS = 9;
const PITCH = 16; // px from one dot's centre to the next
const MARGIN = 2; // the current dot stays this many dots away from an end of the row, where it can

export class PageDots {
  /**
   * @param {HTMLElement} root the control
   * @param {{ onSelect: (index: number) => void }} options `onSelect(index)` is asked to bring a page
   */
  constructor(root, { onSelect }) {
    this.element = root;
    this.onSelect = onSelect;
    this.listeners = new Listeners();
    this.track = element(root, '.dots-track', HTMLElement);
    this.counter = element(root, '.pager-count', HTMLElement);
    this.count = 0;
    this.index = 0;
    this.start = 0;
    this.dots = Array.from({ length: MAX_DOTS }, () => {
      const dot = document.createElement('span');
      dot.className = 'dot';
      this.track.appendChild(dot);
      return dot;
    });
    this.format = new Intl.NumberFormat(document.documentElement.lang || undefined);
    this.keys = new Keys((e) => this.key(e), { target: root, on: true });
    this.listeners.add(() => { this.keys.on = false; });
    this.listeners.on(root, 'click', (e) => this.click(e));
  }

  /**
   * Shows page `index` of `count`.
   * @param {number} count
   * @param {number} index
   */
  set(count, index) {
    const before = this.start, sameCount = count === this.count;
    this.count = count;
    this.index = index;
    this.element.hidden = count <= 1;
    const visible = Math.min(MAX_DOTS, count);
    this.start = this.windowFor(count, index, sameCount ? before : null);
    this.dots.forEach((dot, j) => {
      const i = this.start + j;
      dot.hidden = j >= visible;
      dot.classList.toggle('current', i === index);
      const fromEnd = visible - 1 - j;
      const rank = this.start > 0 && j < 2 ? j : this.start + visible < count && fromEnd < 2 ? fromEnd : 2;
      dot.dataset.size = ['small', 'medium', 'full'][rank];
    });
    const text = `${this.format.format(index + 1)} of ${this.format.format(count)}`;
    this.counter.textContent = text;
    this.counter.hidden = count <= MAX_DOTS;
    this.element.setAttribute('aria-valuemin', '1');
    this.element.setAttribute('aria-valuemax', String(Math.max(1, count)));
    this.element.setAttribute('aria-valuenow', String(index + 1));
    this.element.setAttribute('aria-valuetext', text);
    const shift = sameCount ? this.start - before : 0;
    if (shift !== 0 && Math.abs(shift) < MAX_DOTS && !prefersReducedMotion()) this.slide(shift);
  }

  /**
   * The first dot's page. From `current`, the row moves only when the current dot would come
   * nearer than MARGIN to one of its ends; without one, the current dot is put in the middle.
   * @param {number} count
   * @param {number} index
   * @param {number | null} current
   */
  windowFor(count, index, current) {
    const visible = Math.min(MAX_DOTS, count);
    let start = current ?? index - Math.floor(visible / 2);
    if (index < start + MARGIN) start = index - MARGIN;
    if (index > start + visible - 1 - MARGIN) start = index - (visible - 1 - MARGIN);
    return Math.max(0, Math.min(count - visible, start));
  }

  /**
   * The row slides by `shift` dots instead of jumping.
   * @param {number} shift
   */
  slide(shift) {
    this.track.style.transition = 'none';
    this.track.style.transform = `translateX(${shift * PITCH}px)`;
    void this.track.offsetWidth;
    this.track.style.transition = '';
    this.track.style.transform = '';
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    /** @type {Record<string, number>} */
    const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageUp: -10, PageDown: 10 };
    /** @type {number | null} */
    let target = null;
    if (e.key in steps) target = this.index + steps[e.key];
    else if (e.key === 'Home') target = 0;
    else if (e.key === 'End') target = this.count - 1;
    if (target === null) return;
    e.preventDefault();
    e.stopPropagation();
    target = Math.max(0, Math.min(this.count - 1, target));
    if (target !== this.index) this.onSelect(target);
  }

  /**
   * A mouse picks the dot it clicks; a finger, too broad for a 16 px dot, steps one page towards
   * the side of the current dot it tapped, as on a phone.
   * @param {MouseEvent} e
   */
  click(e) {
    const dot = e.target instanceof Element ? e.target.closest('.dot') : null;
    // A click that a pointer made says which (Chromium, Firefox); a synthetic one is precise.
    const pointerType = /** @type {MouseEvent & { pointerType?: string }} */ (e).pointerType;
    const precise = pointerType !== 'touch' && pointerType !== 'pen';
    if (dot instanceof HTMLElement && precise) {
      const i = this.start + this.dots.indexOf(dot);
      if (i !== this.index) this.onSelect(i);
      return;
    }
    const current = this.dots[this.index - this.start];
    if (!current) return;
    const r = current.getBoundingClientRect();
    const step = e.clientX < r.left + r.width / 2 ? -1 : 1;
    const target = Math.max(0, Math.min(this.count - 1, this.index + step));
    if (target !== this.index) this.onSelect(target);
  }

  /** Lets go of its keys and listeners. */
  destroy() { this.listeners.destroy(); }
}
