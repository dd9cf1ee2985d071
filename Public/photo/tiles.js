// @ts-check
// The tiles of one photo on one layer element: which are asked for, in what order, which are
// drawn, which are cancelled. A photo is sharp as soon as the tiles it comes to rest on are drawn:
//   - they are asked for once, for where the photo will rest (a fling's or a spring's end is known
//     when it starts), the ones nearest the centre of the screen first, at high priority;
//   - nothing is asked for on the way, so no tile is fetched that is never shown; a tile still on
//     its way when it is no longer wanted is cancelled (its src dropped);
//   - each is decoded off the main thread (img.decode()) before it is shown, and those decoded in
//     the same frame are shown together, so a screenful costs one paint, not one per tile;
//   - coarser tiles stay under the finer ones until those are drawn, and the level the photo was
//     fitted at stays under everything while the photo is shown, so nothing ever flashes;
//   - they are asked for a few at a time, in that order, the rest in the tasks that follow (one
//     slice per frame while a photo flies): a photo fitted to a large screen is a couple of hundred
//     tiles, and asking for all of them in one go held the main thread for a quarter of a second
//     (no frame drawn, no input handled) just as the photo flew open, and their answers, all at
//     once, held it for most of the flight;
//   - a photo hidden under a flight (its page, while a copy flies open from the grid) asks for no
//     tile but the one-tile level 0 until the flight lands (`held`, then `resume()`): each tile
//     costs the service worker, the network, a decode and a raster, a few milliseconds of a small
//     machine's cores that the flight's frames need, for a photo nobody sees yet.

import { ImageRetry } from '../util/image-retry.js';
import { Listeners } from '../util/listeners.js';
import { flying } from '../util/motion.js';

/** @typedef {import('./pyramid.js').TileCoordinate} TileCoordinate */
/** @typedef {import('./pyramid.js').PhotoRect} PhotoRect */
/**
 * @typedef {TileCoordinate & { key: string, rect: PhotoRect, img: HTMLImageElement, loaded: boolean,
 *   retry: ImageRetry, url: string, listeners: Listeners }} Tile one tile on the layer (its listeners go with it)
 */
/** @typedef {{ key: string, t: TileCoordinate, priority: 'high' | 'low' }} Queued a tile wanted, not yet asked for */

/**
 * How many tiles one task asks for before it lets a frame be drawn, and for how long (ms) at most.
 * The requests themselves start after the task's script (in its microtasks), so the count bounds
 * them, not the clock.
 */
const SLICE_TILES = 6, SLICE_MS = 3;
/**
 * How many tiles a frame asks for while a photo flies: each costs the page, its service worker and
 * the network a few milliseconds of a small machine's cores, which the frames of the flight need.
 */
const FLYING_SLICE_TILES = 2;

/** @param {TileCoordinate} t */
export const tileKey = (t) => `${t.z}/${t.x}/${t.y}`;

/** The set of <img> tiles of one photo on one layer element. */
export class ViewerTiles {
  /**
   * @param {HTMLElement} layer
   * @param {() => void} onChange told whenever a tile was drawn, or failed to arrive
   * @param {() => boolean} [held] true while only level 0 may be asked for (see `resume()`)
   */
  constructor(layer, onChange, held = () => false) {
    this.layer = layer;
    this.onChange = onChange;
    this.held = held;
    this.listeners = new Listeners();
    /** @type {Map<string, Tile>} */
    this.tiles = new Map();
    /** @type {Set<string>} the tiles the photo rests on: the visible tiles of its level */
    this.wantedKeys = new Set();
    /** @type {Set<string>} tiles kept under everything once drawn (the level the photo was fitted at) */
    this.underlayKeys = new Set();
    /** @type {Set<string>} every tile asked for since the last reset */
    this.requested = new Set();
    this.requestCount = 0;
    this.level = 0;
    /** @type {number | null} the scale the tiles are placed for, in whole pixels */
    this.layoutScale = null;
    /** @type {Tile[]} decoded, to be shown together in the next frame */
    this.ready = [];
    this.revealFrame = 0;
    /** @type {Queued[]} wanted, still to be asked for: the most urgent last (taken with pop()) */
    this.queue = [];
    this.drainTimer = 0;
    this.drainFrame = 0;
    /** @type {((t: TileCoordinate) => string) | null} */
    this.urlOf = null;
    /** @type {((t: TileCoordinate) => PhotoRect) | null} */
    this.rectOf = null;
  }

  /** True when a tile the photo rests on failed to arrive and has not arrived since (it is asked for again). */
  get failing() {
    for (const k of this.wantedKeys) {
      const tile = this.tiles.get(k);
      if (tile && !tile.loaded && tile.retry.failing) return true;
    }
    return false;
  }

