// Read-only views of the page's state for the browser tests and the benchmark: window.__viewer,
// window.__pager, window.__slideshow, window.__keys (the page's keydown listeners, counted),
// window.__timers (the page's timers and frames still to run) and window.__network (its fetches
// on their way, and how often its live streams opened).
// They are not part of the page: the test browser evaluates this script in every document before
// the page's own (conftest.new_driver), and it imports the page's module once that has run, so
// the page under test is the one people get.
(() => {
  // Every keydown listener the page adds and removes, counted apart from Public/util/keyboard.js's own
  // count: a listener left behind shows here whatever the module believes.
  const keydown = [];
  const capture = (options) => Boolean(typeof options === 'boolean' ? options : options?.capture);
  const { addEventListener, removeEventListener } = EventTarget.prototype;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (type === 'keydown' && listener && !keydown.some((k) => k.target === this && k.listener === listener && k.capture === capture(options))) {
      keydown.push({ target: this, listener, capture: capture(options) });
    }
    return addEventListener.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    const i = keydown.findIndex((k) => k.target === this && k.listener === listener && k.capture === capture(options));
    if (type === 'keydown' && i >= 0) keydown.splice(i, 1);
    return removeEventListener.call(this, type, listener, options);
  };

  // The page's timers and animation frames still to run: a page with none is idle, and can do
  // nothing more until an event (a network answer, a person) comes. Wrapped, not changed.
  const pending = { timeouts: new Set(), intervals: new Set(), frames: new Set() };
  const timers = {
    setTimeout: window.setTimeout, clearTimeout: window.clearTimeout, setInterval: window.setInterval,
    clearInterval: window.clearInterval, requestAnimationFrame: window.requestAnimationFrame,
    cancelAnimationFrame: window.cancelAnimationFrame,
  };
  window.setTimeout = function (callback, ms, ...rest) {
    const id = timers.setTimeout.call(window, (...args) => { pending.timeouts.delete(id); callback(...args); }, ms, ...rest);
    pending.timeouts.add(id);
    return id;
  };
  window.clearTimeout = function (id) { pending.timeouts.delete(id); return timers.clearTimeout.call(window, id); };
  window.setInterval = function (...args) {
    const id = timers.setInterval.apply(window, args);
    pending.intervals.add(id);
    return id;
  };
  window.clearInterval = function (id) { pending.intervals.delete(id); return timers.clearInterval.call(window, id); };
  window.requestAnimationFrame = function (callback) {
    const id = timers.requestAnimationFrame.call(window, (now) => { pending.frames.delete(id); callback(now); });
    pending.frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = function (id) { pending.frames.delete(id); return timers.cancelAnimationFrame.call(window, id); };
  window.__timers = {
    get timeouts() { return pending.timeouts.size; },
    get intervals() { return pending.intervals.size; },
    get frames() { return pending.frames.size; },
    get idle() { return pending.timeouts.size + pending.intervals.size + pending.frames.size === 0; },
  };

  // The page's fetches not yet answered, and its event streams' openings: a page whose stream has
  // opened, with no fetch on its way and no timer left, waits for the server or a person.
  const network = { fetching: 0, streamsOpened: 0 };
  const nativeFetch = window.fetch;
  window.fetch = function (...args) {
    network.fetching += 1;
    const settled = () => { network.fetching -= 1; };
    const answer = nativeFetch.apply(this, args);
    answer.then(settled, settled);
    return answer;
  };
  const NativeEventSource = window.EventSource;
  window.EventSource = class extends NativeEventSource {
    constructor(...args) {
      super(...args);
      // The photos' stream is open for the page at its `hello` (core/live-events.js), others at `open`.
      const opens = new URL(String(args[0]), location.href).pathname.endsWith('/photos/events') ? 'hello' : 'open';
      addEventListener.call(this, opens, () => { network.streamsOpened += 1; });
    }
  };
  window.__network = {
    get fetching() { return network.fetching; },
    get streamsOpened() { return network.streamsOpened; },
  };

  const install = async () => {
    const entry = document.querySelector('script[type="module"][src$="app.js"]');
    if (!entry) return;
    let modules;
    try {
      modules = await Promise.all([import(entry.src), import(new URL('util/keyboard.js', entry.src).href)]);
    } catch {
      return; // the page's modules could not be fetched, so the page has not started either
    }
    const [{ pager, viewer, slideshow }, { listeningCount }] = modules;
    const photo = () => viewer.current;
    window.__viewer = {
      get open() { return viewer.isOpen && Boolean(viewer.photo); },
      get photoId() { return viewer.photo && viewer.photo.id; },
      get index() { return viewer.index; },
      get scale() { return photo().s; },
      get fitScale() { return viewer.photo ? photo().fitScale : null; },
      get maxScale() { return viewer.photo ? photo().maxScale : null; },
      get level() { return viewer.photo ? photo().level : null; },
      get devicePixelRatio() { return window.devicePixelRatio || 1; },
      get photoRect() { return photo().screenRect(); },
      get translation() { return [photo().tx, photo().ty]; },
      get stageRect() { return photo().stage.getBoundingClientRect().toJSON(); },
      get stripOffset() { return viewer.strip.shiftFrom(viewer.index); },
      get requestedTiles() { return new Set(photo().tiles.requested); },
      get wantedTiles() { return new Set(photo().tiles.wantedKeys); },
      get requestCount() { return photo().tiles.requestCount; },
      get complete() {
        return photo().complete && !viewer.gestures.active && !viewer.strip.moving && !viewer.closing && !viewer.flight;
      },
      get moving() { return Boolean(photo()?.animating) || viewer.strip.moving || viewer.gestures.active; },
      get animating() { return Boolean(photo()?.animating) || viewer.strip.moving || Boolean(viewer.closing) || Boolean(viewer.flight); },
      /** A single tap waits to act, in case a second one follows. */
      get tapPending() { return viewer.gestures.taps.pending; },
      get openedAt() { return photo().openedAt; },
      get completeAt() { return photo().completeAt; },
      resetRequests() { photo().tiles.resetRequests(); },
    };
    window.__pager = {
      get index() { return pager.index; },
      get count() { return pager.count; },
      get position() { return pager.strip.position; },
      get moving() { return pager.strip.moving || pager.gestures.active; },
      get animating() { return pager.strip.moving || Boolean(pager.page?.zoomable?.animating); },
      get pages() { return pager.element.querySelectorAll('.page').length; },
      get photo() { return pager.page?.zoomable ?? null; },
      get complete() {
        const z = pager.page?.zoomable;
        return Boolean(z && z.complete && !pager.strip.moving);
      },
      get completeAt() { return pager.page?.zoomable?.completeAt ?? null; },
    };
    window.__slideshow = {
      get playing() { return slideshow.playing; },
      get index() { return slideshow.index; },
      get changes() { return slideshow.changes; },
      get fullscreen() { return slideshow.fullscreen; },
    };
    // How many key handlers listen now: as Public/util/keyboard.js counts them, and as the browser has them.
    window.__keys = {
      get listening() { return listeningCount(); },
      get listeners() { return keydown.length; },
    };
  };
  // Module scripts have all run when the document is parsed.
  document.addEventListener('DOMContentLoaded', () => { install(); });
})();
