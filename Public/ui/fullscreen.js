// @ts-check
// Full screen: the Fullscreen API where the browser has it (desktops, Android, iPad), else a
// full screen of the page's own where it has not (Safari on iPhone offers it only for video):
// either way the bars go, the photo stands alone on black, and Escape or the exit button ends it.

import { Keys } from '../util/keyboard.js';
import { Listeners } from '../util/listeners.js';

const root = document.documentElement;

/** The element the browser shows full screen, if any. */
export function fullscreenElement() {
  return document.fullscreenElement ?? document.webkitFullscreenElement ?? null;
}

/**
 * Asks the browser to show `element` full screen; false when it cannot or will not.
 * @param {Element} element
 */
export async function requestFullscreen(element) {
  const request = element.requestFullscreen ?? element.webkitRequestFullscreen;
  if (!request || !(document.fullscreenEnabled ?? document.webkitFullscreenEnabled)) return false;
  try {
    await request.call(element, { navigationUI: 'hide' });
    return true;
  } catch {
    return false;
  }
}

/** Leaves the browser's full screen, if it is in it. */
export async function exitFullscreen() {
  if (!fullscreenElement()) return;
  try { await (document.exitFullscreen ?? document.webkitExitFullscreen).call(document); } catch { /* already out */ }
}

/** The page full screen: `immersive` on <html> while it lasts; `onChange(active)` on every change. */
export class FullScreen {
  /** @param {{ onChange?: (active: boolean) => void }} options */
  constructor({ onChange } = {}) {
    this.onChange = onChange ?? (() => {});
    this.ownFallback = false;
    this.listeners = new Listeners();
    const changed = () => {
      const ours = fullscreenElement() === root;
      if (!ours && !this.ownFallback && root.classList.contains('immersive')) this.set(false);
      else if (ours) this.set(true);
    };
    this.listeners.on(document, 'fullscreenchange', changed);
    this.listeners.on(document, 'webkitfullscreenchange', changed);
    // Escape ends the page's own full screen; the browser's own ends by itself.
    this.escape = new Keys((e) => {
      if (e.key === 'Escape' && this.ownFallback) { e.preventDefault(); this.exit(); }
    });
    this.listeners.add(() => { this.escape.on = false; });
  }

  get active() { return root.classList.contains('immersive'); }

  async enter() {
    if (this.active) return;
    if (await requestFullscreen(root)) return this.set(true);
    // No Fullscreen API here: the page fills the window by itself.
    this.ownFallback = true;
    this.escape.on = true;
    this.set(true);
  }

  async exit() {
    this.ownFallback = false;
    this.escape.on = false;
    if (fullscreenElement() === root) await exitFullscreen();
    this.set(false);
  }

  toggle() { return this.active ? this.exit() : this.enter(); }

  /** @param {boolean} active */
  set(active) {
    if (root.classList.contains('immersive') === active) return;
    root.classList.toggle('immersive', active);
    this.onChange(active);
  }

  /** Lets go of its listeners and keys. */
  destroy() { this.listeners.destroy(); }
}
