// @ts-check
// The grid's zoom gestures: two fingers pinching (touch events, whose two touches are known at
// once), and Ctrl+wheel, which is both a mouse's Ctrl+wheel and a trackpad's pinch. Only these
// are taken from the browser (its own page zoom): one finger still scrolls, and a wheel without
// Ctrl scrolls. What a scale means for the grid is the grid's to say.

/** Wheel travel (CSS px) that makes one step: a mouse's notch is about 100, a trackpad pinch sends many small ones. */
const WHEEL_STEP = 50;
/** A wheel resting this long (ms) starts counting anew. */
const WHEEL_IDLE_MS = 250;

/**
 * @typedef {object} GridZoomHandlers
 * @property {(point: { x: number, y: number }) => void} start two fingers down, their centre
 * @property {(scale: number, point: { x: number, y: number }) => void} pinch their distance over the one at start, and their centre
 * @property {() => void} end fewer than two fingers
 * @property {(direction: 1 | -1, point: { x: number, y: number }) => void} step Ctrl+wheel: +1 denser (wheel down, pinch in), −1 larger
 */

export class GridZoomGestures {
  /**
   * @param {HTMLElement} root where the gestures are taken
   * @param {import('../util/listeners.js').Listeners} listeners the owner's registry
   * @param {() => boolean} enabled whether to take them now (the grid on screen)
   * @param {GridZoomHandlers} handlers
   */
  constructor(root, listeners, enabled, handlers) {
    this.handlers = handlers;
    /** The fingers' distance at the start, 0 when no pinch is on. */
    this.startDistance = 0;
    this.wheel = 0;
    this.lastWheel = 0;
    listeners.on(root, 'touchstart', (e) => {
      if (e.touches.length === 2 && enabled()) this.begin(e.touches);
    }, { passive: true });
    // Not passive: a pinch on the grid is the grid's, never the browser's page zoom or a scroll.
    listeners.on(root, 'touchmove', (e) => {
      if (!this.startDistance) return;
      if (e.touches.length < 2) return;
      if (e.cancelable) e.preventDefault();
      const { distance, centre } = fingers(e.touches);
      this.handlers.pinch(distance / this.startDistance, centre);
    }, { passive: false });
    const lift = (/** @type {TouchEvent} */ e) => {
      if (!this.startDistance || e.touches.length >= 2) return;
      this.startDistance = 0;
      this.handlers.end();
    };
    listeners.on(root, 'touchend', lift, { passive: true });
    listeners.on(root, 'touchcancel', lift, { passive: true });
    listeners.on(root, 'wheel', (e) => {
      if (!e.ctrlKey || !enabled()) return;
      e.preventDefault();
      if (e.timeStamp - this.lastWheel > WHEEL_IDLE_MS) this.wheel = 0;
      this.lastWheel = e.timeStamp;
      this.wheel += e.deltaMode === WheelEvent.DOM_DELTA_LINE ? e.deltaY * 16 : e.deltaY;
      if (Math.abs(this.wheel) < WHEEL_STEP) return;
      const direction = this.wheel > 0 ? 1 : -1;
      this.wheel = 0;
      this.handlers.step(direction, { x: e.clientX, y: e.clientY });
    }, { passive: false });
  }

  /** @param {TouchList} touches */
  begin(touches) {
    const { distance, centre } = fingers(touches);
    if (distance < 1) return;
    this.startDistance = distance;
    this.handlers.start(centre);
  }
}

/** @param {TouchList} touches */
function fingers(touches) {
  const a = touches[0];
  const b = touches[1];
  return {
    distance: Math.hypot(b.clientX - a.clientX, b.clientY - a.clientY),
    centre: { x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2 },
  };
}
