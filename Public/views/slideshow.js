// @ts-check
// The slideshow: from the photo in front, each photo of the list for four seconds, fitted to the
// screen on black and cross-faded into the next (swapped at once under reduced motion). Any touch,
// click or key stops it, back on the pager at the photo it had reached. Full screen where the
// browser allows, and the screen kept awake while it plays.

import { requestFullscreen, exitFullscreen, fullscreenElement } from '../ui/fullscreen.js';
import { Keys } from '../util/keyboard.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {import('../core/photo-sequence.js').PhotoSequence} PhotoSequence */

/** Seconds each photo stays on screen. */
export const SLIDE_SECONDS = 4;
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

/**
 * A rendition that fills the screen: IIIF's best fit within the window's device pixels.
 * @param {Photo} photo
 */
function slideURL(photo) {
  const scale = Math.min(2, window.devicePixelRatio || 1);
  const width = Math.min(4096, Math.ceil(window.innerWidth * scale));
  const height = Math.min(4096, Math.ceil(window.innerHeight * scale));
  return `/iiif/3/${photo.id}/full/!${width},${height}/0/default.jpg`;
}

/**
 * Eats the one click that follows, if it comes within a moment.
 * @param {Listeners} listeners
 */
function swallowNextClick(listeners) {
  const off = listeners.on(window, 'click', (e) => { e.preventDefault(); e.stopPropagation(); }, { capture: true, once: true });
  listeners.timeout(off, 800);
}

export class Slideshow {
  /**
   * @param {HTMLElement} root the show's dialog
   * @param {{ sequence: PhotoSequence, onStop: (index: number) => void }} options
   */
  constructor(root, { sequence, onStop }) {
    this.root = root;
    this.sequence = sequence;
    this.onStop = onStop;
    this.listeners = new Listeners();
    this.layers = [.../** @type {NodeListOf<HTMLImageElement>} */ (root.querySelectorAll('.slide'))];
    this.front = 0;
    this.index = -1;
    this.playing = false;
    this.timer = 0;
    this.run = 0;       // bumped by every start and stop, so a late load of an old run does nothing
    this.changes = 0;   // photos shown since the start, for tests
    /** @type {WakeLockSentinel | null} */
    this.wakeLock = null;
    this.fullscreen = false;
    const stop = (/** @type {Event} */ e) => {
      if (!this.playing) return;
      e.preventDefault();
      e.stopPropagation();
      // The click that ends the touch must not land on the photo underneath (it would open the zoom view).
      if (e.type === 'pointerdown') swallowNextClick(this.listeners);
      this.stop();
    };
    const on = this.listeners;
    on.on(root, 'pointerdown', stop);
    on.on(root, 'wheel', stop, { passive: false });
    // Any key stops a show, before anything else sees it: listening while it plays.
    this.keys = new Keys(stop, { capture: true });
    on.add(() => { this.keys.on = false; });
    // Leaving full screen (Escape in the browser's own handling) ends the show too.
    const left = () => { if (this.playing && this.fullscreen && fullscreenElement() !== root) this.stop(); };
    on.on(document, 'fullscreenchange', left);
    on.on(document, 'webkitfullscreenchange', left);
  }

  /**
   * Starts at page `index` of the sequence.
   * @param {number} index
   */
  async start(index) {
    if (this.playing || this.sequence.count === 0) return;
    this.playing = true;
    this.keys.on = true;
    const run = ++this.run;
    this.changes = 0;
    this.root.hidden = false;
    this.root.classList.toggle('instant', reducedMotion.matches);
    for (const layer of this.layers) { layer.classList.remove('front'); layer.removeAttribute('src'); }
    this.root.focus({ preventScroll: true });
    this.fullscreen = await requestFullscreen(this.root);
    try { this.wakeLock = (await navigator.wakeLock?.request('screen')) ?? null; } catch { this.wakeLock = null; }
    if (run !== this.run) return;
    await this.play(index, run);
  }

  /** Stops, and hands the photo reached to `onStop`. */
  stop() {
    if (!this.playing) return;
    this.playing = false;
    this.keys.on = false;
    this.run++;
    this.listeners.clear(this.timer);
    this.root.hidden = true;
    this.wakeLock?.release?.().catch(() => {});
    this.wakeLock = null;
    if (this.fullscreen) exitFullscreen();
    this.fullscreen = false;
    if (this.index >= 0) this.onStop(this.index);
  }

  /**
   * The next photo that can be shown after `index` (failed ones are skipped), round to the start; -1 if none.
   * @param {number} index
   */
  async next(index) {
    const count = this.sequence.count;
    for (let step = 1; step <= count; step++) {
      const i = (index + step) % count;
      const photo = this.sequence.peek(i) ?? await this.sequence.at(i).catch(() => null);
      if (photo && photo.status !== 'failed') return i;
    }
    return -1;
  }

  /**
   * Photo `index` decoded into the layer behind, ready to come on.
   * @param {number} index
   * @returns {Promise<Photo>}
   */
  async load(index) {
    const photo = this.sequence.peek(index) ?? await this.sequence.at(index);
    if (!photo) throw new Error(`no photo at ${index}`);
    const back = this.layers[1 - this.front];
    back.alt = photo.title;
    back.src = slideURL(photo);
    try { await back.decode(); } catch { /* shown as far as it loaded; the show goes on */ }
    return photo;
  }

  /**
   * Brings the layer behind to the front (the cross-fade is CSS's).
   * @param {number} index
   * @param {Photo} photo
   */
  swap(index, photo) {
    this.layers[1 - this.front].classList.add('front');
    this.layers[this.front].classList.remove('front');
    this.front = 1 - this.front;
    this.index = index;
    this.changes++;
    this.root.setAttribute('aria-label', `Slideshow: ${photo.title}`);
  }

  /**
   * Shows photo `index`, then every next one when both its four seconds and its bytes are there.
   * @param {number} index
   * @param {number} run
   */
  async play(index, run) {
    let current = (this.sequence.peek(index) ?? await this.sequence.at(index).catch(() => null))?.status === 'failed'
      ? await this.next(index) : index;
    if (current < 0) { this.stop(); return; }
    this.swap(current, await this.load(current));
    while (run === this.run) {
      const shownAt = performance.now();
      const nextIndex = await this.next(current);
      if (nextIndex < 0 || nextIndex === current) return;
      const [photo] = await Promise.all([
        this.load(nextIndex),
        new Promise((resolve) => {
          this.timer = this.listeners.timeout(() => resolve(undefined), Math.max(0, SLIDE_SECONDS * 1000 - (performance.now() - shownAt)));
        }),
      ]);
      if (run !== this.run) return;
      this.swap(nextIndex, photo);
      current = nextIndex;
    }
  }

  /** Stops, and lets go of every listener and timer. */
  destroy() {
    this.stop();
    this.listeners.destroy();
  }
}
