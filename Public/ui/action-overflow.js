// @ts-check
// The pager's bar on a narrow phone. Below 440 px the way back and every button of the photo, each
// a finger's 44 px, do not fit in one row (nine need 396 px); a row that scrolled sideways hid its
// last buttons past the screen's edge, with nothing to say they were there. So the buttons a phone
// needs least move into a small menu behind a More button at the row's end (full screen and the
// original's download below 440 px, the slideshow too below 360 px), and back into the row when the
// screen is wide again. They are the same elements, so their listeners and states go with them.
// The menu closes when one of them is chosen, on a press anywhere else, and on Escape.

import { Keys } from '../util/keyboard.js';
import { Listeners } from '../util/listeners.js';

/** The buttons that move into the menu, in the row's order, and the widths (px) below which they do. */
const MOVED = [
  { selector: '.action-slideshow', below: 360 },
  { selector: '.action-download', below: 440 },
  { selector: '.action-fullscreen', below: 440 },
];

/** @typedef {{ button: HTMLElement, query: MediaQueryList, home: Element | null }} Moved a button and where it goes back to */

/** The buttons of a narrow bar that wait behind its More button. */
export class ActionOverflow {
  /**
   * @param {HTMLElement} row the bar's row of buttons
   * @param {HTMLButtonElement} more the button that opens the menu
   * @param {HTMLElement} menu where the buttons that do not fit go
   */
  constructor(row, more, menu) {
    this.row = row;
    this.more = more;
    this.menu = menu;
    this.listeners = new Listeners();
    const on = this.listeners;
    /** @type {Moved[]} */
    this.moved = MOVED.map(({ selector, below }) => {
      const button = /** @type {HTMLElement} */ (row.querySelector(selector));
      let home = button.nextElementSibling;
      // Back in front of the first button after it that never moves.
      while (home && MOVED.some((m) => home?.matches(m.selector))) home = home.nextElementSibling;
      return { button, query: matchMedia(`(max-width: ${below - 0.02}px)`), home };
    });
    for (const { query } of this.moved) on.on(query, 'change', () => this.arrange());
    on.on(more, 'click', () => this.setOpen(menu.hidden));
    on.on(menu, 'click', () => this.setOpen(false));
    on.on(document, 'pointerdown', (e) => {
      const target = /** @type {Node | null} */ (e.target);
      if (!menu.hidden && !menu.contains(target) && !more.contains(target)) this.setOpen(false);
    });
    // Escape closes the menu, not the pager behind it.
    this.keys = new Keys((e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      this.setOpen(false);
      this.more.focus();
    }, { capture: true });
    on.add(() => { this.keys.on = false; });
    this.arrange();
  }

  /** Each button in the row or in the menu, as the screen's width says; More only while the menu holds one. */
  arrange() {
    for (const { button, query, home } of this.moved) {
      if (query.matches) this.menu.appendChild(button);
      else if (button.parentElement !== this.row) this.row.insertBefore(button, home);
    }
    const any = this.moved.some(({ query }) => query.matches);
    this.more.hidden = !any;
    if (!any) this.setOpen(false);
  }

  /** @param {boolean} open */
  setOpen(open) {
    this.menu.hidden = !open;
    this.more.setAttribute('aria-expanded', String(open));
    this.keys.on = open;
  }

  /** Puts every button back in the row and lets go of its listeners. */
  destroy() {
    this.listeners.destroy();
    for (const { button, home } of this.moved) if (button.parentElement !== this.row) this.row.insertBefore(button, home);
  }
}
