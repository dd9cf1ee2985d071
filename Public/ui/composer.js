// @ts-check
// The comment input at the bottom of the photo pages: one bar for whichever photo is showing.
// It is a real <form method=post> (the server takes form posts too); with scripts it posts JSON,
// stays above the on-screen keyboard, and says in words what the server refused.

import { at, postComment, ServerError, statusOf } from '../core/api.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Comment} Comment */
/** @typedef {import('../core/api.js').Photo} Photo */

const AUTHOR_KEY = 'photoscroll.author';

/** The bottom bar: form, text input, send button and status line. */
export class Composer {
  /**
   * @param {HTMLFormElement} form
   * @param {{ onPosted: (comment: Comment) => void }} options
   */
  constructor(form, { onPosted }) {
    this.form = form;
    this.input = element(form, 'input[name=text]', HTMLInputElement);
    this.author = element(form, 'input[name=author]', HTMLInputElement);
    this.button = element(form, 'button[type=submit]', HTMLButtonElement);
    this.status = element(form, '.composer-status', HTMLElement);
    this.hint = element(form, '.composer-hint', HTMLElement);
    this.onPosted = onPosted;
    this.listeners = new Listeners();
    /** @type {number | null} */
    this.photoId = null;
    /** @type {string | null} the signed-in account comments go out under, asked no name */
    this.account = null;
    this.waitUntil = 0;      // a rate limit: no sending before this time (ms)
    this.countdown = 0;
    this.offline = false;    // the status line says there is no connection
    this.sending = false;
    this.author.value = localStorage.getItem(AUTHOR_KEY) || '';
    const on = this.listeners;
    on.on(form, 'submit', (e) => { e.preventDefault(); this.send(); });
    on.on(this.input, 'input', () => this.updateButton());
    on.on(this.author, 'change', () => localStorage.setItem(AUTHOR_KEY, this.author.value.trim()));
    // The field stops at what the server takes, and says so when it does.
    on.on(this.author, 'input', () => { this.hint.hidden = this.author.value.length < this.author.maxLength; });
    // The connection is back: "no connection" is no longer true.
    on.on(window, 'online', () => { if (this.offline) this.showStatus(''); });
    this.followKeyboard();
    // Tapping anywhere else closes the on-screen keyboard, as in a native app.
    on.on(document, 'pointerdown', (e) => {
      const active = document.activeElement;
      if ((active === this.input || active === this.author) && !form.contains(/** @type {Node} */ (e.target))) {
        /** @type {HTMLInputElement} */ (active).blur();
      }
    });
    this.updateButton();
  }

  /**
   * Points the bar at another photo.
   * @param {Photo} photo
   */
  setPhoto(photo) {
    if (this.photoId === photo.id) return;
    this.photoId = photo.id;
    this.form.action = at(`/photos/${photo.id}/comments`);
    // Short enough for a phone's narrow field; its name says which photo.
    this.input.placeholder = 'Add a comment';
    this.input.setAttribute('aria-label', `Comment on ${photo.title}`);
    this.showStatus('');
  }

  /**
   * Signed in: comments carry the account's name (the server puts it there), so no name is asked.
   * @param {string} name
   */
  signedInAs(name) {
    this.account = name;
    this.author.hidden = this.author.disabled = true;
    this.hint.hidden = true;
    this.input.title = `Commenting as ${name}`;
  }

  updateButton() {
    this.button.disabled = this.input.value.trim() === '' || this.sending || Date.now() < this.waitUntil;
  }

  /**
   * @param {string} message
   * @param {'error' | 'info'} [kind]
   */
  showStatus(message, kind = 'error') {
    if (message === '' && this.countdown) return; // a rate limit clears itself when it is over
    this.offline = false;
    this.status.textContent = message;
    this.status.dataset.kind = kind;
    this.status.hidden = message === '';
  }

  /**
   * "Try again in 12 s.", counting down each second, gone (and Send back) when the wait is over.
   * @param {number} seconds
   */
  waitFor(seconds) {
    this.listeners.clear(this.countdown);
    this.countdown = 0;
    this.waitUntil = Date.now() + seconds * 1000;
    const tick = () => {
      const left = Math.ceil((this.waitUntil - Date.now()) / 1000);
      if (left <= 0) {
        this.listeners.clear(this.countdown);
        this.countdown = 0;
        this.showStatus('');
        this.updateButton();
        return;
      }
      this.status.textContent = `Too many comments. Try again in ${left} s.`;
      this.status.dataset.kind = 'error';
      this.status.hidden = false;
    };
    tick();
    this.countdown = this.listeners.interval(tick, 250);
    this.updateButton();
  }

  async send() {
    const text = this.input.value;
    if (text.trim() === '' || this.sending || this.photoId === null || Date.now() < this.waitUntil) return;
    const photoId = this.photoId;
    this.sending = true;
    this.updateButton();
    this.showStatus('');
    try {
      const comment = await postComment(photoId, text, this.account === null ? this.author.value.trim() : undefined);
      // Emptied only if it still holds what was sent: words typed meanwhile are the person's next.
      if (this.photoId === photoId && this.input.value === text) this.input.value = '';
      this.onPosted(comment);
    } catch (error) {
      if (error instanceof ServerError && error.status === 429 && error.retryAfter !== null) {
        this.waitFor(error.retryAfter);
      } else {
        this.showStatus(this.describe(error));
        this.offline = statusOf(error) === undefined;
      }
    } finally {
      this.sending = false;
      this.updateButton();
    }
  }

  /** @param {unknown} error */
  describe(error) {
    if (!(error instanceof ServerError)) return 'No connection to the server. Try again.';
    return error.detail || error.title || `The server answered ${error.status}.`;
  }

  /**
   * On a phone the keyboard shrinks the visual viewport, not the layout one; the bar is lifted by
   * the difference so the input stays right above the keyboard.
   */
  followKeyboard() {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const bar = /** @type {HTMLElement} */ (this.form.closest('.bottom-bar') || this.form);
    const place = () => {
      const hidden = window.innerHeight - (viewport.height + viewport.offsetTop);
      bar.style.transform = hidden > 1 ? `translateY(${-hidden}px)` : '';
    };
    this.listeners.on(viewport, 'resize', place);
    this.listeners.on(viewport, 'scroll', place);
  }

  /** Lets go of every listener and timer. */
  destroy() { this.listeners.destroy(); }
}
