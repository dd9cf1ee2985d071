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
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';
import { prefersReducedMotion } from '../util/motion.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {import('../core/api.js').Comment} Comment */
/** @typedef {import('../core/photo-sequence.js').PhotoSequence} PhotoSequence */
/** @typedef {HTMLElement & { pageIndex: number | null, page: PhotoPage | null }} PageSlot */

const GAP = 8;
/** How long (ms) at most the neighbours' tiles wait for the photo in front's, once it has flown open. */
const FIRST_MS = 2000;

/** Horizontal photo pager; `onChange(photo)` is told whenever another page settles in front. */
export class Pager {
  /**
   * @param {HTMLElement} root the pager's section
   * @param {{ sequence: PhotoSequence, onChange: (photo: Photo) => void, onOpenZoom: (photo: Photo) => void,
   *   onClose: () => void, onPull?: (pulling: boolean) => void, isBusy: () => boolean }} options
   *   `onClose`: the way back to the grid (Esc, a pull down); `onPull`: a pull down began (true) or
   *   gave up (false), for what lies behind to show through; `isBusy`: something covers it (the zoom
   *   view, the page's own full screen) and takes the keys
   */
  constructor(root, { sequence, onChange, onOpenZoom, onClose, onPull, isBusy }) {
    this.root = root;
    this.sequence = sequence;
    this.onChange = onChange;
    this.onOpenZoom = onOpenZoom;
    this.onClose = onClose;
    this.onPull = onPull;
    this.isBusy = isBusy;
    this.listeners = new Listeners();
    this.element = element(root, '.pager-strip', HTMLElement);
    this.index = -1;
    this.covered = false;
    /** True while the photo flies open from the grid over it (see setOpening). */
    this.opening = false;
    /** @type {PhotoPage | null} the page in front just landed, whose tiles go before its neighbours' */
    this.first = null;
    this.firstTimer = 0;
    /** @type {HTMLElement | null} the photo being pulled down to close, while it is */
    this.pulled = null;
    /** @type {SlideStrip<PageSlot>} */
    this.strip = new SlideStrip(this.element, {
      slots: 5, gap: GAP, count: () => sequence.count,
      createSlot: () => {
        const slot = /** @type {PageSlot} */ (document.createElement('section'));
        slot.className = 'page at-top';
        slot.page = null;
        // At the top of its page the photo can be pulled down to close (see dismissal); scrolled,
        // a finger down the photo scrolls the page back up.
        this.listeners.on(slot, 'scroll', () => slot.classList.toggle('at-top', slot.scrollTop <= 0), { passive: true });
        return slot;
      },
      fill: (slot, i) => this.fill(slot, i),
      onSettle: (i) => this.select(i),
      onMove: (position) => this.markDot(Math.round(position)),
    });
    const on = this.listeners;
    const dots = new PageDots(element(root, '.pager-dots', HTMLElement), { onSelect: (i) => this.goTo(i) });
    this.dots = dots;
    on.add(() => dots.destroy());
    const target = (/** @type {Event} */ e) => this.target(e);
    const strip = this.strip;
    this.gestures = new ViewerGestures(this.element, {
      strip, target,
      // The mouse selects text and clicks; it drags only a photo that is zoomed in.
      accepts: (e, t) => e.pointerType !== 'mouse' || Boolean(t?.photo && !t.photo.atFit),
      dismiss: this.dismissal(),
    }, on);
    this.wheel = new WheelGesture(this.element, { strip, target, wheelZooms: false }, on);
    on.add(sequence.subscribe(() => this.sequenceChanged()));
    // A new width moves every page; a new height (a phone's address bar sliding away) moves none.
    on.observe(new ResizeObserver(() => this.strip.layout())).observe(this.element);
    // Its keys listen while it is on screen (setShown).
    this.keys = new Keys((e) => this.key(e), { on: !root.hidden });
    on.add(() => { this.keys.on = false; });
    this.dots.keys.on = this.keys.on;
    this.previousButton = element(root, '.pager-prev', HTMLButtonElement);
    this.nextButton = element(root, '.pager-next', HTMLButtonElement);
    on.on(this.previousButton, 'click', () => this.goTo(this.index - 1));
    on.on(this.nextButton, 'click', () => this.goTo(this.index + 1));
    // The pages go with it.
    on.add(() => { for (const slot of this.strip.slots) { slot.page?.destroy(); slot.remove(); } });
  }

  /**
   * On screen or not: hidden, it takes no keys (its dots none either).
   * @param {boolean} shown
   */
  setShown(shown) {
    if (!shown) this.letGo();
    this.root.hidden = !shown;
    this.keys.on = shown;
    this.dots.keys.on = shown;
  }

