// @ts-check
// The search field and its suggestions, an ARIA combobox (the input) controlling a listbox: as
// one types, the server's suggestions (places, dates, cameras, folders) are asked for once the
// typing pauses, each answer dropped when something newer was typed meanwhile. ↓ and ↑ move
// through them (the input keeps the focus; `aria-activedescendant` names the one chosen), Enter
// searches for it, or for what was typed when none is chosen; Escape closes the list. A click or
// a tap on one searches for it.

import { suggestSearches } from '../core/api.js';
import { Keys } from '../util/keyboard.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Suggestion} Suggestion */

/** Typing paused this long (ms), suggestions are asked for. */
const PAUSE_MS = 150;
/** What each kind of suggestion is called, read after its text. */
const KIND = { place: 'Place', year: 'Year', month: 'Month', camera: 'Camera', folder: 'Folder', album: 'Album' };

export class SearchBox {
  /**
   * @param {{ form: HTMLFormElement, input: HTMLInputElement, list: HTMLElement }} parts
   * @param {{ onSearch: (query: string) => void }} options `onSearch`: Enter, or a suggestion chosen
   */
  constructor({ form, input, list }, { onSearch }) {
    this.form = form;
    this.input = input;
    this.list = list;
    this.onSearch = onSearch;
    this.listeners = new Listeners();
    /** @type {Suggestion[]} */
    this.suggestions = [];
    /** The suggestion chosen with the arrows, or -1. */
    this.active = -1;
    /** Bumped whenever the text changes: an answer for older text is dropped. */
    this.typed = 0;
    this.timer = 0;
    /** @type {AbortController | null} */
    this.asking = null;
    const on = this.listeners;
    on.on(input, 'input', () => this.changed());
    on.on(form, 'submit', (e) => {
      e.preventDefault();
      this.choose(this.active);
    });
    // Pressed on, an option keeps the focus in the field (no blur closes the list first).
    on.on(list, 'pointerdown', (e) => e.preventDefault());
    on.on(list, 'click', (e) => {
      const option = e.target instanceof Element ? e.target.closest('[role="option"]') : null;
      if (option instanceof HTMLElement) this.choose(Number(option.dataset.index));
    });
    on.on(input, 'blur', () => this.close());
    on.on(input, 'focus', () => { if (this.suggestions.length && input.value.trim()) this.open(); });
    // Its keys listen while the search is on screen (setShown).
    this.keys = new Keys((e) => this.key(e), { target: input });
    on.add(() => { this.keys.on = false; this.cancel(); });
  }

  /**
   * On screen or not: hidden, it takes no keys and asks nothing more.
   * @param {boolean} shown
   */
  setShown(shown) {
    this.keys.on = shown;
    if (!shown) { this.cancel(); this.close(); }
  }

  /** The text typed, trimmed. */
  get text() { return this.input.value.trim(); }

  /**
   * Puts `text` in the field (a search run from the URL, a suggestion chosen), with no suggestions open.
   * @param {string} text
   */
  set(text) {
    if (this.input.value !== text) this.input.value = text;
    this.cancel();
    this.close();
  }

  changed() {
    this.typed += 1;
    this.cancel();
    this.active = -1;
    const text = this.text;
    if (!text) {
      this.show([]);
      return;
    }
    this.timer = this.listeners.timeout(() => this.ask(text, this.typed), PAUSE_MS);
  }

  /** Stops waiting for the pause and for an answer not needed any more. */
  cancel() {
    this.listeners.clear(this.timer);
    this.timer = 0;
    this.asking?.abort();
    this.asking = null;
  }

  /**
   * @param {string} text
   * @param {number} typed
   */
  async ask(text, typed) {
    const asking = new AbortController();
    this.asking = asking;
    /** @type {Suggestion[]} */
    let found = [];
    try {
      found = await suggestSearches(text, { signal: asking.signal });
    } catch {
      // No suggestions (the server out of reach, too long a text): the search itself says why.
      if (asking.signal.aborted) return;
    }
    if (typed !== this.typed || this.listeners.destroyed) return;
    this.asking = null;
    this.show(found);
  }

  /**
   * Draws the suggestions (none: the list closes).
   * @param {Suggestion[]} suggestions
   */
  show(suggestions) {
    this.suggestions = suggestions;
    this.active = -1;
    this.list.replaceChildren(...suggestions.map((suggestion, i) => {
      const option = document.createElement('li');
      option.id = `${this.list.id}-${i}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', 'false');
      option.dataset.index = String(i);
      option.dataset.kind = suggestion.kind;
      const text = document.createElement('span');
      text.className = 'suggestion-text';
      text.textContent = suggestion.text;
      const about = document.createElement('span');
      about.className = 'suggestion-about';
      about.textContent = `${KIND[suggestion.kind] ?? suggestion.kind} · ${suggestion.count === 1 ? '1 photo' : `${suggestion.count.toLocaleString()} photos`}`;
      option.append(text, ' ', about);
      return option;
    }));
    if (suggestions.length && document.activeElement === this.input) this.open(); else this.close();
  }

  open() {
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
  }

  close() {
    this.list.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.mark(-1);
  }

  get isOpen() { return !this.list.hidden; }

  /**
   * Marks suggestion `i` as the one chosen with the arrows (-1: none).
   * @param {number} i
   */
  mark(i) {
    this.active = i;
    for (const option of this.list.children) {
      const on = Number(/** @type {HTMLElement} */ (option).dataset.index) === i;
      option.setAttribute('aria-selected', String(on));
      if (on) option.scrollIntoView({ block: 'nearest' });
    }
    if (i >= 0) this.input.setAttribute('aria-activedescendant', `${this.list.id}-${i}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  /**
   * Searches for suggestion `i`, or for the text typed when `i` is -1.
   * @param {number} i
   */
  choose(i) {
    const suggestion = i >= 0 ? this.suggestions[i] : undefined;
    const query = suggestion ? suggestion.query : this.text;
    this.set(query);
    this.onSearch(query);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
    const count = this.suggestions.length;
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && count) {
      e.preventDefault();
      if (!this.isOpen) { this.open(); this.mark(e.key === 'ArrowDown' ? 0 : count - 1); return; }
      const step = e.key === 'ArrowDown' ? 1 : -1;
      // Past either end, back to the text typed (none chosen), as a browser's own suggestions do.
      const next = this.active + step;
      this.mark(next < -1 ? count - 1 : next >= count ? -1 : next);
    } else if (e.key === 'Escape' && this.isOpen) {
      e.preventDefault();
      e.stopPropagation();
      this.close();
    }
  }

  /** Lets go of its listeners, its key handler and any question still out. */
  destroy() { this.listeners.destroy(); }
}
