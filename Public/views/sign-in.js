// @ts-check
// Who is looking, decided before anything of the library loads: a signed-in person, a stranger
// on a public library, or the holder of a share link (/s/{token}). A private library shows a
// stranger this view's sign-in form; the one-time setup link (/setup?token=…) makes the owner; a
// link with a password asks for it first; a link that has expired or was revoked says so.

import { checkSetup, describeLink, getSession, setUpOwner, signIn, statusOf, unlockLink, useLink, ServerError } from '../core/api.js';
import { connection } from '../core/connection.js';
import { forgetKept } from '../core/offline.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').Session} Session */
/** @typedef {import('../core/api.js').SharedLink} SharedLink */

/**
 * What the page shows, once the visitor may see it.
 * `offline`: the server could not be asked who this is (the page came from the service worker's cache).
 * @typedef {{ kind: 'library', session: Session, offline?: boolean } | { kind: 'link', token: string, link: SharedLink }} Entry
 */

/** The token of the share link this page was opened at, or null. */
export function linkToken() {
  const match = /^\/s\/([A-Za-z0-9_-]{43})\/?$/.exec(location.pathname);
  return match ? match[1] : null;
}

/**
 * Where to go after signing in: the `next` the server sent a page load to, when it is a path of
 * this server (never another site), else the library.
 */
function nextPlace() {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/(?![/\\])/.test(next) ? next : '/';
}

/**
 * Decides who is looking; shows the sign-in view (and never resolves, the page moving on by
 * itself) when the library is not for them yet.
 * @param {HTMLElement} root the sign-in view's markup
 * @returns {Promise<Entry>}
 */
export async function admit(root) {
  const token = linkToken();
  if (token) {
    useLink(token);
    let link;
    try {
      link = await describeLink();
    } catch (error) {
      new SignInView(root).gone(statusOf(error) === 404 ? (error instanceof ServerError ? error.detail : '') : 'The server could not be reached. Reload to try again.');
      return never();
    }
    if (link.password && !link.unlocked) {
      await new SignInView(root).unlock();
      link = await describeLink();
    }
    return { kind: 'link', token, link };
  }
  if (location.pathname === '/setup') {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    const view = new SignInView(root);
    // Asked first, so a link that was used says so at once rather than after its form is filled in.
    try {
      await checkSetup(token);
    } catch (error) {
      if (statusOf(error) !== undefined) {
        view.gone(problemText(error), 'Setup Link Not Available');
        return never();
      }
      // Out of reach: the form is shown, and sending it says what the server says.
    }
    view.setUp(token);
    return never();
  }
  let session;
  try {
    session = await getSession();
  } catch (error) {
    if (statusOf(error) !== undefined) throw error;
    // Out of reach: what this device kept of the library (the service worker's copies) is shown,
    // as to a visitor who may change nothing; who is asking is asked again once the server answers.
    connection.failed();
    return { kind: 'library', session: { signedIn: false, access: 'private', setup: false, manage: false }, offline: true };
  }
  const asked = new URLSearchParams(location.search).has('sign-in');
  if (!session.signedIn && (session.access === 'private' || asked)) {
    // Whatever this device kept of a private library is not a stranger's.
    if (session.access === 'private') forgetKept();
    new SignInView(root).signIn(session.setup, session.access === 'public');
    return never();
  }
  return { kind: 'library', session };
}

/** @returns {Promise<never>} */
function never() { return new Promise(() => {}); }

