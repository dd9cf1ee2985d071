// @ts-check
// The page's service worker (registered by app.js at /sw.js, so its scope is the whole site):
// the page opens without the network, and the photos and tiles already seen stay viewable.
//
// - The shell (index.html at `/`, the modules, the style sheets, the icons, the manifest) is
//   kept in a cache named for VERSION, filled when the worker installs (from the browser's HTTP
//   cache where it can: the page has just loaded those files), served from there at
//   once and asked for again behind the scenes (a conditional GET: the server's ETags), so a new
//   release is in the cache for the next load. Caches of other versions go when a worker activates.
// - Tiles, thumbnails and the whole photo fitted to the page's box (the image a photo page draws
//   at fit) whose URL carries `?v=` (the photo's version: a changed file gets new URLs) never
//   change: served from the cache when there, else fetched and kept. At most IMAGE_LIMIT of them
//   are kept; the oldest stored go first. An image URL without `?v=` is never kept (it could go
//   stale).
// - The JSON the page reads to open a photo (the summary, pages of records, a photo's record,
//   the albums) is asked of the network first; the copy kept from the last answer is used only
//   when the server cannot be reached, marked `PhotoScroll-Offline: 1` so the page still says
//   the server is out of reach. At most DATA_LIMIT answers are kept, oldest stored first out.
// - On a first visit the page loaded the list and the photo it opened before this worker was in
//   control; when it takes control, the page sends `{keep: [paths]}`, what it loaded, and what of
//   it would have been kept above is kept now, from the browser's HTTP cache where it is there.
// - Nothing else is touched: sign-in and sessions (/session), the owner's setup, share links and
//   everything under /s/{token}, share management, uploads, favourites, the trash, comments,
//   search (its answers, suggestions, places and memories: online only, and the page says so
//   offline), live event streams, originals, probes, and every POST, PUT, PATCH and DELETE go to the
//   network as if there were no worker. No answer that says `Cache-Control: no-store` is kept.
// - An answer of 401 to anything kept here (the session is over, or the library turned
//   private) deletes the kept photos, tiles and JSON at once: a private library's photos do not
//   outlive the session. So does the page's message `forget` (a private library showing its
//   sign-in view); signing out also deletes every cache and unregisters the worker.

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** Names this worker's caches; changed when what it keeps, or how, changes. */
const VERSION = '1';
const SHELL_CACHE = `photoscroll-shell-${VERSION}`;
const IMAGE_CACHE = `photoscroll-images-${VERSION}`;
const DATA_CACHE = `photoscroll-data-${VERSION}`;

/**
 * Tiles, thumbnails and fitted photos kept, at most (a tile is 5–40 KB: up to about 60 MB; a
 * fitted photo, one per photo seen, a few hundred KB). `/sw.js?images=N` registers a worker with
 * another bound (8 to 100,000).
 */
const IMAGE_LIMIT = bound('images', 1500);
/** JSON answers kept, at most (records, pages of records, summaries, albums). `/sw.js?data=N`. */
const DATA_LIMIT = bound('data', 200);

/** Every file of the page, as the browser asks for it. `/` is index.html. */
const SHELL = [
  '/', '/app.js', '/boot.js', '/favicon.svg', '/manifest.webmanifest',
  '/icons/apple-touch-icon.png', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon.svg',
  '/core/api.js', '/core/connection.js', '/core/live-events.js', '/core/offline.js', '/core/pager-sequence.js',
  '/core/photo-index.js', '/core/photo-sequence.js', '/core/routes.js', '/core/search-results.js',
  '/core/tus.js', '/core/upload-store.js',
  '/gestures/cell-drag.js', '/gestures/cell-touch-drag.js', '/gestures/drag.js', '/gestures/grid-zoom.js', '/gestures/pinch.js', '/gestures/tap.js',
  '/gestures/viewer-gestures.js', '/gestures/wheel.js',
  '/photo/fitted-image.js', '/photo/flight.js', '/photo/pan-bounds.js', '/photo/pyramid.js',
  '/photo/slide-strip.js', '/photo/tiles.js', '/photo/zoomable-photo.js',
  '/styles/access.css', '/styles/base.css', '/styles/grid.css', '/styles/manage.css', '/styles/message.css',
  '/styles/pager.css', '/styles/search.css', '/styles/slideshow.css', '/styles/uploads.css',
  '/styles/zoom.css',
  '/ui/account-menu.js', '/ui/action-overflow.js', '/ui/album-actions.js', '/ui/comment-thread.js',
  '/ui/composer.js', '/ui/connection-status.js', '/ui/favourite-button.js', '/ui/fullscreen.js',
  '/ui/grid-density.js', '/ui/page-dots.js',
  '/ui/photo-actions.js', '/ui/photo-info.js', '/ui/photo-trouble.js', '/ui/scrubber.js', '/ui/search-box.js',
  '/ui/search-home.js', '/ui/selection.js', '/ui/share-sheet.js', '/ui/share.js', '/ui/upload-panel.js',
  '/util/coalesced.js', '/util/dom.js', '/util/image-retry.js', '/util/keyboard.js', '/util/listeners.js',
  '/util/motion.js',
  '/views/albums.js', '/views/collection.js', '/views/grid.js', '/views/grid-summary.js', '/views/message.js', '/views/pager.js',
  '/views/photo-page.js', '/views/search.js', '/views/sign-in.js', '/views/slideshow.js', '/views/zoom-viewer.js',
];
const SHELL_PATHS = new Set(SHELL);

