// @ts-check
// Taps, told apart from double taps as Photos does: a single tap acts only once no second tap
// can follow (it shows or hides the bars); a double tap zooms to the tapped point, or back to fit.

const DOUBLE_TAP_MS = 300, DOUBLE_TAP_SLOP = 40;

export class TapGesture {
  /** @param {{tap?: (p, target) => void, doubleTap?: (p, target) => void}} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    this.last = null;
    this.timer = null;
  }

  /** A tap at client point `p` on `target` ({photo, page} or null) at `time` (ms). */
  tap(p, target, time) {
    const previous = this.last;
    clearTimeout(this.timer);
    if (previous && time - previous.time < DOUBLE_TAP_MS && Math.hypot(p.x - previous.x, p.y - previous.y) < DOUBLE_TAP_SLOP) {
      this.last = null;
      this.handlers.doubleTap?.(p, target);
      return;
    }
    this.last = { ...p, time };
    if (this.handlers.tap) this.timer = setTimeout(() => this.handlers.tap(p, target), DOUBLE_TAP_MS);
  }

  /** Something else happened in between (a drag): the next tap starts afresh. */
  reset() {
    clearTimeout(this.timer);
    this.last = null;
  }
}
