// @ts-check
// The buttons of the photo in front, in the pager's bar: slideshow, share, download the original,
// full screen, Add to Album, Remove from Album (inside an album) and Delete (for whoever may
// change the library: the same code paths
// and rules as the grid's Select, ui/selection.js), and the info panel (also opened by swiping up
// on the photo, as in Photos, and by the "i" key). The panel stays open from photo to photo until
// it is closed. Keys: i (info), f (favourite), Delete or Backspace (delete), shift-F (full screen).

import { share } from './share.js';
import { ActionOverflow } from './action-overflow.js';
import { Keys } from '../util/keyboard.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Photo} Photo */

/** Whether this visitor may change the library (styles/access.css shows the buttons by the same class). */
function mayManage() { return document.documentElement.classList.contains('may-manage'); }

export class PhotoActions {
  /**
   * @param {HTMLElement} root the pager, whose bar holds the buttons
   * @param {{ pager: import('../views/pager.js').Pager, fullscreen: import('./fullscreen.js').FullScreen,
   *   slideshow: import('../views/slideshow.js').Slideshow, link: (photo: Photo) => string,
   *   share?: (photo: Photo) => boolean, selection: import('./selection.js').Selection,
   *   favourite: () => void, onEmpty: () => void }} options `share`: shares the photo another way (the owner's
   *   Share sheet) and says so; false leaves it to the system's share sheet or the clipboard;
   *   `selection`: the grid's actions, used for the photo in front; `favourite`: the heart's
   *   toggle; `onEmpty`: the last photo of the list was deleted
   */
  constructor(root, { pager, fullscreen, slideshow, link, share: shareOtherwise, selection, favourite, onEmpty }) {
    this.root = root;
    this.selection = selection;
    this.favourite = favourite;
    this.onEmpty = onEmpty;
    this.pager = pager;
    this.fullscreen = fullscreen;
    this.slideshow = slideshow;
    this.link = link;
    this.listeners = new Listeners();
    /** @type {Photo | null} */
    this.photo = null;
    /** A delete is on its way: a second press waits for it. */
    this.deleting = false;
    this.infoButton = element(root, '.action-info', HTMLButtonElement);
    this.download = element(root, '.action-download', HTMLAnchorElement);
    this.fullscreenButton = element(root, '.action-fullscreen', HTMLButtonElement);
    this.slideshowButton = element(root, '.action-slideshow', HTMLButtonElement);
    const on = this.listeners;
    on.on(this.infoButton, 'click', () => this.setInfo(!this.infoOpen));
    on.on(element(root, '.action-share', HTMLButtonElement), 'click', () => {
      if (this.photo && !shareOtherwise?.(this.photo)) share(this.photo.title, this.link(this.photo));
    });
    on.on(this.slideshowButton, 'click', () => this.slideshow.start(Math.max(0, pager.index)));
    on.on(this.fullscreenButton, 'click', () => this.fullscreen.toggle());
    on.on(element(root, '.action-delete', HTMLButtonElement), 'click', () => { this.delete(); });
    on.on(element(root, '.action-album', HTMLButtonElement), 'click', () => {
      if (this.photo) this.selection.openSheet([this.photo.id]);
    });
    this.unalbumButton = element(root, '.action-unalbum', HTMLButtonElement);
    on.on(this.unalbumButton, 'click', () => { this.takeOut(); });
    on.on(element(root, '.immersive-exit', HTMLButtonElement), 'click', () => this.fullscreen.exit());
    // On a narrow phone, the buttons that do not fit wait behind More.
    const overflow = new ActionOverflow(element(root, '.pager-actions', HTMLElement), element(root, '.action-more', HTMLButtonElement),
      element(root, '.pager-more-menu', HTMLElement));
    this.overflow = overflow;
    on.add(() => overflow.destroy());
    // Its keys listen while the pager is on screen (setShown).
    this.keys = new Keys((e) => this.key(e), { on: !root.hidden });
    on.add(() => { this.keys.on = false; });
    this.watchSwipeUp(element(root, '.pager-strip', HTMLElement));
  }

