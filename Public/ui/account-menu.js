// @ts-check
// The account button at the top of the library: who is signed in, Change Password, Sign Out; or
// Sign In, for a stranger on a public library. Signing out (or a session that ends while the
// page is open) leaves nothing of the library behind in this browser.

import { changePassword, signOut, ServerError } from '../core/api.js';
import { forgetKept } from '../core/offline.js';
import { toast } from './share.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Session} Session */

/**
 * Forgets whatever this page kept of the library (what the server's Clear-Site-Data also asks the
 * browser to, where it can: only secure pages honour it): the page's storage, its caches and a
 * service worker, then goes to the start.
 */
export async function forgetAndLeave() {
  forgetKept();
  try { sessionStorage.clear(); } catch { /* storage refused */ }
  try { localStorage.clear(); } catch { /* storage refused */ }
  try {
    if ('caches' in window) for (const key of await caches.keys()) await caches.delete(key);
  } catch { /* no caches here */ }
  try {
    if (navigator.serviceWorker) for (const worker of await navigator.serviceWorker.getRegistrations()) await worker.unregister();
  } catch { /* no service workers here */ }
  try {
    const databases = typeof indexedDB.databases === 'function' ? await indexedDB.databases() : [];
    for (const database of databases) if (database.name) indexedDB.deleteDatabase(database.name);
  } catch { /* none to list */ }
  // The views keep where they were as the page goes (the grid's place): forgotten after them too.
  new Listeners().on(window, 'pagehide', () => { try { sessionStorage.clear(); } catch { /* refused */ } });
  location.replace('/');
}

export class AccountMenu {
  /**
   * @param {{ button: HTMLButtonElement, menu: HTMLDialogElement, password: HTMLDialogElement }} parts
   * @param {Session} session
   */
  constructor({ button, menu, password }, session) {
    this.button = button;
    this.menu = menu;
    this.passwordSheet = password;
    this.session = session;
    this.listeners = new Listeners();
    const on = this.listeners;
    const who = element(menu, '.account-who', HTMLElement);
    const signInLink = element(menu, '.account-sign-in', HTMLAnchorElement);
    const change = element(menu, '.account-password', HTMLButtonElement);
    const out = element(menu, '.account-sign-out', HTMLButtonElement);
    if (session.signedIn) {
      who.textContent = `${session.username} · ${session.role === 'owner' ? 'Owner' : 'Member'}`;
      button.setAttribute('aria-label', `Account: ${session.username}`);
      button.title = session.username;
      element(button, '.account-initial', HTMLElement).textContent = session.username.slice(0, 1).toUpperCase();
    } else {
      who.textContent = 'Not signed in';
      button.setAttribute('aria-label', 'Sign in');
    }
    signInLink.hidden = session.signedIn;
    change.hidden = out.hidden = !session.signedIn;
    on.on(button, 'click', () => menu.showModal());
    on.on(element(menu, '.account-close', HTMLButtonElement), 'click', () => menu.close());
    on.on(change, 'click', () => { menu.close(); this.openPassword(); });
    on.on(out, 'click', async () => {
      out.disabled = true;
      // Whatever the answer, the page forgets: a session the server no longer has is over too.
      try { await signOut(); } catch { /* offline: still forget here */ }
      await forgetAndLeave();
    });
    this.watchPassword();
  }

  openPassword() {
    const form = element(this.passwordSheet, 'form', HTMLFormElement);
    form.reset();
    element(this.passwordSheet, '.password-problem', HTMLElement).hidden = true;
    this.passwordSheet.showModal();
  }

  watchPassword() {
    const sheet = this.passwordSheet;
    const form = element(sheet, 'form', HTMLFormElement);
    const current = element(sheet, '.password-current', HTMLInputElement);
    const next = element(sheet, '.password-new', HTMLInputElement);
    const repeat = element(sheet, '.password-repeat', HTMLInputElement);
    const problem = element(sheet, '.password-problem', HTMLElement);
    const save = element(sheet, '.password-save', HTMLButtonElement);
    this.listeners.on(element(sheet, '.password-cancel', HTMLButtonElement), 'click', () => sheet.close());
    this.listeners.on(form, 'submit', async (e) => {
      e.preventDefault();
      problem.hidden = true;
      if (next.value !== repeat.value) {
        problem.textContent = 'The two new passwords are not the same.';
        problem.hidden = false;
        return;
      }
      save.disabled = true;
      try {
        await changePassword(current.value, next.value);
        sheet.close();
        toast('Password changed. Other devices are signed out.');
      } catch (error) {
        problem.textContent = error instanceof ServerError
          ? (error.status === 429 ? `Too many tries. Try again in ${error.retryAfter ?? 60} seconds.` : error.detail || error.title)
          : 'The server could not be reached.';
        problem.hidden = false;
      } finally {
        save.disabled = false;
      }
    });
  }

  destroy() { this.listeners.destroy(); }
}
