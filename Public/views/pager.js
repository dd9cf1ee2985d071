// @ts-check
// The pager: photo pages on a strip with an 8 px gap, moved by the finger (a zoomed photo pans to
// its edge first, then the same drag brings its neighbour), by trackpad, arrow keys, the buttons
// beside the photo and the page dots. Five pages exist whatever the size of the library: the one
// in front, drawn with its neighbours, and one more on each side waiting to be handed a photo.
// Photos come from a sequence (see photo-sequence.js), never from a list of them all.

import { PhotoPage } from './photo-page.js';
import { PageDots } from '../ui/page-dots.js';
import { SlideStrip } from '../photo/slide-strip.js';
import { ViewerGestures } from '../gestures/viewer-gestures.js';
import { WheelGesture } from '../gestures/wheel.js';
import { Keys } from '../util/keyboard.js';

const GAP = 8;

/** Horizontal photo pager; `onChange(photo)` is told whenever another page settles in front. */
/** @typedef {HTMLElement & { pageIndex: number | null, page: PhotoPage | null }} PageSlot */

export class Pager {
  constructor(root, { sequence, onChange, onOpenZoom, isBusy }) {
    this.root = root;
    this.sequence = sequence;
    this.onChange = onChange;
    this.onOpenZoom = onOpenZoom;
    this.isBusy = isBusy;
    this.element = root.querySelector('.pager-strip');
    this.index = -1;
    this.covered = false;
    this.strip = new SlideStrip(this.element, {
      slots: 5, gap: GAP, count: () => sequence.count,
      createSlot: () => {
        const slot = /** @type {PageSlot} */ (document.createElement('section'));
        slot.className = 'page';
        slot.page = null;
        return slot;
      },
      fill: (slot, i) => this.fill(slot, i),
      onSettle: (i) => this.select(i),
      onMove: (position) => this.markDot(Math.round(position)),
    });
    this.dots = new PageDots(root.querySelector('.pager-dots'), { onSelect: (i) => this.goTo(i) });
    const target = (e) => this.target(e);
    this.gestures = new ViewerGestures(this.element, {
      strip: this.strip, target,
      // The mouse selects text and clicks; it drags only a photo that is zoomed in.
      accepts: (e, t) => e.pointerType !== 'mouse' || Boolean(t?.photo && !t.photo.atFit),
    });
    this.wheel = new WheelGesture(this.element, { strip: this.strip, target, wheelZooms: false });
    sequence.subscribe(() => this.sequenceChanged());
    // A new width moves every page; a new height (a phone's address bar sliding away) moves none.
    new ResizeObserver(() => this.strip.layout()).observe(this.element);
    // Its keys listen while it is on screen (setShown).
    this.keys = new Keys((e) => this.key(e), { on: !root.hidden });
    this.dots.keys.on = this.keys.on;
    this.previousButton = root.querySelector('.pager-prev');
    this.nextButton = root.querySelector('.pager-next');
    this.previousButton.addEventListener('click', () => this.goTo(this.index - 1));
    this.nextButton.addEventListener('click', () => this.goTo(this.index + 1));
  }

  /** On screen or not: hidden, it takes no keys (its dots none either). */
  setShown(shown) {
    this.root.hidden = !shown;
    this.keys.on = shown;
    this.dots.keys.on = shown;
  }

  get count() { return this.sequence.count; }
  /** The photo in front. */
  get current() { return this.sequence.peek(this.index); }
  get page() { return this.strip.slotFor(this.index)?.page ?? null; }

  /** The photo under the finger: the page mostly in view, and its photo if the finger is on it. */
  target(e) {
    const slot = this.strip.slotFor(this.strip.nearest);
    if (!slot) return null;
    const onPhoto = slot.page?.zoomable && e.target instanceof Element && slot.contains(e.target.closest('.photo-open'));
    return { photo: onPhoto ? slot.page.zoomable : null, page: slot.pageIndex };
  }

