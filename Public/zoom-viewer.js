// The zoom view: the photo's tile pyramid under pinch, wheel, double-tap, drag and keys.
// Scale `s` is CSS px per photo px; (tx, ty) is where the photo's top left sits on the stage.
// Native resolution is one photo pixel per device pixel, so the largest scale is 1 / devicePixelRatio.

import { levelFor, tilesCovering, tileRectInPhoto, tileURL } from './geometry.js';
import { ViewerTiles } from './viewer-tiles.js';
import { ViewerGestures } from './viewer-gestures.js';

const EPSILON = 1e-6;

/** One full-screen viewer, reused for every photo. */
export class ZoomViewer {
  /**
   * @param {HTMLElement} root the dialog element holding `.zoom-stage`
   * @param {{onClose: () => void, onPage: (step: number) => boolean, onFirstScreen?: (photo) => void}} callbacks
   */
  constructor(root, callbacks) {
    this.root = root;
    this.callbacks = callbacks;
    this.stage = root.querySelector('.zoom-stage');
    this.layer = root.querySelector('.zoom-layer');
    this.title = root.querySelector('.zoom-title');
    this.photo = null;
    this.s = 1; this.tx = 0; this.ty = 0;
    this.offsetX = 0; // horizontal drag of the whole photo while swiping to a neighbour
    this.vw = 1; this.vh = 1;
    this.tiles = new ViewerTiles(this.layer, () => this.tilesChanged());
    this.gestures = new ViewerGestures(this);
    this.animation = null;
    this.settling = null;
    this.openedAt = null;
    this.completeAt = null;
    new ResizeObserver(() => { if (this.photo) this.refit(); }).observe(this.stage);
    this.watchPixelRatio();
    root.querySelector('.zoom-close').addEventListener('click', () => this.callbacks.onClose());
    root.querySelector('.zoom-in').addEventListener('click', () => this.zoomBy(2));
    root.querySelector('.zoom-out').addEventListener('click', () => this.zoomBy(0.5));
    root.querySelector('.zoom-fit').addEventListener('click', () => this.animateTo(this.fitScale, null, null));
    this.exposeDebugHook();
  }

  get isOpen() { return this.photo !== null; }
  get dpr() { return window.devicePixelRatio || 1; }
  /** The whole photo visible, as large as fits. */
  get fitScale() { return Math.min(this.vw / this.photo.width, this.vh / this.photo.height); }
  /** One photo pixel per device pixel; never below fit, so a small photo can still fill the screen. */
  get maxScale() { return Math.max(this.fitScale, 1 / this.dpr); }
  get atFit() { return this.s <= this.fitScale * (1 + 1e-3); }
  get level() { return levelFor(this.photo, this.s * this.dpr); }

  /** Shows `photo` fitted to the screen. */
  open(photo) {
    this.root.hidden = false;
    this.root.classList.remove('bare');
    document.documentElement.classList.add('zooming');
    this.show(photo);
    this.stage.focus({ preventScroll: true });
  }

  /** Switches to another photo (swipe or arrow key while fitted). */
  show(photo) {
    this.cancelAnimation();
    this.tiles.clear();
    this.photo = photo;
    this.title.textContent = photo.title;
    this.stage.setAttribute('aria-label', `${photo.title}, ${photo.width} × ${photo.height} pixels. Plus and minus zoom, arrows pan, Escape closes.`);
    this.openedAt = performance.now();
    this.completeAt = null;
    this.setOffset(0); // the swipe that brought this photo has done its work
    this.measure();
    this.fit();
  }

  /** Shows or hides the bar over the photo. */
  toggleChrome() {
    this.root.classList.toggle('bare');
  }

  close() {
    this.cancelAnimation();
    this.tiles.clear();
    this.photo = null;
    this.root.hidden = true;
    document.documentElement.classList.remove('zooming');
  }

  measure() {
    const rect = this.stage.getBoundingClientRect();
    this.vw = Math.max(1, rect.width);
    this.vh = Math.max(1, rect.height);
  }

  fit() {
    this.s = this.fitScale;
    this.place(this.s, 0, 0);
  }

  /** Resize or rotation: the screen changed, so the photo is fitted again. */
  refit() {
    const before = [this.vw, this.vh];
    this.measure();
    if (before[0] === this.vw && before[1] === this.vh) return;
    this.cancelAnimation();
    this.fit();
  }

  /**
   * A window dragged to a screen of another pixel density changes native resolution and the level
   * that matches the zoom, without any resize: clamp to the new limit and fetch the right level.
   */
  watchPixelRatio() {
    const query = matchMedia(`(resolution: ${this.dpr}dppx)`);
    query.addEventListener('change', () => {
      if (this.photo) this.place(this.s, this.tx, this.ty);
      this.watchPixelRatio();
    }, { once: true });
  }

  /** Sets scale and translation, clamped: never beyond fit or native, never dragged out of view. */
  place(s, tx, ty) {
    const { width, height } = this.photo;
    this.s = Math.min(this.maxScale, Math.max(this.fitScale, s));
    const w = width * this.s, h = height * this.s;
    this.tx = w <= this.vw + EPSILON ? (this.vw - w) / 2 : Math.min(0, Math.max(this.vw - w, tx));
    this.ty = h <= this.vh + EPSILON ? (this.vh - h) / 2 : Math.min(0, Math.max(this.vh - h, ty));
    this.render();
  }

  /** Zooms to scale `s` keeping the stage point (px, py) over the same photo point. */
  zoomAround(px, py, s) {
    const photoX = (px - this.tx) / this.s, photoY = (py - this.ty) / this.s;
    const clamped = Math.min(this.maxScale, Math.max(this.fitScale, s));
    this.place(clamped, px - photoX * clamped, py - photoY * clamped);
  }

