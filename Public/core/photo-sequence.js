// @ts-check
// The photos the pager and the zoom view page through, in order. They never hold the whole
// library: they ask a sequence for what they draw, and that is all a sequence must answer
// (the `PhotoSequence` type below). PhotoIndex (photo-index.js), what the page uses, answers
// these questions over the paged API (GET /photos/summary, GET /photos?after=&limit=).

/** @typedef {import('./api.js').Photo} Photo */

/**
 * @typedef {object} PhotoSequence
 * @property {number} count how many photos there are (0 until known)
 * @property {(id: number) => Promise<number>} indexOf the position of photo `id`, or -1
 * @property {(index: number) => Promise<Photo | null | undefined>} at the Photo at `index` (nothing past the ends)
 * @property {(index: number) => Photo | undefined} peek the Photo at `index` if it is at hand now (drawn without a flash)
 * @property {(listener: () => void) => () => void} subscribe `listener()` whenever the photos or their
 *   order change; returns what unsubscribes
 */

export {};