  /** A slot was handed page `i`: it gets that photo's page, drawn now if it is near the front. */
  fill(slot, i) {
    slot.page?.destroy();
    slot.page = null;
    slot.removeAttribute('aria-label');
    delete slot.dataset.photoId;
    if (!this.strip.hasPage(i)) return;
    const place = (photo) => {
      if (!photo || slot.pageIndex !== i || slot.page) return;
      slot.page = new PhotoPage(photo, { onOpenZoom: (p) => this.onOpenZoom(p) });
      slot.dataset.photoId = photo.id;
      slot.setAttribute('aria-label', photo.title);
      slot.scrollTop = 0;
      slot.appendChild(slot.page.element);
      if (!this.covered && Math.abs(i - this.strip.nearest) <= 1) slot.page.render();
      if (i === this.index) this.pageArrived(slot);
    };
    const known = this.sequence.peek(i);
    if (known) place(known);
    else this.sequence.at(i).then(place, () => {});
  }

  /** Brings page `i` in front: 'instant' for a link or reload, 'smooth' for a tap or key. */
  goTo(i, behavior = 'smooth') {
    if (i < 0 || i >= this.count) return false;
    if (behavior === 'instant') this.strip.jump(i);
    else this.strip.animateTo(i);
    return true;
  }

  markDot(i) {
    const count = this.count;
    this.previousButton.disabled = i <= 0;
    this.nextButton.disabled = i >= count - 1;
    if (this.dots.count !== count || this.dots.index !== i) this.dots.set(count, Math.max(0, Math.min(count - 1, i)));
  }

  select(i) {
    this.markDot(i);
    const changed = i !== this.index;
    this.index = i;
    this.renderAround(i);
    for (const slot of this.strip.slots) {
      if (slot.pageIndex !== i) { slot.page?.setCurrent(false); slot.page?.resetZoom(); }
    }
    const slot = this.strip.slotFor(i);
    if (!changed || !slot?.page) return;
    this.pageArrived(slot);
  }

  /** The page in front is drawn: it goes live, takes focus from a page that left, and is announced. */
  pageArrived(slot) {
    slot.page.render();
    if (!this.covered) slot.page.setCurrent(true);
    const active = document.activeElement;
    if (!this.root.hidden && active?.closest?.('.page') && active.closest('.page') !== slot) this.focusPhoto();
    this.onChange(slot.page.photo);
  }

  /** Draws the page in front and its neighbours, unless the zoom view covers them. */
  renderAround(i) {
    if (this.covered) return;
    for (const slot of this.strip.slots) {
      if (slot.page && Math.abs(slot.pageIndex - i) <= 1) slot.page.render();
    }
  }

  /**
   * While the zoom view covers the pager nothing new is drawn underneath, so the tiles on screen
   * get the connections to themselves; uncovering draws what is now in front.
   */
  setCovered(covered) {
    this.covered = covered;
    if (covered || this.index < 0) return;
    this.renderAround(this.index);
    this.page?.setCurrent(true);
  }

  /**
   * Opens or closes the live comment stream of the page in front. A page left for another (and
   * perhaps kept in the back-forward cache) must not hold one of the browser's few connections
   * to the server: over HTTP/1.1 six open streams would leave no room for tiles.
   */
  setLive(live) { this.page?.setCurrent(live); }

  /** The library changed: the same pages are asked for their photos again. */
  sequenceChanged() {
    this.strip.refill();
    if (this.index >= this.count) this.strip.jump(Math.max(0, this.count - 1));
    else this.markDot(this.index);
  }

  /** Puts keyboard focus on the photo in front, without scrolling anything. */
  focusPhoto() {
    const photo = /** @type {HTMLElement | null} */ (this.strip.slotFor(this.index)?.querySelector('.photo-open, .photo-error'));
    photo?.focus({ preventScroll: true });
  }

  /** The photo in front, where it is on screen, for the zoom view to grow from or shrink into. */
  zoomSource() { return this.page?.zoomSource() ?? null; }

  /** A comment the person just sent shows at once, whatever the live stream does, and in view. */
  addComment(comment) {
    const slot = this.strip.slots.find((s) => s.page?.photo.id === comment.photoId);
    const item = slot?.page?.thread?.add(comment);
    if (item && slot.pageIndex === this.index) {
      const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
      item.scrollIntoView({ block: 'nearest', behavior: smooth ? 'smooth' : 'auto' });
    }
  }

  key(e) {
    if (this.root.hidden || this.isBusy() || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft' && this.goTo(this.index - 1)) e.preventDefault();
    else if (e.key === 'ArrowRight' && this.goTo(this.index + 1)) e.preventDefault();
  }
}
