// @ts-check
// Everything a view hooks into outside itself goes through one registry, so that `destroy()` lets
// go of all of it at once: DOM listeners (all behind one AbortSignal), observers, timers,
// animation frames, event streams, and any other cleanup. A view owns one `Listeners`; what lives
// only while the view is open goes in a `child()` that closing destroys, and the view's own
// `destroy()` destroys the registry and with it every child. Nothing outlives its view.

/** @typedef {{ disconnect(): void }} Observer a ResizeObserver, MutationObserver, IntersectionObserver */

export class Listeners {
  constructor() {
    this.controller = new AbortController();
    /** @type {Set<() => void>} */
    this.cleanups = new Set();
    /** @type {Set<number>} */
    this.timers = new Set();
    /** @type {Set<number>} */
    this.frames = new Set();
  }

  /** Whether destroy() has run: a destroyed registry takes nothing more. */
  get destroyed() { return this.controller.signal.aborted; }

  /**
   * `target.addEventListener(type, handler, options)` until destroy(); returns what removes this
   * one listener sooner.
   * @template {EventTarget} T
   * @template {string} K
   * @param {T} target
   * @param {K} type
   * @param {(event: EventFor<T, K>) => void} handler
   * @param {AddEventListenerOptions} [options]
   * @returns {() => void}
   */
  on(target, type, handler, options = {}) {
    const listener = /** @type {EventListener} */ (handler);
    if (this.destroyed) return () => {};
    target.addEventListener(type, listener, { ...options, signal: this.controller.signal });
    return () => target.removeEventListener(type, listener, { capture: Boolean(options.capture) });
  }

  /**
   * setTimeout until destroy(); clear it sooner with `clear(id)`.
   * @param {() => void} callback
   * @param {number} ms
   */
  timeout(callback, ms) {
    if (this.destroyed) return 0;
    const id = window.setTimeout(() => {
      this.timers.delete(id);
      callback();
    }, ms);
    this.timers.add(id);
    return id;
  }

  /**
   * setInterval until destroy(); clear it sooner with `clear(id)`.
   * @param {() => void} callback
   * @param {number} ms
   */
  interval(callback, ms) {
    if (this.destroyed) return 0;
    const id = window.setInterval(callback, ms);
    this.timers.add(id);
    return id;
  }

  /**
   * Clears a timeout or an interval of this registry (0 or an old id: nothing happens).
   * @param {number | null | undefined} id
   */
  clear(id) {
    if (!id) return;
    clearTimeout(id);
    clearInterval(id);
    this.timers.delete(id);
  }

  /**
   * requestAnimationFrame until destroy(); cancel it sooner with `cancelFrame(id)`.
   * @param {FrameRequestCallback} callback
   */
  frame(callback) {
    if (this.destroyed) return 0;
    const id = requestAnimationFrame((now) => {
      this.frames.delete(id);
      callback(now);
    });
    this.frames.add(id);
    return id;
  }

  /** @param {number | null | undefined} id */
  cancelFrame(id) {
    if (!id) return;
    cancelAnimationFrame(id);
    this.frames.delete(id);
  }

  /**
   * An observer, disconnected by destroy().
   * @template {Observer} O
   * @param {O} observer
   * @returns {O}
   */
  observe(observer) {
    if (this.destroyed) { observer.disconnect(); return observer; }
    this.add(() => observer.disconnect());
    return observer;
  }

  /**
   * Runs `cleanup` on destroy(); returns what runs it sooner (once).
   * @param {() => void} cleanup
   * @returns {() => void}
   */
  add(cleanup) {
    if (this.destroyed) { cleanup(); return () => {}; }
    this.cleanups.add(cleanup);
    return () => {
      if (this.cleanups.delete(cleanup)) cleanup();
    };
  }

  /**
   * A registry destroyed with this one (or on its own before): for what lives while a view is
   * open, or while one photo is shown.
   */
  child() {
    const child = new Listeners();
    const destroy = () => child.destroy();
    this.cleanups.add(destroy);
    // Destroyed on its own first, it is no longer the parent's to destroy.
    child.cleanups.add(() => this.cleanups.delete(destroy));
    return child;
  }

  /** Removes every listener, stops every timer and frame, runs every cleanup. Safe to call again. */
  destroy() {
    if (this.destroyed) return;
    this.controller.abort();
    for (const id of this.timers) { clearTimeout(id); clearInterval(id); }
    this.timers.clear();
    for (const id of this.frames) cancelAnimationFrame(id);
    this.frames.clear();
    const cleanups = [...this.cleanups];
    this.cleanups.clear();
    for (const cleanup of cleanups) cleanup();
  }
}
