// @ts-check
// The albums and the folders, one view for each on the same page: a card per album (photos
// gathered from anywhere, its cover, its title) or per folder of the photos folder (its newest
// photo, its path), with the count and the months it spans. A card links to the list's own grid.
// The albums' page makes new albums; it leads to the folders and Recently Deleted.

import { createAlbum, listAlbums, listFolders } from '../core/api.js';
import { coalesced } from '../util/coalesced.js';
import { byId, element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Album} Album */
/** @typedef {import('../core/api.js').Folder} Folder */
/** @typedef {'albums' | 'folders'} ListKind */

const rangeFormat = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * "Mar 2024": the month of a date as the server writes it (the camera's clock), or ''.
 * @param {string | null | undefined} taken
 */
function monthOf(taken) {
  const m = /^(\d{4})-(\d{2})/.exec(taken || '');
  return m ? rangeFormat.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))) : '';
}

export class AlbumsView {
  /**
   * @param {HTMLElement} root the albums' <main>
   * @param {{ toast: import('../ui/selection.js').UndoToast }} options
   */
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.list = byId('albums', HTMLElement);
    /** What the list shows (its kind and lists, as JSON): it is drawn again only when that changes. */
    this.drawn = '';
    this.status = byId('albums-status', HTMLElement);
    this.count = byId('albums-count', HTMLElement);
    this.heading = element(root, '.large-title h1', HTMLElement);
    this.newButton = element(root, '.album-new', HTMLButtonElement);
    this.foldersLink = element(root, '.folders-link', HTMLElement);
    this.back = element(root, '.album-back', HTMLElement);
    /** @type {ListKind} what is shown now */
    this.kind = 'albums';
    /** @type {Map<string, { title: string, path?: string, order?: 'taken' | 'custom' }>} titles (folders' paths, albums' orders) by list, '/albums/2' */
    this.titles = new Map();
    this.listeners = new Listeners();
    this.listeners.on(this.newButton, 'click', () => this.create());
    // Drawn again while on screen, however many changes come meanwhile (see follow()).
    this.refresh = coalesced(async () => {
      if (!this.root.hidden) await this.render(this.kind, () => !this.root.hidden);
    });
  }

  /**
   * Stays true while on screen: an album made, renamed or deleted, or photos added, moved or
   * removed (their counts, covers and months), here or in another window, draws it again.
   * @param {import('../core/live-events.js').LiveEvents} live
   */
  follow(live) {
    this.listeners.on(live, 'albums', () => { if (this.kind === 'albums') this.refresh(); });
    for (const type of ['photos', 'reset']) this.listeners.on(live, type, () => this.refresh());
    this.listeners.on(live, 'open', () => this.refresh());
  }

  /**
   * The albums or the folders from the server; their titles are kept for the grids that show one.
   * @param {ListKind} kind
   * @returns {Promise<(Album | Folder)[]>}
   */
  async load(kind) {
    if (kind === 'albums') {
      const { albums } = await listAlbums();
      for (const album of albums) this.titles.set(`/albums/${album.id}`, { title: album.title, order: album.order });
      return albums;
    }
    const { folders } = await listFolders();
    for (const folder of folders) this.titles.set(`/folders/${folder.id}`, { title: folder.title, path: folder.path });
    return folders;
  }

  /**
   * Fetches the albums or the folders and draws them, unless `stillWanted()` says the person went
   * elsewhere meanwhile; resolves to whether it drew.
   * @param {ListKind} kind
   * @param {() => boolean} stillWanted
   */
  async render(kind, stillWanted) {
    /** @type {(Album | Folder)[]} */
    let lists = [];
    const noun = kind === 'albums' ? 'albums' : 'folders';
    let status = '';
    try {
      lists = await this.load(kind);
      status = lists.length ? '' : kind === 'albums'
        ? 'No albums yet. Make one with New Album, or choose photos and Add to Album.'
        : 'No folders yet. Each folder of the photos folder that holds photos is shown here.';
    } catch (error) {
      status = `The ${noun} could not be loaded (${error instanceof Error ? error.message : error}). Reload to try again.`;
    }
    if (!stillWanted()) return false;
    this.kind = kind;
    this.status.textContent = status;
    this.heading.textContent = kind === 'albums' ? 'Albums' : 'Folders';
    this.list.setAttribute('aria-label', kind === 'albums' ? 'Albums' : 'Folders');
    this.newButton.hidden = kind !== 'albums';
    this.foldersLink.hidden = kind !== 'albums';
    this.back.hidden = kind === 'albums';
    for (const tabs of this.root.querySelectorAll('.view-tabs')) if (tabs instanceof HTMLElement) tabs.hidden = kind !== 'albums';
    // Drawn again only when it changed: a live event's refetch that finds the same lists leaves
    // the cards (and a press on one) where they are.
    const drawn = JSON.stringify([kind, lists]);
    if (drawn !== this.drawn) this.list.replaceChildren(...lists.map((list) => card(kind, list)));
    this.drawn = drawn;
    this.count.textContent = lists.length === 1 ? `1 ${noun.slice(0, -1)}` : `${lists.length} ${noun}`;
    return true;
  }

  /** A new album, named by the person; opened at once, empty. */
  async create() {
    const title = window.prompt('New album name:')?.trim();
    if (!title) return;
    try {
      const album = await createAlbum(title);
      this.titles.set(`/albums/${album.id}`, { title: album.title, order: album.order });
      location.hash = `#/albums/${album.id}`;
    } catch (error) {
      this.options.toast.show(`Could not make the album (${error instanceof Error ? error.message : error}).`);
    }
  }

  destroy() {
    this.listeners.destroy();
    this.list.replaceChildren();
    this.drawn = '';
  }
}

/**
 * One card: a link to the album's or the folder's grid.
 * @param {ListKind} kind
 * @param {Album | Folder} list
 */
function card(kind, list) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = `#/${kind}/${list.id}`;
  if (kind === 'albums') link.dataset.albumId = String(list.id); else link.dataset.folderId = String(list.id);
  const img = document.createElement('img');
  img.alt = '';
  img.loading = 'lazy';
  if (list.cover) img.src = list.cover.thumbnail; else img.className = 'album-empty';
  const title = document.createElement('span');
  title.className = 'album-title';
  // Nested folders ("2024/03") are told apart by their path.
  title.textContent = 'path' in list ? list.path.split('/').join(' / ') : list.title;
  const meta = document.createElement('span');
  meta.className = 'album-meta';
  const from = monthOf(list.from), to = monthOf(list.to);
  meta.textContent = `${list.count.toLocaleString()} ${list.count === 1 ? 'photo' : 'photos'}${from ? ' · ' + (from === to ? from : `${from} – ${to}`) : ''}`;
  link.title = 'path' in list ? list.path : list.title;
  link.append(img, title, meta);
  item.appendChild(link);
  return item;
}
