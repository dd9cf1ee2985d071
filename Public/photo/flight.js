// @ts-check
// The photo flying between its square grid cell and its box on the page, as Photos opens a photo
// out of the grid and shrinks it back in. A copy flies above everything: the square thumbnail
// grows into the whole photo (its one-tile level 0 around it) while the view behind fades.
//
// It flies on the compositor: the copy is laid out once, where it lands, and only `transform`
// and `opacity` animate (Web Animations, sampled from the same spring as every settle), so a busy
// main thread (the page it opens being built) costs it no frame. The square crop is a box that
// clips, scaled to the crop, with the photo inside scaled back by as much: together they draw the
// clip and the photo each at their place in the flight.

import { flightStarted, prefersReducedMotion, springCurve } from '../util/motion.js';
import { tileURL } from './pyramid.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {{ left: number, top: number, width: number, height: number }} Box a box in viewport px */
/** @typedef {{ rect: Box, square?: boolean }} FlightEnd one end of a flight: a grid cell is `square` */
/** @typedef {{ element: HTMLElement, from: number, to: number }} Fade a view fading as the photo flies */

/** The spring of the flight, as the settles' (radians per second). */
const FREQUENCY = 19;

/** @type {{ box: HTMLElement, animations: Animation[], done: () => void } | null} */
let flight = null;

/**
 * Whether `photo` flies between two places it has: not under reduced motion, and not a photo that
 * failed (it has no picture to fly).
 * @param {Photo} photo
 */
export function canFly(photo) {
  return !prefersReducedMotion() && photo.status !== 'failed';
}

/**
 * Flies `photo` from box `from` to box `to` (viewport rects; `square: true` for a grid cell,
 * which shows the thumbnail's centre crop), fading each of `fades` along. Resolves when it
 * lands, or at once under reduced motion.
 * @param {Photo | null | undefined} photo
 * @param {FlightEnd | null | undefined} from
 * @param {FlightEnd | null | undefined} to
 * @param {Fade[]} [fades]
 * @returns {Promise<void>}
 */
export function flyPhoto(photo, from, to, fades = []) {
  cancelFlight();
  if (!photo || !from || !to || !canFly(photo)) return Promise.resolve();
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

  const ratio = photo.width / photo.height;
  const a = frame(from, ratio), b = frame(to, ratio);
  // Laid out once, where it lands; every frame of the flight is a transform of that.
  place(box, b.clip);
  const wholeBase = inside(b.image, b.clip);
  place(whole, wholeBase);
  const thumbBase = inside(square(b.image), b.clip);
  place(thumb, thumbBase);

  const { duration, progress } = springCurve(FREQUENCY);
  const offsets = progress.map((_, i) => i / (progress.length - 1));
  /** @type {Keyframe[]} */
  const boxFrames = [];
  /** @type {Keyframe[]} */
  const wholeFrames = [];
  /** @type {Keyframe[]} */
  const thumbFrames = [];
  progress.forEach((p, i) => {
    const clip = mix(a.clip, b.clip, p), image = mix(a.image, b.image, p);
    const kx = clip.width / b.clip.width, ky = clip.height / b.clip.height;
    boxFrames.push({ offset: offsets[i], transform: mapping(b.clip, clip) });
    // Inside the box, in its own (unscaled) px: where the photo must be for the box's scale to put it at `image`.
    const local = (/** @type {Box} */ r) => ({ left: (r.left - clip.left) / kx, top: (r.top - clip.top) / ky,
      width: r.width / kx, height: r.height / ky });
    wholeFrames.push({ offset: offsets[i], transform: mapping(wholeBase, local(image)) });
    // The thumbnail is the photo's centred square; it fades as the whole photo opens around it.
    const squareness = from.square ? 1 - p : p;
    thumbFrames.push({ offset: offsets[i], transform: mapping(thumbBase, local(square(image))),
      opacity: Math.min(1, squareness * 1.6) });
  });
  const timing = { duration, fill: /** @type {FillMode} */ ('both') };
  document.body.appendChild(box);
  const animations = [box.animate(boxFrames, timing), whole.animate(wholeFrames, timing), thumb.animate(thumbFrames, timing)];
  for (const fade of fades) {
    animations.push(fade.element.animate(progress.map((p, i) => ({ offset: offsets[i], opacity: fade.from + (fade.to - fade.from) * p })),
      { duration, fill: 'forwards' }));
  }
  const landed = flightStarted();
  return new Promise((resolve) => {
    const done = () => {
      if (flight?.box !== box) return;
      flight = null;
      landed();
      box.remove();
      // The views faded keep what they came to: the caller sets it, and the animations go.
      for (const animation of animations) animation.cancel();
      resolve();
    };
    flight = { box, animations, done };
    animations[0].finished.then(done, done);
  });
}

/** A flight still under way lands at once (another view is wanted right now). */
export function cancelFlight() {
  flight?.done();
}

/**
 * The visible box and the whole photo's box for one end of the flight.
 * @param {FlightEnd} end
 * @param {number} ratio
 * @returns {{ clip: Box, image: Box }}
 */
function frame(end, ratio) {
  const r = end.rect;
  if (!end.square) return { clip: rectOf(r), image: rectOf(r) };
  // A square cell shows the photo's centre, cropped to cover it.
  const side = Math.max(r.width, r.height);
  const width = ratio >= 1 ? side * ratio : side, height = ratio >= 1 ? side : side / ratio;
  return {
    clip: rectOf(r),
    image: { left: r.left + (r.width - width) / 2, top: r.top + (r.height - height) / 2, width, height },
  };
}

/**
 * The transform (origin at the top left) that draws box `base` at box `at`.
 * @param {Box} base
 * @param {Box} at
 */
function mapping(base, at) {
  return `translate(${at.left - base.left}px, ${at.top - base.top}px) scale(${at.width / base.width}, ${at.height / base.height})`;
}

/**
 * `r` in the coordinates of box `outer`.
 * @param {Box} r
 * @param {Box} outer
 * @returns {Box}
 */
function inside(r, outer) {
  return { left: r.left - outer.left, top: r.top - outer.top, width: r.width, height: r.height };
}

/**
 * The centred square of a box.
 * @param {Box} r
 * @returns {Box}
 */
function square(r) {
  const side = Math.min(r.width, r.height);
  return { left: r.left + (r.width - side) / 2, top: r.top + (r.height - side) / 2, width: side, height: side };
}

/**
 * @param {Box} x
 * @param {Box} y
 * @param {number} p
 * @returns {Box}
 */
function mix(x, y, p) {
  return { left: x.left + (y.left - x.left) * p, top: x.top + (y.top - x.top) * p,
    width: x.width + (y.width - x.width) * p, height: x.height + (y.height - x.height) * p };
}

/**
 * @param {Box} r
 * @returns {Box}
 */
function rectOf(r) { return { left: r.left, top: r.top, width: r.width, height: r.height }; }

/**
 * @param {HTMLElement} element
 * @param {Box} r
 */
function place(element, r) {
  Object.assign(element.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
}
