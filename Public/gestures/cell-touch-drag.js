// @ts-check
// Moving a photo of an album in its own order with a finger, as iOS Photos lets a chosen photo be
// dragged: in Select, a photo already chosen, touched and held still for a moment, lifts (a copy
// of it under the finger, the place it left dimmed), follows the finger, scrolls the grid while
// held near the top or the bottom of the screen, and dropped over another photo takes that
// photo's place (the same drop as the mouse's, gestures/cell-drag.js). With other photos chosen,
// they all move: the copy carries their count, their places are dimmed, and they land together.
// The copy stays whole on screen, even when the finger is at its edge.
//
// Only a chosen photo lifts, and only after the hold, so every other touch keeps what it did: a
// finger that moves before the hold scrolls the grid (nothing here cancels a touch until the photo
// has lifted), two fingers pinch the grid's density (a second finger puts a lifted photo back), a
// long press on a photo not chosen still chooses it, and a tap still chooses or lets go.
//
// The finger's events go to the element it first touched. The grid reuses its cells as it scrolls,
// so that element may leave the list or show another photo while the grid scrolls under a lifted
// photo: the events are taken on that element itself (they reach it wherever it is), and what
// follows the finger is a copy, fixed to the screen.

import { movingCount } from './cell-drag.js';

/** How long (ms) a finger rests on a chosen photo before it lifts. */
const HOLD_MS = 300;
/** Pixels a finger may move during the hold: more, and it is scrolling. */
const HOLD_SLOP = 10;
/** The lifted copy is at most this wide (CSS px): a photo a row lifted whole would hide where it goes. */
const LIFTED_MOST = 160;
/** Within this many pixels of the top or bottom of the grid's visible part, it scrolls. */
const EDGE = 72;
/** The fastest the grid scrolls under a lifted photo, in px a frame (the finger at the very edge). */
const EDGE_SPEED = 18;

/**
 * @typedef {object} CellTouchDragHandlers
 * @property {() => boolean} enabled whether photos may be moved by touch now (Select, in an album in its own order)
 * @property {(id: number) => number[]} moving the photos moved when this one lifts (it and the others chosen; none: it does not lift)
 * @property {(point: { x: number, y: number }) => number | null} positionAt the place in the list under a point
 * @property {(position: number) => number} idAt the photo at a place of the list (0: none)
 * @property {() => { top: number, bottom: number }} insets what covers the top and the bottom of the screen (bars), in px
 * @property {() => void} lifted told when a photo lifts (a long press's own timer then stops)
 * @property {(id: number, position: number) => void} drop photo `id` (and those moving with it) dropped at `position`
 */

export class CellTouchDrag {
  /**
   * @param {HTMLElement} list the grid's list of cells
   * @param {import('../util/listeners.js').Listeners} listeners the owner's registry
   * @param {CellTouchDragHandlers} handlers
   */
  constructor(list, listeners, handlers) {
    this.list = list;
    this.listeners = listeners;
    this.handlers = handlers;
    /**
     * The touch on a chosen photo: the photo, the element touched (its events come there), where
     * the finger is, and once lifted the copy that follows it.
     * @type {{ id: number, moving: number[], link: HTMLAnchorElement, from: { x: number, y: number }, at: { x: number, y: number },
     *   box: DOMRect, timer: number, lifted: HTMLElement | null, frame: number, off: (() => void)[] } | null}
     */
    this.touch = null;
    /** Marks the photo lifted (its place dimmed) and the one it would take the place of, by id: the cells are reused. */
    this.marks = document.createElement('style');
    document.head.append(this.marks);
    listeners.add(() => { this.cancel(); this.marks.remove(); });
    listeners.on(list, 'touchstart', (e) => this.started(e), { passive: true });
  }

  /** @param {TouchEvent} event */
  started(event) {
    // A second finger is a pinch: a photo held or lifted goes back.
    if (this.touch) { this.cancel(); return; }
    if (event.touches.length !== 1 || !this.handlers.enabled()) return;
    const link = event.target instanceof Element ? event.target.closest('a.cell') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const id = Number(link.dataset.photoId);
    const moving = id ? this.handlers.moving(id) : [];
    if (!moving.length) return;
    const finger = event.touches[0];
    const target = /** @type {HTMLElement} */ (event.target);
    const on = this.listeners;
    const from = { x: finger.clientX, y: finger.clientY };
    this.touch = {
      id, moving, link, from, at: from, box: link.getBoundingClientRect(), lifted: null, frame: 0,
      timer: on.timeout(() => this.lift(), HOLD_MS),
      off: [
        on.on(target, 'touchmove', (e) => this.moved(e), { passive: false }),
        on.on(target, 'touchend', (e) => this.ended(e), { passive: false }),
        on.on(target, 'touchcancel', () => this.cancel(), { passive: true }),
      ],
    };
  }

