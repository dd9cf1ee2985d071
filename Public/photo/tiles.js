// @ts-check
// The tiles on the zoom view's stage: which are asked for, which are drawn, which are cancelled.
// Coarser tiles stay under the finer ones until the finer ones have arrived, so the screen is
// never blank; a tile that leaves the view before it arrives is cancelled (its src dropped).

import { ImageRetry } from '../util/image-retry.js';

/** @typedef {import('./pyramid.js').TileCoordinate} TileCoordinate */
/** @typedef {import('./pyramid.js').PhotoRect} PhotoRect */
/**
 * @typedef {TileCoordinate & { key: string, rect: PhotoRect, img: HTMLImageElement, loaded: boolean,
 *   retry: ImageRetry }} Tile one tile on the layer
 */

/** @param {TileCoordinate} t */
const key = (t) => `${t.z}/${t.x}/${t.y}`;

/** The set of <img> tiles of one photo on one layer element. */
export class ViewerTiles {
  /**
   * @param {HTMLElement} layer
   * @param {() => void} onChange
   */
  constructor(layer, onChange) {
    this.layer = layer;
    this.onChange = onChange;
    /** @type {Map<string, Tile>} */
    this.tiles = new Map();
    /** @type {Set<string>} the visible tiles of the current level */
    this.wantedKeys = new Set();
    /** @type {Set<string>} every tile asked for since the last reset */
    this.requested = new Set();
    this.requestCount = 0;
    this.level = 0;
    /** @type {number | null} */
    this.layoutScale = null;
    /** @type {PhotoRect | null} */
    this.lastVisible = null;
  }

  /** True when every wanted tile has been decoded. */
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
    this.layoutScale = null;
    this.lastVisible = null;
    this.resetRequests();
  }

  resetRequests() {
    this.requested = new Set();
    this.requestCount = 0;
  }

  /**
   * Makes `wanted` the tiles to show; keeps the level-0 tile as a permanent underlay;
   * cancels pending tiles that are no longer wanted.
   * @param {TileCoordinate[]} wanted
   * @param {PhotoRect} visible
   * @param {(t: TileCoordinate) => string} urlOf
   * @param {(t: TileCoordinate) => PhotoRect} rectOf
   */
  want(wanted, visible, urlOf, rectOf) {
    this.wantedKeys = new Set(wanted.map(key));
    this.level = wanted.length ? wanted[0].z : 0;
    const underlay = { z: 0, x: 0, y: 0 };
    // The underlay is asked for last and at low priority: it must not delay the tiles on screen.
    for (const t of [...wanted, underlay]) {
      const k = key(t);
      if (this.tiles.has(k)) continue;
      this.add(k, t, urlOf(t), rectOf(t), t === underlay && !this.wantedKeys.has(k));
    }
    for (const tile of this.tiles.values()) tile.img.style.zIndex = String(this.wantedKeys.has(tile.key) ? 100 : tile.z);
    this.prune(visible);
  }

  /**
   * @param {string} k
   * @param {TileCoordinate} t
   * @param {string} url
   * @param {PhotoRect} rect
   */
  add(k, t, url, rect, background = false) {
    const img = document.createElement('img');
    img.alt = '';
    img.draggable = false;
    img.decoding = 'async';
    // Tiles are what the person is waiting for; without this Chromium treats them as low-priority images.
    img.fetchPriority = background ? 'low' : 'high';
    img.className = 'tile';
    img.dataset.tile = k;
    /** @type {Tile} */
    const tile = { ...t, rect, img, loaded: false, key: k, retry: new ImageRetry(img) };
    img.addEventListener('load', () => {
      // Decoded before it is shown, so a tile never paints half-drawn over its coarser parent.
      img.decode().catch(() => {}).then(() => {
        if (this.tiles.get(k) !== tile) return;
        tile.loaded = true;
        img.classList.add('loaded');
        this.prune(this.lastVisible);
        this.onChange();
      });
    });
    // A tile that failed is asked for again later while it is still on the stage; meanwhile the
    // coarser tile under it stands in.
    img.addEventListener('error', () => tile.retry.failed(url));
    img.src = url;
    this.tiles.set(k, tile);
    this.requested.add(k);
    this.requestCount += 1;
    this.layer.appendChild(img);
    if (this.layoutScale !== null) this.position(tile, this.layoutScale);
  }

  /**
   * Removes what is neither wanted nor needed as a stand-in for a wanted tile still on its way.
   * @param {PhotoRect | null} visible
   */
  prune(visible) {
    if (!visible) return;
    this.lastVisible = visible;
    const done = this.complete;
    for (const [k, tile] of this.tiles) {
      if (this.wantedKeys.has(k) || k === '0/0/0') continue;
      const inView = tile.rect.x1 > visible.x0 && tile.rect.x0 < visible.x1 &&
        tile.rect.y1 > visible.y0 && tile.rect.y0 < visible.y1;
      if (!tile.loaded || done || !inView) {
        this.drop(tile);
        this.tiles.delete(k);
      }
    }
  }

  /** @param {Tile} tile */
  drop(tile) {
    tile.retry.reset();
    // Dropping the src is what makes the browser abandon a request still in flight.
    tile.img.removeAttribute('src');
    tile.img.remove();
  }

  /**
   * Places the tiles for scale `s` and translation (tx, ty). Tiles sit at whole pixels inside the
   * layer, edges rounded once so neighbours meet without seams; a pan only moves the layer.
   * @param {number} s
   * @param {number} tx
   * @param {number} ty
   */
  layout(s, tx, ty) {
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
    img.style.zIndex = String(this.wantedKeys.has(tile.key) ? 100 : tile.z);
  }
}
