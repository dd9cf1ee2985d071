// @ts-check
// An image that failed to arrive is asked for again, a little later each time, instead of staying
// broken until the person scrolls away and back. A busy server answers 503 with `Retry-After: 1`,
// a restarting replica drops the connection; either passes in a moment. An <img> cannot read the
// status or the header, so the waits start at the second the server asks for and double; and the
// moment the connection finds the server back (core/connection.js), every image waiting is asked
// for again at once.

import { connection } from '../core/connection.js';

/** Attempts after the first failure. The waits add up to about half a minute. */
export const RETRIES = 5;
/** The wait before the first new attempt, in milliseconds; each further wait doubles. */
export const FIRST_WAIT_MS = 1000;

/** @type {Set<ImageRetry>} the images waiting for their next attempt */
const waiting = new Set();
connection.addEventListener('back', () => {
  for (const retry of [...waiting]) retry.now(retry.url);
});

/**
 * The new attempts for one <img>. Its owner calls `failed` from the image's `error` event and
 * `reset` when the image stops showing what failed (another photo, a tile dropped), which also
 * cancels a pending attempt.
 */
export class ImageRetry {
  /** @param {HTMLImageElement} img */
  constructor(img) {
    this.img = img;
    this.timer = 0;
    this.attempts = 0;
    this.url = '';
  }

  /** Whether its image failed and has not arrived since. */
  get failing() { return this.attempts > 0; }

  /**
   * After a failure of `url`: asks for it again once the wait is over, unless none is left.
   * @param {string} url
   */
  failed(url) {
    clearTimeout(this.timer);
    this.timer = 0;
    this.url = url;
    connection.suspect();
    if (this.attempts >= RETRIES) { waiting.add(this); return; }
    const wait = FIRST_WAIT_MS * 2 ** this.attempts;
    this.attempts += 1;
    waiting.add(this);
    this.timer = window.setTimeout(() => {
      this.timer = 0;
      this.now(url);
    }, wait);
  }

  /**
   * Asks for `url` again at once.
   * @param {string} url
   */
  now(url) {
    clearTimeout(this.timer);
    this.timer = 0;
    waiting.delete(this);
    // Setting the same src again may not start a new request; removing it first always does.
    this.img.removeAttribute('src');
    this.img.src = url;
  }

  /** It arrived, or is no longer wanted: no attempt pending, and the count from zero. */
  reset() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.attempts = 0;
    waiting.delete(this);
  }
}