  /**
   * While a photo flies open from the grid, only the pager's background shows (fading in under the
   * flying copy): its bars and pages stay out of rendering and their photos ask for no tile but
   * level 0 (the photo in front asks for its one fitted image too, to be drawn as it lands), so the
   * flight's frames are all the machine has to draw. Landed (false), everything
   * shows and the photo in front's tiles are asked for, its neighbours' once it is sharp.
   * @param {boolean} opening
   */
  setOpening(opening) {
    const landed = this.opening && !opening;
    this.opening = opening;
    this.root.classList.toggle('opening', opening);
    if (!landed) return;
    // The photo in front comes sharp first: its neighbours' tiles wait until it is (two seconds at most).
    const front = this.page;
    if (front?.zoomable?.photo && front.zoomable.completeAt === null) {
      this.listeners.clear(this.firstTimer);
      this.first = front;
      this.firstTimer = this.listeners.timeout(() => this.firstDone(), FIRST_MS);
      front.resume();
    } else {
      this.firstDone();
    }
  }

  /** The photo in front is sharp, or had its time, or is no longer in front: every page's tiles are asked for. */
  firstDone() {
    this.listeners.clear(this.firstTimer);
    this.firstTimer = 0;
    this.first = null;
    for (const slot of this.strip.slots) slot.page?.resume();
  }

  get count() { return this.sequence.count; }
  /** The photo in front. */
  get current() { return this.sequence.peek(this.index); }
  get page() { return this.strip.slotFor(this.index)?.page ?? null; }

  /**
   * The photo under the finger: the page mostly in view, and its photo if the finger is on it.
   * @param {Event} e
   * @returns {import('../gestures/viewer-gestures.js').GestureTarget | null}
   */
  target(e) {
    const slot = this.strip.slotFor(this.strip.nearest);
    if (!slot || slot.pageIndex === null) return null;
    const zoomable = slot.page?.zoomable ?? null;
    const onPhoto = zoomable && e.target instanceof Element && slot.contains(e.target.closest('.photo-open'));
    return { photo: onPhoto ? zoomable : null, page: slot.pageIndex };
  }

  /**
   * A slot was handed page `i`: it gets that photo's page, drawn now if it is near the front.
   * @param {PageSlot} slot
   * @param {number} i
   */
  fill(slot, i) {
    slot.page?.destroy();
    slot.page = null;
    slot.removeAttribute('aria-label');
    delete slot.dataset.photoId;
    if (!this.strip.hasPage(i)) return;
    const place = (/** @type {Photo | null | undefined} */ photo) => {
      if (!photo || slot.pageIndex !== i || slot.page || this.listeners.destroyed) return;
      /** @type {PhotoPage} */
      const page = new PhotoPage(photo, {
        onOpenZoom: (p) => this.onOpenZoom(p),
        held: () => this.opening || (this.first !== null && this.first !== page),
        // The photo flying open asks for its fitted image as it takes off, so it lands sharp.
        fittedHeld: () => (this.opening ? slot.pageIndex !== this.strip.nearest : this.first !== null && this.first !== page),
        onSharp: (p) => { if (p === this.first) this.firstDone(); },
      });
      slot.page = page;
      slot.dataset.photoId = String(photo.id);
      slot.setAttribute('aria-label', photo.title);
      slot.scrollTop = 0;
      slot.appendChild(page.element);
      if (!this.covered && Math.abs(i - this.strip.nearest) <= 1) page.render();
      if (i === this.index) this.pageArrived(slot);
    };
    const known = this.sequence.peek(i);
    if (known) place(known);
    else this.sequence.at(i).then(place, () => {});
  }

  /**
   * Brings page `i` in front: 'instant' for a link or reload, 'smooth' for a tap or key.
   * @param {number} i
   * @param {'instant' | 'smooth'} [behavior]
   */
  goTo(i, behavior = 'smooth') {
    if (i < 0 || i >= this.count) return false;
    if (behavior === 'instant') this.strip.jump(i);
    else this.strip.animateTo(i);
    return true;
  }

  /** @param {number} i */
  markDot(i) {
    const count = this.count;
    this.previousButton.disabled = i <= 0;
    this.nextButton.disabled = i >= count - 1;
    if (this.dots.count !== count || this.dots.index !== i) this.dots.set(count, Math.max(0, Math.min(count - 1, i)));
  }

  /** @param {number} i */
  select(i) {
    this.markDot(i);
    const changed = i !== this.index;
    this.index = i;
    if (this.first && this.first !== this.page) this.firstDone();
    this.renderAround(i);
    for (const slot of this.strip.slots) {
      if (slot.pageIndex !== i) { slot.page?.setCurrent(false); slot.page?.resetZoom(); }
    }
    const slot = this.strip.slotFor(i);
    if (!changed || !slot?.page) return;
    this.pageArrived(slot);
  }

