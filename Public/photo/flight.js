// @ts-check
// The photo flying between its square grid cell and its box on the page, as Photos opens a photo
// out of the grid and shrinks it back in. A copy flies above everything: the square thumbnail
// grows into the whole photo (its one-tile level 0 around it) while the view behind fades.

import { Animation, Spring, prefersReducedMotion } from '../util/motion.js';
import { tileURL } from './pyramid.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {{ left: number, top: number, width: number, height: number }} Box a box in viewport px */
/** @typedef {{ rect: Box, square?: boolean }} FlightEnd one end of a flight: a grid cell is `square` */

/** @type {{ box: HTMLElement, animation: Animation, done: () => void } | null} */
let flight = null;

/**
 * Flies `photo` from box `from` to box `to` (viewport rects; `square: true` for a grid cell,
 * which shows the thumbnail's centre crop). `onProgress(p)` hears 0 → 1 each frame, for the
 * views behind to fade. Resolves when it lands, or at once under reduced motion.
 * @param {Photo | null | undefined} photo
 * @param {FlightEnd | null | undefined} from
 * @param {FlightEnd | null | undefined} to
 * @param {(progress: number) => void} [onProgress]
 * @returns {Promise<void>}
 */
export function flyPhoto(photo, from, to, onProgress) {
  cancelFlight();
  if (prefersReducedMotion() || !photo || !from || !to || photo.status === 'failed') {
    onProgress?.(1);
    return Promise.resolve();
  }
  const box = document.createElement('div');
  box.className = 'photo-flight';
  box.setAttribute('aria-hidden', 'true');
  const whole = document.createElement('img');
  whole.className = 'flight-whole';
  whole.alt = '';
  whole.src = tileURL(photo, 0, 0, 0);
  const thumb = document.createElement('img');
  thumb.className = 'flight-thumb';
  thumb.alt = '';
  thumb.src = photo.thumbnail;
  box.append(whole, thumb);
  document.body.appendChild(box);
  const ratio = photo.width / photo.height;
  const a = frame(from, ratio), b = frame(to, ratio);
  /** @type {(x: Box, y: Box, p: number) => Box} */
  const mix = (x, y, p) => ({ left: x.left + (y.left - x.left) * p, top: x.top + (y.top - x.top) * p,
    width: x.width + (y.width - x.width) * p, height: x.height + (y.height - x.height) * p });
  const draw = (/** @type {number} */ p) => {
    const clip = mix(a.clip, b.clip, p), image = mix(a.image, b.image, p);
    Object.assign(box.style, px(clip));
    Object.assign(whole.style, px({ left: image.left - clip.left, top: image.top - clip.top, width: image.width, height: image.height }));
    // The thumbnail is the photo's centred square; it fades as the whole photo opens around it.
    const side = Math.min(image.width, image.height);
    Object.assign(thumb.style, px({ left: image.left - clip.left + (image.width - side) / 2,
      top: image.top - clip.top + (image.height - side) / 2, width: side, height: side }));
    const squareness = from.square ? 1 - p : p;
    thumb.style.opacity = String(Math.min(1, squareness * 1.6));
    onProgress?.(p);
  };
  draw(0);
  return new Promise((/** @type {(value: void) => void} */ resolve) => {
    const done = () => { box.remove(); if (flight?.box === box) flight = null; resolve(); };
    const animation = new Animation([new Spring({ from: 0, to: 1, frequency: 19, precision: 1e-3 })],
      ([p]) => draw(Math.min(1, p)), done);
    flight = { box, animation, done };
  });
}

/** A flight still under way lands at once (another view is wanted right now). */
export function cancelFlight() {
  if (!flight) return;
  const { animation, done } = flight;
  animation.stop();
  done();
}

/**
 * The visible box and the whole photo's box for one end of the flight.
 * @param {FlightEnd} end
 * @param {number} ratio
 * @returns {{ clip: Box, image: Box }}
 */
function frame(end, ratio) {
  const r = end.rect;
  if (!end.square) return { clip: { ...rectOf(r) }, image: { ...rectOf(r) } };
  // A square cell shows the photo's centre, cropped to cover it.
  const side = Math.max(r.width, r.height);
  const width = ratio >= 1 ? side * ratio : side, height = ratio >= 1 ? side : side / ratio;
  return {
    clip: rectOf(r),
    image: { left: r.left + (r.width - width) / 2, top: r.top + (r.height - height) / 2, width, height },
  };
}

/** @param {Box} r @returns {Box} */
const rectOf = (r) => ({ left: r.left, top: r.top, width: r.width, height: r.height });
/** @param {Record<string, number>} o */
const px = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, `${v}px`]));
