// @ts-check
// Every key the page answers is taken here. A view holds a `Keys` and turns it on when it opens
// and off when it closes, so its handler listens only while the view is on screen: a view opened
// and closed a hundred times leaves nothing behind, and one key press does one thing.
// Each `Keys` is one listener of the browser's own (on the document, or on one element), added
// and removed as it is turned on and off: capture, stopPropagation and the order of handlers work
// as they do for any listener.

/** @typedef {(event: KeyboardEvent) => void} KeyHandler */

/** The handlers listening now. */
const listening = new Set();

export class Keys {
  /**
   * @param {KeyHandler} handler called for every keydown while on
   * @param {{ target?: EventTarget, capture?: boolean, on?: boolean }} options where it listens
   *   (the document unless said), in the capture phase or not, and whether it starts on
   */
  constructor(handler, { target = document, capture = false, on = false } = {}) {
    this.target = target;
    this.capture = capture;
    /** @param {Event} event */
    this.listener = (event) => handler(/** @type {KeyboardEvent} */ (event));
    this.active = false;
    this.on = on;
  }

  get on() { return this.active; }

  /** Turns the handler on or off; turning it on twice still listens once. */
  set on(value) {
    if (value === this.active) return;
    this.active = value;
    if (value) {
      this.target.addEventListener('keydown', this.listener, this.capture);
      listening.add(this);
    } else {
      this.target.removeEventListener('keydown', this.listener, this.capture);
      listening.delete(this);
    }
  }
}

/** How many key handlers listen now. */
export function listeningCount() { return listening.size; }
