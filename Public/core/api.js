// @ts-check
// The server's HTTP API, and nothing else: every request the page makes goes through here.

/** An error answered by the server as problem+json, with words a person can read. */
export class ServerError extends Error {
  constructor(status, title, detail, retryAfter) {
    super(detail || title || `HTTP ${status}`);
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

async function failure(response) {
  let title = response.statusText, detail = '';
  try {
    const problem = await response.json();
    title = problem.title || title;
    detail = problem.detail || '';
  } catch { /* not JSON: keep the status line */ }
  const retry = Number.parseInt(response.headers.get('Retry-After') || '', 10);
  return new ServerError(response.status, title, detail, Number.isFinite(retry) ? retry : null);
}

async function getJSON(url, options = {}) {
  const response = await fetch(url, { headers: { Accept: 'application/json' }, ...options });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/**
 * One page of the library, in its order: up to `limit` photos (at most 1,000) after the photo
 * with id `after` (from the start when null). Resolves to {photos, total, next}.
 */
/** @param {{ after?: number | null, limit?: number, signal?: AbortSignal, base?: string }} options */
export function listPage({ after = null, limit = 200, signal, base = '/photos' } = {}) {
  const query = after === null ? `limit=${limit}` : `after=${after}&limit=${limit}`;
  return getJSON(`${base}?${query}`, { signal });
}

/**
 * The whole library in a few bytes a photo: {total, idRuns, ratios, days, etag}. With the etag of
 * the summary already held, resolves to null when nothing changed (the server answers 304).
 */
export async function getSummary(etag = null, base = '/photos') {
  const headers = { Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  // The page keeps the summary itself; the browser's cache would only turn a 304 into a copy.
  const response = await fetch(`${base}/summary`, { headers, cache: 'no-store' });
  if (response.status === 304) return null;
  if (!response.ok) throw await failure(response);
  const summary = await response.json();
  summary.etag = response.headers.get('ETag');
  return summary;
}

/** One photo, with its place in the library: position, previous and next ids. */
export function getPhoto(id) {
  return getJSON(`/photos/${id}`);
}

/** The albums (folders of the photos folder): {albums: [{id, title, path, count, cover, from, to}]}. */
export function listAlbums() {
  return getJSON('/albums');
}

/** Photos added, changed and removed, live (Server-Sent Events: `photos`, `reset`). */
export function photoEvents() {
  return new EventSource('/photos/events');
}

/** Comments of a photo, oldest first, all pages of them. */
/**
 * @param {number} photoId
 * @param {{ signal?: AbortSignal }} options
 */
export async function listComments(photoId, { signal } = {}) {
  const all = [];
  let after = null;
  for (;;) {
    const query = after === null ? 'limit=200' : `limit=200&after=${after}`;
    const { comments } = await getJSON(`/photos/${photoId}/comments?${query}`, { signal });
    all.push(...comments);
    if (comments.length < 200) return all;
    after = comments[comments.length - 1].id;
  }
}

/** Posts a comment; resolves to the stored Comment or throws a ServerError. */
export async function postComment(photoId, text, author) {
  const body = { text };
  if (author) body.author = author;
  const response = await fetch(`/photos/${photoId}/comments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** Live comment events of a photo (Server-Sent Events). */
export function commentEvents(photoId) {
  return new EventSource(`/photos/${photoId}/comments/events`);
}
