// @ts-check
// The page's one word on the connection: offline, or the server out of reach (and being asked
// again), shown over whatever view is open until the server answers again.

import { connection } from '../core/connection.js';
import { Listeners } from '../util/listeners.js';

/** @type {Record<import('../core/connection.js').Reachability, string>} */
const WORDS = {
  online: '',
  offline: 'You are offline. The photos you have seen are still here.',
  unreachable: 'The server cannot be reached. Trying again…',
};

export class ConnectionStatus {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
    this.listeners = new Listeners();
    this.listeners.on(connection, 'change', () => this.update());
    this.update();
  }

  update() {
    const words = WORDS[connection.state];
    this.element.textContent = words;
    this.element.hidden = words === '';
  }

  destroy() { this.listeners.destroy(); }
}