/**
 * A tile, a thumbnail, the whole photo fitted to a box as the photo page and the zoom view ask
 * for it (IIIF's `full/!w,h/0/default.jpg`), or its centre square as a large grid cell asks for
 * it (`square/n,/0/default.jpg`), of the library (the page's own, not under a share link).
 */
const IMAGE_PATH = /^\/(?:photos\/\d+\/(?:thumbnail\.jpg|tiles\/\d+\/\d+\/\d+\.jpg)|iiif\/3\/\d+\/(?:full\/!\d+,\d+|square\/\d+,)\/0\/default\.jpg)$/;
/** The JSON the page reads to list the library and open a photo. */
const DATA_PATH = /^\/(?:photos(?:\/summary|\/\d+)?|(?:albums|folders)(?:\/\d+(?:\/summary)?)?)$/;

/** The header that marks a kept answer given because the server could not be reached. */
const OFFLINE_HEADER = 'PhotoScroll-Offline';

/** Counts the times the kept photos were forgotten: an answer fetched before one is not kept after it. */
let forgotten = 0;

/**
 * A bound from the worker's own URL, or `fallback`.
 * @param {string} name
 * @param {number} fallback
 */
function bound(name, fallback) {
  const asked = Number.parseInt(new URL(worker.location.href).searchParams.get(name) ?? '', 10);
  return Number.isFinite(asked) ? Math.min(Math.max(asked, 8), 100000) : fallback;
}

worker.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // From the browser's HTTP cache where it holds the file (the page has just loaded it), so
    // installing costs the server next to nothing and takes none of the six connections the
    // page's own requests need; a copy older than the server's is replaced the first time it is
    // used (each use asks the server again behind the answer).
    await cache.addAll(SHELL.map((path) => new Request(path, { cache: 'force-cache' })));
    await worker.skipWaiting();
  })());
});

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const current = new Set([SHELL_CACHE, IMAGE_CACHE, DATA_CACHE]);
    for (const name of await caches.keys()) if (!current.has(name)) await caches.delete(name);
    await caches.open(IMAGE_CACHE);
    await caches.open(DATA_CACHE);
    // The page that registered it is served from now on, not only after its next load.
    await worker.clients.claim();
  })());
});

// The page says the photos kept are no longer the visitor's to see (signing out, a private
// library showing its sign-in view).
// Or, taking control of a page on its first visit, what the page loaded before (see keepLoaded).
worker.addEventListener('message', (event) => {
  if (event.data === 'forget') event.waitUntil(forget());
  else if (Array.isArray(event.data?.keep)) event.waitUntil(keepLoaded(event.data.keep));
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || request.headers.has('Range')) return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (SHELL_PATHS.has(url.pathname)) event.respondWith(shell(event, url.pathname));
  else if (IMAGE_PATH.test(url.pathname) && url.searchParams.has('v')) event.respondWith(image(event));
  else if (DATA_PATH.test(url.pathname) && !(request.headers.get('Accept') ?? '').includes('text/event-stream')) {
    event.respondWith(data(event));
  }
});

/**
 * A file of the page: the kept copy at once, asked for again behind it; the network's when none is kept.
 * @param {FetchEvent} event
 * @param {string} path
 * @returns {Promise<Response>}
 */
async function shell(event, path) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(path);
  const fresh = (async () => {
    /** @type {Response} */
    let response;
    try {
      // Through the HTTP cache with its ETag: a 304 when nothing changed.
      response = await fetch(path, { cache: 'no-cache' });
    } catch {
      return null;
    }
    if (keepable(response) && response.headers.get('ETag') !== kept?.headers.get('ETag')) {
      await cache.put(path, response.clone());
    }
    return response;
  })();
  if (kept) {
    event.waitUntil(fresh);
    return kept;
  }
  return (await fresh) ?? Response.error();
}

