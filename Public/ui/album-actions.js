// @ts-check
// An album's own buttons, while its grid is shown: Rename (its folder; the album keeps its id)
// and Delete Album (its photos go to Recently Deleted, with an Undo right after).

import { deleteAlbum, renameAlbum, restoreFromTrash } from '../core/api.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

export class AlbumActions {
  /**
   * @param {HTMLElement} gridView
   * @param {{ album: () => number | null, title: () => string, toast: import('./selection.js').UndoToast,
   *           onRenamed: (id: number, title: string) => void, onDeleted: () => void }} options
   */
  constructor(gridView, options) {
    this.root = element(gridView, '.album-actions', HTMLElement);
    this.options = options;
    this.listeners = new Listeners();
    this.listeners.on(element(this.root, '.album-rename', HTMLButtonElement), 'click', () => this.rename());
    this.listeners.on(element(this.root, '.album-delete', HTMLButtonElement), 'click', () => this.remove());
  }

  /** @param {boolean} shown */
  setShown(shown) { this.root.hidden = !shown; }

  async rename() {
    const id = this.options.album();
    if (id === null) return;
    const title = window.prompt('Rename the album (its folder):', this.options.title())?.trim();
    if (!title || title === this.options.title()) return;
    try {
      await renameAlbum(id, title);
      this.options.onRenamed(id, title);
      this.options.toast.show(`Renamed to ${title}`);
    } catch (error) {
      this.options.toast.show(`Could not rename the album (${error instanceof Error ? error.message : error}).`);
    }
  }

  async remove() {
    const id = this.options.album();
    if (id === null) return;
    if (!window.confirm(`Delete the album ${this.options.title()}? Its photos go to Recently Deleted.`)) return;
    try {
      const { batch, items } = await deleteAlbum(id);
      this.options.onDeleted();
      this.options.toast.show(`Deleted ${this.options.title()} (${items.length === 1 ? '1 photo' : `${items.length} photos`})`, batch ? {
        label: 'Undo',
        run: () => { restoreFromTrash({ batch }).then(() => this.options.toast.show('Restored'), () => {}); },
      } : undefined);
    } catch (error) {
      this.options.toast.show(`Could not delete the album (${error instanceof Error ? error.message : error}).`);
    }
  }

  destroy() { this.listeners.destroy(); }
}