  /** True while no tile of the photo is drawn at all: nothing of it is on screen. */
  get blank() {
    for (const tile of this.tiles.values()) if (tile.loaded) return false;
    return true;
  }

  /** Asks again at once for every wanted tile that failed (a Retry button). */
  retryNow() {
    for (const k of this.wantedKeys) {
      const tile = this.tiles.get(k);
      if (tile && !tile.loaded && tile.retry.failing) tile.retry.now(tile.url);
    }
  }

  /** True when every wanted tile has been drawn. */
  get complete() {
    for (const k of this.wantedKeys) {
      const tile = this.tiles.get(k);
      if (!tile || !tile.loaded) return false;
    }
    return true;
  }

  clear() {
    for (const tile of this.tiles.values()) this.drop(tile);
    this.tiles.clear();
    this.wantedKeys = new Set();
    this.underlayKeys = new Set();
    this.layoutScale = null;
    this.ready = [];
    this.listeners.cancelFrame(this.revealFrame);
    this.revealFrame = 0;
    this.queue = [];
    this.stopDraining();
    this.resetRequests();
  }

  resetRequests() {
    this.requested = new Set();
    this.requestCount = 0;
  }

  /**
   * Makes `wanted` (most urgent first) the tiles to show, and `underlay` the tiles kept under
   * them once drawn. Tiles on their way that are neither are cancelled; drawn ones that are
   * neither stay as stand-ins until the wanted ones are all drawn.
   * @param {TileCoordinate[]} wanted
   * @param {TileCoordinate[]} underlay asked for too, after the wanted ones and at low priority
   * @param {(t: TileCoordinate) => string} urlOf
   * @param {(t: TileCoordinate) => PhotoRect} rectOf
   */
  want(wanted, underlay, urlOf, rectOf) {
    this.wantedKeys = new Set(wanted.map(tileKey));
    this.underlayKeys = new Set(underlay.map(tileKey));
    this.level = wanted.length ? wanted[0].z : this.level;
    this.urlOf = urlOf;
    this.rectOf = rectOf;
    // What was still to be asked for and is no longer wanted is simply never asked for.
    /** @type {Queued[]} */
    const queue = [];
    const queued = new Set();
    const enqueue = (/** @type {TileCoordinate[]} */ list, /** @type {'high' | 'low'} */ priority) => {
      for (const t of list) {
        const key = tileKey(t);
        if (this.tiles.has(key) || queued.has(key)) continue;
        queued.add(key);
        queue.push({ key, t, priority });
      }
    };
    enqueue(wanted, 'high');
    enqueue(underlay, 'low');
    this.queue = queue.reverse();
    for (const tile of this.tiles.values()) tile.img.style.zIndex = String(this.depth(tile));
    this.prune();
    this.drain();
  }

  /**
   * Asks for the queued tiles, most urgent first, SLICE_TILES of them at most; the rest in the next
   * task, or in the next frame while a photo flies. While `held`, only level 0 (the rest waits for
   * `resume()`).
   */
  drain() {
    this.stopDraining();
    const urlOf = this.urlOf, rectOf = this.rectOf;
    if (!urlOf || !rectOf) return;
    if (this.held()) {
      for (const next of this.queue) {
        if (next.t.z === 0 && !this.tiles.has(next.key)) this.add(next.key, next.t, urlOf(next.t), rectOf(next.t), next.priority);
      }
      return;
    }
    const start = performance.now();
    const most = flying() ? FLYING_SLICE_TILES : SLICE_TILES;
    let asked = 0, next;
    while ((next = this.queue.pop())) {
      if (this.tiles.has(next.key)) continue;
      this.add(next.key, next.t, urlOf(next.t), rectOf(next.t), next.priority);
      if (++asked >= most || performance.now() - start >= SLICE_MS) break;
    }
    if (!this.queue.length) return;
    if (flying()) this.drainFrame = this.listeners.frame(() => this.drain());
    else this.drainTimer = this.listeners.timeout(() => this.drain(), 0);
  }

  /** No longer held: what waited is asked for now. */
  resume() {
    if (this.queue.length && !this.drainTimer && !this.drainFrame) this.drain();
  }

  stopDraining() {
    this.listeners.clear(this.drainTimer);
    this.listeners.cancelFrame(this.drainFrame);
    this.drainTimer = this.drainFrame = 0;
  }

