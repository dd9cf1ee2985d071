// @ts-check
// A photo's comment thread: loaded once, then kept live through Server-Sent Events.
// Every piece of text goes in as textContent, so a comment can never become markup.

import { listComments, commentEvents, commentsShared } from '../core/api.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Comment} Comment */
/** @typedef {'loading' | 'ready' | 'error'} ThreadState */

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A person-friendly "2 min ago" for recent comments, a date for older ones.
 * @param {string} createdAt
 */
function when(createdAt) {
  const date = new Date(createdAt);
  const seconds = (Date.now() - date.getTime()) / 1000;
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return timeFormat.format(date);
}

/** The mark after a signed-in account's name: seen as a tick, read as what it means. */
function verifiedMark() {
  const mark = document.createElement('span');
  mark.className = 'comment-verified';
  mark.setAttribute('role', 'img');
  mark.setAttribute('aria-label', 'signed-in account');
  mark.title = 'Signed-in account';
  mark.textContent = '✓';
  return mark;
}

/**
 * The list of comments of one photo inside `list` (an <ol>). `onChange({state, count})` hears
 * whether the thread is 'loading', 'ready' or in 'error', and how many comments it shows.
 */
export class CommentThread {
  /**
   * @param {HTMLElement} list
   * @param {number} photoId
   * @param {(report: { state: ThreadState, count: number }) => void} onChange
   * @param {Listeners} listeners its owner's registry (the page's): the thread goes with it
   */
  constructor(list, photoId, onChange, listeners) {
    this.list = list;
    this.photoId = photoId;
    this.onChange = onChange;
    this.listeners = listeners;
    /** @type {Listeners | null} what lives while the thread is live: its stream */
    this.live = null;
    // "just now" should not stay "just now": the times shown are refreshed every minute.
    listeners.interval(() => {
      for (const time of this.list.querySelectorAll('time')) time.textContent = when(time.dateTime);
    }, 60_000);
    /** @type {Map<number, HTMLLIElement>} comment id → its item */
    this.items = new Map();
    /** @type {Promise<void> | null} */
    this.loading = null;
    /** @type {ThreadState} */
    this.state = 'loading';
  }

  /** @param {ThreadState} state */
  report(state = this.state) {
    this.state = state;
    this.onChange({ state, count: this.items.size });
  }

  /** Loads what is on the server (again); already shown comments are kept, not repeated. */
  load() {
    // A share link that does not share comments: nothing to load, and nothing shown.
    if (!commentsShared()) return (this.loading = Promise.resolve());
    this.loading = listComments(this.photoId)
      .then((comments) => { comments.forEach((c) => this.add(c)); this.report('ready'); })
      .catch(() => this.report(this.items.size ? 'ready' : 'error'))
      .finally(() => { this.list.removeAttribute('aria-busy'); });
    return this.loading;
  }

  /** Starts listening for new and deleted comments; the listener is opened before reloading so nothing falls between. */
  listen() {
    if (this.live || !commentsShared()) return;
    const live = this.listeners.child();
    this.live = live;
    const events = commentEvents(this.photoId);
    live.add(() => events.close());
    live.on(events, 'comment', (e) => {
      try { this.add(JSON.parse(e.data)); } catch { /* a malformed event is skipped */ }
    });
    live.on(events, 'delete', (e) => {
      let id = Number.parseInt(e.lastEventId, 10);
      try { const data = JSON.parse(e.data); id = data.id ?? data; } catch { /* plain id */ }
      this.remove(Number(id));
    });
    // A stream that comes back after a drop reloads, so what was missed meanwhile shows.
    live.on(events, 'open', () => { if (this.state === 'error') this.load(); });
    this.load();
  }

  /** Closes the live stream (the page left the front, or went). */
  stop() {
    this.live?.destroy();
    this.live = null;
  }

  /**
   * Adds a comment in id order unless it is already shown; returns its item.
   * @param {Comment} comment
   * @returns {HTMLLIElement | null}
   */
  add(comment) {
    if (comment.photoId !== undefined && comment.photoId !== this.photoId) return null;
    const shown = this.items.get(comment.id);
    if (shown) return shown;
    const item = document.createElement('li');
    item.className = 'comment';
    item.dataset.id = String(comment.id);
    const head = document.createElement('div');
    head.className = 'comment-head';
    const author = document.createElement('span');
    author.className = 'comment-author';
    author.textContent = comment.author || 'Anonymous';
    const time = document.createElement('time');
    time.dateTime = comment.createdAt;
    time.textContent = when(comment.createdAt);
    time.title = comment.createdAt;
    head.append(author, time);
    // A signed-in account's comment says so: anyone else may type any name but an account's.
    if (comment.verified) author.after(verifiedMark());
    const text = document.createElement('p');
    text.className = 'comment-text';
    text.textContent = comment.text;
    item.append(head, text);
    const later = [...this.items.keys()].filter((id) => id > comment.id).sort((a, b) => a - b)[0];
    this.list.insertBefore(item, later === undefined ? null : this.items.get(later) ?? null);
    this.items.set(comment.id, item);
    this.report(this.state === 'error' ? 'ready' : this.state);
    return item;
  }

  /** @param {number} id */
  remove(id) {
    const item = this.items.get(id);
    if (!item) return;
    item.remove();
    this.items.delete(id);
    this.report();
  }
}
