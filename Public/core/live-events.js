// @ts-check
// The server's live events (`GET /photos/events`), one stream for every view on screen that shows
// the library: a grid (the library's, an album's, a folder's), the albums, the folders, Favourites
// and Recently Deleted. It is open while one of them is on screen and the page is visible (a
// stream held open under the pager would take one of the browser's few connections to the server
// from the tiles), and hands each event on to whoever listens: `hello`, `photos`, `reset`,
// `albums`, `favourites` and `trash` as MessageEvents with the server's data, and `open` (just
// before each `hello`), whose detail says how it opened (see OpenKind).

import { photoEvents } from './api.js';

/**
 * How a stream opened: the page's first ('first'); opened again after none was open for a while
 * ('restarted': a restore, an upload, another window's change may have happened meanwhile); or the
 * same stream back after a break ('reconnected'). After any of them, views ask again what they
 * show: even the first opens after the views had their first answers, and a change between the
 * two would never be seen. An answer that has not changed redraws nothing.
 * @typedef {'first' | 'restarted' | 'reconnected'} OpenKind
 */

/**
 * What an `albums` or `favourites` event says: the albums or photos that changed; `ids` left out
 * when any may have.
 * @typedef {{ ids?: number[] }} ChangedIds
 */

/** The events of the stream, as the server names them. */
const TYPES = ['hello', 'photos', 'reset', 'albums', 'favourites', 'trash'];

export class LiveEvents extends EventTarget {
  constructor() {
    super();
    /** @type {EventSource | null} */
    this.source = null;
    /** Whether a stream was open before: one opened again may have missed changes. */
    this.followed = false;
  }

  /**
   * Opens the stream (when none is open) or closes it.
   * @param {boolean} live
   */
  setLive(live) {
    if (!live) {
      this.source?.close();
      this.source = null;
      return;
    }
    if (this.source) return;
    const source = photoEvents();
    this.source = source;
    const restarted = this.followed;
    this.followed = true;
    let opened = false;
    for (const type of TYPES) {
      source.addEventListener(type, (e) => {
        if (this.source !== source) return;
        // The stream counts as open at its `hello`, which the server writes once the stream is
        // among those it tells of changes, not at EventSource's `open`: that comes with the
        // answer's head, which a busy server sends before it has taken the stream in, so a change
        // between the two reached neither the views' asking again nor the stream.
        if (type === 'hello') {
          /** @type {OpenKind} */
          const kind = opened ? 'reconnected' : restarted ? 'restarted' : 'first';
          opened = true;
          this.dispatchEvent(new CustomEvent('open', { detail: kind }));
        }
        this.dispatchEvent(new MessageEvent(type, { data: /** @type {MessageEvent<string>} */ (e).data }));
      });
    }
  }
}

/**
 * The ids an `albums` or `favourites` event names, or null when any may have changed.
 * @param {Event} event
 * @returns {number[] | null}
 */
export function changedIds(event) {
  if (!(event instanceof MessageEvent)) return null;
  /** @type {ChangedIds} */
  const changed = JSON.parse(event.data);
  return changed.ids ?? null;
}
