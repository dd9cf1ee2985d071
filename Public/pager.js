// The pager: one page per photo on a horizontal scroll-snap strip with an 8 px gap, page dots
// that follow the swipe, arrow keys, and the neighbours of the current page preloaded.

import { PhotoPage } from './photo-page.js';

/** Horizontal photo pager; `onChange(photo)` is told whenever another page settles in front. */
export class Pager {
  constructor(root, { onChange, onOpenZoom, isBusy }) {
    this.root = root;
    this.strip = root.querySelector('.pager-strip');
    this.dots = root.querySelector('.pager-dots');
    this.onChange = onChange;
    this.onOpenZoom = onOpenZoom;
    this.isBusy = isBusy;
    this.photos = [];
    this.pages = [];
    this.index = -1;
    this.strip.addEventListener('scroll', () => this.scrolled(), { passive: true });
    this.strip.addEventListener('scrollend', () => this.settled());
    // A new width moves every page; a new height (a phone's address bar sliding away) moves none,
    // and snapping then would jerk a swipe in progress.
    let width = 0;
    new ResizeObserver(() => {
      if (this.strip.clientWidth === width) return;
      width = this.strip.clientWidth;
      this.snapTo(this.index, 'instant');
    }).observe(this.strip);
    document.addEventListener('keydown', (e) => this.key(e));
    this.previousButton = root.querySelector('.pager-prev');
    this.nextButton = root.querySelector('.pager-next');
    this.previousButton.addEventListener('click', () => this.goTo(this.index - 1));
    this.nextButton.addEventListener('click', () => this.goTo(this.index + 1));
  }

  /** Builds one (empty) page and one dot per photo. */
  setPhotos(photos) {
    this.pages.forEach((page) => page.destroy());
    this.photos = photos;
    this.strip.replaceChildren();
    this.dots.replaceChildren();
    this.pages = photos.map((photo, i) => {
      const page = new PhotoPage(photo, { onOpenZoom: () => this.onOpenZoom(photo) });
      this.strip.appendChild(page.element);
      const dot = document.createElement('button');
      dot.type = 'button';
      dot.className = 'dot';
      dot.setAttribute('aria-label', `Photo ${i + 1} of ${photos.length}`);
      dot.addEventListener('click', () => this.goTo(i, 'smooth'));
      this.dots.appendChild(dot);
      return page;
    });
    this.index = -1;
  }

  get pageStride() {
    const gap = Number.parseFloat(getComputedStyle(this.strip).columnGap) || 0;
    return this.strip.clientWidth + gap;
  }

  get current() { return this.photos[this.index]; }

  indexOf(id) { return this.photos.findIndex((p) => p.id === id); }

  /** Brings page `i` in front: 'instant' for a link or reload, 'smooth' for a tap or key. */
  goTo(i, behavior = 'smooth') {
    if (i < 0 || i >= this.photos.length) return false;
    this.snapTo(i, behavior);
    if (behavior !== 'smooth') this.select(i);
    return true;
  }

  snapTo(i, behavior) {
    if (i < 0) return;
    this.strip.scrollTo({ left: i * this.pageStride, behavior });
  }

  scrolled() {
    // The dots follow the finger: the page that is mostly in view is the current one.
    const i = Math.max(0, Math.min(this.photos.length - 1, Math.round(this.strip.scrollLeft / this.pageStride)));
    this.markDot(i);
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => this.settled(), 160);
  }

  settled() {
    clearTimeout(this.settleTimer);
    const i = Math.round(this.strip.scrollLeft / this.pageStride);
    if (i >= 0 && i < this.photos.length) this.select(i);
  }

  markDot(i) {
    this.previousButton.disabled = i <= 0;
    this.nextButton.disabled = i >= this.photos.length - 1;
    [...this.dots.children].forEach((dot, j) => {
      if (j === i) dot.setAttribute('aria-current', 'page');
      else dot.removeAttribute('aria-current');
    });
  }

  select(i) {
    this.markDot(i);
    if (i === this.index) return;
    const previous = this.pages[this.index];
    this.index = i;
    previous?.setCurrent(false);
    // The pages beside the current one are drawn ahead, so a swipe never lands on an empty page.
    this.renderAround(i);
    this.pages[i].setCurrent(true);
    // Only the page in front takes focus and clicks: Tab never wanders onto a page off screen
    // (which would scroll the strip back to it).
    this.pages.forEach((page, j) => { page.element.inert = j !== i; });
    const active = document.activeElement;
    if (!this.root.hidden && active && active.closest('.page') && active.closest('.page') !== this.pages[i].element) {
      this.focusPhoto();
    }
    this.onChange(this.photos[i]);
  }

  /** Draws the page in front and its neighbours (unless covered by the zoom view); drops far ones. */
  renderAround(i) {
    if (this.covered) return;
    this.pages.forEach((page, j) => {
      if (Math.abs(j - i) <= 1) page.render();
      else if (Math.abs(j - i) > 3) page.unrender();
    });
  }

  /**
   * While the zoom view covers the pager nothing new is drawn underneath, so the tiles on screen
   * get the connections to themselves; uncovering draws what is now in front.
   */
  setCovered(covered) {
    this.covered = covered;
    if (!covered && this.index >= 0) {
      this.renderAround(this.index);
      this.pages[this.index].setCurrent(true);
    }
  }

  /**
   * Opens or closes the live comment stream of the page in front. A page left for another (and
   * perhaps kept in the back-forward cache) must not hold one of the browser's few connections
   * to the server: over HTTP/1.1 six open streams would leave no room for tiles.
   */
  setLive(live) {
    const page = this.pages[this.index];
    if (page) page.setCurrent(live);
  }

  /** Puts keyboard focus on the photo in front, without scrolling anything. */
  focusPhoto() {
    this.pages[this.index]?.element.querySelector('.photo-open')?.focus({ preventScroll: true });
  }

  /** A comment the person just sent shows at once, whatever the live stream does. */
  addComment(comment) {
    const page = this.pages[this.indexOf(comment.photoId)];
    page?.thread?.add(comment);
  }

  key(e) {
    if (this.root.hidden || this.isBusy() || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft' && this.goTo(this.index - 1)) e.preventDefault();
    else if (e.key === 'ArrowRight' && this.goTo(this.index + 1)) e.preventDefault();
  }
}
