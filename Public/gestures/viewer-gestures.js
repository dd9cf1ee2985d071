// @ts-check
// Pointers on a strip of photos, handed to the gesture they make: one finger drags (drag.js),
// two pinch (pinch.js), a touch that does not move taps (tap.js). A finger that lands on
// something moving catches it, as on a phone: the fling stops there and that touch is no tap.
// The zoom view and the pager both use this, each with its own host (GestureHost below).

import { DragGesture } from './drag.js';
import { PinchGesture } from './pinch.js';
import { TapGesture } from './tap.js';
import { VelocityTracker } from '../util/motion.js';

/** @typedef {import('../photo/zoomable-photo.js').ZoomablePhoto} ZoomablePhoto */
/** @typedef {import('../photo/zoomable-photo.js').Point} Point */
/**
 * What the gestures do with the strip of pages they are on.
 * @typedef {Pick<import('../photo/slide-strip.js').SlideStrip<import('../photo/slide-strip.js').Slot>,
 *   'moving' | 'nearest' | 'catch' | 'release' | 'dragBy' | 'animateTo' | 'shiftFrom' | 'hasPage'>} Strip
 */
/** @typedef {import('../util/listeners.js').Listeners} Listeners */

/**
 * What is under the finger: the page of the strip, and its zoomable photo when the finger is on it.
 * @typedef {{ photo: ZoomablePhoto | null, page: number }} GestureTarget
 */

/**
 * A vertical drag on a fitted photo that pulls it away (the zoom view closes on it).
 * @typedef {object} Dismissal
 * @property {() => void} begin
 * @property {(dx: number, dy: number) => void} move the finger's offset from where it landed
 * @property {(vx: number, vy: number) => void} end the finger's velocity at release, px per ms
 */

/**
 * What the gestures move, and what they ask of the view they are on.
 * @typedef {object} GestureHost
 * @property {Strip} strip the strip the pages are on
 * @property {(event: Event) => GestureTarget | null} target what is under the finger
 * @property {(event: PointerEvent, target: GestureTarget | null) => boolean} [accepts] whether to
 *   handle this pointer at all (the pager leaves the mouse alone)
 * @property {Dismissal} [dismiss] a vertical drag at fit closes
 * @property {(p: Point, target: GestureTarget | null) => void} [tap]
 * @property {(p: Point, target: GestureTarget | null) => void} [doubleTap]
 */

const TAP_MS = 300;

export class ViewerGestures {
  /**
   * @param {HTMLElement} element where the pointers land
   * @param {GestureHost} host
   * @param {Listeners} listeners the view's registry: the pointer listeners go in it
   */
  constructor(element, host, listeners) {
    this.element = element;
    this.host = host;
    this.listeners = listeners;
    /** @type {Map<number, Point>} pointerId → client point */
    this.pointers = new Map();
    /** @type {GestureTarget | null} */
    this.target = null;
    this.blocked = false;
    this.caught = false;
    this.downTime = 0;
    this.drag = new DragGesture(host);
    this.pinch = new PinchGesture();
    this.taps = new TapGesture({ tap: host.tap, doubleTap: host.doubleTap }, listeners);
    this.tracker = new VelocityTracker();
    listeners.on(element, 'pointerdown', (e) => this.down(e));
    listeners.on(element, 'pointermove', (e) => this.move(e));
    listeners.on(element, 'pointerup', (e) => this.up(e, false));
    listeners.on(element, 'pointercancel', (e) => this.up(e, true));
    // Safari's own pinch events would zoom the page; the photo does its own.
    listeners.on(element, 'gesturestart', (e) => e.preventDefault());
    listeners.on(element, 'dblclick', (e) => e.preventDefault());
  }

  get pinching() { return this.pinch.active; }
  get active() { return this.pointers.size > 0; }

  /** @param {PointerEvent} e */
  down(e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const p = { x: e.clientX, y: e.clientY };
    if (this.pointers.size === 0) {
      const target = this.host.target(e);
      if (this.host.accepts && !this.host.accepts(e, target)) return;
      const strip = this.host.strip;
      this.caught = strip.moving || Boolean(target?.photo?.animating);
      strip.catch();
      target?.photo?.stop();
      this.target = target;
      this.downTime = e.timeStamp;
      this.drag.start(p, target);
      this.tracker.reset(p.x, p.y, e.timeStamp);
    } else if (this.pointers.size === 1) {
      this.drag.cancel();
      this.taps.reset();
      const [first] = this.pointers.values();
      // Two fingers with no photo between them (on a page's text) neither page nor zoom anything.
      const photo = this.pinchable();
      if (photo) this.pinch.start(photo, first, p);
      else this.blocked = true;
    } else {
      return;
    }
    if (e.pointerType === 'mouse') this.element.setPointerCapture?.(e.pointerId);
    this.pointers.set(e.pointerId, p);
  }

  /** The photo under the fingers, if it can be pinched. */
  pinchable() {
    const photo = this.target?.photo;
    return photo && photo.photo && photo.photo.status !== 'failed' ? photo : null;
  }

  /** @param {PointerEvent} e */
  move(e) {
    if (!this.pointers.has(e.pointerId)) return;
    const p = { x: e.clientX, y: e.clientY };
    this.pointers.set(e.pointerId, p);
    if (this.blocked) return;
    if (this.pinch.active) {
      if (this.pointers.size >= 2) {
        const [a, b] = this.pointers.values();
        this.pinch.move(a, b);
      }
      return;
    }
    this.tracker.add(p.x, p.y, e.timeStamp);
    this.drag.move(p);
  }

  /**
   * @param {PointerEvent} e
   * @param {boolean} cancelled
   */
  up(e, cancelled) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    this.pointers.delete(e.pointerId);
    if (this.blocked) {
      if (this.pointers.size === 0) this.blocked = false;
      return;
    }
    if (this.pinch.active) {
      if (this.pointers.size >= 2) return;
      this.pinch.end(this.pointers.size);
      if (this.pointers.size === 1) {
        // The finger left on the glass pans on from where it is, without a jump.
        const [rest] = this.pointers.values();
        this.drag.start(rest, this.target, 'pan');
        this.tracker.reset(rest.x, rest.y, e.timeStamp);
      }
      return;
    }
    if (!this.drag.active) return;
    if (cancelled) { this.drag.cancel(); return; }
    const tapped = !this.drag.moved && !this.caught && e.timeStamp - this.downTime < TAP_MS;
    this.drag.end(this.tracker.velocity(e.timeStamp));
    // (A finger that moved clicks nothing anyway; one that caught something moving would.)
    if ((this.drag.moved && e.pointerType === 'mouse') || this.caught) this.swallowClick();
    if (!this.drag.moved && this.caught) this.settleCaught();
    if (tapped) this.taps.tap(p, this.target, e.timeStamp);
    else this.taps.reset();
  }

  /**
   * A mouse button released after a drag still clicks what is under it (the photo, which would
   * open the zoom view), and so does a tap that only stopped a moving page: that click is dropped.
   */
  swallowClick() {
    const off = this.listeners.on(this.element, 'click', (e) => { e.stopPropagation(); e.preventDefault(); },
      { capture: true, once: true });
    this.listeners.timeout(off, 350);
  }

  /** A touch that only caught something moving lets it come to rest where it belongs. */
  settleCaught() {
    const strip = this.host.strip, page = this.target?.page ?? strip.nearest;
    if (Math.abs(strip.shiftFrom(page)) > 0.5) strip.release(0);
    this.target?.photo?.fling(0, 0);
  }
}
