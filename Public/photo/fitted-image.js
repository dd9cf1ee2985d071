// @ts-check
// The whole photo as one image, at the device pixels of the box it is fitted to, on the layer of
// its tiles. A large photo fitted to a large screen is a couple of hundred tiles of the level the
// fit needs: each a request, a decode and a place on the page, more than a second of a laptop's
// time after a photo flew open. One image the server cuts to the box's size (IIIF's
// `full/!w,h/`, immutable under the photo's version, as tiles are) is one request and one decode,
// asked for as the photo starts to fly, so it is drawn as it lands. Tiles take over once the
// photo is zoomed past fit; this image stays under them, as the fitted level's tiles did.
//
// It is shown only once decoded (off the main thread), in the frame after, so it never paints
// half-drawn; until then what was under it (the one-tile level 0) stands in. A new size (the
// window resized) is asked for beside the one drawn, which stays until the new one is decoded.
// If it fails to arrive, `failed` says so and the photo is drawn from tiles as before it: tiles
// have their own retries, and a server too busy to cut an image (429, 503) still sends tiles.

import { Listeners } from '../util/listeners.js';

/**
 * Its depth among the tiles (see ViewerTiles.depth): over the underlay's tiles (their level, a
 * small number) and under the stand-ins (50 + level) and the wanted tiles (100).
 */
const DEPTH = '49';

/** @typedef {{ img: HTMLImageElement, url: string, listeners: Listeners }} Shown one <img> and its listeners */

/** One image of a whole photo, fitted to its box, on a layer of tiles. */
export class FittedImage {
  /**
   * @param {HTMLElement} layer
   * @param {() => void} onChange told when the image was drawn, or failed
   */
  constructor(layer, onChange) {
    this.layer = layer;
    this.onChange = onChange;
    this.listeners = new Listeners();
    /** @type {Shown | null} the image drawn */
    this.drawn = null;
    /** @type {Shown | null} the image on its way (decoded, it replaces the one drawn) */
    this.coming = null;
    /** @type {string | null} the URL wanted now */
    this.wanted = null;
    /** True once an image of this photo failed: the photo is drawn from tiles until it is set again. */
    this.failed = false;
    /** @type {{ width: number, height: number } | null} the photo's box in CSS px, as last placed */
    this.box = null;
    this.revealFrame = 0;
  }

  /** True when the image wanted is the one drawn. */
  get complete() { return this.wanted !== null && this.drawn?.url === this.wanted; }

  /**
   * Makes `url` the image wanted: asked for now unless it is the one drawn or on its way.
   * @param {string} url
   */
  want(url) {
    this.wanted = url;
    if (this.failed || this.drawn?.url === url || this.coming?.url === url) return;
    if (this.coming) this.drop(this.coming);
    this.coming = this.load(url);
  }

  /**
   * @param {string} url
   * @returns {Shown}
   */
  load(url) {
    const img = document.createElement('img');
    img.alt = '';
    img.draggable = false;
    img.decoding = 'async';
    // The photo the person is looking at: without this Chromium treats it as a low-priority image.
    img.fetchPriority = 'high';
    img.className = 'fitted';
    img.style.zIndex = DEPTH;
    const on = this.listeners.child();
    /** @type {Shown} */
    const shown = { img, url, listeners: on };
    on.on(img, 'load', () => {
      img.decode().catch(() => {}).then(() => {
        if (this.coming !== shown) return;
        this.listeners.cancelFrame(this.revealFrame);
        this.revealFrame = this.listeners.frame(() => this.reveal(shown));
      });
    });
    on.on(img, 'error', () => {
      if (this.coming !== shown) return;
      this.drop(shown);
      this.coming = null;
      this.failed = true;
      this.onChange();
    });
    img.src = url;
    if (this.box) this.size(img, this.box);
    this.layer.appendChild(img);
    return shown;
  }

  /**
   * The image that came, decoded, replaces the one drawn.
   * @param {Shown} shown
   */
  reveal(shown) {
    this.revealFrame = 0;
    if (this.coming !== shown) return;
    this.coming = null;
    if (this.drawn) this.drop(this.drawn);
    this.drawn = shown;
    shown.img.classList.add('loaded');
    this.onChange();
  }

  /**
   * Places it over the whole photo drawn `width` × `height` CSS px, from the layer's top left.
   * @param {number} width
   * @param {number} height
   */
  place(width, height) {
    const w = Math.round(width), h = Math.round(height);
    if (this.box && this.box.width === w && this.box.height === h) return;
    this.box = { width: w, height: h };
    for (const shown of [this.drawn, this.coming]) if (shown) this.size(shown.img, this.box);
  }

  /**
   * @param {HTMLImageElement} img
   * @param {{ width: number, height: number }} box
   */
  size(img, box) {
    img.style.width = `${box.width}px`;
    img.style.height = `${box.height}px`;
  }

  /** @param {Shown} shown */
  drop(shown) {
    shown.listeners.destroy();
    // Dropping the src is what makes the browser abandon a request still in flight.
    shown.img.removeAttribute('src');
    shown.img.remove();
  }

  /** Forgets the photo's image (another photo, or none, is shown). */
  clear() {
    for (const shown of [this.drawn, this.coming]) if (shown) this.drop(shown);
    this.drawn = this.coming = this.wanted = null;
    this.failed = false;
    this.box = null;
    this.listeners.cancelFrame(this.revealFrame);
    this.revealFrame = 0;
  }

  /** Drops the image and lets go of every listener. */
  destroy() {
    this.clear();
    this.listeners.destroy();
  }
}
