// @ts-check
// The page offline: the service worker (sw.js) keeps the page's own files and the photos seen
// (their tiles, thumbnails and listings), so they open without the server. Here the page
// registers it, and tells it when what it kept is no longer the visitor's to see.

/**
 * Registers the service worker once the page has loaded, so that its first fill of the cache
 * waits for the page's own requests. Only for the library itself: not under a share link or the
 * setup link (it keeps nothing of theirs anyway).
 * @param {import('../util/listeners.js').Listeners} listeners
 */
export function keepForOffline(listeners) {
  if (!('serviceWorker' in navigator) || location.pathname !== '/') return;
  listeners.on(window, 'load', () => { navigator.serviceWorker.register('/sw.js').catch(() => { /* not kept: online only */ }); },
    { once: true });
}

/** Tells the service worker to delete the photos, tiles and listings it kept (the page's files stay). */
export function forgetKept() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage('forget'), () => {});
}
