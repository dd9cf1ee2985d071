// @ts-check
// The comment input at the bottom of the photo pages: one bar for whichever photo is showing.
// It is a real <form method=post> (the server takes form posts too); with scripts it posts JSON,
// stays above the on-screen keyboard, and says in words what the server refused.

import { postComment } from '../core/api.js';

const AUTHOR_KEY = 'photoscroll.author';

/** The bottom bar: form, text input, send button and status line. */
export class Composer {
  constructor(form, { onPosted }) {
    this.form = form;
    this.input = form.querySelector('input[name=text]');
    this.author = form.querySelector('input[name=author]');
    this.button = form.querySelector('button[type=submit]');
    this.status = form.querySelector('.composer-status');
    this.hint = form.querySelector('.composer-hint');
    this.onPosted = onPosted;
    this.photoId = null;
    this.waitUntil = 0;      // a rate limit: no sending before this time (ms)
    this.countdown = null;
    this.offline = false;    // the status line says there is no connection
    this.author.value = localStorage.getItem(AUTHOR_KEY) || '';
    form.addEventListener('submit', (e) => { e.preventDefault(); this.send(); });
    this.input.addEventListener('input', () => this.updateButton());
    this.author.addEventListener('change', () => localStorage.setItem(AUTHOR_KEY, this.author.value.trim()));
    // The field stops at what the server takes, and says so when it does.
    this.author.addEventListener('input', () => { this.hint.hidden = this.author.value.length < this.author.maxLength; });
    // The connection is back: "no connection" is no longer true.
    window.addEventListener('online', () => { if (this.offline) this.showStatus(''); });
    this.followKeyboard();
    // Tapping anywhere else closes the on-screen keyboard, as in a native app.
    document.addEventListener('pointerdown', (e) => {
      const active = document.activeElement;
      if ((active === this.input || active === this.author) && !form.contains(/** @type {Node} */ (e.target))) /** @type {HTMLElement} */ (active).blur();
    });
    this.updateButton();
  }

  /** Points the bar at another photo. */
  setPhoto(photo) {
    if (this.photoId === photo.id) return;
    this.photoId = photo.id;
    this.form.action = `/photos/${photo.id}/comments`;
    this.input.placeholder = `Comment on ${photo.title}`;
    this.showStatus('');
  }

  updateButton() {
    this.button.disabled = this.input.value.trim() === '' || this.sending || Date.now() < this.waitUntil;
  }

  showStatus(message, kind = 'error') {
    if (message === '' && this.countdown) return; // a rate limit clears itself when it is over
    this.offline = false;
    this.status.textContent = message;
    this.status.dataset.kind = kind;
    this.status.hidden = message === '';
  }

  /** "Try again in 12 s.", counting down each second, gone (and Send back) when the wait is over. */
  waitFor(seconds) {
    clearInterval(this.countdown);
    this.countdown = null;
    this.waitUntil = Date.now() + seconds * 1000;
    const tick = () => {
      const left = Math.ceil((this.waitUntil - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(this.countdown);
        this.countdown = null;
        this.showStatus('');
        this.updateButton();
        return;
      }
      this.status.textContent = `Too many comments. Try again in ${left} s.`;
      this.status.dataset.kind = 'error';
      this.status.hidden = false;
    };
    tick();
    this.countdown = setInterval(tick, 250);
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
      const comment = await postComment(photoId, text, this.author.value.trim());
      if (this.photoId === photoId) this.input.value = '';
      this.onPosted(comment);
    } catch (error) {
      if (error.status === 429 && error.retryAfter !== null) {
        this.waitFor(error.retryAfter);
      } else {
        this.showStatus(this.describe(error));
        this.offline = error.status === undefined;
      }
    } finally {
      this.sending = false;
      this.updateButton();
    }
  }

  describe(error) {
    if (error.status === undefined) return 'No connection to the server. Try again.';
    return error.detail || error.title || `The server answered ${error.status}.`;
  }

  /**
   * On a phone the keyboard shrinks the visual viewport, not the layout one; the bar is lifted by
   * the difference so the input stays right above the keyboard.
   */
  followKeyboard() {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const bar = this.form.closest('.bottom-bar') || this.form;
    const place = () => {
      const hidden = window.innerHeight - (viewport.height + viewport.offsetTop);
      bar.style.transform = hidden > 1 ? `translateY(${-hidden}px)` : '';
    };
    viewport.addEventListener('resize', place);
    viewport.addEventListener('scroll', place);
  }
}
