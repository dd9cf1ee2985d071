// @ts-check
// A horizontal strip of pages with a gap between them, moved by the finger (the pager and the zoom
// view both page on one). Only a few slot elements exist, whatever the number of pages: as the
// strip moves, the slot that fell behind is handed the page coming up ahead. `offset` is how far
// along the strip the view is, in px: page i is in front at offset i × stride.

import { Animation, Spring, rubberBand, rubberBandInverse } from '../util/motion.js';

/** Speed (px per ms) above which a release goes on to the page it is heading for. */
const PAGE_FLICK_SPEED = 0.3;

/** @typedef {HTMLElement & { pageIndex: number | null }} Slot a slot element, and the page it holds */

/** @template {Slot} S the slots' type: a Slot and whatever its owner keeps on it */
export class SlideStrip {
  /**
   * @param {HTMLElement} element the strip's viewport; it clips, and holds the slots
   * @param {{slots: number, gap: number, count: () => number, createSlot: () => S,
   *          fill: (slot: S, index: number) => void, onSettle?: (index: number) => void,
   *          onMove?: (position: number) => void}} options
   */
  constructor(element, { slots, gap, count, createSlot, fill, onSettle, onMove }) {
    this.element = element;
    this.gap = gap;
    this.count = count;
    this.fill = fill;
    this.onSettle = onSettle;
    this.onMove = onMove;
    this.index = 0;
    this.offset = 0;
    this.rawOffset = 0;
    /** @type {Animation | null} */
    this.animation = null;
    this.width = Math.max(1, element.clientWidth);
    this.slots = Array.from({ length: slots }, () => {
      const slot = createSlot();
      slot.dataset.index = '';
      slot.pageIndex = null;
      element.appendChild(slot);
      return slot;
    });
  }

  get stride() { return this.width + this.gap; }
  /** The page mostly in view. */
  get nearest() { return this.clampIndex(Math.round(this.offset / this.stride)); }
  /** The strip's position in pages (2.5: halfway from page 2 to page 3). */
  get position() { return this.offset / this.stride; }
  get moving() { return this.animation !== null; }
  get lastIndex() { return Math.max(0, this.count() - 1); }

  /** @param {number} i */
  clampIndex(i) { return Math.max(0, Math.min(this.lastIndex, i)); }
  /** @param {number} i */
  hasPage(i) { return i >= 0 && i < this.count(); }
  /**
   * How far the strip is from having page `i` in front, px (positive: the next page shows).
   * @param {number} i
   */
  shiftFrom(i) { return this.offset - i * this.stride; }
  /**
   * @param {number | null} i
   * @returns {S | null}
   */
  slotFor(i) { return this.slots.find((slot) => slot.pageIndex === i) || null; }

  /** The element's width changed: the same page (or the same fraction of a swipe) stays in front. */
  layout() {
    const width = Math.max(1, this.element.clientWidth);
    if (width === this.width) return;
    const position = this.position;
    this.width = width;
    if (this.animation) { this.stop(); this.settle(this.nearest); return; }
    this.offset = this.rawOffset = position * this.stride;
    this.draw();
  }

  /**
   * Puts page `i` in front at once.
   * @param {number} i
   */
  jump(i) {
    this.stop();
    this.width = Math.max(1, this.element.clientWidth);
    this.settle(this.clampIndex(i));
  }

  /**
   * Slides to page `i`, starting at `velocity` (px per ms along the strip).
   * @param {number} i
   */
  animateTo(i, velocity = 0) {
    this.stop();
    const target = this.clampIndex(i), distance = target * this.stride - this.offset, frequency = 20;
    // Pages snap in without overshooting into the next one: a flick faster than the spring can
    // stop in the distance left arrives at the spring's own top speed.
    const limit = (frequency * Math.abs(distance)) / 1000;
    if (Math.sign(velocity) === Math.sign(distance)) velocity = Math.sign(velocity) * Math.min(Math.abs(velocity), limit);
    const spring = new Spring({ from: this.offset, to: target * this.stride, velocity, frequency });
    this.animation = new Animation([spring], ([offset]) => this.place(offset), () => {
      this.animation = null;
      this.settle(target);
    });
    if (!this.animation.running) this.animation = null; // it jumped to its end at once
  }