/** The forms of the view: sign in, make the owner, give a link's password; or a link's end. */
export class SignInView {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.listeners = new Listeners();
    this.title = element(root, '.sign-in-title', HTMLElement);
    this.lead = element(root, '.sign-in-lead', HTMLElement);
    this.form = element(root, '.sign-in-form', HTMLFormElement);
    this.name = element(root, '.sign-in-name', HTMLInputElement);
    this.password = element(root, '.sign-in-password', HTMLInputElement);
    this.repeat = element(root, '.sign-in-repeat', HTMLInputElement);
    this.submit = element(root, '.sign-in-submit', HTMLButtonElement);
    this.problem = element(root, '.sign-in-problem', HTMLElement);
    this.other = element(root, '.sign-in-other', HTMLAnchorElement);
  }

  /**
   * Puts the view on screen, the rest of the page off it.
   * @param {{ title: string, lead: string, name: boolean, repeat: boolean, submit: string, form?: boolean }} parts
   */
  show({ title, lead, name, repeat, submit, form = true }) {
    for (const view of document.querySelectorAll('body > main, body > section')) {
      if (view instanceof HTMLElement && view !== this.root) view.hidden = true;
    }
    this.root.hidden = false;
    this.title.textContent = title;
    this.lead.textContent = lead;
    this.form.hidden = !form;
    this.name.closest('label')?.toggleAttribute('hidden', !name);
    this.name.required = name;
    this.repeat.closest('label')?.toggleAttribute('hidden', !repeat);
    this.repeat.required = repeat;
    this.submit.textContent = submit;
    document.title = `${title} · Photos`;
    (name ? this.name : this.password).focus();
  }

  /**
   * The sign-in form: a private library's stranger, or anyone on a public one who asked for it.
   * @param {boolean} noOwner the library waits for its owner (nobody can sign in yet)
   * @param {boolean} isPublic the library is public: the form can be left for the photos
   */
  signIn(noOwner, isPublic) {
    this.show({
      title: 'Sign In',
      lead: noOwner ? 'This library has no owner yet. Open the setup link the server wrote at the top of its log to make one.'
        : isPublic ? 'Sign in to share photos and manage the library.' : 'These photos are private. Sign in to see them.',
      name: true, repeat: false, submit: 'Sign In',
    });
    this.password.autocomplete = 'current-password';
    this.other.hidden = !isPublic;
    this.onSubmit(async () => {
      await signIn(this.name.value.trim(), this.password.value);
      location.replace(nextPlace());
    });
  }

  /**
   * The owner's first visit, through the setup link the server logged.
   * @param {string} token
   */
  setUp(token) {
    this.show({
      title: 'Welcome',
      lead: 'Make the owner of this library: the account that sees everything, shares photos and adds others.',
      name: true, repeat: true, submit: 'Make Owner',
    });
    this.password.autocomplete = this.repeat.autocomplete = 'new-password';
    this.password.minLength = 10;
    this.onSubmit(async () => {
      if (this.password.value !== this.repeat.value) throw new Error('The two passwords are not the same.');
      await setUpOwner(token, this.name.value.trim(), this.password.value);
      location.replace('/');
    });
  }

  /**
   * A link's password form; resolves once it was given and the link opened.
   * @returns {Promise<void>}
   */
  unlock() {
    this.show({ title: 'Shared Photos', lead: 'These photos are protected by a password. Type it to see them.', name: false,
      repeat: false, submit: 'Open' });
    this.password.autocomplete = 'off';
    return new Promise((resolve) => {
      this.onSubmit(async () => {
        await unlockLink(this.password.value);
        this.listeners.destroy();
        this.root.hidden = true;
        resolve();
      });
    });
  }

  /**
   * A link that does not open (expired, revoked, mistyped), or a setup link already used.
   * @param {string} detail what the server said
   * @param {string} [title]
   */
  gone(detail, title = 'Link Not Available') {
    this.show({ title, lead: detail || 'This link has expired or was revoked. Ask for a new one.', name: false,
      repeat: false, submit: '', form: false });
  }

  /**
   * Runs `attempt` when the form is sent, saying what went wrong in words.
   * @param {() => Promise<void>} attempt
   */
  onSubmit(attempt) {
    this.listeners.on(this.form, 'submit', async (e) => {
      e.preventDefault();
      this.problem.hidden = true;
      this.submit.disabled = true;
      try {
        await attempt();
      } catch (error) {
        this.problem.textContent = problemText(error);
        this.problem.hidden = false;
        this.password.select();
      } finally {
        this.submit.disabled = false;
      }
    });
  }

  destroy() { this.listeners.destroy(); }
}

/**
 * A failed attempt in words.
 * @param {unknown} error
 */
function problemText(error) {
  if (error instanceof ServerError) {
    if (error.status === 429) return `Too many tries. Try again in ${error.retryAfter ?? 60} seconds.`;
    return error.detail || error.title;
  }
  if (statusOf(error) === undefined && !(error instanceof Error && !(error instanceof TypeError))) {
    return 'The server could not be reached. Check the connection and try again.';
  }
  return error instanceof Error ? error.message : String(error);
}
