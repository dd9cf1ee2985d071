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
 * After `img` failed for the `attempt`-th time (0 for the first), asks for `url` again once the
 * wait is over, if `stillWanted()` says so then. Returns the timer (for `clearTimeout`), or 0 when
 * no attempt is left.
 * @param {HTMLImageElement} img
 * @param {string} url
 * @param {number} attempt
 * @param {() => boolean} stillWanted
 * @returns {number}
 */
export function retryLater(img, url, attempt, stillWanted) {
  if (attempt >= RETRIES) return 0;
  return window.setTimeout(() => {
    if (!stillWanted()) return;
    // Setting the same src again may not start a new request; removing it first always does.
    img.removeAttribute('src');
    img.src = url;
  }, FIRST_WAIT_MS * 2 ** attempt);
}
