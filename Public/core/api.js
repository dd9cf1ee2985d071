// @ts-check
// The server's HTTP API, and nothing else: every request the page makes goes through here, and
// the shapes of its answers are declared here once, for every module that reads them.

import { connection } from './connection.js';

/**
 * A photo's record, as `GET /photos` and `GET /photos/{id}` give it.
 * @typedef {object} Photo
 * @property {number} id
 * @property {string} title
 * @property {number} width pixels, right way up (0 while unknown)
 * @property {number} height
 * @property {number} tileSize
 * @property {number} maxZoom the pyramid's top level: native resolution
 * @property {string} version changes whenever the file does; image URLs carry it as ?v=
 * @property {'ready' | 'processing' | 'failed'} status
 * @property {number} commentCount
 * @property {string} date when it was taken, as UTC (`2024-03-05T14:22:01Z`)
 * @property {string} taken when it was taken, on the camera's clock (RFC 3339, the offset when known)
 * @property {string} thumbnail URL of the square thumbnail
 * @property {string} tiles URL template of a tile: `{z}`, `{x}` and `{y}` filled in
 * @property {string} iiif
 * @property {string} dzi
 * @property {string} [original] URL of the file itself, while originals may be downloaded
 * @property {PhotoDetails} [details]
 * @property {string} [error] why a failed photo cannot be shown
 * @property {number} [position] place in the list (GET /photos/{id} only)
 * @property {number | null} [previous]
 * @property {number | null} [next]
 */

/**
 * What the file's header says, each member only when known.
 * @typedef {object} PhotoDetails
 * @property {string} [fileName]
 * @property {'exif' | 'xmp' | 'iptc' | 'file'} [takenFrom]
 * @property {string} [make]
 * @property {string} [model]
 * @property {string} [lens]
 * @property {number} [focalLength]
 * @property {number} [focalLength35mm]
 * @property {number} [aperture]
 * @property {number} [exposureTime]
 * @property {number} [iso]
 * @property {boolean} [flash]
 * @property {number} [width]
 * @property {number} [height]
 * @property {number} [orientation]
 * @property {number} [fileSize]
 * @property {string} [mediaType]
 * @property {string} [album]
 * @property {{ latitude: number, longitude: number, altitude?: number }} [location]
 */

/**
 * One page of a list: `GET /photos`, `GET /albums/{id}`, `GET /folders/{id}`.
 * @typedef {{ photos: Photo[], total: number, next: string | null }} PhotoPage
 */

/**
 * The whole list in a few bytes a photo (`GET /photos/summary`), with the ETag it came with.
 * @typedef {object} Summary
 * @property {number} total
 * @property {[number, number][]} idRuns ids in the list's order, as [first, count] runs
 * @property {number[]} ratios width / height per photo, 0 while unknown
 * @property {number[]} days the day taken per photo, days since 1970-01-01 on the camera's clock
 * @property {string | null} etag
 */

/**
 * A folder of the photos folder.
 * @typedef {object} Folder
 * @property {number} id
 * @property {string} title
 * @property {string} path its place under the photos folder
 * @property {number} count
 * @property {{ id: number, thumbnail: string }} cover its newest photo
 * @property {string} from when its oldest photo was taken
 * @property {string} to when its newest was
 * @property {string} link
 */

/**
 * An album: photos gathered from any folders, none of them moved.
 * @typedef {object} Album
 * @property {number} id
 * @property {string} title
 * @property {number} position its place among the albums
 * @property {'taken' | 'custom'} order its photos by date taken, or in its own order (what its grid shows)
 * @property {number} count its photos not in the trash
 * @property {{ id: number, thumbnail: string } | null} cover the one chosen, else its newest
 * @property {string | null} from when its oldest photo was taken
 * @property {string | null} to when its newest was
 * @property {string} link
 */

/**
 * A comment under a photo.
 * @typedef {object} Comment
 * @property {number} id
 * @property {number} [photoId]
 * @property {string} text
 * @property {string} [author]
 * @property {string} createdAt
 * @property {boolean} [verified] the author is the account of the signed-in person who posted it
 */

/**
 * Photos added, changed and removed, as one event of `GET /photos/events` says.
 * @typedef {{ added?: Photo[], changed?: Photo[], removed?: number[], total?: number }} PhotoChanges
 */

/**
 * Where the library's API is: '' for the library itself, `/s/{token}` for a share link, whose
 * holder asks for everything under the link (core/access.js sets it once, before anything loads).
 */
let linkPrefix = '';

/**
 * Puts every request of the library under a share link from now on.
 * @param {string} token
 */
export function useLink(token) { linkPrefix = `/s/${token}`; }

