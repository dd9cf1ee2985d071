// @ts-check
// The page's URLs, which are its views: #/ is the grid, #/photos/3 the pager at photo 3,
// #/photos/3/zoom its zoom view; #/albums the albums, #/albums/2 one album's grid and
// #/albums/2/photos/3 the pager paging through that album only; #/favourites and #/trash the
// favourite photos and the recently deleted ones. #/search?q=lisbon is a search and its results,
// #/search/photos/3?q=lisbon the pager paging through those results only.

/**
 * What a URL shows.
 * @typedef {{ view: 'grid', album: number | null } | { view: 'albums', album: null } | { view: 'favourites', album: null }
 *   | { view: 'trash', album: null } | { view: 'search', query: string, album: null }
 *   | { view: 'photo' | 'zoom', id: number, album: number | null, search?: string }} Route
 *   A photo's `search` is the query whose results it was opened from (then `album` is null).
 */

/**
 * The route a URL's hash names; anything it does not name is the grid.
 * @param {string} hash
 * @returns {Route}
 */
export function parseRoute(hash) {
  if (/^#\/albums\/?$/.test(hash)) return { view: 'albums', album: null };
  if (/^#\/favourites\/?$/.test(hash)) return { view: 'favourites', album: null };
  if (/^#\/trash\/?$/.test(hash)) return { view: 'trash', album: null };
  const search = /^#\/search(?:\/photos\/(\d+)(\/zoom)?)?\/?(?:\?(.*))?$/.exec(hash);
  if (search) {
    const query = new URLSearchParams(search[3] ?? '').get('q') ?? '';
    if (!search[1]) return { view: 'search', query, album: null };
    return { view: search[2] ? 'zoom' : 'photo', id: Number(search[1]), album: null, search: query };
  }
  const match = /^#(?:\/albums\/(\d+))?(?:\/photos\/(\d+)(\/zoom)?)?\/?$/.exec(hash);
  if (!match) return { view: 'grid', album: null };
  const album = match[1] ? Number(match[1]) : null;
  if (!match[2]) return { view: 'grid', album };
  return { view: match[3] ? 'zoom' : 'photo', id: Number(match[2]), album };
}

/**
 * The URL of a photo in a list (`prefix`: '' for the library, '/albums/{id}' for an album), or of
 * its zoom view.
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