  /** Keyboard and buttons: zoom by a factor around the centre of the screen, animated. */
  zoomBy(factor) {
    this.animateTo(this.s * factor, this.vw / 2, this.vh / 2);
  }

  /** Double tap: twice as close around the point, or back to fit once at native resolution. */
  toggleZoomAt(px, py) {
    if (this.s >= this.maxScale * (1 - 1e-3)) this.animateTo(this.fitScale, null, null);
    else this.animateTo(Math.min(this.maxScale, this.s * 2), px, py);
  }

  panBy(dx, dy) {
    this.place(this.s, this.tx + dx, this.ty + dy);
  }

  /** Animates to scale `s` around stage point (px, py); null means "around the centre, re-centred". */
  animateTo(target, px, py) {
    this.cancelAnimation();
    const clamped = Math.min(this.maxScale, Math.max(this.fitScale, target));
    const from = { s: this.s, tx: this.tx, ty: this.ty };
    const end = { s: clamped, tx: (this.vw - this.photo.width * clamped) / 2, ty: (this.vh - this.photo.height * clamped) / 2 };
    const anchor = px === null ? null : { x: px, y: py, photoX: (px - this.tx) / this.s, photoY: (py - this.ty) / this.s };
    const started = performance.now(), duration = 260;
    const step = (now) => {
      const t = Math.min(1, (now - started) / duration);
      const e = 1 - Math.pow(1 - t, 3);
      const s = from.s * Math.pow(end.s / from.s, e);
      if (anchor) {
        // Every frame keeps the tapped photo point under the finger, not only the last one.
        this.place(s, anchor.x - anchor.photoX * s, anchor.y - anchor.photoY * s);
      } else {
        this.place(s, from.tx + (end.tx - from.tx) * e, from.ty + (end.ty - from.ty) * e);
      }
      this.animation = t < 1 ? requestAnimationFrame(step) : null;
      if (t >= 1) this.render();
    };
    this.animation = requestAnimationFrame(step);
  }

  cancelAnimation() {
    if (this.animation !== null) cancelAnimationFrame(this.animation);
    this.animation = null;
  }

  /** Swipe feedback at fit: the photo follows the finger sideways. */
  setOffset(dx) {
    this.offsetX = dx;
    this.layer.style.transform = dx ? `translate3d(${dx}px,0,0)` : '';
  }

  get interacting() {
    return this.gestures.pinching || this.animation !== null || this.gestures.wheeling;
  }

  /** Positions every tile; asks for new tiles now, or once a pinch or animation pauses. */
  render() {
    this.tiles.layout(this.photo, this.s, this.tx, this.ty);
    clearTimeout(this.settling);
    // Mid-gesture a level may be skipped in a moment, so its tiles are asked for only once the fingers pause.
    if (this.interacting) this.settling = setTimeout(() => this.requestTiles(), 250);
    else this.requestTiles();
  }

  /** The visible part of the photo, in photo pixels. */
  visiblePhotoRect() {
    return {
      x0: Math.max(0, -this.tx / this.s), y0: Math.max(0, -this.ty / this.s),
      x1: Math.min(this.photo.width, (this.vw - this.tx) / this.s),
      y1: Math.min(this.photo.height, (this.vh - this.ty) / this.s),
    };
  }

  requestTiles() {
    if (!this.photo) return;
    const z = this.level;
    const v = this.visiblePhotoRect();
    const range = tilesCovering(this.photo, z, v.x0, v.y0, v.x1, v.y1);
    const wanted = [];
    if (range) {
      for (let y = range.r0; y <= range.r1; y++) {
        for (let x = range.c0; x <= range.c1; x++) wanted.push({ z, x, y });
      }
    }
    this.tiles.want(this.photo, wanted, v, (t) => tileURL(this.photo, t.z, t.x, t.y), (t) => tileRectInPhoto(this.photo, t.z, t.x, t.y));
    this.tiles.layout(this.photo, this.s, this.tx, this.ty);
  }

  tilesChanged() {
    if (this.completeAt === null && this.tiles.complete) {
      this.completeAt = performance.now();
      this.callbacks.onFirstScreen?.(this.photo);
    }
  }

  exposeDebugHook() {
    const viewer = this;
    // Read-only view of the viewer's state, for browser tests and the benchmark.
    window.__viewer = {
      get open() { return viewer.isOpen; },
      get photoId() { return viewer.photo && viewer.photo.id; },
      get scale() { return viewer.s; },
      get fitScale() { return viewer.photo ? viewer.fitScale : null; },
      get maxScale() { return viewer.photo ? viewer.maxScale : null; },
      get level() { return viewer.photo ? viewer.level : null; },
      get devicePixelRatio() { return viewer.dpr; },
      get photoRect() {
        const stage = viewer.stage.getBoundingClientRect();
        return { left: stage.left + viewer.tx, top: stage.top + viewer.ty,
          width: viewer.photo.width * viewer.s, height: viewer.photo.height * viewer.s };
      },
      get stageRect() { return viewer.stage.getBoundingClientRect().toJSON(); },
      get requestedTiles() { return new Set(viewer.tiles.requested); },
      get wantedTiles() { return new Set(viewer.tiles.wantedKeys); },
      get requestCount() { return viewer.tiles.requestCount; },
      get complete() { return viewer.tiles.complete && !viewer.interacting; },
      get openedAt() { return viewer.openedAt; },
      get completeAt() { return viewer.completeAt; },
      resetRequests() { viewer.tiles.resetRequests(); },
    };
  }
}
