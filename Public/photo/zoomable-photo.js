// @ts-check
// One photo's tile pyramid on one stage (the zoom view's screen, or the photo's box on its page):
// scale, translation, their limits, and how they animate. Scale `s` is CSS px per photo px and
// (tx, ty) is where the photo's top left sits on the stage. Native resolution is one photo pixel
// per device pixel; when the fitted photo is already that sharp, it can still be zoomed to twice
// its fitted size, so every photo zooms. Made with `fitted`, it draws the photo at fit from one
// image cut to its box (see fitted-image.js), and tiles only once zoomed past fit.

import { fittedImageURL, levelFor, tilesCovering, tileRectInPhoto, tileURL } from './pyramid.js';
import { ViewerTiles } from './tiles.js';
import { FittedImage } from './fitted-image.js';
import { PanBounds } from './pan-bounds.js';
import { Animation, Momentum, Spring, projectedDistance, rubberBand } from '../util/motion.js';
import { Listeners } from '../util/listeners.js';

const EPSILON = 1e-3;

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {{ s: number, tx: number, ty: number }} Transform scale and translation */
/** @typedef {{ x: number, y: number }} Point */

/** A zoomable, pannable photo drawn from its tiles; `photo` may be set and replaced. */
export class ZoomablePhoto {
  /**
   * @param {HTMLElement} stage the box the photo is seen through (it clips)
   * @param {{ onChange?: () => void, onComplete?: () => void, onTiles?: () => void, held?: () => boolean,
   *   fitted?: boolean, fittedHeld?: () => boolean }} callbacks
   *   onChange after every move, onComplete once all tiles in view (at fit, the fitted image) have
   *   arrived, onTiles whenever a tile or the fitted image was drawn or failed (see `failing`); held
   *   true while it asks for no tile but level 0 (hidden under a flight; `resume()` once it is not);
   *   fitted: at fit, one image of the whole photo instead of the tiles of its level, not asked for
   *   while fittedHeld (held, unless said)
   */
  constructor(stage, { onChange, onComplete, onTiles, held, fitted = false, fittedHeld } = {}) {
    this.stage = stage;
    this.layer = document.createElement('div');
    this.layer.className = 'tile-layer';
    stage.appendChild(this.layer);
    this.onChange = onChange;
    this.onComplete = onComplete;
    this.onTiles = onTiles;
    /** @type {Photo | null} */
    this.photo = null;
    this.s = 1; this.tx = 0; this.ty = 0;
    this.vw = 1; this.vh = 1;
    this.zooming = false;      // a pinch or a zoom animation: tiles are asked for once it pauses
    /** @type {Animation | null} */
    this.animation = null;
    /** @type {Transform | null} where the running animation ends: its tiles were asked for as it started */
    this.destination = null;
    this.listeners = new Listeners();
    this.settling = 0;
    /** @type {number | null} when every tile in view had first arrived (performance.now()) */
    this.completeAt = null;
    /** @type {number} when the photo was set */
    this.openedAt = performance.now();
    this.tiles = new ViewerTiles(this.layer, () => this.tilesChanged(), held);
    this.fittedHeld = fittedHeld ?? held ?? (() => false);
    /** @type {FittedImage | null} */
    this.fitted = fitted ? new FittedImage(this.layer, () => this.fittedChanged()) : null;
    /** True while the photo rests (or will) at fit on its fitted image: no tile of its level is wanted. */
    this.onFitted = false;
    /** True while the fitted image waits for `resume()` (held). */
    this.fittedWaiting = false;
  }

  get dpr() { return window.devicePixelRatio || 1; }
  /** The photo shown; only asked for while there is one. */
  get shown() {
    if (!this.photo) throw new Error('no photo shown');
    return this.photo;
  }
  /** The whole photo visible, as large as fits. */
  get fitScale() { return Math.min(this.vw / this.shown.width, this.vh / this.shown.height); }
  /** The stage filled, the photo cropped on one axis. */
  get fillScale() { return Math.max(this.vw / this.shown.width, this.vh / this.shown.height); }
  /** Native pixels, or twice the fitted size where fit is already at or past native. */
  get maxScale() {
    const native = 1 / this.dpr, fit = this.fitScale;
    return fit >= native * (1 - EPSILON) ? 2 * fit : native;
  }
  get atFit() { return this.s <= this.fitScale * (1 + EPSILON); }
  get atMax() { return this.s >= this.maxScale * (1 - EPSILON); }
  get level() { return levelFor(this.shown, this.s * this.dpr); }
  get animating() { return this.animation !== null; }