/** Whether comments are shown: not under a share link that does not share them. */
let commentsOn = true;

/** Comments are not shared with this page (a share link's choice). */
export function hideComments() { commentsOn = false; }

/** Whether this page reads and posts comments. */
export function commentsShared() { return commentsOn; }

/**
 * A path of the library's API as this page must ask for it: under the share link it holds, if any.
 * @param {string} path `/photos/3`, `/photos/summary` …
 */
export function at(path) { return linkPrefix + path; }

/** An error answered by the server as problem+json, with words a person can read. */
export class ServerError extends Error {
  /**
   * @param {number} status
   * @param {string} title
   * @param {string} detail
   * @param {number | null} retryAfter seconds the server asked to wait (Retry-After)
   */
  constructor(status, title, detail, retryAfter) {
    super(detail || title || `HTTP ${status}`);
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/**
 * The HTTP status of a failure, or undefined when the server never answered (offline, refused,
 * dropped): what tells "the server said no" from "the server could not be reached".
 * @param {unknown} error
 * @returns {number | undefined}
 */
export function statusOf(error) {
  return error instanceof ServerError ? error.status : undefined;
}

/**
 * `fetch`, with the connection told whether the server answered (any status is an answer; an
 * abort is no news either way; a copy the service worker kept, given because the server could
 * not be reached, is no answer).
 * @param {string} url
 * @param {RequestInit} [init]
 */
async function request(url, init) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'AbortError')) connection.failed();
    throw error;
  }
  if (response.headers.has('PhotoScroll-Offline')) connection.failed();
  else connection.answered();
  return response;
}

/** What the page does when the server says its session is over; set once someone is signed in. */
let sessionEnded = () => {};

/**
 * Runs `callback` when an answer says the session this page was signed in with is over (signed
 * out elsewhere, a new password, idle too long).
 * @param {() => void} callback
 */
export function onSessionEnd(callback) { sessionEnded = callback; }

/** @param {Response} response */
async function failure(response) {
  if (response.status === 401 && !linkPrefix && (response.headers.get('WWW-Authenticate') ?? '').startsWith('Cookie realm="photoscroll"')) {
    sessionEnded();
  }
  let title = response.statusText, detail = '';
  try {
    const problem = await response.json();
    title = problem.title || title;
    detail = problem.detail || '';
  } catch { /* not JSON: keep the status line */ }
  const retry = Number.parseInt(response.headers.get('Retry-After') || '', 10);
  return new ServerError(response.status, title, detail, Number.isFinite(retry) ? retry : null);
}

/**
 * The parsed body of a GET, as the caller says it is (the shapes above, which the server keeps).
 * @template T
 * @param {string} url
 * @param {RequestInit} [options]
 * @returns {Promise<T>}
 */
