// @ts-check
// One page of the pager: the photo as large as its column allows (a button that opens the zoom
// view, and a photo that pinches in place), its name, date and size, the info card (shown while
// the info panel is open), the prompt, and the live comment thread. On a wide screen the photo
// takes the left and the rest sits beside it.

import { ZoomablePhoto } from '../photo/zoomable-photo.js';
import { CommentThread } from '../ui/comment-thread.js';
import { dateParts, failureText, infoCard } from '../ui/photo-info.js';
import { Listeners } from '../util/listeners.js';
import { PhotoTrouble } from '../ui/photo-trouble.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {import('../photo/flight.js').Box} Box */
/**
 * Where a photo is on screen, for the zoom view to grow from or shrink into: its box, the part of
 * it shown when zoomed (null at fit), and the element to hide meanwhile.
 * @typedef {{ rect: Box, view: { relative: number, centre: { x: number, y: number } } | null,
 *   element: HTMLElement }} ZoomSource
 */

/** The page of one photo, drawn into a slot of the pager's strip. */
export class PhotoPage {
  /**
   * @param {Photo} photo the photo's record, as the API gives it
   * @param {{ onOpenZoom: (photo: Photo) => void, held?: () => boolean, fittedHeld?: () => boolean,
   *   onSharp?: (page: PhotoPage) => void }} callbacks
   *   `held`: true while its photo asks for no tile but level 0 (hidden under a flight, or waiting
   *   for the photo in front; `resume()` after); `fittedHeld`: the same for the one image it is
   *   drawn from at fit (the photo flying open asks for it at once); `onSharp`: every tile in view
   *   has been drawn
   */
  constructor(photo, { onOpenZoom, held, fittedHeld, onSharp }) {
    this.photo = photo;
    this.onOpenZoom = onOpenZoom;
    this.held = held;
    this.fittedHeld = fittedHeld;
    this.onSharp = onSharp;
    this.listeners = new Listeners();
    this.element = document.createElement('div');
    this.element.className = 'page-inner';
    /** @type {ZoomablePhoto | null} */
    this.zoomable = null;
    /** @type {CommentThread | null} */
    this.thread = null;
    /** @type {HTMLButtonElement | null} */
    this.button = null;
    this.rendered = false;
  }

  render() {
    if (this.rendered) return;
    this.rendered = true;
    const photo = this.photo;
    const failed = photo.status === 'failed';

    const frame = document.createElement('div');
    frame.className = 'photo-frame';
    if (failed) {
      const failure = document.createElement('p');
      failure.className = 'photo-error';
      failure.tabIndex = -1;
      failure.textContent = failureText(photo);
      frame.appendChild(failure);
    } else {
      const open = document.createElement('button');
      open.type = 'button';
      open.className = 'photo-open';
      open.setAttribute('aria-label', `${photo.title}: open zoom view`);
      // The box keeps the photo's shape; CSS makes it as large as the column and the screen allow.
      open.style.setProperty('--ratio', String(photo.width / photo.height));
      this.listeners.on(open, 'click', () => this.onOpenZoom(photo));
      frame.appendChild(open);
      this.button = open;
      /** @type {ZoomablePhoto} */
      const zoomable = new ZoomablePhoto(open, {
        onChange: () => this.zoomChanged(),
        onTiles: () => trouble.set(zoomable.failing, zoomable.blank),
        held: this.held,
        // At fit, one image cut to the box instead of a couple of hundred tiles on a large screen.
        fitted: true,
        fittedHeld: this.fittedHeld,
        onComplete: () => this.onSharp?.(this),
      });
      /** @type {PhotoTrouble} */
      const trouble = new PhotoTrouble(frame, this.listeners, () => zoomable.retry());
      this.zoomable = zoomable;
      this.listeners.add(() => zoomable.destroy());
      zoomable.setPhoto(photo);
      this.listeners.observe(new ResizeObserver(() => zoomable.resize())).observe(open);
    }

    const side = document.createElement('div');
    side.className = 'page-side';
    const caption = document.createElement('div');
    caption.className = 'photo-caption';
    const title = document.createElement('h2');
    title.textContent = photo.title;
    caption.appendChild(title);
    if (!failed) {
      const meta = document.createElement('p');
      meta.className = 'photo-meta';
      const megapixels = (photo.width * photo.height) / 1e6;
      const when = dateParts(photo.taken);
      meta.textContent = (when ? `${when.shortDay}, ${when.time} · ` : '') +
        `${photo.width} × ${photo.height} · ${megapixels >= 1 ? megapixels.toFixed(1) + ' MP' : 'small'}` +
        (photo.status === 'processing' ? ' · processing' : '');
      caption.appendChild(meta);
    }
    const info = infoCard(photo);

    const prompt = document.createElement('h3');
    prompt.className = 'prompt';
    prompt.textContent = 'What name fits me best?';

    const list = document.createElement('ol');
    list.className = 'comments';
    list.setAttribute('aria-label', `Comments on ${photo.title}`);
    list.setAttribute('aria-live', 'polite');
    list.setAttribute('aria-busy', 'true');
    const empty = document.createElement('p');
    empty.className = 'comments-empty';
    empty.textContent = 'No names yet. Be the first.';
    empty.hidden = true;
    const problem = document.createElement('p');
    problem.className = 'comments-error';
    problem.setAttribute('role', 'status');
    problem.hidden = true;
    // "No names yet" is said only of a thread that loaded, never beside an error.
    this.thread = new CommentThread(list, photo.id, ({ state, count }) => {
      empty.hidden = !(state === 'ready' && count === 0);
      problem.hidden = state !== 'error';
      problem.textContent = state === 'error' ? 'The comments could not be loaded. They will be tried again.' : '';
    }, this.listeners);
    this.thread.load();

    side.append(caption, info, prompt, list, empty, problem);
    this.element.replaceChildren(frame, side);
  }

  /** A zoomed photo takes every touch on it (it pans); at fit, a vertical drag scrolls the page. */
  zoomChanged() {
    if (this.zoomable) this.button?.classList.toggle('zoomed', !this.zoomable.atFit);
  }

  /**
   * Where the photo is on screen, and what part of it shows, for the zoom view to grow from.
   * @returns {ZoomSource | null}
   */
  zoomSource() {
    const z = this.zoomable, button = this.button;
    if (!z?.photo || !button) return null;
    z.resize(); // a page drawn a moment ago may not have been measured yet
    const rect = z.screenRect();
    const frame = button.getBoundingClientRect();
    // A photo scrolled out of sight has nothing to grow from.
    if (frame.bottom <= 0 || frame.top >= window.innerHeight || frame.width < 1) return null;
    const view = z.atFit ? null : { relative: z.s / z.fitScale, centre: z.toPhoto(z.vw / 2, z.vh / 2) };
    return { rect, view, element: button };
  }

  /** No longer hidden under a flight: its photo asks for the tiles that waited. */
  resume() { this.zoomable?.resume(); }

  /** Back at fit (the page went off screen, as in Photos). */
  resetZoom() {
    if (this.zoomable?.photo && !this.zoomable.atFit) this.zoomable.fit();
  }

  /**
   * Only the page in front keeps a live connection.
   * @param {boolean} current
   */
  setCurrent(current) {
    if (!this.thread) return;
    if (current) this.thread.listen();
    else this.thread.stop();
  }

  /** Lets go of its photo, its thread's stream, every listener and observer, and leaves the page. */
  destroy() {
    this.listeners.destroy();
    this.zoomable = null;
    this.thread = null;
    this.element.remove();
  }
}