  /**
   * Shows `photo` (or nothing) fitted to the stage.
   * @param {Photo | null} photo
   */
  setPhoto(photo) {
    this.stop();
    this.tiles.clear();
    this.fitted?.clear();
    this.onFitted = this.fittedWaiting = false;
    this.photo = photo;
    this.completeAt = null;
    this.openedAt = performance.now();
    if (!photo) { this.layer.style.transform = ''; return; }
    this.measure();
    this.fit();
  }

  measure() {
    const w = Math.max(1, this.stage.clientWidth), h = Math.max(1, this.stage.clientHeight);
    const changed = w !== this.vw || h !== this.vh;
    this.vw = w; this.vh = h;
    return changed;
  }

  bounds(s = this.s) {
    return new PanBounds(this.shown.width * s, this.shown.height * s, this.vw, this.vh);
  }

  /**
   * Clamps a scale to the limits.
   * @param {number} s
   */
  clampScale(s) { return Math.min(this.maxScale, Math.max(this.fitScale, s)); }

  /**
   * A pinch's raw scale as shown: below fit or above the maximum it stretches, and resists.
   * @param {number} raw
   */
  stretchScale(raw) {
    const min = this.fitScale, max = this.maxScale;
    if (raw < min) return min * Math.exp(rubberBand(Math.log(raw / min), 0.5));
    if (raw > max) return max * Math.exp(rubberBand(Math.log(raw / max), 0.4));
    return raw;
  }

  /**
   * The photo point under stage point (px, py).
   * @param {number} px
   * @param {number} py
   * @returns {Point}
   */
  toPhoto(px, py) { return { x: (px - this.tx) / this.s, y: (py - this.ty) / this.s }; }

  fit() {
    const s = this.fitScale, b = this.bounds(s);
    this.place(s, b.min.x, b.min.y);
  }

  /**
   * Shows the photo at exactly this scale and translation, limits or not (a gesture's own frame).
   * @param {number} s
   * @param {number} tx
   * @param {number} ty
   */
  place(s, tx, ty) {
    if (!this.photo) return;
    this.s = s; this.tx = tx; this.ty = ty;
    this.render();
    this.onChange?.();
  }

  /**
   * The same transform, brought inside the limits.
   * @param {number} s
   * @param {number} tx
   * @param {number} ty
   * @returns {Transform}
   */
  clamped(s, tx, ty) {
    const c = this.clampScale(s), b = this.bounds(c);
    return { s: c, tx: b.clamp('x', tx), ty: b.clamp('y', ty) };
  }

  /**
   * @param {number} s
   * @param {number} tx
   * @param {number} ty
   */
  placeClamped(s, tx, ty) {
    const c = this.clamped(s, tx, ty);
    this.place(c.s, c.tx, c.ty);
  }

  /**
   * The transform that keeps photo point (x, y) under stage point (px, py) at scale `s`.
   * @param {number} s
   * @param {number} px
   * @param {number} py
   * @param {number} x
   * @param {number} y
   * @returns {Transform}
   */
  around(s, px, py, x, y) { return { s, tx: px - x * s, ty: py - y * s }; }

  /** Resize or rotation: the point under the centre and the zoom relative to fit both stay. */
  resize() {
    if (!this.photo) { this.measure(); return; }
    const before = { vw: this.vw, vh: this.vh, fit: this.fitScale, s: this.s, tx: this.tx, ty: this.ty };
    if (!this.measure()) return;
    this.stop();
    const centre = { x: (before.vw / 2 - before.tx) / before.s, y: (before.vh / 2 - before.ty) / before.s };
    const s = this.clampScale((before.s / before.fit) * this.fitScale);
    const t = this.around(s, this.vw / 2, this.vh / 2, centre.x, centre.y);
    this.placeClamped(t.s, t.tx, t.ty);
  }

  /** A new devicePixelRatio changes the limit and the level that matches the zoom. */
  pixelRatioChanged() {
    if (this.photo) this.placeClamped(this.s, this.tx, this.ty);
  }