  /** The hold is over: the photo lifts under the finger. */
  lift() {
    const touch = this.touch;
    if (!touch) return;
    touch.timer = 0;
    const copy = /** @type {HTMLElement} */ (touch.link.cloneNode(true));
    copy.removeAttribute('href');
    copy.removeAttribute('id');
    copy.setAttribute('aria-hidden', 'true');
    copy.classList.add('cell-lifted');
    if (touch.moving.length > 1) copy.append(movingCount(touch.moving.length));
    const { box } = touch;
    // It grows a little as it lifts, or shrinks to LIFTED_MOST, about the point under the finger.
    Object.assign(copy.style, {
      left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`,
      transformOrigin: `${touch.from.x - box.left}px ${touch.from.y - box.top}px`,
    });
    document.body.append(copy);
    touch.lifted = copy;
    this.list.classList.add('arranging');
    this.handlers.lifted();
    this.follow();
    this.scrollAtEdge();
  }

  /** @param {TouchEvent} event */
  moved(event) {
    const touch = this.touch;
    if (!touch) return;
    if (event.touches.length !== 1) { this.cancel(); return; }
    const finger = event.touches[0];
    touch.at = { x: finger.clientX, y: finger.clientY };
    if (!touch.lifted) {
      // Moving before the hold is over: a scroll, the browser's own.
      if (Math.hypot(touch.at.x - touch.from.x, touch.at.y - touch.from.y) > HOLD_SLOP) this.cancel();
      return;
    }
    if (event.cancelable) event.preventDefault();
    this.follow();
  }

  /** @param {TouchEvent} event */
  ended(event) {
    const touch = this.touch;
    if (!touch || event.touches.length) return;
    const lifted = touch.lifted !== null;
    this.cancel();
    if (!lifted) return;
    // The tap a lifted photo's touch would end with is not one (it would let the photo go).
    if (event.cancelable) event.preventDefault();
    const position = this.handlers.positionAt(touch.at);
    if (position !== null) this.handlers.drop(touch.id, position);
  }

  /** The copy under the finger, and the photo whose place it would take marked. */
  follow() {
    const touch = this.touch;
    if (!touch?.lifted) return;
    const { box, from, at } = touch;
    const scale = Math.min(1.08, LIFTED_MOST / Math.max(1, box.width));
    // Scaled about the point first touched, the copy's edges are these (before it is moved).
    const left = box.left + (from.x - box.left) * (1 - scale), top = box.top + (from.y - box.top) * (1 - scale);
    const width = box.width * scale, height = box.height * scale;
    const screen = document.documentElement;
    const dx = within(at.x - from.x, -left, screen.clientWidth - width - left);
    const dy = within(at.y - from.y, -top, screen.clientHeight - height - top);
    touch.lifted.style.transform = `translate(${dx}px, ${dy}px) scale(${scale})`;
    const position = this.handlers.positionAt(touch.at);
    const over = position === null ? 0 : this.handlers.idAt(position);
    const cell = (/** @type {number} */ id) => `#grid a.cell[data-photo-id="${id}"]`;
    let css = `${touch.moving.map(cell).join(',')}{opacity:.3}`;
    // An outline, drawn over the photo (an inset shadow would be under it).
    if (over && !touch.moving.includes(over)) css += `${cell(over)}{outline:3px dashed var(--tint,#0a84ff);outline-offset:-3px}`;
    if (this.marks.textContent !== css) this.marks.textContent = css;
  }

  /** Every frame while lifted: held near the top or the bottom, the grid scrolls that way, faster nearer the edge. */
  scrollAtEdge() {
    const touch = this.touch;
    if (!touch?.lifted) return;
    const { top, bottom } = this.handlers.insets();
    const y = touch.at.y;
    const above = top + EDGE - y, below = y - (window.innerHeight - bottom - EDGE);
    const depth = Math.max(above, below);
    if (depth > 0) {
      const speed = Math.ceil(EDGE_SPEED * Math.min(1, depth / EDGE));
      const before = window.scrollY;
      window.scrollBy(0, above > 0 ? -speed : speed);
      if (window.scrollY !== before) this.follow();
    }
    touch.frame = this.listeners.frame(() => this.scrollAtEdge());
  }

  /** Lets go of the touch: the hold's timer, the listeners on the element touched, the copy, the marks. */
  cancel() {
    const touch = this.touch;
    if (!touch) return;
    this.touch = null;
    this.listeners.clear(touch.timer);
    this.listeners.cancelFrame(touch.frame);
    for (const off of touch.off) off();
    touch.lifted?.remove();
    this.list.classList.remove('arranging');
    this.marks.textContent = '';
  }
}

/**
 * `value` kept between `low` and `high` (`low` when there is no room between them).
 * @param {number} value
 * @param {number} low
 * @param {number} high
 */
function within(value, low, high) {
  return Math.max(low, Math.min(high, value));
}
