// @ts-check
// One finger dragging, as nested UIScrollViews take it. On a zoomed photo the drag pans the photo
// until its edge, and the same drag then moves the strip of pages, the neighbour sliding in beside
// it; dragging back gives the strip back first, then the photo. On a fitted photo a sideways drag
// moves the strip and (in the zoom view) a vertical one pulls the photo away to close it. Past
// the last page, or the photo's edge with no page beyond, it stretches like rubber.

/** @typedef {import('./viewer-gestures.js').GestureHost} GestureHost */
/** @typedef {import('./viewer-gestures.js').GestureTarget} GestureTarget */
/** @typedef {import('../photo/zoomable-photo.js').Point} Point */
/** @typedef {'pan' | 'page' | 'dismiss' | 'none'} DragMode */

const SLOP = 10; // px a finger may wander before a touch becomes a drag

export class DragGesture {
  /** @param {Pick<GestureHost, 'strip' | 'dismiss'>} host what the drag moves */
  constructor(host) {
    this.host = host;
    this.active = false;
    /** @type {DragMode | null} null until the finger has moved past the slop */
    this.mode = null;
    /** @type {GestureTarget | null} */
    this.target = null;
    /** @type {Point} */
    this.origin = { x: 0, y: 0 };
    /** @type {Point} */
    this.last = { x: 0, y: 0 };
    /** @type {Point} the photo's translation as the finger has it, before any stretch */
    this.raw = { x: 0, y: 0 };
  }

  get moved() { return this.mode !== null; }

  /**
   * A finger is down at client point `p` over `target` ({photo, page} or null). `mode` skips the
   * slop (a pinch that lost a finger carries on as a pan, with no jump).
   * @param {Point} p
   * @param {GestureTarget | null} target
   * @param {DragMode | null} [mode]
   */
  start(p, target, mode = null) {
    this.active = true;
    this.origin = { ...p };
    this.last = { ...p };
    this.target = target;
    this.mode = null;
    if (mode) this.begin(mode);
  }

  /** @param {DragMode} mode */
  begin(mode) {
    this.mode = mode;
    const photo = this.target?.photo;
    if (mode === 'pan' && photo) {
      const b = photo.bounds();
      this.raw = { x: b.unstretch('x', photo.tx), y: b.unstretch('y', photo.ty) };
    }
    if (mode === 'dismiss') this.host.dismiss?.begin();
  }

  /** @param {Point} p */
  move(p) {
    if (!this.active) return;
    const dx = p.x - this.last.x, dy = p.y - this.last.y;
    this.last = { ...p };
    if (this.mode === null) {
      const tx = p.x - this.origin.x, ty = p.y - this.origin.y;
      if (Math.hypot(tx, ty) <= SLOP) return;
      const photo = this.target?.photo;
      if (photo?.photo && !photo.atFit) this.begin('pan');
      else if (Math.abs(tx) >= Math.abs(ty)) this.begin('page');
      else if (this.host.dismiss && photo?.photo) this.begin('dismiss');
      else { this.begin('none'); return; }
      // The slop itself is part of the drag: the photo does not jump when it starts to follow.
      return this.apply(tx, ty, p);
    }
    this.apply(dx, dy, p);
  }

  /**
   * @param {number} dx
   * @param {number} dy
   * @param {Point} p
   */
  apply(dx, dy, p) {
    const strip = this.host.strip;
    if (this.mode === 'page') strip.dragBy(dx);
    else if (this.mode === 'pan') this.pan(dx, dy);
    else if (this.mode === 'dismiss') this.host.dismiss?.move(p.x - this.origin.x, p.y - this.origin.y);
  }

  /**
   * Pans the photo, handing what goes past its edge to the strip (and taking it back first).
   * @param {number} dx
   * @param {number} dy
   */
  pan(dx, dy) {
    const { strip } = this.host;
    const photo = this.target?.photo, page = this.target?.page;
    if (!photo || page === undefined) return;
    let rest = dx;
    const shift = strip.shiftFrom(page); // positive: the next page is sliding in
    if (shift > 0 && rest > 0) {
      const take = Math.min(rest, shift);
      strip.dragBy(take); rest -= take;
    } else if (shift < 0 && rest < 0) {
      const take = Math.max(rest, shift);
      strip.dragBy(take); rest -= take;
    } else if (shift !== 0) {
      strip.dragBy(rest); rest = 0;
    }
    const b = photo.bounds();
    if (rest !== 0) {
      const raw = this.raw.x + rest;
      if (rest < 0 && raw < b.min.x && strip.hasPage(page + 1)) {
        strip.dragBy(raw - Math.min(b.min.x, this.raw.x));
        this.raw.x = Math.min(b.min.x, this.raw.x);
      } else if (rest > 0 && raw > b.max.x && strip.hasPage(page - 1)) {
        strip.dragBy(raw - Math.max(b.max.x, this.raw.x));
        this.raw.x = Math.max(b.max.x, this.raw.x);
      } else {
        this.raw.x = raw;
      }
    }
    // While a neighbour shows, the photo keeps still vertically, as in Photos.
    if (Math.abs(strip.shiftFrom(page)) < 0.5) this.raw.y += dy;
    photo.place(photo.s, b.stretch('x', this.raw.x), b.stretch('y', this.raw.y));
  }

  /**
   * The finger lifted moving at `v` (px per ms).
   * @param {Point} v
   */
  end(v) {
    if (!this.active) return;
    this.active = false;
    const { strip } = this.host;
    if (this.mode === 'page') strip.release(v.x);
    else if (this.mode === 'dismiss') this.host.dismiss?.end(v.x, v.y);
    else if (this.mode === 'pan' && this.target) {
      const { page, photo } = this.target;
      if (Math.abs(strip.shiftFrom(page)) > 0.5) {
        strip.release(v.x);
        photo?.fling(0, 0);
      } else {
        photo?.fling(v.x, v.y);
      }
    }
  }

  /** The browser took the touch (a native scroll) or a second finger came: nothing flings. */
  cancel() {
    if (!this.active) return;
    this.active = false;
    if (this.mode === 'dismiss') this.host.dismiss?.end(0, 0);
    const { strip } = this.host;
    const page = this.target?.page ?? strip.nearest;
    if (Math.abs(strip.shiftFrom(page)) > 0.5) strip.animateTo(page);
  }
}