  /** Whatever moves stops where it is, and what it shows now is what is wanted. */
  stop() {
    const moving = this.animation !== null || this.zooming;
    if (this.animation) this.animation.stop();
    this.animation = null;
    this.destination = null;
    this.zooming = false;
    if (moving) this.render();
  }

  /**
   * Animates to transform `to` along the zoom that keeps one screen point still (the fixed point
   * of the change), so a zoom around a point never wobbles, whatever the clamp did to the end.
   * @param {Transform} to
   * @param {{ frequency?: number, onDone?: () => void }} options
   */
  animateTo(to, { frequency = 22, onDone } = {}) {
    // Not stop(): a zoom handing over to another zoom asks for no tiles in between.
    this.animation?.stop();
    this.animation = null;
    this.destination = null;
    const from = { s: this.s, tx: this.tx, ty: this.ty };
    const r = to.s / from.s;
    const path = (/** @type {number} */ p) => {
      if (Math.abs(r - 1) < 1e-4) {
        return { s: to.s, tx: from.tx + (to.tx - from.tx) * p, ty: from.ty + (to.ty - from.ty) * p };
      }
      const s = from.s * Math.pow(r, p), k = s / from.s;
      const fx = (to.tx - from.tx * r) / (1 - r), fy = (to.ty - from.ty * r) / (1 - r);
      return { s, tx: fx - (fx - from.tx) * k, ty: fy - (fy - from.ty) * k };
    };
    this.zooming = Math.abs(r - 1) >= 1e-4;
    const spring = new Spring({ from: 0, to: 1, frequency, precision: 1e-3 });
    const animation = new Animation([spring], ([p]) => {
      const t = p >= 1 ? to : path(p);
      this.place(t.s, t.tx, t.ty);
    }, () => {
      this.animation = null;
      this.destination = null;
      this.zooming = false;
      this.place(to.s, to.tx, to.ty);
      onDone?.();
    });
    if (!animation.running) return; // it jumped to its end at once
    this.animation = animation;
    // Where it lands is known now: its tiles are on their way while it moves.
    this.destination = { ...to };
    this.requestTiles(to);
  }

  /**
   * Zooms to `target` (clamped) keeping stage point (px, py) still; null means the centre.
   * @param {number} target
   * @param {number | null} [px]
   * @param {number | null} [py]
   */
  zoomTo(target, px = null, py = null) {
    if (!this.photo) return;
    const x = px ?? this.vw / 2, y = py ?? this.vh / 2;
    const p = this.toPhoto(x, y);
    const t = this.around(this.clampScale(target), x, y, p.x, p.y);
    this.animateTo(this.clamped(t.s, t.tx, t.ty));
  }

  /**
   * Double tap: in to the tapped point (filling the stage, at least twice as close), or back to fit.
   * @param {number} px
   * @param {number} py
   */
  toggleZoomAt(px, py) {
    if (!this.atFit) { this.zoomTo(this.fitScale); return; }
    this.zoomTo(Math.min(this.maxScale, Math.max(2 * this.fitScale, this.fillScale)), px, py);
  }

  /**
   * After a drag: carries on with the finger's velocity and decelerates, bouncing off an edge it
   * reaches; a photo left stretched past an edge (or past a zoom limit) springs back.
   * @param {number} vx px per ms
   * @param {number} vy
   * @param {Point | null} [anchor]
   */
  fling(vx, vy, anchor = null) {
    if (!this.photo) return;
    this.stop();
    if (this.s < this.fitScale * (1 - EPSILON) || this.s > this.maxScale * (1 + EPSILON)) {
      this.settle(anchor);
      return;
    }
    const b = this.bounds();
    const velocity = { x: b.pannable('x') ? vx : 0, y: b.pannable('y') ? vy : 0 };
    const motions = [
      new Momentum({ from: this.tx, velocity: velocity.x, min: b.min.x, max: b.max.x }),
      new Momentum({ from: this.ty, velocity: velocity.y, min: b.min.y, max: b.max.y }),
    ];
    const animation = new Animation(motions, ([x, y]) => this.place(this.s, x, y), () => {
      this.animation = null;
      this.destination = null;
      this.render();
    });
    if (!animation.running) return; // it jumped to its end at once
    this.animation = animation;
    // A fling comes to rest where its deceleration (or the edge it bounces off) puts it: the
    // tiles there are asked for now, and arrive while it glides.
    const rest = (/** @type {'x' | 'y'} */ axis, /** @type {number} */ from) =>
      b.clamp(axis, from + projectedDistance(velocity[axis]));
    this.destination = { s: this.s, tx: rest('x', this.tx), ty: rest('y', this.ty) };
    this.requestTiles(this.destination);
  }

