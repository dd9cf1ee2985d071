// @ts-check
// The zoom view: the photo's tile pyramid full screen, on a strip of three slides (the photo and
// its neighbours, with the pager's gap between them) so a swipe shows the next photo sliding in.
// It opens growing out of the photo on its page and closes shrinking back into it; a drag down
// at fit pulls the photo away and closes it. Pinch, wheel, double-tap, drag and keys zoom and pan.

import { ZoomablePhoto } from '../photo/zoomable-photo.js';
import { SlideStrip } from '../photo/slide-strip.js';
import { ViewerGestures } from '../gestures/viewer-gestures.js';
import { WheelGesture } from '../gestures/wheel.js';
import { flightStarted, prefersReducedMotion, springCurve } from '../util/motion.js';
import { Keys } from '../util/keyboard.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';
import { PhotoTrouble } from '../ui/photo-trouble.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {import('../core/photo-sequence.js').PhotoSequence} PhotoSequence */
/** @typedef {import('./photo-page.js').ZoomSource} ZoomSource */
/** @typedef {import('../photo/zoomable-photo.js').Transform} Transform */

const GAP = 8;

/**
 * The slide's transform `p` of the way (0: home, 1: on the page's box) to translate(dx, dy) scale(k).
 * @param {number} dx
 * @param {number} dy
 * @param {number} k
 * @param {number} p
 */
function mixTransform(dx, dy, k, p) {
  return `translate(${dx * p}px, ${dy * p}px) scale(${1 + (k - 1) * p})`;
}

/**
 * @typedef {HTMLDivElement & { pageIndex: number | null, photo: ZoomablePhoto, wanted: number,
 *   failure: HTMLParagraphElement, trouble: PhotoTrouble }} Slide a slide of the strip: its photo, and the
 *   page it waits for
 */

export class ZoomViewer {
  /**
   * @param {HTMLElement} root the dialog element
   * @param {{ sequence: PhotoSequence, onClose: () => void, onShow: (photo: Photo, index: number) => void }} options
   *   `sequence` is the pager's; onShow hears of every photo paged to
   */
  constructor(root, { sequence, onClose, onShow }) {
    this.root = root;
    this.sequence = sequence;
    this.onClose = onClose;
    this.onShow = onShow;
    this.listeners = new Listeners();
    this.stage = element(root, '.zoom-stage', HTMLElement);
    this.backdrop = element(root, '.zoom-backdrop', HTMLElement);
    this.title = element(root, '.zoom-title', HTMLElement);
    this.buttons = {
      in: element(root, '.zoom-in', HTMLButtonElement),
      out: element(root, '.zoom-out', HTMLButtonElement),
      fit: element(root, '.zoom-fit', HTMLButtonElement),
    };
    this.index = -1;
    this.isOpen = false;
    this.dismissing = false;
    /** @type {{ element: HTMLElement | null, finish: () => void } | null} a close still flying */
    this.closing = null;
    /** @type {HTMLElement | null} the page's photo, hidden while the view grows out of it */
    this.source = null;
    /** @type {{ animations: Animation[], done: () => void } | null} the open or close flight under way */
    this.flight = null;
    /** @type {Transform | null} where a pull to dismiss started */
    this.dismissFrom = null;
    const on = this.listeners;
    /** @type {SlideStrip<Slide>} */
    this.strip = new SlideStrip(this.stage, {
      slots: 3, gap: GAP, count: () => sequence.count,
      createSlot: () => this.createSlide(),
      fill: (slide, i) => this.fillSlide(slide, i),
      onSettle: (i) => this.settled(i),
    });
    on.add(() => { for (const slide of this.strip.slots) { slide.photo.destroy(); slide.remove(); } });
    this.gestures = new ViewerGestures(this.stage, {
      strip: this.strip,
      target: () => this.target(),
      dismiss: this.dismissal(),
      tap: () => this.toggleChrome(),
      doubleTap: (p, target) => {
        const photo = target?.photo;
        if (!photo?.photo || photo.photo.status === 'failed') return;
        const r = photo.stage.getBoundingClientRect();
        photo.toggleZoomAt(p.x - r.left, p.y - r.top);
      },
    }, on);
    this.wheel = new WheelGesture(this.stage, { strip: this.strip, target: () => this.target(), wheelZooms: true }, on);
    on.observe(new ResizeObserver(() => this.resized())).observe(this.stage);
    this.watchPixelRatio();
    on.on(element(root, '.zoom-close', HTMLButtonElement), 'click', () => this.onClose());
    on.on(this.buttons.in, 'click', () => this.current?.zoomTo(this.current.s * 2));
    on.on(this.buttons.out, 'click', () => this.current?.zoomTo(this.current.s / 2));
    on.on(this.buttons.fit, 'click', () => this.current?.zoomTo(this.current.fitScale));
    // Its keys listen while it is open.
    this.keys = new Keys((e) => this.key(e));
    on.add(() => { this.keys.on = false; });
  }

