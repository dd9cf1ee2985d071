// @ts-check
// The owner's Share sheet for a photo, an album or a folder: makes a link (how long it lasts, a password,
// whether originals may be downloaded, comments read and written, where photos were taken
// shown, and for a folder whether photos may be added to it), copies it, and lists the links already made of the same photo or album, each with
// Copy and Revoke.

import { createShare, listShares, revokeShare, ServerError } from '../core/api.js';
import { copyText, toast } from './share.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/api.js').ShareLink} ShareLink */
/** @typedef {{ album: number } | { folder: number } | { photo: number }} ShareTarget */

/** How long a new link lasts, by the choice's value: days, or never. */
const DAY = 86_400_000;

export class ShareSheet {
  /** @param {HTMLDialogElement} root */
  constructor(root) {
    this.root = root;
    this.listeners = new Listeners();
    /** @type {ShareTarget | null} */
    this.target = null;
    this.heading = element(root, '.share-heading', HTMLElement);
    this.expires = element(root, '.share-expires', HTMLSelectElement);
    this.password = element(root, '.share-password', HTMLInputElement);
    this.download = element(root, '.share-download', HTMLInputElement);
    this.comments = element(root, '.share-comments', HTMLInputElement);
    this.location = element(root, '.share-location', HTMLInputElement);
    this.upload = element(root, '.share-upload', HTMLInputElement);
    /** Adding photos is offered for a folder's link only. */
    this.uploadChoice = element(root, '.share-upload-choice', HTMLElement);
    this.create = element(root, '.share-create', HTMLButtonElement);
    this.made = element(root, '.share-made', HTMLElement);
    this.url = element(root, '.share-url', HTMLInputElement);
    this.links = element(root, '.share-links', HTMLUListElement);
    this.status = element(root, '.share-status', HTMLElement);
    const on = this.listeners;
    on.on(this.create, 'click', () => this.make());
    on.on(element(root, '.share-copy', HTMLButtonElement), 'click', () => this.copy(this.url.value));
    on.on(element(root, '.share-close', HTMLButtonElement), 'click', () => root.close());
    on.on(this.links, 'click', (e) => this.clicked(e));
  }

  /**
   * Opens the sheet for a photo, an album or a folder.
   * @param {ShareTarget} target
   * @param {string} title
   */
  async open(target, title) {
    this.target = target;
    this.heading.textContent = `Share “${title}”`;
    this.expires.value = '30';
    this.password.value = '';
    this.download.checked = false;
    this.comments.checked = true;
    this.location.checked = false;
    this.upload.checked = false;
    this.uploadChoice.hidden = !('folder' in target);
    this.made.hidden = true;
    this.status.textContent = '';
    this.links.replaceChildren();
    if (!this.root.open) this.root.showModal();
    await this.refresh();
  }

  /** The links already made of this photo or album. */
  async refresh() {
    const target = this.target;
    if (!target) return;
    try {
      const all = await listShares();
      const mine = all.filter((link) => ('album' in target ? link.album === target.album
        : 'folder' in target ? link.folder === target.folder : link.photo === target.photo));
      this.links.replaceChildren(...mine.map((link) => this.row(link)));
      if (!mine.length) this.links.append(Object.assign(document.createElement('li'), { className: 'share-none', textContent: 'No links yet.' }));
    } catch (error) {
      this.status.textContent = `The links could not be listed (${describe(error)}).`;
    }
  }

  /**
   * A link's row: when it ends, what it allows, Copy and Revoke.
   * @param {ShareLink} link
   */
  row(link) {
    const item = document.createElement('li');
    item.className = 'share-link';
    item.dataset.id = String(link.id);
    item.dataset.url = link.url;
    const words = document.createElement('span');
    words.className = 'share-link-words';
    const ends = link.expires === null ? 'Never expires'
      : `${link.expired ? 'Expired' : 'Expires'} ${new Date(link.expires).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}`;
    words.textContent = [ends, link.password ? 'password' : '', link.download ? 'downloads' : '', link.comments ? 'comments' : '',
      link.location ? 'location' : '', link.upload ? 'adds photos' : ''].filter(Boolean).join(' · ');
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'share-link-copy';
    copy.textContent = 'Copy';
    copy.disabled = link.expired;
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.className = 'share-link-revoke';
    revoke.textContent = 'Revoke';
    item.append(words, copy, revoke);
    return item;
  }

  /** @param {MouseEvent} e */
  async clicked(e) {
    const button = e.target instanceof HTMLElement ? e.target.closest('button') : null;
    const item = button?.closest('li');
    if (!button || !(item instanceof HTMLElement) || !item.dataset.id) return;
    if (button.classList.contains('share-link-copy')) return this.copy(item.dataset.url ?? '');
    if (!button.classList.contains('share-link-revoke')) return;
    button.disabled = true;
    try {
      await revokeShare(Number(item.dataset.id));
      toast('Link revoked');
      await this.refresh();
    } catch (error) {
      this.status.textContent = `The link could not be revoked (${describe(error)}).`;
      button.disabled = false;
    }
  }

  /** Makes a link with the choices on the sheet. */
  async make() {
    const target = this.target;
    if (!target) return;
    this.create.disabled = true;
    this.status.textContent = '';
    try {
      const days = this.expires.value;
      const link = await createShare({
        ...target,
        expires: days === 'never' ? null : new Date(Date.now() + Number(days) * DAY).toISOString().replace(/\.\d+Z$/, 'Z'),
        ...(this.password.value ? { password: this.password.value } : {}),
        download: this.download.checked,
        comments: this.comments.checked,
        location: this.location.checked,
        ...('folder' in target && this.upload.checked ? { upload: true } : {}),
      });
      this.url.value = link.url;
      this.made.hidden = false;
      await this.copy(link.url);
      await this.refresh();
    } catch (error) {
      this.status.textContent = `The link could not be made (${describe(error)}).`;
    } finally {
      this.create.disabled = false;
    }
  }

  /** @param {string} url */
  async copy(url) {
    toast(await copyText(url) ? 'Link copied' : 'Copy the link from the box');
    if (url === this.url.value) this.url.select();
  }

  destroy() { this.listeners.destroy(); }
}

/** @param {unknown} error */
function describe(error) {
  return error instanceof ServerError ? error.detail || error.title : error instanceof Error ? error.message : String(error);
}