/**
 * A tile or a thumbnail of one version of a photo: never changes, so the kept copy when there is one.
 * @param {FetchEvent} event
 * @returns {Promise<Response>}
 */
async function image(event) {
  const kept = await (await caches.open(IMAGE_CACHE)).match(event.request);
  if (kept) return kept;
  const since = forgotten;
  /** @type {Response} */
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    return Response.error();
  }
  if (response.status === 401) event.waitUntil(forget());
  else if (keepable(response)) event.waitUntil(keep(IMAGE_CACHE, event.request, response.clone(), IMAGE_LIMIT, since));
  return response;
}

/**
 * JSON the page needs to open a photo: the network's answer, kept; the kept one when the server cannot be reached.
 * @param {FetchEvent} event
 * @returns {Promise<Response>}
 */
async function data(event) {
  const since = forgotten;
  /** @type {Response} */
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    const kept = await (await caches.open(DATA_CACHE)).match(event.request, { ignoreVary: true });
    if (!kept) return Response.error();
    const headers = new Headers(kept.headers);
    headers.set(OFFLINE_HEADER, '1');
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
  if (response.status === 401) event.waitUntil(forget());
  else if (keepable(response)) event.waitUntil(keep(DATA_CACHE, event.request, response.clone(), DATA_LIMIT, since));
  return response;
}

/**
 * Keeps what the page loaded before this worker was in control, as if it had passed through here:
 * the images with their version and the JSON that opens a photo, each from the browser's HTTP
 * cache where it is there (the page has just loaded it), nothing already kept asked for again.
 * @param {unknown[]} paths paths and queries of this origin, in the order the page loaded them
 */
async function keepLoaded(paths) {
  const since = forgotten;
  for (const path of paths) {
    if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) continue;
    const url = new URL(path, worker.location.origin);
    const name = IMAGE_PATH.test(url.pathname) && url.searchParams.has('v') ? IMAGE_CACHE
      : DATA_PATH.test(url.pathname) ? DATA_CACHE : null;
    if (name === null) continue;
    const request = new Request(url, { cache: 'force-cache' });
    if (await (await caches.open(name)).match(request, { ignoreVary: true })) continue;
    /** @type {Response} */
    let response;
    try {
      response = await fetch(request);
    } catch {
      continue;
    }
    if (response.status === 401) return forget();
    if (keepable(response)) await keep(name, new Request(url), response, name === IMAGE_CACHE ? IMAGE_LIMIT : DATA_LIMIT, since);
  }
}

/**
 * Whether an answer may be kept: a whole 200 of this origin that does not forbid it.
 * @param {Response} response
 */
function keepable(response) {
  return response.status === 200 && response.type === 'basic'
    && !/\bno-store\b/i.test(response.headers.get('Cache-Control') ?? '');
}

/** @type {Map<string, Promise<void>>} the trim of each cache that is waiting to run */
const trims = new Map();

/** @type {Map<string, Promise<unknown>>} the last put into each cache, which the next one waits for */
const puts = new Map();

/**
 * Keeps an answer, then brings the cache back within `limit`, oldest stored first out.
 * @param {string} name
 * @param {Request} request
 * @param {Response} response
 * @param {number} limit
 * @param {number} since the count of forgettings when the request went out
 */
async function keep(name, request, response, limit, since) {
  // Forgotten meanwhile: not brought back.
  if (since !== forgotten) return;
  // Stored one after another in the order the answers came (a large answer's put takes longer
  // than a small one's), so that the oldest stored is the oldest seen.
  const stored = (puts.get(name) ?? Promise.resolve()).then(async () => {
    const cache = await caches.open(name);
    await cache.put(request, response);
    return cache;
  });
  puts.set(name, stored.catch(() => undefined));
  /** @type {Cache} */
  let cache;
  try {
    cache = await stored;
  } catch {
    return; // over the browser's quota: simply not kept
  }
  if (since !== forgotten) {
    await cache.delete(request);
    return;
  }
  // One trim waits for however many answers arrive meanwhile.
  let trim = trims.get(name);
  if (!trim) {
    trim = (async () => {
      await Promise.resolve();
      trims.delete(name);
      const keys = await cache.keys();
      // keys() lists requests in the order they were stored.
      for (const key of keys.slice(0, Math.max(0, keys.length - limit))) await cache.delete(key);
    })();
    trims.set(name, trim);
  }
  await trim;
}

/** Deletes the kept photos, tiles and JSON (the shell holds nothing of the library). */
async function forget() {
  forgotten += 1;
  await caches.delete(IMAGE_CACHE);
  await caches.delete(DATA_CACHE);
  await caches.open(IMAGE_CACHE);
  await caches.open(DATA_CACHE);
}
