// @ts-check
// A view that says why there is nothing to show where the URL points: a photo or an album that
// is not in the library, or a library that could not be reached. The URL stays what it was (a
// reload tries again, a link can be corrected); a link leads back. Said in words, with a way on.

import { byId, element } from '../util/dom.js';

/**
 * @typedef {object} Message
 * @property {string} title
 * @property {string} text
 * @property {{ href: string, label: string }} link the way back
 */

export class MessageView {
  /** @param {HTMLElement} root the view's <main> */
  constructor(root) {
    this.root = root;
    this.title = element(root, '.message-title', HTMLElement);
    this.text = element(root, '.message-text', HTMLElement);
    this.link = element(root, '.message-link', HTMLAnchorElement);
    /** @type {Message | null} */
    this.message = null;
  }

  get shown() { return !this.root.hidden; }

  /**
   * Shows `message`, and moves focus to its title so a screen reader says it.
   * @param {Message} message
   */
  show(message) {
    this.message = message;
    this.title.textContent = message.title;
    this.text.textContent = message.text;
    this.link.href = message.link.href;
    this.link.textContent = message.link.label;
    this.root.hidden = false;
    document.title = `${message.title} · Photos`;
    this.title.focus({ preventScroll: true });
  }

  hide() {
    this.root.hidden = true;
    this.message = null;
  }

  /** Nothing to let go of: it holds no listeners. */
  destroy() { this.hide(); }
}

/** The message view of the page. */
export function messageView() {
  return new MessageView(byId('message-view', HTMLElement));
}
