// @ts-check
// The page's one word on the connection: offline, or the server out of reach (and being asked
// again), shown over whatever view is open, under its bar, until the server answers again or the
// person dismisses it (then until the connection changes again).

import { connection } from '../core/connection.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @type {Record<import('../core/connection.js').Reachability, string>} */
const WORDS = {
  online: '',
  offline: 'You are offline. The photos you have seen are still here.',
  unreachable: 'The server cannot be reached. Trying again…',
};

export class ConnectionStatus {
  /** @param {HTMLElement} root `#connection-status` */
  constructor(root) {
    this.element = root;
    this.words = element(root, '.connection-words', HTMLElement);
    /** @type {string | null} the state the person dismissed, said again only once it changes */
    this.dismissed = null;
    this.listeners = new Listeners();
    this.listeners.on(connection, 'change', () => this.update());
    this.listeners.on(element(root, '.connection-dismiss', HTMLButtonElement), 'click', () => {
      this.dismissed = connection.state;
      this.update();
    });
    this.update();
  }

  update() {
    if (this.dismissed !== connection.state) this.dismissed = null;
    const words = WORDS[connection.state];
    this.words.textContent = words;
    this.element.hidden = words === '' || this.dismissed !== null;
  }

  destroy() { this.listeners.destroy(); }
}
