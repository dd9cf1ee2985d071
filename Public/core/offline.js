// @ts-check
// The page offline: the service worker (sw.js) keeps the page's own files and the photos seen
// (their tiles, thumbnails and listings), so they open without the server. Here the page
// registers it, hands it what was loaded before it was in control, and tells it when what it
// kept is no longer the visitor's to see.

/**
 * Registers the service worker once the page has loaded, so that its first fill of the cache
 * waits for the page's own requests. Only for the library itself: not under a share link or the
 * setup link (it keeps nothing of theirs anyway).
 *
 * On a first visit the worker takes control of the page only once it has installed, after the
 * list and the photo opened were already loaded past it: when it does, the page tells it what it
 * loaded (the browser's own record of the page's requests), and the worker keeps what of that it
 * would have kept had it been there (from the browser's HTTP cache), so a reload offline shows them.
 * @param {import('../util/listeners.js').Listeners} listeners
 */
export function keepForOffline(listeners) {
  if (!('serviceWorker' in navigator) || location.pathname !== '/') return;
  const workers = navigator.serviceWorker;
  if (!workers.controller) {
    // The browser's record holds 250 requests unless told otherwise: a grid's thumbnails fill that.
    performance.setResourceTimingBufferSize(2000);
    listeners.on(workers, 'controllerchange', () => handOver(), { once: true });
  }
  listeners.on(window, 'load', () => { workers.register('/sw.js').catch(() => { /* not kept: online only */ }); },
    { once: true });
}

/** Tells the worker now in control which of this origin's files the page loaded before it was. */
function handOver() {
  const loaded = new Set();
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name);
    if (url.origin === location.origin) loaded.add(url.pathname + url.search);
  }
  navigator.serviceWorker.controller?.postMessage({ keep: [...loaded] });
}

/** Tells the service worker to delete the photos, tiles and listings it kept (the page's files stay). */
export function forgetKept() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage('forget'), () => {});
}
