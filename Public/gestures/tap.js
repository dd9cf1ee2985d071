// @ts-check
// Taps, told apart from double taps as Photos does: a single tap acts only once no second tap
// can follow (it shows or hides the bars); a double tap zooms to the tapped point, or back to fit.

/** @typedef {import('./viewer-gestures.js').GestureTarget} GestureTarget */
/** @typedef {import('../photo/zoomable-photo.js').Point} Point */
/** @typedef {(p: Point, target: GestureTarget | null) => void} TapHandler */

const DOUBLE_TAP_MS = 300, DOUBLE_TAP_SLOP = 40;

export class TapGesture {
  /**
   * @param {{ tap?: TapHandler, doubleTap?: TapHandler }} handlers
   * @param {import('../util/listeners.js').Listeners} listeners the view's registry (the single tap waits on a timer)
   */
  constructor(handlers, listeners) {
    this.handlers = handlers;
    this.listeners = listeners;
    /** @type {(Point & { time: number }) | null} */
    this.last = null;
    this.timer = 0;
  }

  /** Whether a single tap waits to see that no second one follows. */
  get pending() { return this.timer !== 0; }

  /**
   * A tap at client point `p` on `target` at `time` (ms).
   * @param {Point} p
   * @param {GestureTarget | null} target
   * @param {number} time
   */
  tap(p, target, time) {
    const previous = this.last;
    this.listeners.clear(this.timer);
    this.timer = 0;
    if (previous && time - previous.time < DOUBLE_TAP_MS && Math.hypot(p.x - previous.x, p.y - previous.y) < DOUBLE_TAP_SLOP) {
      this.last = null;
      this.handlers.doubleTap?.(p, target);
      return;
    }
    this.last = { ...p, time };
    const single = this.handlers.tap;
    if (single) {
      this.timer = this.listeners.timeout(() => {
        this.timer = 0;
        single(p, target);
      }, DOUBLE_TAP_MS);
    }
  }

  /** Something else happened in between (a drag): the next tap starts afresh. */
  reset() {
    this.listeners.clear(this.timer);
    this.timer = 0;
    this.last = null;
  }
}
