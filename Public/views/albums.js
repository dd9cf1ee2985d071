// @ts-check
// The albums: one card per folder of the photos folder, its newest photo as the cover, its path,
// the count and the months it spans. A card links to the album's own grid.

import { listAlbums } from '../core/api.js';
import { byId } from '../util/dom.js';

/** @typedef {import('../core/api.js').Album} Album */

const rangeFormat = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * "Mar 2024": the month of a date as the server writes it (the camera's clock), or ''.
 * @param {string | undefined} taken
 */
function monthOf(taken) {
  const m = /^(\d{4})-(\d{2})/.exec(taken || '');
  return m ? rangeFormat.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))) : '';
}

export class AlbumsView {
  /** @param {HTMLElement} root the albums' <main> */
  constructor(root) {
    this.root = root;
    this.list = byId('albums', HTMLElement);
    this.status = byId('albums-status', HTMLElement);
    this.count = byId('albums-count', HTMLElement);
    /** @type {Map<number, string>} album titles by id, once the albums were listed */
    this.titles = new Map();
  }

  /** The albums from the server; their titles are kept for the grids that show one. */
  async load() {
    const { albums } = await listAlbums();
    for (const album of albums) this.titles.set(album.id, album.title);
    return albums;
  }

  /**
   * Fetches the albums and draws them, unless `stillWanted()` says the person went elsewhere
   * meanwhile; resolves to whether it drew.
   * @param {() => boolean} stillWanted
   */
  async render(stillWanted) {
    /** @type {Album[]} */
    let albums = [];
    try {
      albums = await this.load();
      this.status.textContent = albums.length ? '' : 'No albums yet. Each folder in the photos folder is an album.';
    } catch (error) {
      this.status.textContent = `The albums could not be loaded (${error instanceof Error ? error.message : error}). Reload to try again.`;
    }
    if (!stillWanted()) return false;
    this.list.replaceChildren(...albums.map((album) => card(album)));
    this.count.textContent = albums.length === 1 ? '1 album' : `${albums.length} albums`;
    return true;
  }

  /** Nothing to let go of: its cards hold no listeners (the links are the browser's). */
  destroy() { this.list.replaceChildren(); }
}

/**
 * One album's card: a link to its grid.
 * @param {Album} album
 */
function card(album) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = `#/albums/${album.id}`;
  link.dataset.albumId = String(album.id);
  const img = document.createElement('img');
  img.src = album.cover.thumbnail;
  img.alt = '';
  img.loading = 'lazy';
  const title = document.createElement('span');
  title.className = 'album-title';
  // Nested folders ("2024/03") are told apart by their path.
  title.textContent = album.path.split('/').join(' / ');
  const meta = document.createElement('span');
  meta.className = 'album-meta';
  const from = monthOf(album.from), to = monthOf(album.to);
  meta.textContent = `${album.count.toLocaleString()} ${album.count === 1 ? 'photo' : 'photos'}${from ? ' · ' + (from === to ? from : `${from} – ${to}`) : ''}`;
  link.title = album.path;
  link.append(img, title, meta);
  item.appendChild(link);
  return item;
}