  /**
   * The page in front is drawn: it goes live, takes focus from a page that left, and is announced.
   * @param {PageSlot} slot
   */
  pageArrived(slot) {
    const page = slot.page;
    if (!page) return;
    page.render();
    if (!this.covered) page.setCurrent(true);
    const active = document.activeElement;
    const activePage = active?.closest('.page');
    if (!this.root.hidden && activePage && activePage !== slot) this.focusPhoto();
    this.onChange(page.photo);
  }

  /**
   * Draws the page in front and its neighbours, unless the zoom view covers them.
   * @param {number} i
   */
  renderAround(i) {
    if (this.covered) return;
    for (const slot of this.strip.slots) {
      if (slot.page && slot.pageIndex !== null && Math.abs(slot.pageIndex - i) <= 1) slot.page.render();
    }
  }

  /**
   * While the zoom view covers the pager nothing new is drawn underneath, so the tiles on screen
   * get the connections to themselves; uncovering draws what is now in front.
   * @param {boolean} covered
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
   * @param {boolean} live
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

  /**
   * A comment the person just sent shows at once, whatever the live stream does, and in view.
   * @param {Comment} comment
   */
  addComment(comment) {
    const slot = this.strip.slots.find((s) => s.page?.photo.id === comment.photoId);
    const item = slot?.page?.thread?.add(comment);
    if (item && slot?.pageIndex === this.index) {
      const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
      item.scrollIntoView({ block: 'nearest', behavior: smooth ? 'smooth' : 'auto' });
    }
  }

  /**
   * Pulling the fitted photo down at the top of its page closes the pager, as in Photos: the
   * photo follows the finger and shrinks a little, everything around it fades, and let go far or
   * fast enough it flies from where it is into its grid cell (the close flight takes its box).
   * @returns {import('../gestures/viewer-gestures.js').Dismissal}
   */
  dismissal() {
    const pager = this;
    /** @param {number} dy */
    const progress = (dy) => Math.min(1, Math.max(0, dy) / (window.innerHeight * 0.5));
    return {
      begin() {
        const slot = pager.strip.slotFor(pager.index);
        const button = slot?.page?.button;
        pager.letGo();
        if (!slot || !button || slot.scrollTop > 0 || pager.strip.moving) return;
        pager.pulled = button;
        pager.root.style.setProperty('--pull', '1');
        pager.root.classList.add('dismissing');
        pager.onPull?.(true);
      },
      move(dx, dy) {
        const button = pager.pulled;
        if (!button) return;
        const y = Math.max(0, dy), k = 1 - 0.3 * progress(y);
        button.style.transform = `translate(${dx}px, ${y}px) scale(${k})`;
        pager.root.style.setProperty('--pull', String(1 - progress(y)));
      },
      end(vx, vy) {
        const button = pager.pulled;
        if (!button) return;
        const dy = new DOMMatrixReadOnly(getComputedStyle(button).transform).m42;
        if ((dy > window.innerHeight * 0.12 && vy > -0.1) || vy > 0.5) {
          // Closed: the photo stays where the finger left it until the close flight takes it.
          pager.onClose();
          return;
        }
        const from = button.style.transform;
        pager.pulled = null;
        pager.root.classList.remove('dismissing');
        pager.root.style.removeProperty('--pull');
        button.style.transform = '';
        pager.onPull?.(false);
        if (!prefersReducedMotion()) {
          button.animate([{ transform: from }, { transform: 'none' }], { duration: 250, easing: 'cubic-bezier(0.2, 0.9, 0.3, 1)' });
        }
      },
    };
  }

  /** A photo pulled down goes back to its place at once (the pager closed or was hidden). */
  letGo() {
    if (this.pulled) this.pulled.style.transform = '';
    this.pulled = null;
    this.root.classList.remove('dismissing');
    this.root.style.removeProperty('--pull');
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (this.root.hidden || this.isBusy() || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    if (e.key === 'ArrowLeft' && this.goTo(this.index - 1)) e.preventDefault();
    else if (e.key === 'ArrowRight' && this.goTo(this.index + 1)) e.preventDefault();
    // Escape closes the photo, as in PhotoSwipe and Photos: back on the grid, its cell focused.
    else if (e.key === 'Escape') { e.preventDefault(); this.onClose(); }
  }

  /** Lets go of its pages, keys, listeners and observers. */
  destroy() { this.listeners.destroy(); }
}
