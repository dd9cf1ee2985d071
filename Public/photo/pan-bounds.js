// @ts-check
// Where a photo shown at some scale may sit in its viewport: centred on an axis where it is
// smaller than the viewport, otherwise never leaving a gap at an edge. One object per scale,
// so a drag, a fling and a pinch's settle all clamp and stretch the same way.

import { rubberBand, rubberBandInverse } from '../util/motion.js';

/** @typedef {'x' | 'y'} Axis */

/** The allowed translations of a `width`×`height` CSS px photo in a `vw`×`vh` viewport. */
export class PanBounds {
  /**
   * @param {number} width
   * @param {number} height
   * @param {number} vw
   * @param {number} vh
   */
  constructor(width, height, vw, vh) {
    this.view = { x: vw, y: vh };
    this.min = { x: 0, y: 0 };
    this.max = { x: 0, y: 0 };
    for (const [axis, size, view] of /** @type {[Axis, number, number][]} */ ([['x', width, vw], ['y', height, vh]])) {
      if (size <= view + 1e-6) {
        this.min[axis] = this.max[axis] = (view - size) / 2;
      } else {
        this.min[axis] = view - size;
        this.max[axis] = 0;
      }
    }
  }

  /**
   * The nearest allowed translation.
   * @param {Axis} axis
   * @param {number} value
   */
  clamp(axis, value) { return Math.min(this.max[axis], Math.max(this.min[axis], value)); }

  /**
   * How far `value` is past the allowed range (negative past min, positive past max, else 0).
   * @param {Axis} axis
   * @param {number} value
   */
  overshoot(axis, value) {
    if (value < this.min[axis]) return value - this.min[axis];
    if (value > this.max[axis]) return value - this.max[axis];
    return 0;
  }

  /**
   * Whether the photo can move at all on this axis.
   * @param {Axis} axis
   */
  pannable(axis) { return this.max[axis] - this.min[axis] > 0.5; }

  /**
   * What a raw (finger) translation shows: itself inside the range, stretched like rubber beyond.
   * @param {Axis} axis
   * @param {number} raw
   */
  stretch(axis, raw) {
    const over = this.overshoot(axis, raw);
    return over === 0 ? raw : this.clamp(axis, raw) + rubberBand(over, this.view[axis]);
  }

  /**
   * The raw translation that `stretch` shows as `shown`.
   * @param {Axis} axis
   * @param {number} shown
   */
  unstretch(axis, shown) {
    const over = this.overshoot(axis, shown);
    return over === 0 ? shown : this.clamp(axis, shown) + rubberBandInverse(over, this.view[axis]);
  }
}