  createSlide() {
    const slide = /** @type {Slide} */ (document.createElement('div'));
    slide.className = 'zoom-slide';
    slide.photo = new ZoomablePhoto(slide, {
      onChange: () => { if (slide.photo === this.current) this.changed(); },
      onComplete: () => { if (slide.photo === this.current) this.firstScreen(); },
      onTiles: () => slide.trouble.set(slide.photo.failing, slide.photo.blank),
      // At fit the screen shows the whole photo: one image cut to it, not a screenful of tiles of
      // its level; tiles come only once it is zoomed past fit.
      fitted: true,
    });
    const failure = document.createElement('p');
    failure.className = 'zoom-error';
    failure.hidden = true;
    slide.appendChild(failure);
    slide.failure = failure;
    slide.trouble = new PhotoTrouble(slide, this.listeners, () => slide.photo.retry());
    return slide;
  }

  /**
   * A slide was handed photo `i`: the one in front loads at once, its neighbours once it is on screen.
   * @param {Slide} slide
   * @param {number} i
   */
  fillSlide(slide, i) {
    slide.photo.setPhoto(null);
    slide.failure.hidden = true;
    slide.trouble.set(false);
    slide.wanted = i;
    if (!this.isOpen || !this.strip.hasPage(i)) return;
    if (i === this.index || this.current?.completeAt != null) this.loadSlide(slide);
  }

  /** @param {Slide} slide */
  loadSlide(slide) {
    const i = slide.wanted;
    const show = (/** @type {Photo | null | undefined} */ photo) => {
      if (slide.pageIndex !== i || !photo || slide.photo.photo === photo) return;
      slide.photo.setPhoto(photo);
      slide.failure.hidden = photo.status !== 'failed';
      slide.failure.textContent = photo.status === 'failed' ? `${photo.title} could not be shown: ${photo.error || 'it could not be read.'}` : '';
    };
    const known = this.sequence.peek(i);
    if (known) show(known);
    else this.sequence.at(i).then(show, () => {});
  }

  /** The slide in front and its ZoomablePhoto. */
  get slide() { return this.strip.slotFor(this.index); }
  get current() { return this.slide?.photo ?? null; }
  get photo() { return this.current?.photo ?? null; }

  /** @returns {import('../gestures/viewer-gestures.js').GestureTarget | null} */
  target() {
    const slide = this.strip.slotFor(this.strip.nearest);
    return slide && slide.pageIndex !== null ? { photo: slide.photo, page: slide.pageIndex } : null;
  }

  /**
   * Shows photo `index` full screen. `from` is where it is on screen now (its box on the page):
   * it grows from there to fit, or to the same part of it when it was zoomed on the page.
   * @param {number} index
   * @param {{ from?: ZoomSource | null }} options
   */
  open(index, { from = null } = {}) {
    const wasOpen = this.isOpen;
    this.finishClosing();
    this.isOpen = true;
    this.keys.on = true;
    this.root.hidden = false;
    this.root.classList.remove('bare');
    document.documentElement.classList.add('zooming');
    this.index = index;
    this.strip.layout();
    this.strip.jump(index);
    const photo = this.current;
    if (!photo?.photo) return;
    this.stage.focus({ preventScroll: true });
    if (wasOpen || !from || prefersReducedMotion() || photo.photo.status === 'failed') {
      this.setBackdrop(1);
      return;
    }
    // The photo on the page would show through the black as it fades in: it waits, hidden.
    this.source = from.element;
    this.source.style.opacity = '0';
    // Laid out where it lands, so the tiles it lands on are on their way during the flight; the
    // flight itself is its slide scaled down onto the page's box, and back (on the compositor).
    photo.fit();
    const end = from.view ? this.sameView(photo, from.view) : { s: photo.s, tx: photo.tx, ty: photo.ty };
    photo.place(end.s, end.tx, end.ty);
    this.setBackdrop(1);
    this.fly(photo, from.rect, true);
  }

