// @ts-check
// Whether the server can be reached: 'online', 'offline' (the device says it has no network) or
// 'unreachable' (the network is there, the server does not answer). Every request that gets no
// answer reports it here; while the server is out of reach, /healthz is asked at growing
// intervals, and the moment it answers everyone hears `back`, so what failed is asked for again
// at once instead of at its next retry. The page says all this once, in one place (a banner),
// not once per photo.

import { Listeners } from '../util/listeners.js';

/** @typedef {'online' | 'offline' | 'unreachable'} Reachability */

/** Waits between two questions to /healthz while the server is out of reach, in ms. */
const PROBE_WAITS = [1000, 2000, 4000, 8000, 15000];

export class Connection extends EventTarget {
  constructor() {
    super();
    this.listeners = new Listeners();
    /** @type {Reachability} */
    this.state = navigator.onLine === false ? 'offline' : 'online';
    this.attempt = 0;
    this.timer = 0;
    this.probing = false;
    this.listeners.on(window, 'offline', () => this.set('offline'));
    this.listeners.on(window, 'online', () => {
      // The device has a network again: whether the server answers is asked at once.
      this.set('unreachable');
      this.probe();
    });
  }

  /** A request got no answer at all (refused, dropped, no network): the server may be out of reach. */
  failed() {
    if (this.state !== 'online') return;
    this.set(navigator.onLine === false ? 'offline' : 'unreachable');
    this.attempt = 0;
    this.schedule();
  }

  /**
   * Something failed that cannot say why (an image: a 404 and a dropped connection look the
   * same): if the server is thought to be there, it is asked at once whether it is.
   */
  suspect() {
    if (this.state !== 'online' || this.probing) return;
    this.probe(true);
  }

  /** A request was answered: the server is there. */
  answered() {
    if (this.state === 'online') return;
    this.listeners.clear(this.timer);
    this.timer = 0;
    this.set('online');
  }

  schedule() {
    this.listeners.clear(this.timer);
    const wait = PROBE_WAITS[Math.min(this.attempt, PROBE_WAITS.length - 1)];
    this.attempt += 1;
    this.timer = this.listeners.timeout(() => this.probe(), wait);
  }

  /**
   * Asks /healthz whether the server is there; while it is not, asks again later.
   * @param {boolean} [evenIfOnline] asked on a suspicion, while it is thought to be there
   */
  async probe(evenIfOnline = false) {
    if (this.probing || (this.state === 'online' && !evenIfOnline)) return;
    this.probing = true;
    let answered = false;
    try {
      const response = await fetch('/healthz', { cache: 'no-store' });
      answered = response.ok;
    } catch { /* out of reach */ }
    this.probing = false;
    if (this.listeners.destroyed) return;
    if (answered) this.answered();
    else if (this.state === 'online') this.failed();
    else if (this.state !== 'offline') this.schedule();
  }

  /**
   * @param {Reachability} state
   */
  set(state) {
    if (state === this.state) return;
    const wasOnline = this.state === 'online';
    this.state = state;
    this.dispatchEvent(new Event('change'));
    if (state === 'online' && !wasOnline) this.dispatchEvent(new Event('back'));
  }

  /** Stops asking, and lets go of its listeners. */
  destroy() { this.listeners.destroy(); }
}

/** The page's one view of the server's reachability. */
export const connection = new Connection();
