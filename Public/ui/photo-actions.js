// @ts-check
// The buttons of the photo in front, in the pager's bar: slideshow, share, download the original,
// full screen, and the info panel (also opened by swiping up on the photo, as in Photos, and by
// the "i" key). The panel stays open from photo to photo until it is closed.

import { share } from './share.js';
import { Keys } from '../util/keyboard.js';

export class PhotoActions {
  /**
   * @param {HTMLElement} root the pager, whose bar holds the buttons
   * @param {{pager, fullscreen, slideshow, link: (photo) => string}} options
   */
  constructor(root, { pager, fullscreen, slideshow, link }) {
    this.root = root;
    this.pager = pager;
    this.fullscreen = fullscreen;
    this.slideshow = slideshow;
    this.link = link;
    this.photo = null;
    this.infoButton = root.querySelector('.action-info');
    this.download = /** @type {HTMLAnchorElement} */ (root.querySelector('.action-download'));
    this.fullscreenButton = root.querySelector('.action-fullscreen');
    this.infoButton.addEventListener('click', () => this.setInfo(!this.infoOpen));
    root.querySelector('.action-share').addEventListener('click', () => { if (this.photo) share(this.photo.title, this.link(this.photo)); });
    root.querySelector('.action-slideshow').addEventListener('click', () => this.slideshow.start(Math.max(0, pager.index)));
    this.fullscreenButton.addEventListener('click', () => this.fullscreen.toggle());
    root.querySelector('.immersive-exit').addEventListener('click', () => this.fullscreen.exit());
    // Its keys listen while the pager is on screen (setShown).
    this.keys = new Keys((e) => this.key(e), { on: !root.hidden });
    this.watchSwipeUp(root.querySelector('.pager-strip'));
  }

  /** The pager came on screen or left it: the keys listen while it is there. */
  setShown(shown) { this.keys.on = shown; }

  get infoOpen() { return this.root.classList.contains('info-open'); }

  /** The photo in front changed. */
  setPhoto(photo) {
    this.photo = photo;
    const failed = photo.status === 'failed';
    // The original can be downloaded when the server links it (the downloadOriginals setting).
    this.download.hidden = !photo.original;
    if (photo.original) {
      this.download.href = photo.original;
      this.download.setAttribute('aria-label', `Download the original of ${photo.title}`);
    } else {
      this.download.removeAttribute('href');
    }
    /** @type {HTMLButtonElement} */ (this.root.querySelector('.action-slideshow')).disabled = failed && this.pager.count <= 1;
  }

  /** Opens or closes the info panel; opening on a phone scrolls the card into view under the photo. */
  setInfo(open) {
    this.root.classList.toggle('info-open', open);
    this.infoButton.setAttribute('aria-expanded', String(open));
    this.infoButton.classList.toggle('active', open);
    if (!open) return;
    const card = this.pager.page?.element.querySelector('.photo-info');
    if (!card) return;
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
    card.scrollIntoView({ block: 'nearest', behavior: smooth ? 'smooth' : 'auto' });
  }

  /** A finger that moves up on the photo at least 40 px, mostly straight, opens the panel. */
  watchSwipeUp(strip) {
    let start = null;
    strip.addEventListener('touchstart', (e) => {
      const onPhoto = e.touches.length === 1 && e.target instanceof Element && e.target.closest('.photo-open');
      start = onPhoto && !onPhoto.classList.contains('zoomed') ? { x: e.touches[0].clientX, y: e.touches[0].clientY } : null;
    }, { passive: true });
    strip.addEventListener('touchend', (e) => {
      if (!start || e.changedTouches.length !== 1) return;
      const dx = e.changedTouches[0].clientX - start.x, dy = e.changedTouches[0].clientY - start.y;
      start = null;
      if (dy < -40 && Math.abs(dy) > 2 * Math.abs(dx) && !this.infoOpen) this.setInfo(true);
    }, { passive: true });
    strip.addEventListener('touchcancel', () => { start = null; }, { passive: true });
  }

  key(e) {
    if (this.root.hidden || e.altKey || e.ctrlKey || e.metaKey || this.slideshow.playing) return;
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (document.getElementById('zoom-view')?.hidden === false) return;
    if (e.key === 'i') { e.preventDefault(); this.setInfo(!this.infoOpen); }
    else if (e.key === 'f') { e.preventDefault(); this.fullscreen.toggle(); }
  }
}