  /**
   * Springs back inside the limits, keeping `anchor` (a stage point, say the pinch's centre) still.
   * @param {Point | null} [anchor]
   */
  settle(anchor = null) {
    if (!this.photo) return;
    const a = anchor || { x: this.vw / 2, y: this.vh / 2 };
    const p = this.toPhoto(a.x, a.y);
    const t = this.around(this.clampScale(this.s), a.x, a.y, p.x, p.y);
    const to = this.clamped(t.s, t.tx, t.ty);
    if (Math.abs(to.s - this.s) < 1e-9 && Math.abs(to.tx - this.tx) < 0.5 && Math.abs(to.ty - this.ty) < 0.5) {
      this.place(to.s, to.tx, to.ty);
      return;
    }
    this.animateTo(to, { frequency: 18 });
  }

  /**
   * Where the photo is drawn, in viewport px, the stage's own transform included (a slide
   * translated by its strip, or scaled in a flight, about its top left).
   */
  screenRect() {
    const stage = this.stage.getBoundingClientRect();
    const k = this.stage.offsetWidth > 0 ? stage.width / this.stage.offsetWidth : 1;
    return { left: stage.left + this.tx * k, top: stage.top + this.ty * k,
      width: this.shown.width * this.s * k, height: this.shown.height * this.s * k };
  }

  /**
   * Positions every tile; asks for the tiles of where the photo is now, unless it is on its way
   * somewhere known (an animation asked for its end's tiles when it started), or is being zoomed
   * or stretched by a finger (asked for once it pauses: mid-pinch a level may be skipped in a
   * moment, and a photo stretched past a limit is about to spring back).
   */
  render() {
    if (!this.photo || this.photo.status === 'failed') return;
    this.tiles.layout(this.s, this.tx, this.ty, this.zooming);
    // Placed as the tiles are: at the scale they were laid out for, the layer's own transform doing the rest.
    const laid = this.tiles.layoutScale ?? this.s;
    this.fitted?.place(this.photo.width * laid, this.photo.height * laid);
    this.listeners.clear(this.settling);
    this.settling = 0;
    if (this.destination) return;
    if (this.zooming || this.stretched) this.settling = this.listeners.timeout(() => this.requestTiles(), 250);
    else this.requestTiles();
  }

  /** Past a zoom limit or an edge, as a finger or a bounce leaves it for a moment. */
  get stretched() {
    if (this.s < this.fitScale * (1 - EPSILON) || this.s > this.maxScale * (1 + EPSILON)) return true;
    const b = this.bounds();
    return Math.abs(b.overshoot('x', this.tx)) > 0.5 || Math.abs(b.overshoot('y', this.ty)) > 0.5;
  }

  /**
   * The part of the photo visible at transform `at`, in photo pixels.
   * @param {Transform} [at]
   */
  visiblePhotoRect(at = this) {
    return {
      x0: Math.max(0, -at.tx / at.s), y0: Math.max(0, -at.ty / at.s),
      x1: Math.min(this.shown.width, (this.vw - at.tx) / at.s),
      y1: Math.min(this.shown.height, (this.vh - at.ty) / at.s),
    };
  }

  /**
   * The tiles of level `z` covering photo rectangle `v`, those nearest its centre first.
   * @param {number} z
   * @param {import('./pyramid.js').PhotoRect} v
   */
  tilesOf(z, v) {
    const photo = this.shown;
    const range = tilesCovering(photo, z, v.x0, v.y0, v.x1, v.y1);
    /** @type {(import('./pyramid.js').TileCoordinate & { d: number })[]} */
    const tiles = [];
    if (!range) return tiles;
    const cx = (v.x0 + v.x1) / 2, cy = (v.y0 + v.y1) / 2;
    for (let y = range.r0; y <= range.r1; y++) {
      for (let x = range.c0; x <= range.c1; x++) {
        const r = tileRectInPhoto(photo, z, x, y);
        tiles.push({ z, x, y, d: Math.hypot((r.x0 + r.x1) / 2 - cx, (r.y0 + r.y1) / 2 - cy) });
      }
    }
    return tiles.sort((a, b) => a.d - b.d);
  }

