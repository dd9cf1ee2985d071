// @ts-check
// A photo's comment thread: loaded once, then kept live through Server-Sent Events.
// Every piece of text goes in as textContent, so a comment can never become markup.

import { listComments, commentEvents } from '../core/api.js';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A person-friendly "2 min ago" for recent comments, a date for older ones. */
function when(createdAt) {
  const date = new Date(createdAt);
  const seconds = (Date.now() - date.getTime()) / 1000;
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return timeFormat.format(date);
}

// "just now" should not stay "just now": the times on screen are refreshed every minute.
setInterval(() => {
  for (const time of /** @type {NodeListOf<HTMLTimeElement>} */ (document.querySelectorAll('.comment time'))) time.textContent = when(time.dateTime);
}, 60_000);

/**
 * The list of comments of one photo inside `list` (an <ol>). `onChange({state, count})` hears
 * whether the thread is 'loading', 'ready' or in 'error', and how many comments it shows.
 */
export class CommentThread {
  constructor(list, photoId, onChange) {
    this.list = list;
    this.photoId = photoId;
    this.onChange = onChange;
    this.items = new Map(); // comment id → <li>
    this.events = null;
    this.loading = null;
    this.state = 'loading';
  }

  report(state = this.state) {
    this.state = state;
    this.onChange({ state, count: this.items.size });
  }

  /** Loads what is on the server (again); already shown comments are kept, not repeated. */
  load() {
    this.loading = listComments(this.photoId)
      .then((comments) => { comments.forEach((c) => this.add(c)); this.report('ready'); })
      .catch(() => this.report(this.items.size ? 'ready' : 'error'))
      .finally(() => { this.list.removeAttribute('aria-busy'); });
    return this.loading;
  }

  /** Starts listening for new and deleted comments; the listener is opened before reloading so nothing falls between. */
  listen() {
    if (this.events) return;
    this.events = commentEvents(this.photoId);
    this.events.addEventListener('comment', (e) => {
      try { this.add(JSON.parse(e.data)); } catch { /* a malformed event is skipped */ }
    });
    this.events.addEventListener('delete', (e) => {
      let id = Number.parseInt(e.lastEventId, 10);
      try { const data = JSON.parse(e.data); id = data.id ?? data; } catch { /* plain id */ }
      this.remove(Number(id));
    });
    // A stream that comes back after a drop reloads, so what was missed meanwhile shows.
    this.events.addEventListener('open', () => { if (this.state === 'error') this.load(); });
    this.load();
  }

  stop() {
    if (this.events) this.events.close();
    this.events = null;
  }

  /** Adds a comment in id order unless it is already shown; returns its item. */
  add(comment) {
    if (comment.photoId !== undefined && comment.photoId !== this.photoId) return null;
    if (this.items.has(comment.id)) return this.items.get(comment.id);
    const item = document.createElement('li');
    item.className = 'comment';
    item.dataset.id = comment.id;
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
    const text = document.createElement('p');
    text.className = 'comment-text';
    text.textContent = comment.text;
    item.append(head, text);
    const later = [...this.items.keys()].filter((id) => id > comment.id).sort((a, b) => a - b)[0];
    this.list.insertBefore(item, later === undefined ? null : this.items.get(later));
    this.items.set(comment.id, item);
    this.report(this.state === 'error' ? 'ready' : this.state);
    return item;
  }

  remove(id) {
    const item = this.items.get(id);
    if (!item) return;
    item.remove();
    this.items.delete(id);
    this.report();
  }
}
