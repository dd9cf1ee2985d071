// @ts-check
// Wheels and trackpads. A trackpad pinch arrives as ctrl+wheel and zooms the photo under the
// pointer (never the page); two fingers scrolling pan a zoomed photo, and sideways on a fitted one
// they page, the strip following the fingers and settling once they stop. In the zoom view a
// mouse wheel zooms; in the pager it scrolls the page, as everywhere else.

/** @typedef {import('./viewer-gestures.js').GestureHost} GestureHost */
/** @typedef {import('../photo/zoomable-photo.js').ZoomablePhoto} ZoomablePhoto */

/** Sideways scrolling this long still, the strip settles. */
const IDLE_MS = 140;
/**
 * A trackpad pinch sends a wheel event every frame; this long without one, the zoom has ended
 * (or paused) and the tiles of where it stopped are asked for.
 */
const ZOOM_IDLE_MS = 60;

export class WheelGesture {
  /**
   * @param {HTMLElement} element
   * @param {Pick<GestureHost, 'strip' | 'target'> & { wheelZooms: boolean }} host `wheelZooms`: a plain wheel zooms
   * @param {import('../util/listeners.js').Listeners} listeners the view's registry
   */
  constructor(element, host, listeners) {
    this.host = host;
    this.listeners = listeners;
    this.zoomTimer = 0;
    this.pageTimer = 0;
    /** @type {{ dx: number, time: number }[]} */
    this.samples = [];
    listeners.on(element, 'wheel', (e) => this.wheel(e), { passive: false });
  }

  /** @param {WheelEvent} e */
  wheel(e) {
    const target = this.host.target(e);
    const photo = target?.photo?.photo && target.photo.photo.status !== 'failed' ? target.photo : null;
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? window.innerHeight : 1;
    const dx = e.deltaX * unit, dy = e.deltaY * unit;
    // Trackpads scroll with fractional or sideways deltas; a mouse wheel moves in whole lines.
    const isScroll = !e.ctrlKey && (e.deltaMode === 0 && (dx !== 0 || !Number.isInteger(dy)));
    if (e.ctrlKey || (!isScroll && this.host.wheelZooms)) {
      if (!photo) return; // off the photo, ctrl+wheel stays the browser's own page zoom
      e.preventDefault();
      this.zoom(photo, e, dy * (e.ctrlKey ? 0.01 : 0.002));
      return;
    }
    if (!isScroll) return;
    if (photo && !photo.atFit && !this.pageTimer) {
      e.preventDefault();
      photo.stop();
      photo.placeClamped(photo.s, photo.tx - dx, photo.ty - dy);
      return;
    }
    if (Math.abs(dx) > Math.abs(dy) || this.pageTimer) {
      e.preventDefault();
      this.page(dx, e.timeStamp);
    } else if (this.host.wheelZooms) {
      e.preventDefault();
    }
  }

  /**
   * @param {ZoomablePhoto} photo
   * @param {WheelEvent} e
   * @param {number} amount
   */
  zoom(photo, e, amount) {
    const r = photo.stage.getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    photo.stop();
    photo.zooming = true;
    const p = photo.toPhoto(px, py);
    const t = photo.around(photo.clampScale(photo.s * Math.exp(-amount)), px, py, p.x, p.y);
    photo.placeClamped(t.s, t.tx, t.ty);
    this.listeners.clear(this.zoomTimer);
    this.zoomTimer = this.listeners.timeout(() => { photo.zooming = false; photo.render(); }, ZOOM_IDLE_MS);
  }

  /**
   * Sideways scrolling drags the strip; when the fingers stop it settles like a released drag.
   * @param {number} dx
   * @param {number} time
   */
  page(dx, time) {
    const strip = this.host.strip;
    if (!this.pageTimer) { strip.catch(); this.samples = []; }
    strip.dragBy(-dx);
    this.samples.push({ dx, time });
    this.samples = this.samples.filter((s) => time - s.time < 100);
    this.listeners.clear(this.pageTimer);
    this.pageTimer = this.listeners.timeout(() => {
      this.pageTimer = 0;
      const span = this.samples.length > 1 ? time - this.samples[0].time : 0;
      const moved = this.samples.reduce((sum, s) => sum + s.dx, 0);
      strip.release(span > 0 ? -moved / span : 0);
    }, IDLE_MS);
  }
}
