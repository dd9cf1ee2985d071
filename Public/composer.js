// The comment input at the bottom of the photo pages: one bar for whichever photo is showing.
// It is a real <form method=post> (the server takes form posts too); with scripts it posts JSON,
// stays above the on-screen keyboard, and says in words what the server refused.

import { postComment } from './api.js';

const AUTHOR_KEY = 'photoscroll.author';

/** The bottom bar: form, text input, send button and status line. */
export class Composer {
  constructor(form, { onPosted }) {
    this.form = form;
    this.input = form.querySelector('input[name=text]');
    this.author = form.querySelector('input[name=author]');
    this.button = form.querySelector('button[type=submit]');
    this.status = form.querySelector('.composer-status');
    this.onPosted = onPosted;
    this.photoId = null;
    this.author.value = localStorage.getItem(AUTHOR_KEY) || '';
    form.addEventListener('submit', (e) => { e.preventDefault(); this.send(); });
    this.input.addEventListener('input', () => this.updateButton());
    this.author.addEventListener('change', () => localStorage.setItem(AUTHOR_KEY, this.author.value.trim()));
    this.followKeyboard();
    // Tapping anywhere else closes the on-screen keyboard, as in a native app.
    document.addEventListener('pointerdown', (e) => {
      const active = document.activeElement;
      if ((active === this.input || active === this.author) && !form.contains(e.target)) active.blur();
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
    this.button.disabled = this.input.value.trim() === '' || this.sending;
  }

  showStatus(message, kind = 'error') {
    this.status.textContent = message;
    this.status.dataset.kind = kind;
    this.status.hidden = message === '';
  }

  async send() {
    const text = this.input.value;
    if (text.trim() === '' || this.sending || this.photoId === null) return;
    const photoId = this.photoId;
    this.sending = true;
    this.updateButton();
    this.showStatus('');
    try {
      const comment = await postComment(photoId, text, this.author.value.trim());
      if (this.photoId === photoId) this.input.value = '';
      this.onPosted(comment);
    } catch (error) {
      this.showStatus(this.describe(error));
    } finally {
      this.sending = false;
      this.updateButton();
    }
  }

  describe(error) {
    if (error.status === 429 && error.retryAfter !== null) {
      return `Too many comments. Try again in ${error.retryAfter} s.`;
    }
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
