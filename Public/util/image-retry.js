// @ts-check
// An image that failed to arrive is asked for again, a little later each time, instead of staying
// broken until the person scrolls away and back. A busy server answers 503 with `Retry-After: 1`,
// a restarting replica drops the connection; either passes in a moment. An <img> cannot read the
// status or the header, so the waits start at the second the server asks for and double.

/** Attempts after the first failure. The waits add up to about half a minute. */
export const RETRIES = 5;
/** The wait before the first new attempt, in milliseconds; each further wait doubles. */
export const FIRST_WAIT_MS = 1000;

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
  }

  /**
   * After a failure of `url`: asks for it again once the wait is over, unless none is left.
   * @param {string} url
   */
  failed(url) {
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.attempts >= RETRIES) return;
    const wait = FIRST_WAIT_MS * 2 ** this.attempts;
    this.attempts += 1;
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
    // Setting the same src again may not start a new request; removing it first always does.
    this.img.removeAttribute('src');
    this.img.src = url;
  }

  /** No attempt pending, and the count from zero. */
  reset() {
    clearTimeout(this.timer);
    this.timer = 0;
    this.attempts = 0;
  }
}
