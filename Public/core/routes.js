// @ts-check
// The page's URLs, which are its views: #/ is the grid, #/photos/3 the pager at photo 3,
// #/photos/3/zoom its zoom view; #/albums the albums, #/albums/2 one album's grid and
// #/albums/2/photos/3 the pager paging through that album only; #/folders, #/folders/5 and
// #/folders/5/photos/3 the same for the folders of the photos folder; #/favourites and #/trash
// the favourite photos and the recently deleted ones. #/search?q=lisbon is a search and its
// results, #/search/photos/3?q=lisbon the pager paging through those results only.

/**
 * What a URL shows. `list` is the list shown: null for the library, '/albums/2' for an album,
 * '/folders/5' for a folder (also the API path of its pages, and the URL's prefix).
 * @typedef {{ view: 'grid', list: string | null } | { view: 'albums', list: null } | { view: 'folders', list: null } | { view: 'favourites', list: null }
 *   | { view: 'trash', list: null } | { view: 'search', query: string, list: null }
 *   | { view: 'photo' | 'zoom', id: number, list: string | null, search?: string }} Route
 *   A photo's `search` is the query whose results it was opened from (then `list` is null).
 */

/**
 * The route a URL's hash names; anything it does not name is the grid.
 * @param {string} hash
 * @returns {Route}
 */
export function parseRoute(hash) {
  if (/^#\/albums\/?$/.test(hash)) return { view: 'albums', list: null };
  if (/^#\/folders\/?$/.test(hash)) return { view: 'folders', list: null };
  if (/^#\/favourites\/?$/.test(hash)) return { view: 'favourites', list: null };
  if (/^#\/trash\/?$/.test(hash)) return { view: 'trash', list: null };
  const search = /^#\/search(?:\/photos\/(\d+)(\/zoom)?)?\/?(?:\?(.*))?$/.exec(hash);
  if (search) {
    const query = new URLSearchParams(search[3] ?? '').get('q') ?? '';
    if (!search[1]) return { view: 'search', query, list: null };
    return { view: search[2] ? 'zoom' : 'photo', id: Number(search[1]), list: null, search: query };
  }
  const match = /^#(\/(?:albums|folders)\/\d+)?(?:\/photos\/(\d+)(\/zoom)?)?\/?$/.exec(hash);
  if (!match) return { view: 'grid', list: null };
  const list = match[1] ? match[1].replace(/\/0+(\d)/, '/$1') : null;
  if (!match[2]) return { view: 'grid', list };
  return { view: match[3] ? 'zoom' : 'photo', id: Number(match[2]), list };
}

/**
 * The kind and id of a list ('/albums/2' → albums, 2), or null for the library.
 * @param {string | null} list
 * @returns {{ kind: 'albums' | 'folders', id: number } | null}
 */
export function listOf(list) {
  const match = list ? /^\/(albums|folders)\/(\d+)$/.exec(list) : null;
  return match ? { kind: /** @type {'albums' | 'folders'} */ (match[1]), id: Number(match[2]) } : null;
}

/**
 * The URL of a photo in a list (`prefix`: '' for the library, '/albums/{id}' or '/folders/{id}'),
 * or of its zoom view.
 * @param {string} prefix
 * @param {number} id
 * @param {boolean} [zoom]
 */
export function photoHash(prefix, id, zoom = false) {
  return `#${prefix}/photos/${id}${zoom ? '/zoom' : ''}`;
}

/**
 * The URL of a search for `query` (the search view with nothing typed when empty).
 * @param {string} query
 */
export function searchHash(query) {
  return query ? `#/search?q=${encodeURIComponent(query)}` : '#/search';
}

/**
 * The URL of a photo among the results of a search for `query`, or of its zoom view.
 * @param {string} query
 * @param {number} id
 * @param {boolean} [zoom]
 */
export function searchPhotoHash(query, id, zoom = false) {
  return `#/search/photos/${id}${zoom ? '/zoom' : ''}?q=${encodeURIComponent(query)}`;
}