  /**
   * The slide in front flies between the page's box `rect` and its place, and the black fades
   * with it: in (`opening`) or out. Only transform and opacity animate, on the compositor.
   * @param {ZoomablePhoto} photo where it is drawn on the slide now
   * @param {import('../photo/flight.js').Box} rect the photo's box on its page
   * @param {boolean} opening
   * @param {() => void} [onDone]
   */
  fly(photo, rect, opening, onDone) {
    const slide = /** @type {HTMLElement} */ (photo.stage);
    const stage = this.stage.getBoundingClientRect();
    // The transform (origin at the slide's top left) that puts the photo, where it is drawn now, on `rect`.
    const k = rect.width / (photo.shown.width * photo.s);
    const dx = rect.left - stage.left - k * photo.tx, dy = rect.top - stage.top - k * photo.ty;
    const { duration, progress } = springCurve(opening ? 20 : 22);
    const frames = progress.map((p, i) => ({ offset: i / (progress.length - 1), transform: opening ? mixTransform(dx, dy, k, 1 - p) : mixTransform(dx, dy, k, p) }));
    const from = Number(getComputedStyle(this.backdrop).opacity) || 0;
    const fade = progress.map((p, i) => ({ offset: i / (progress.length - 1), opacity: opening ? p : from * (1 - p) }));
    this.finishFlight();
    this.root.classList.add('flying');
    const timing = { duration, fill: /** @type {FillMode} */ ('forwards') };
    const animations = [slide.animate(frames, timing), this.backdrop.animate(fade, timing)];
    const landed = flightStarted();
    const flight = {
      animations,
      done: () => {
        if (this.flight !== flight) return;
        this.flight = null;
        landed();
        this.root.classList.remove('flying');
        for (const animation of animations) animation.cancel();
        onDone?.();
      },
    };
    this.flight = flight;
    animations[0].finished.then(flight.done, flight.done);
  }

  /** A flight under way lands at once. */
  finishFlight() {
    this.flight?.done();
  }

  /**
   * The zoom and centre a zoomed page photo showed, carried over to the full screen.
   * @param {ZoomablePhoto} photo
   * @param {NonNullable<ZoomSource['view']>} view
   */
  sameView(photo, view) {
    const { relative, centre } = view;
    const s = photo.clampScale(relative * photo.fitScale);
    const t = photo.around(s, photo.vw / 2, photo.vh / 2, centre.x, centre.y);
    return photo.clamped(t.s, t.tx, t.ty);
  }

