// @ts-check
// Pointers on a strip of photos, handed to the gesture they make: one finger drags (gesture-drag),
// two pinch (gesture-pinch), a touch that does not move taps (gesture-tap). A finger that lands on
// something moving catches it, as on a phone: the fling stops there and that touch is no tap.
// The zoom view and the pager both use this, each with its own host:
//   host.strip                 the SlideStrip the pages are on
//   host.target(event)         {photo: ZoomablePhoto, page: index} under the finger, or null
//   host.accepts?(event, t)    whether to handle this pointer at all (the pager leaves the mouse alone)
//   host.dismiss?              {begin(), move(dx, dy), end(vx, vy)}: a vertical drag at fit closes
//   host.tap?(p), host.doubleTap?(p, target)

import { DragGesture } from './drag.js';
import { PinchGesture } from './pinch.js';
import { TapGesture } from './tap.js';
import { VelocityTracker } from '../util/motion.js';

const TAP_MS = 300;

export class ViewerGestures {
  constructor(element, host) {
    this.element = element;
    this.host = host;
    this.pointers = new Map(); // pointerId → client point
    this.target = null;
    this.blocked = false;
    this.drag = new DragGesture(host);
    this.pinch = new PinchGesture();
    this.taps = new TapGesture({ tap: host.tap, doubleTap: host.doubleTap });
    this.tracker = new VelocityTracker();
    element.addEventListener('pointerdown', (e) => this.down(e));
    element.addEventListener('pointermove', (e) => this.move(e));
    element.addEventListener('pointerup', (e) => this.up(e, false));
    element.addEventListener('pointercancel', (e) => this.up(e, true));
    // Safari's own pinch events would zoom the page; the photo does its own.
    element.addEventListener('gesturestart', (e) => e.preventDefault());
    element.addEventListener('dblclick', (e) => e.preventDefault());
  }

  get pinching() { return this.pinch.active; }
  get active() { return this.pointers.size > 0; }

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
      if (this.pinchable()) this.pinch.start(this.target.photo, first, p);
      else this.blocked = true;
    } else {
      return;
    }
    if (e.pointerType === 'mouse') this.element.setPointerCapture?.(e.pointerId);
    this.pointers.set(e.pointerId, p);
  }

  pinchable() {
    const photo = this.target?.photo;
    return Boolean(photo && photo.photo && photo.photo.status !== 'failed');
  }

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

  up(e, cancelled) {
    if (!this.pointers.has(e.pointerId)) return;
    const p = this.pointers.get(e.pointerId);
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
    const swallow = (e) => { e.stopPropagation(); e.preventDefault(); };
    this.element.addEventListener('click', swallow, { capture: true, once: true });
    setTimeout(() => this.element.removeEventListener('click', swallow, { capture: true }), 350);
  }

  /** A touch that only caught something moving lets it come to rest where it belongs. */
  settleCaught() {
    const strip = this.host.strip, page = this.target?.page ?? strip.nearest;
    if (Math.abs(strip.shiftFrom(page)) > 0.5) strip.release(0);
    this.target?.photo?.fling(0, 0);
  }
}