async function getJSON(url, options = {}) {
  const response = await request(url, { headers: { Accept: 'application/json' }, ...options });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/**
 * One page of the library, in its order: up to `limit` photos (at most 1,000) after the photo
 * with id `after` (from the start when null).
 * @param {{ after?: number | null, limit?: number, signal?: AbortSignal, base?: string }} options
 * @returns {Promise<PhotoPage>}
 */
export function listPage({ after = null, limit = 200, signal, base = '/photos' } = {}) {
  const query = after === null ? `limit=${limit}` : `after=${after}&limit=${limit}`;
  return getJSON(`${at(base)}?${query}`, { signal });
}

/**
 * The whole library in a few bytes a photo. With the ETag of the summary already held, resolves
 * to null when nothing changed (the server answers 304).
 * @param {string | null} [etag]
 * @param {string} [base] /photos or /albums/{id}
 * @returns {Promise<Summary | null>}
 */
export async function getSummary(etag = null, base = '/photos') {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  // The page keeps the summary itself; the browser's cache would only turn a 304 into a copy.
  const response = await request(`${at(base)}/summary`, { headers, cache: 'no-store' });
  if (response.status === 304) return null;
  if (!response.ok) throw await failure(response);
  const summary = await response.json();
  summary.etag = response.headers.get('ETag');
  return summary;
}

/**
 * One photo, with its place in the library: position, previous and next ids.
 * @param {number} id
 * @returns {Promise<Photo>}
 */
export function getPhoto(id) {
  return getJSON(at(`/photos/${id}`));
}

/**
 * The albums, in their order.
 * @returns {Promise<{ albums: Album[] }>}
 */
export function listAlbums() {
  return getJSON('/albums', { cache: 'no-store' });
}

/**
 * The folders of the photos folder.
 * @returns {Promise<{ folders: Folder[] }>}
 */
export function listFolders() {
  return getJSON('/folders');
}

// Search (docs/search.md): online only, never kept by the service worker.

/**
 * One page of a search's answer (`GET /search?q=`): the photos whose words match every word
 * typed, best match first; `partial` while the server is still building its index.
 * @typedef {{ query: string, total: number, photos: Photo[], next: string | null, partial?: boolean }} SearchPage
 */

/**
 * Something a search can be narrowed to as one types (`GET /search/suggest?q=`).
 * @typedef {object} Suggestion
 * @property {'place' | 'year' | 'month' | 'camera' | 'folder' | 'album'} kind
 * @property {string} text as shown: `Lisbon`, `July 2019`, `FUJIFILM X100V`
 * @property {string} query what to search for to find its photos
 * @property {number} count how many photos this visitor sees under it
 */

/**
 * One page of the photos matching `query`: up to `limit` (at most 1,000) after the photo with id
 * `after` in the answer's order (from the start when null).
 * @param {string} query
 * @param {{ after?: number | null, limit?: number, signal?: AbortSignal }} options
 * @returns {Promise<SearchPage>}
 */
export function searchPhotos(query, { after = null, limit = 200, signal } = {}) {
  const page = after === null ? `limit=${limit}` : `after=${after}&limit=${limit}`;
  return getJSON(`${at('/search')}?q=${encodeURIComponent(query)}&${page}`, { signal, cache: 'no-store' });
}

/**
 * At most ten places, dates, cameras and folders starting with what was typed.
 * @param {string} typed
 * @param {{ signal?: AbortSignal }} options
 * @returns {Promise<Suggestion[]>}
 */
export async function suggestSearches(typed, { signal } = {}) {
  /** @type {{ suggestions: Suggestion[] }} */
  const answer = await getJSON(`${at('/search/suggest')}?q=${encodeURIComponent(typed)}`, { signal, cache: 'no-store' });
  return answer.suggestions;
}

/**
 * A place where photos were taken (`GET /places`), most photos first.
 * @typedef {object} Place
 * @property {string} name the city
 * @property {string} region
 * @property {string} country
 * @property {number} count
 * @property {{ id: number, thumbnail: string }} cover its newest photo
 * @property {string} query what to search for to find its photos
 */

/**
 * Photos taken on a month and day in earlier years (`GET /memories?date=`), the latest year first.
 * @typedef {{ date: string, years: { year: number, yearsAgo: number, photos: Photo[] }[] }} Memories
 */

/**
 * Where the photos this visitor sees were taken (none where locations are not shown).
 * @returns {Promise<Place[]>}
 */
export async function listPlaces() {
  /** @type {{ places: Place[] }} */
  const answer = await getJSON(at('/places'), { cache: 'no-store' });
  return answer.places;
}

/**
 * The photos taken on the month and day of `date` (`YYYY-MM-DD`) in earlier years.
 * @param {string} date
 * @returns {Promise<Memories>}
 */
export function listMemories(date) {
  return getJSON(`${at('/memories')}?date=${encodeURIComponent(date)}`, { cache: 'no-store' });
}

/** Photos added, changed and removed, live (Server-Sent Events: `photos`, `reset`). */
export function photoEvents() {
  return new EventSource(at('/photos/events'));
}

/**
 * Comments of a photo, oldest first, all pages of them.
 * @param {number} photoId
 * @param {{ signal?: AbortSignal }} options
 * @returns {Promise<Comment[]>}
 */
export async function listComments(photoId, { signal } = {}) {
  /** @type {Comment[]} */
  const all = [];
  /** @type {number | null} */
  let after = null;
  for (;;) {
    /** @type {string} */
    const query = after === null ? 'limit=200' : `limit=200&after=${after}`;
    /** @type {{ comments: Comment[] }} */
    const { comments } = await getJSON(at(`/photos/${photoId}/comments?${query}`), { signal });
    all.push(...comments);
    if (comments.length < 200) return all;
    after = comments[comments.length - 1].id;
  }
}

/**
 * Posts a comment; resolves to the stored Comment or throws a ServerError.
 * @param {number} photoId
 * @param {string} text
 * @param {string} [author]
 * @returns {Promise<Comment>}
 */
export async function postComment(photoId, text, author) {
  /** @type {{ text: string, author?: string }} */
  const body = { text };
  if (author) body.author = author;
  const response = await request(at(`/photos/${photoId}/comments`), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/**
 * Live comment events of a photo (Server-Sent Events).
 * @param {number} photoId
 */
export function commentEvents(photoId) {
  return new EventSource(at(`/photos/${photoId}/comments/events`));
}

/**
 * A photo in the trash (`GET /trash`).
 * @typedef {object} TrashItem
 * @property {string} id
 * @property {string} batch the photos deleted together: restoring it is the Undo
 * @property {number} photo the photo's id, which it gets back when restored
 * @property {string} path where it was in the photos folder
 * @property {number} size
 * @property {string} deleted
 * @property {string} expires when it is deleted for good
 */

/** Where photos went after a move, a copy or a restore. */
/** @typedef {{ photos: { from: number, id: number | null, path: string }[] }} PlacedPhotos */

/**
 * A change sent as JSON; resolves to the answer's body (null for 204) or throws a ServerError.
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function change(method, url, body) {
  /** @type {RequestInit} */
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  if (!response.ok) throw await failure(response);
  return response.status === 204 ? null : response.json();
}

/**
 * The favourite photos' ids.
 * @returns {Promise<number[]>}
 */
export async function listFavourites() {
  /** @type {{ ids: number[] }} */
  const answer = await getJSON('/favourites', { cache: 'no-store' });
  return answer.ids;
}

/**
 * Marks and unmarks favourites; resolves to the favourites after.
 * @param {number[]} add
 * @param {number[]} remove
 * @returns {Promise<number[]>}
 */
export async function changeFavourites(add, remove) {
  /** @type {{ ids: number[] }} */
  const answer = await change('POST', '/favourites', { add, remove });
  return answer.ids;
}

/**
 * Moves (or copies) photos into a folder: its id, or a path (made when missing).
 * @param {number[]} ids
 * @param {{ folder: number | string }} where
 * @param {boolean} copy
 * @returns {Promise<PlacedPhotos>}
 */
export function placePhotos(ids, where, copy) {
  return change('POST', copy ? '/photos/copy' : '/photos/move', { ids, ...where });
}

/**
 * Sends photos to the trash; resolves to the batch (for the Undo) and the items.
 * @param {number[]} ids
 * @returns {Promise<{ batch: string | null, items: TrashItem[] }>}
 */
export function trashPhotos(ids) {
  return change('POST', '/photos/trash', { ids });
}

/** @returns {Promise<{ items: TrashItem[], trashDays: number }>} */
export function listTrash() {
  return getJSON('/trash', { cache: 'no-store' });
}

/**
 * Puts photos back from the trash: a whole batch (the Undo) or some items.
 * @param {{ batch?: string, items?: string[] }} what
 * @returns {Promise<PlacedPhotos>}
 */
export function restoreFromTrash(what) {
  return change('POST', '/trash/restore', what);
}

/** Deletes everything in the trash for good. */
export function emptyTrash() {
  return change('DELETE', '/trash');
}

/**
 * Renames a folder; its id stays.
 * @param {number} id
 * @param {string} title
 * @returns {Promise<{ id: number | null, path: string }>}
 */
export function renameFolder(id, title) {
  return change('PATCH', `/folders/${id}`, { title });
}

/**
 * Deletes a folder: its photos go to the trash (restore the batch to undo).
 * @param {number} id
 * @returns {Promise<{ batch: string | null, items: TrashItem[] }>}
 */
export function deleteFolder(id) {
  return change('DELETE', `/folders/${id}`);
}

/**
 * Makes an album, last among the albums.
 * @param {string} title
 * @returns {Promise<Album>}
 */
export function createAlbum(title) {
  return change('POST', '/albums', { title });
}

/**
 * Renames an album.
 * @param {number} id
 * @param {string} title
 * @returns {Promise<Album>}
 */
export function renameAlbum(id, title) {
  return change('PATCH', `/albums/${id}`, { title });
}

/**
 * Deletes an album; its photos stay in the library.
 * @param {number} id
 */
export function deleteAlbum(id) {
  return change('DELETE', `/albums/${id}`);
}

/**
 * Adds photos to an album, or takes them out of it (no file moves).
 * @param {number} id
 * @param {number[]} ids
 * @param {boolean} [remove]
 * @returns {Promise<Album>}
 */
export function changeAlbumPhotos(id, ids, remove = false) {
  return change(remove ? 'DELETE' : 'POST', `/albums/${id}/photos`, { ids });
}

/**
 * Shows an album's photos by date taken, or in its own order (as it was kept).
 * @param {number} id
 * @param {'taken' | 'custom'} order
 * @returns {Promise<Album>}
 */
export function sortAlbum(id, order) {
  return change('PATCH', `/albums/${id}`, { order });
}

/**
 * Moves photos of an album to a place of its own order (0 first), which it is then shown in.
 * @param {number} id
 * @param {number[]} ids
 * @param {number} position
 * @returns {Promise<Album>}
 */
export function moveInAlbum(id, ids, position) {
  return change('POST', `/albums/${id}/photos`, { ids, position });
}

// Who is signed in, and share links (docs/access.md).

/**
 * Who the server says is asking: a signed-in person, or someone else (a public library's visitor,
 * answered 200 `{"access":"public","role":"visitor",…}`; a private library's stranger, answered
 * 401), with what the page needs to know then: whether the library is private, whether it still
 * waits for its owner (the setup link in the server's log), whether this visitor may add photos
 * all the same (a public library from the server's own machine).
 * @typedef {{ signedIn: true, username: string, role: 'owner' | 'member' }
 *   | { signedIn: false, access: 'public' | 'private', setup: boolean, manage: boolean }} Session
 */

/** @returns {Promise<Session>} */
export async function getSession() {
  const response = await fetch('/session', { headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (response.status !== 401 && !response.ok) throw await failure(response);
  const who = await response.json().catch(() => ({}));
  if (response.ok && typeof who.username === 'string') {
    return { signedIn: true, username: who.username, role: who.role === 'owner' ? 'owner' : 'member' };
  }
  return { signedIn: false, access: who.access === 'public' ? 'public' : 'private', setup: who.setup === true,
    manage: who.manage === true };
}

/**
 * Signs in; the server answers with the session cookie.
 * @param {string} username
 * @param {string} password
 */
export function signIn(username, password) {
  return change('POST', '/session', { username, password });
}

/** Signs out: the session ends on every server, and the browser is told to forget what it kept. */
export function signOut() {
  return change('DELETE', '/session');
}

/**
 * A new password; every other session of the account ends, this one is renewed.
 * @param {string} current
 * @param {string} next
 */
export function changePassword(current, next) {
  return change('POST', '/session/password', { current, new: next });
}

/**
 * Makes the first owner with the one-time setup link's token, signed in at once.
 * @param {string} token
 * @param {string} username
 * @param {string} password
 */
export function setUpOwner(token, username, password) {
  return change('POST', '/setup', { token, username, password });
}

/**
 * Whether the setup link's token can still make the owner, without using it: resolves when it
 * can, throws the server's ServerError (403 used or never made, 409 there is an owner) otherwise.
 * @param {string} token
 */
export function checkSetup(token) {
  return change('POST', '/setup/check', { token });
}

/**
 * A share link, as its owner sees it.
 * @typedef {object} ShareLink
 * @property {number} id
 * @property {string} token
 * @property {string} url the address to give
 * @property {number | null} album
 * @property {number | null} folder
 * @property {number | null} photo
 * @property {string | null} expires RFC 3339, or null for never
 * @property {boolean} expired
 * @property {boolean} password
 * @property {boolean} download
 * @property {boolean} comments
 * @property {boolean} location
 * @property {boolean} upload whether its holder may add photos to the folder
 * @property {string} created
 */

/**
 * What a share link shows its holder (`GET /s/{token}/share`); until its password is given, only
 * that it needs one.
 * @typedef {object} SharedLink
 * @property {string} base
 * @property {boolean} password
 * @property {boolean} unlocked
 * @property {string | null} expires
 * @property {{ id: number, title: string, count: number } | null} [album]
 * @property {{ id: number, title: string, count: number } | null} [folder]
 * @property {number | null} [photo]
 * @property {boolean} [download]
 * @property {boolean} [comments]
 * @property {boolean} [location]
 * @property {boolean} [upload] whether photos may be added to the folder through the link
 */

/**
 * Makes a share link of an album, a folder or a photo.
 * @param {{ album?: number, folder?: number, photo?: number, expires?: string | null, password?: string,
 *   download?: boolean, comments?: boolean, location?: boolean, upload?: boolean }} request `expires` left out: the
 *   server's default (30 days); null: never
 * @returns {Promise<ShareLink>}
 */
export function createShare(request) {
  return change('POST', '/shares', request);
}

/** @returns {Promise<ShareLink[]>} every link, newest first */
export async function listShares() {
  /** @type {{ shares: ShareLink[] }} */
  const answer = await getJSON('/shares', { cache: 'no-store' });
  return answer.shares;
}

/**
 * Revokes a link, at once.
 * @param {number} id
 */
export function revokeShare(id) {
  return change('DELETE', `/shares/${id}`);
}

/**
 * What the link this page holds shows.
 * @returns {Promise<SharedLink>}
 */
export function describeLink() {
  return getJSON(at('/share'), { cache: 'no-store' });
}

/**
 * Gives the link's password; the server answers with a cookie that opens the link in this browser.
 * @param {string} password
 */
export function unlockLink(password) {
  return change('POST', at('/unlock'), { password });
}