  /** A finger landed: whatever was moving stops where it is, and the finger takes it from there. */
  catch() {
    if (!this.animation) return;
    this.stop();
    this.rawOffset = this.unstretch(this.offset);
  }

  stop() {
    this.animation?.stop();
    this.animation = null;
  }

  /**
   * The finger moved by `dx` px (positive: to the right, towards the previous page).
   * @param {number} dx
   */
  dragBy(dx) {
    this.rawOffset -= dx;
    this.place(this.stretch(this.rawOffset));
  }

  /**
   * The finger let go moving at `vx` px per ms: on to the page it was heading for, or back.
   * @param {number} vx
   */
  release(vx) {
    const along = -vx, p = this.position;
    let target;
    if (along > PAGE_FLICK_SPEED) target = Math.floor(p + 1e-6) + 1;
    else if (along < -PAGE_FLICK_SPEED) target = Math.ceil(p - 1e-6) - 1;
    else target = Math.round(p);
    this.animateTo(target, along);
  }

  /**
   * Past the first or the last page the strip stretches, and resists.
   * @param {number} raw
   */
  stretch(raw) {
    const end = this.lastIndex * this.stride;
    if (raw < 0) return rubberBand(raw, this.width);
    if (raw > end) return end + rubberBand(raw - end, this.width);
    return raw;
  }

  /** @param {number} shown */
  unstretch(shown) {
    const end = this.lastIndex * this.stride;
    if (shown < 0) return rubberBandInverse(shown, this.width);
    if (shown > end) return end + rubberBandInverse(shown - end, this.width);
    return shown;
  }

  /** @param {number} offset */
  place(offset) {
    this.offset = offset;
    this.recentre(this.nearest);
    this.draw();
    this.onMove?.(this.position);
  }

  /** @param {number} i */
  settle(i) {
    this.index = i;
    this.offset = this.rawOffset = i * this.stride;
    this.recentre(i);
    this.draw();
    for (const slot of this.slots) {
      const front = slot.pageIndex === i;
      slot.inert = !front;
      slot.classList.toggle('current', front);
    }
    this.onMove?.(this.position);
    this.onSettle?.(i);
  }

  /**
   * Hands every page of the window around `centre` a slot, reusing those that fell out of it.
   * @param {number} centre
   */
  recentre(centre) {
    const half = Math.floor(this.slots.length / 2);
    /** @type {number[]} */
    const wanted = [];
    for (let i = centre - half; i <= centre + half; i++) wanted.push(i);
    const free = this.slots.filter((slot) => slot.pageIndex === null || !wanted.includes(slot.pageIndex));
    for (const i of wanted) {
      if (this.slots.some((slot) => slot.pageIndex === i)) continue;
      const slot = free.shift();
      if (!slot) break;
      slot.pageIndex = i;
      slot.dataset.index = String(i);
      slot.hidden = !this.hasPage(i);
      slot.inert = true;
      slot.classList.remove('current');
      this.fill(slot, i);
    }
  }

  /** Fills every slot again (the pages behind the indices changed). */
  refill() {
    for (const slot of this.slots) {
      if (slot.pageIndex === null) continue;
      slot.hidden = !this.hasPage(slot.pageIndex);
      this.fill(slot, slot.pageIndex);
    }
  }

  draw() {
    for (const slot of this.slots) {
      if (slot.pageIndex === null) continue;
      const x = slot.pageIndex * this.stride - this.offset;
      slot.style.transform = `translate3d(${Math.round(x)}px,0,0)`;
    }
  }
}