  /**
   * Wanted tiles over stand-ins, finer stand-ins over coarser ones, the underlay at the bottom.
   * @param {Tile} tile
   */
  depth(tile) {
    if (this.wantedKeys.has(tile.key)) return 100;
    return this.underlayKeys.has(tile.key) ? tile.z : 50 + tile.z;
  }

  /**
   * @param {string} k
   * @param {TileCoordinate} t
   * @param {string} url
   * @param {PhotoRect} rect
   * @param {'high' | 'low'} priority
   */
  add(k, t, url, rect, priority) {
    const img = document.createElement('img');
    img.alt = '';
    img.draggable = false;
    img.decoding = 'async';
    // Tiles are what the person is waiting for; without this Chromium treats them as low-priority images.
    img.fetchPriority = priority;
    img.className = 'tile';
    img.dataset.tile = k;
    const on = this.listeners.child();
    /** @type {Tile} */
    const tile = { ...t, rect, img, url, loaded: false, key: k, retry: new ImageRetry(img), listeners: on };
    on.on(img, 'load', () => {
      // Decoded before it is shown (off the main thread), so a tile never paints half-drawn over
      // its coarser parent, and the frame that shows it does not wait for the decode.
      img.decode().catch(() => {}).then(() => {
        if (this.tiles.get(k) !== tile) return;
        this.ready.push(tile);
        if (!this.revealFrame) this.revealFrame = this.listeners.frame(() => this.reveal());
      });
    });
    // A tile that failed is asked for again later while it is still on the stage; meanwhile the
    // coarser tile under it stands in.
    on.on(img, 'error', () => {
      tile.retry.failed(url);
      if (this.wantedKeys.has(k)) this.onChange();
    });
    img.src = url;
    this.tiles.set(k, tile);
    this.requested.add(k);
    this.requestCount += 1;
    if (this.layoutScale !== null) this.position(tile, this.layoutScale);
    this.layer.appendChild(img);
  }

  /** Shows every tile decoded since the last frame, in one go. */
  reveal() {
    this.revealFrame = 0;
    const ready = this.ready;
    this.ready = [];
    let shown = false;
    for (const tile of ready) {
      if (this.tiles.get(tile.key) !== tile || tile.loaded) continue;
      tile.loaded = true;
      tile.retry.reset();
      tile.img.classList.add('loaded');
      shown = true;
    }
    if (!shown) return;
    this.prune();
    this.onChange();
  }

  /**
   * Cancels what is on its way and no longer wanted, and once every wanted tile is drawn, drops the
   * stand-ins under them (not the underlay).
   */
  prune() {
    const done = this.complete;
    for (const [k, tile] of this.tiles) {
      if (this.wantedKeys.has(k) || this.underlayKeys.has(k)) continue;
      if (!tile.loaded || done) {
        this.drop(tile);
        this.tiles.delete(k);
      }
    }
  }

  /** @param {Tile} tile */
  drop(tile) {
    tile.listeners.destroy();
    tile.retry.reset();
    // Dropping the src is what makes the browser abandon a request still in flight.
    tile.img.removeAttribute('src');
    tile.img.remove();
  }

  /**
   * Places the tiles for scale `s` and translation (tx, ty). At rest, tiles sit at whole pixels
   * inside the layer, edges rounded once so neighbours meet without seams, and a pan only moves the
   * layer. While the photo zooms (`moving`), the layer is scaled as one instead, on the compositor,
   * and the tiles are placed again when it stops.
   * @param {number} s
   * @param {number} tx
   * @param {number} ty
   * @param {boolean} [moving]
   */
  layout(s, tx, ty, moving = false) {
    if (moving && this.layoutScale !== null && s !== this.layoutScale) {
      const k = s / this.layoutScale;
      this.layer.style.transform = `translate3d(${tx}px,${ty}px,0) scale(${k})`;
      return;
    }
    if (s !== this.layoutScale) {
      this.layoutScale = s;
      for (const tile of this.tiles.values()) this.position(tile, s);
    }
    this.layer.style.transform = `translate3d(${Math.round(tx)}px,${Math.round(ty)}px,0)`;
  }

  /**
   * @param {Tile} tile
   * @param {number} s
   */
  position(tile, s) {
    const { rect, img } = tile;
    const left = Math.round(rect.x0 * s), top = Math.round(rect.y0 * s);
    const right = Math.round(rect.x1 * s), bottom = Math.round(rect.y1 * s);
    img.style.transform = `translate3d(${left}px,${top}px,0)`;
    img.style.width = `${right - left}px`;
    img.style.height = `${bottom - top}px`;
    img.style.zIndex = String(this.depth(tile));
  }

  /** Drops every tile and lets go of every listener. */
  destroy() {
    this.clear();
    this.listeners.destroy();
  }
}
