// @ts-check
// An album's or a folder's own buttons, while its grid is shown. An album: Sort (by date taken,
// or its own order, which Select's Move to Start, a photo dragged or Alt and an arrow make), Rename and Delete Album (its photos stay
// in the library). A folder: Rename (its folder; the id stays) and Delete Folder (its photos go to
// Recently Deleted, with an Undo right after).

import { deleteAlbum, deleteFolder, renameAlbum, renameFolder, restoreFromTrash, sortAlbum } from '../core/api.js';
import { listOf } from '../core/routes.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

export class AlbumActions {
  /**
   * @param {HTMLElement} gridView
   * @param {{ list: () => string | null, title: () => string, order: () => 'taken' | 'custom' | undefined,
   *           toast: import('./selection.js').UndoToast, onRenamed: (list: string, title: string) => void,
   *           onSorted: (list: string, order: 'taken' | 'custom') => void, onDeleted: (kind: 'albums' | 'folders') => void }} options
   *   order: the album's, as last listed; onSorted: told once the server has it
   */
  constructor(gridView, options) {
    this.root = element(gridView, '.album-actions', HTMLElement);
    this.deleteButton = element(this.root, '.album-delete', HTMLButtonElement);
    this.sortChoice = element(this.root, '.album-sort', HTMLSelectElement);
    this.options = options;
    this.listeners = new Listeners();
    this.listeners.on(element(this.root, '.album-rename', HTMLButtonElement), 'click', () => this.rename());
    this.listeners.on(this.deleteButton, 'click', () => this.remove());
    this.listeners.on(this.sortChoice, 'change', () => this.sort());
  }

  /** @param {boolean} shown */
  setShown(shown) {
    this.root.hidden = !shown;
    const album = listOf(this.options.list())?.kind !== 'folders';
    this.deleteButton.textContent = album ? 'Delete Album' : 'Delete Folder';
    this.sortChoice.hidden = !album;
    this.sortChoice.value = this.options.order() ?? 'taken';
  }

  /** The order chosen in Sort, sent; the grid shows it once the server has it. */
  async sort() {
    const list = this.options.list(), which = listOf(list);
    const order = this.sortChoice.value === 'custom' ? 'custom' : 'taken';
    if (!list || which?.kind !== 'albums') return;
    try {
      await sortAlbum(which.id, order);
      this.options.onSorted(list, order);
    } catch (error) {
      this.sortChoice.value = this.options.order() ?? 'taken';
      this.options.toast.show(`Could not sort the album (${error instanceof Error ? error.message : error}).`);
    }
  }

  async rename() {
    const list = this.options.list(), which = listOf(list);
    if (!list || !which) return;
    const folder = which.kind === 'folders';
    const title = window.prompt(folder ? 'Rename the folder:' : 'Rename the album:', this.options.title())?.trim();
    if (!title || title === this.options.title()) return;
    try {
      await (folder ? renameFolder(which.id, title) : renameAlbum(which.id, title));
      this.options.onRenamed(list, title);
      this.options.toast.show(`Renamed to ${title}`);
    } catch (error) {
      this.options.toast.show(`Could not rename the ${folder ? 'folder' : 'album'} (${error instanceof Error ? error.message : error}).`);
    }
  }

  async remove() {
    const which = listOf(this.options.list());
    if (!which) return;
    const title = this.options.title();
    if (which.kind === 'albums') {
      if (!window.confirm(`Delete the album ${title}? Its photos stay in the library.`)) return;
      try {
        await deleteAlbum(which.id);
        this.options.onDeleted('albums');
        this.options.toast.show(`Deleted the album ${title}`);
      } catch (error) {
        this.options.toast.show(`Could not delete the album (${error instanceof Error ? error.message : error}).`);
      }
      return;
    }
    if (!window.confirm(`Delete the folder ${title}? Its photos go to Recently Deleted.`)) return;
    try {
      const { batch, items } = await deleteFolder(which.id);
      this.options.onDeleted('folders');
      this.options.toast.show(`Deleted ${title} (${items.length === 1 ? '1 photo' : `${items.length} photos`})`, batch ? {
        label: 'Undo',
        run: () => { restoreFromTrash({ batch }).then(() => this.options.toast.show('Restored'), () => {}); },
      } : undefined);
    } catch (error) {
      this.options.toast.show(`Could not delete the folder (${error instanceof Error ? error.message : error}).`);
    }
  }

  destroy() { this.listeners.destroy(); }
}