  /**
   * Hides the view. `to` ({rect, element}) is the photo's box on its page: the photo shrinks
   * into it while the black fades, `element` hidden meanwhile so it shows once. Resolves when done.
   * @param {{ to?: ZoomSource | null }} options
   * @returns {Promise<void>}
   */
  close({ to = null } = {}) {
    if (!this.isOpen) return Promise.resolve();
    this.isOpen = false;
    this.keys.on = false;
    this.dismissing = false;
    const photo = this.current;
    const finish = () => {
      if (this.closing?.element) this.closing.element.style.opacity = '';
      if (this.source) this.source.style.opacity = '';
      this.source = null;
      this.closing = null;
      for (const slide of this.strip.slots) slide.photo.setPhoto(null);
      this.root.hidden = true;
      this.root.classList.remove('closing');
      document.documentElement.classList.remove('zooming');
    };
    this.finishFlight();
    if (!to || !photo?.photo || photo.photo.status === 'failed' || prefersReducedMotion()) {
      finish();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.closing = { element: to.element, finish: () => { finish(); resolve(); } };
      if (to.element) to.element.style.opacity = '0';
      this.root.classList.add('closing');
      // Where it is now (at rest, or pulled down by a finger), stopped there, and flown home.
      photo.stop();
      this.fly(photo, to.rect, false, () => this.closing?.finish());
      this.setBackdrop(0);
    });
  }

  /** A close still flying ends at once (the view is reopened, or something else takes over). */
  finishClosing() {
    if (!this.closing) return;
    this.finishFlight();
    this.closing?.finish();
  }

  /** @param {number} opacity */
  setBackdrop(opacity) {
    this.backdrop.style.opacity = String(opacity);
  }

  /**
   * The strip came to rest on photo `i`.
   * @param {number} i
   */
  settled(i) {
    if (!this.isOpen) return;
    const changed = i !== this.index;
    const before = this.index;
    this.index = i;
    for (const slide of this.strip.slots) {
      // A photo that went off screen is back at fit when it returns, as in Photos.
      if (slide.pageIndex !== i && slide.photo.photo && !slide.photo.atFit) slide.photo.fit();
      if (slide.pageIndex === i && !slide.photo.photo && slide.wanted === i) this.loadSlide(slide);
    }
    const photo = this.photo;
    if (!photo) return;
    this.title.textContent = photo.title;
    this.stage.setAttribute('aria-label', `${photo.title}, ${photo.width} × ${photo.height} pixels. Plus and minus zoom, arrows pan, Escape closes.`);
    this.changed();
    if (this.current?.completeAt != null) this.firstScreen();
    if (changed && before >= 0) this.onShow(photo, i);
  }

  /** The photo in front is complete on screen: now its neighbours may load. */
  firstScreen() {
    for (const slide of this.strip.slots) {
      if (slide.pageIndex !== this.index && !slide.photo.photo && this.strip.hasPage(slide.wanted)) this.loadSlide(slide);
    }
  }

  /** Controls that can do nothing right now are disabled, not silent. */
  changed() {
    const photo = this.current;
    if (!photo?.photo) return;
    const failed = photo.photo.status === 'failed';
    const set = (/** @type {HTMLButtonElement} */ button, /** @type {boolean} */ disabled) => {
      if (button.disabled !== disabled) button.disabled = disabled;
    };
    set(this.buttons.in, failed || photo.atMax);
    set(this.buttons.out, failed || photo.atFit);
    set(this.buttons.fit, failed || photo.atFit);
    if (this.dismissing) this.followDismiss();
  }

  toggleChrome() { this.root.classList.toggle('bare'); }

  /**
   * Pulling the fitted photo down closes the view; the black fades as it goes.
   * @returns {import('../gestures/viewer-gestures.js').Dismissal}
   */
  dismissal() {
    const viewer = this;
    return {
      begin() {
        const photo = viewer.current;
        if (!photo) return;
        viewer.dismissing = true;
        viewer.dismissFrom = { s: photo.s, tx: photo.tx, ty: photo.ty };
        viewer.root.classList.add('dismissing');
      },
      move(dx, dy) {
        const photo = viewer.current, from = viewer.dismissFrom;
        if (!photo || !from) return;
        // It shrinks a little as it goes down, around the finger.
        const k = dy > 0 ? Math.max(0.7, 1 - dy / (photo.vh * 2.5)) : 1;
        const cx = photo.vw / 2, cy = photo.vh / 2;
        const s = from.s * k;
        photo.place(s, cx + dx - (cx - from.tx) * k, cy + dy - (cy - from.ty) * k);
      },
      end(vx, vy) {
        const photo = viewer.current, from = viewer.dismissFrom;
        if (!photo || !from) return;
        const dy = photo.ty - from.ty;
        if ((dy > photo.vh * 0.12 && vy > -0.1) || vy > 0.5) {
          viewer.root.classList.remove('dismissing');
          viewer.onClose();
          return;
        }
        photo.animateTo(from, { frequency: 20, onDone: () => {
          viewer.dismissing = false;
          viewer.root.classList.remove('dismissing');
          viewer.setBackdrop(1);
        } });
      },
    };
  }

  followDismiss() {
    const photo = this.current, from = this.dismissFrom;
    if (!photo?.photo || !from || !this.isOpen) return;
    const height = photo.photo.height;
    const dy = Math.abs(photo.ty + (height * photo.s) / 2 - (from.ty + (height * from.s) / 2));
    this.setBackdrop(Math.max(0, 1 - dy / (photo.vh * 0.6)));
  }

  resized() {
    if (!this.isOpen) return;
    this.strip.layout();
    for (const slide of this.strip.slots) slide.photo.resize();
  }

  /** A window moved to a screen of another pixel density changes native resolution, without a resize. */
  watchPixelRatio() {
    const query = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    this.listeners.on(query, 'change', () => {
      for (const slide of this.strip.slots) slide.photo.pixelRatioChanged();
      this.changed();
      this.watchPixelRatio();
    }, { once: true });
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const photo = this.current;
    if (!this.isOpen || !photo || e.altKey || e.metaKey || (e.ctrlKey && e.key !== '0')) return;
    const step = 80;
    const ready = photo.photo && photo.photo.status !== 'failed';
    /** @type {Record<string, () => unknown>} */
    const actions = {
      Escape: () => this.onClose(),
      '+': () => ready && photo.zoomTo(photo.s * 2), '=': () => ready && photo.zoomTo(photo.s * 2),
      '-': () => ready && photo.zoomTo(photo.s / 2), _: () => ready && photo.zoomTo(photo.s / 2),
      0: () => ready && photo.zoomTo(photo.fitScale),
      ArrowLeft: () => (photo.atFit || !ready ? this.strip.animateTo(this.index - 1) : this.pan(step, 0)),
      ArrowRight: () => (photo.atFit || !ready ? this.strip.animateTo(this.index + 1) : this.pan(-step, 0)),
      ArrowUp: () => ready && this.pan(0, step),
      ArrowDown: () => ready && this.pan(0, -step),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  }

  /**
   * @param {number} dx
   * @param {number} dy
   */
  pan(dx, dy) {
    const photo = this.current;
    if (!photo) return;
    const to = photo.clamped(photo.s, photo.tx + dx, photo.ty + dy);
    photo.animateTo(to, { frequency: 26 });
  }

  /** Closes at once, and lets go of its slides, keys, listeners and observers. */
  destroy() {
    this.finishClosing();
    this.listeners.destroy();
  }
}
