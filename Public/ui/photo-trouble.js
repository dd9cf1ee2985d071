// @ts-check
// A photo whose tiles did not arrive says so over itself, with a button to try again at once
// (they are asked for again by themselves anyway, and the moment the server is back). While
// the whole server is out of reach, the page's one connection banner says it instead: no
// photo repeats it; only a photo of which nothing at all is drawn (not seen on this device,
// so nothing of it was kept for offline) says that it cannot be shown until then.

import { connection } from '../core/connection.js';

export class PhotoTrouble {
  /**
   * @param {HTMLElement} parent the photo's box
   * @param {import('../util/listeners.js').Listeners} listeners its owner's registry
   * @param {() => void} onRetry asks again for what failed
   */
  constructor(parent, listeners, onRetry) {
    this.failing = false;
    this.blank = false;
    this.element = document.createElement('div');
    this.element.className = 'photo-trouble';
    this.element.setAttribute('role', 'alert');
    this.element.hidden = true;
    const text = document.createElement('p');
    this.text = text;
    const retry = document.createElement('button');
    retry.type = 'button';
    retry.className = 'photo-retry';
    retry.textContent = 'Try again';
    this.element.append(text, retry);
    this.retry = retry;
    parent.appendChild(this.element);
    listeners.on(retry, 'click', (e) => { e.stopPropagation(); onRetry(); });
    // A tap on the note is no tap on the photo under it.
    listeners.on(this.element, 'pointerdown', (e) => e.stopPropagation());
    listeners.on(connection, 'change', () => this.update());
    listeners.add(() => this.element.remove());
  }

  /**
   * Whether the photo's tiles are failing now, and whether nothing of it is drawn.
   * @param {boolean} failing
   * @param {boolean} [blank]
   */
  set(failing, blank = false) {
    this.failing = failing;
    this.blank = blank;
    this.update();
  }

  update() {
    const online = connection.state === 'online';
    const shown = this.failing && (online || this.blank);
    const words = online ? 'This photo could not be loaded.' : 'This photo was not kept on this device, so it cannot be shown until the server answers.';
    if (this.text.textContent !== words) this.text.textContent = words;
    // Out of reach, the page asks again by itself the moment the server answers.
    this.retry.hidden = !online;
    if (this.element.hidden === !shown) return;
    this.element.hidden = !shown;
  }
}
