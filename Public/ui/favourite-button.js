// @ts-check
// The heart in the pager's bar: the photo in front is a favourite or not, one tap changes it.
// Favourites are the grid's (Selection holds them and draws their hearts), so both always agree.
// Shown only to whoever may change the library (data-needs="manage").

import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Photo} Photo */
/** @typedef {import('./selection.js').Selection} Selection */

export class FavouriteButton {
  /**
   * @param {HTMLElement} root the pager, whose bar holds the button
   * @param {Selection} selection where the favourites are kept
   */
  constructor(root, selection) {
    this.selection = selection;
    this.button = element(root, '.action-favourite', HTMLButtonElement);
    /** @type {number | null} */
    this.photo = null;
    this.listeners = new Listeners();
    this.listeners.on(this.button, 'click', () => this.toggle());
    selection.onFavourites(() => this.draw());
  }

  /**
   * The photo in front changed.
   * @param {Photo} photo
   */
  setPhoto(photo) {
    this.photo = photo.id;
    this.draw();
  }

  draw() {
    const on = this.photo !== null && this.selection.favourites.has(this.photo);
    this.button.setAttribute('aria-pressed', String(on));
    this.button.title = on ? 'Remove from Favourites' : 'Add to Favourites';
    this.button.setAttribute('aria-label', this.button.title);
  }

  async toggle() {
    if (this.photo === null) return;
    this.button.disabled = true;
    try { await this.selection.setFavourite(this.photo, !this.selection.favourites.has(this.photo)); }
    finally { this.button.disabled = false; }
  }

  destroy() { this.listeners.destroy(); }
}