  /**
   * The pager came on screen or left it: the keys listen while it is there.
   * @param {boolean} shown
   */
  setShown(shown) {
    this.keys.on = shown;
    if (!shown) this.overflow.setOpen(false);
    if (shown) this.showEnd();
  }

  /** On the narrowest phones the row scrolls: its end (Favourite, Add to Album, Delete, Info) in view. */
  showEnd() {
    const row = this.infoButton.parentElement;
    if (row) row.scrollLeft = row.scrollWidth;
  }

  get infoOpen() { return this.root.classList.contains('info-open'); }

  /**
   * The photo in front changed.
   * @param {Photo} photo
   */
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
    this.slideshowButton.disabled = failed && this.pager.count <= 1;
    // Remove from Album only while paging through an album (not a folder, the library or a search).
    this.unalbumButton.hidden = !this.selection.inAlbum();
    // The download button shown or not changes the row's width.
    this.showEnd();
  }

  /**
   * Opens or closes the info panel; opening on a phone scrolls the card into view under the photo.
   * @param {boolean} open
   */
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

  /**
   * A finger that moves up on the photo at least 40 px, mostly straight, opens the panel.
   * @param {HTMLElement} strip
   */
  watchSwipeUp(strip) {
    /** @type {{ x: number, y: number } | null} */
    let start = null;
    const on = this.listeners;
    on.on(strip, 'touchstart', (e) => {
      const onPhoto = e.touches.length === 1 && e.target instanceof Element && e.target.closest('.photo-open');
      start = onPhoto && !onPhoto.classList.contains('zoomed') ? { x: e.touches[0].clientX, y: e.touches[0].clientY } : null;
    }, { passive: true });
    on.on(strip, 'touchend', (e) => {
      if (!start || e.changedTouches.length !== 1) return;
      const dx = e.changedTouches[0].clientX - start.x, dy = e.changedTouches[0].clientY - start.y;
      start = null;
      if (dy < -40 && Math.abs(dy) > 2 * Math.abs(dx) && !this.infoOpen) this.setInfo(true);
    }, { passive: true });
    on.on(strip, 'touchcancel', () => { start = null; }, { passive: true });
  }

  /**
   * The photo in front to Recently Deleted (Undo in the toast); the next takes its place, or the
   * one before when it was the last, and the grid comes back when none is left.
   */
  async delete() {
    const photo = this.photo;
    if (!photo || !mayManage() || this.deleting) return;
    this.deleting = true;
    try {
      if (await this.selection.trash([photo.id]) && this.pager.count === 0) this.onEmpty();
    } finally {
      this.deleting = false;
    }
  }

  /** The photo in front out of the album shown; the next takes its place, as after a delete. */
  async takeOut() {
    const photo = this.photo;
    if (!photo || !mayManage() || this.deleting) return;
    this.deleting = true;
    try {
      if (await this.selection.takeOut([photo.id]) && this.pager.count === 0) this.onEmpty();
    } finally {
      this.deleting = false;
    }
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (this.root.hidden || e.altKey || e.ctrlKey || e.metaKey || this.slideshow.playing) return;
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (document.getElementById('zoom-view')?.hidden === false) return;
    if (this.selection.sheet.open) return;
    if (e.key === 'i') { e.preventDefault(); this.setInfo(!this.infoOpen); }
    else if (e.key === 'F') { e.preventDefault(); this.fullscreen.toggle(); }
    else if (e.key === 'f' && mayManage()) { e.preventDefault(); this.favourite(); }
    else if ((e.key === 'Delete' || e.key === 'Backspace') && mayManage()) { e.preventDefault(); this.delete(); }
  }

  /** Lets go of its keys and listeners. */
  destroy() { this.listeners.destroy(); }
}