  /**
   * Asks for the tiles the photo shows at transform `at` (where it is, or where it will rest):
   * the visible tiles of the level that matches its scale, most central first, and under them
   * the level it is fitted at (kept while it is shown) and the one-tile level 0.
   * @param {Transform} [at]
   */
  requestTiles(at = { s: this.s, tx: this.tx, ty: this.ty }) {
    if (!this.photo || this.photo.status === 'failed') return;
    const photo = this.photo;
    const z = levelFor(photo, at.s * this.dpr);
    const fitLevel = levelFor(photo, this.fitScale * this.dpr);
    const level0 = { z: 0, x: 0, y: 0 };
    const urlOf = (/** @type {import('./pyramid.js').TileCoordinate} */ t) => tileURL(photo, t.z, t.x, t.y);
    const rectOf = (/** @type {import('./pyramid.js').TileCoordinate} */ t) => tileRectInPhoto(photo, t.z, t.x, t.y);
    // A photo whose fit is its one-tile level 0 needs no image of its own.
    if (this.fitted && !this.fitted.failed && fitLevel > 0) {
      this.onFitted = at.s <= this.fitScale * (1 + EPSILON);
      this.fittedWaiting = this.fittedHeld();
      if (!this.fittedWaiting) this.askFitted();
      this.tiles.want(this.onFitted ? [] : this.tilesOf(z, this.visiblePhotoRect(at)), [level0], urlOf, rectOf);
      return;
    }
    this.onFitted = this.fittedWaiting = false;
    const wanted = this.tilesOf(z, this.visiblePhotoRect(at));
    const whole = { x0: 0, y0: 0, x1: photo.width, y1: photo.height };
    const underlay = [...this.tilesOf(fitLevel, whole), level0];
    this.tiles.want(wanted, underlay, urlOf, rectOf);
  }

  /** Asks for the whole photo at the device pixels of its fitted box (the one drawn stays until it comes). */
  askFitted() {
    const fit = this.fitScale * this.dpr;
    this.fitted?.want(fittedImageURL(this.shown, this.shown.width * fit, this.shown.height * fit));
  }

  /** The fitted image was drawn, or failed: then the photo is drawn from tiles, as without it. */
  fittedChanged() {
    if (this.fitted?.failed) this.requestTiles(this.destination ?? undefined);
    this.tilesChanged();
  }

  /** True once every tile in view (or, at fit, the fitted image) has arrived and nothing is moving. */
  get complete() { return this.drawn && !this.zooming && !this.animating; }

  /** True when what the photo rests on is drawn: its wanted tiles, and at fit its fitted image. */
  get drawn() { return this.tiles.complete && (!this.onFitted || Boolean(this.fitted?.complete)); }

  /** True when tiles it rests on failed to arrive (they are being asked for again). */
  get failing() { return this.tiles.failing; }

  /** True while nothing of the photo is drawn (not even its coarsest tile). */
  get blank() { return this.tiles.blank && !this.fitted?.drawn; }

  /** Asks again at once for the tiles that failed. */
  retry() { this.tiles.retryNow(); }

  /** No longer held: asks for the tiles (and the fitted image) that waited. */
  resume() {
    if (this.photo && this.fittedWaiting) {
      this.fittedWaiting = false;
      this.askFitted();
    }
    this.tiles.resume();
  }

  tilesChanged() {
    this.onTiles?.();
    if (this.completeAt === null && this.drawn) {
      this.completeAt = performance.now();
      this.onComplete?.();
    }
  }

  /** Stops, and lets go of its tiles, timers and listeners. */
  destroy() {
    this.animation?.stop();
    this.animation = null;
    this.listeners.destroy();
    this.tiles.destroy();
    this.fitted?.destroy();
    this.layer.remove();
    this.photo = null;
  }
}
