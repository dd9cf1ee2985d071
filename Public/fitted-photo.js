// The photo on its page: fitted to the column, drawn sharp from the pyramid level that matches
// the screen's device pixels, over the one-tile level 0 so something shows at once.

import { levelFor, levelSize, tileGrid, tileURL } from './geometry.js';

/** Draws `photo` into a canvas inside `frame`; call `destroy()` to stop loading. */
export class FittedPhoto {
  constructor(frame, photo) {
    this.frame = frame;
    this.photo = photo;
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', photo.title);
    this.canvas.className = 'fitted';
    frame.appendChild(this.canvas);
    this.images = [];
    this.drawnLevel = -1;
    // The column is measured, not the button: the button is only as wide as the photo in it.
    this.column = frame.closest('.photo-frame') || frame;
    this.observer = new ResizeObserver(() => this.draw());
    this.observer.observe(this.column);
  }

  /** The CSS size the photo takes: the column's width, and no taller than most of the screen. */
  displaySize() {
    const { width, height } = this.photo;
    const columnWidth = this.column.clientWidth || window.innerWidth;
    // Whole between the top bar and the bottom bar (about 140 px together), even on a phone held sideways.
    const maxHeight = Math.max(200, Math.min(window.innerHeight * 0.75, window.innerHeight - 142));
    const scale = Math.min(columnWidth / width, maxHeight / height);
    return { width: Math.round(width * scale), height: Math.round(height * scale), scale };
  }

  draw() {
    const size = this.displaySize();
    this.canvas.style.width = `${size.width}px`;
    this.canvas.style.height = `${size.height}px`;
    const z = levelFor(this.photo, size.scale * (window.devicePixelRatio || 1));
    if (z <= this.drawnLevel) return;
    this.cancel();
    this.drawnLevel = z;
    const level = levelSize(this.photo, z);
    // A canvas of the level's own size: tiles land on exact pixels, with no seams between them.
    this.canvas.width = level.width;
    this.canvas.height = level.height;
    const context = this.canvas.getContext('2d');
    const T = this.photo.tileSize;
    const placeholder = this.load(tileURL(this.photo, 0, 0, 0), (img) => {
      if (this.finished < this.expected) context.drawImage(img, 0, 0, level.width, level.height);
    });
    if (z === 0) { this.expected = 0; this.finished = 0; return; }
    const { columns, rows } = tileGrid(this.photo, z);
    this.expected = columns * rows;
    this.finished = 0;
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < columns; x++) {
        this.load(tileURL(this.photo, z, x, y), (img) => {
          context.drawImage(img, x * T, y * T);
          this.finished += 1;
        });
      }
    }
    void placeholder;
  }

  load(url, onLoad) {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () => onLoad(img);
    img.src = url;
    this.images.push(img);
    return img;
  }

  cancel() {
    for (const img of this.images) { img.onload = null; img.removeAttribute('src'); }
    this.images = [];
  }

  destroy() {
    this.observer.disconnect();
    this.cancel();
    this.canvas.remove();
  }
}
