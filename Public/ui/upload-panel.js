// @ts-check
// Adding photos: the Add button (on a phone, the photo picker, several at once), files dropped
// anywhere on the grid, and the panel that shows each upload's progress and the total, with
// pause, resume and cancel. Uploads are resumable (core/tus.js) and kept in the browser
// (core/upload-store.js): a lost network waits for it to come back, a closed tab goes on when the
// page is opened again. Each photo appears in the grid at its date as it lands (the library's
// live events bring it).

import { createUpload, deleteUpload, sendFrom, uploadOffset, UploadError } from '../core/tus.js';
import { forgetUpload, keepUpload, storedUploads } from '../core/upload-store.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** @typedef {import('../core/upload-store.js').StoredUpload} StoredUpload */
/** @typedef {'queued' | 'sending' | 'waiting' | 'paused' | 'done' | 'failed'} UploadState */

/**
 * One file on its way.
 * @typedef {object} UploadItem
 * @property {StoredUpload} stored
 * @property {number} sent bytes the server has (or is being sent now)
 * @property {UploadState} state
 * @property {string} note what the person reads beside the bar
 * @property {AbortController | null} controller while sending
 * @property {number} failures in a row, for the wait before the next try
 * @property {HTMLLIElement} row
 */

/** Uploads sent at once; the rest wait their turn. */
const AT_ONCE = 3;

export class UploadPanel {
  /**
   * @param {HTMLElement} root the panel (`#uploads`)
   * @param {{ dropTarget: HTMLElement, addButton: HTMLButtonElement, input: HTMLInputElement, dropHint: HTMLElement,
   *           album: () => number | null, folder: () => string | null, accepts: () => boolean, base: () => string }} options
   *   `album`: the album open now (uploads join it), `folder`: the folder open now (uploads go into it), `accepts`: whether a drop is taken now (the grid is on screen),
   *   `base`: the uploads endpoint (`/uploads/`, or under a share link that lets photos be added `/s/{token}/uploads/`)
   */
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.list = element(root, '.uploads-list', HTMLUListElement);
    this.summary = element(root, '.uploads-summary', HTMLElement);
    this.total = element(root, '.uploads-total', HTMLProgressElement);
    /** @type {UploadItem[]} */
    this.items = [];
    this.listeners = new Listeners();
    /** Drags over the page now, counted by enter/leave pairs. */
    this.dragDepth = 0;
    /** The animation frame a render waits for, 0 for none. */
    this.frame = 0;
    const on = this.listeners;
    on.on(options.addButton, 'click', () => options.input.click());
    on.on(options.input, 'change', () => {
      if (options.input.files) this.add(Array.from(options.input.files));
      options.input.value = '';
    });
    on.on(element(root, '.uploads-close', HTMLButtonElement), 'click', () => this.clearFinished());
    on.on(window, 'dragenter', (e) => this.dragEnter(e));
    on.on(window, 'dragover', (e) => { if (this.carriesFiles(e)) e.preventDefault(); });
    on.on(window, 'dragleave', () => { if (--this.dragDepth <= 0) this.showDropHint(false); });
    on.on(window, 'drop', (e) => this.drop(e));
    // Back online: whatever waited for the network goes at once.
    on.on(window, 'online', () => this.retryWaiting());
    on.on(this.list, 'click', (e) => this.clicked(e));
  }

  /**
   * Adds files to send, into the album or folder open now.
   * @param {File[]} files
   */
  add(files) {
    const album = this.options.album(), folder = this.options.folder();
    for (const file of files) {
      if (!file.size && !file.type) continue;  // a folder dropped as a file
      /** @type {StoredUpload} */
      const stored = { key: `${Date.now()}-${Math.random().toString(36).slice(2)}`, name: file.name, file, url: null, album, folder,
        base: this.options.base(), added: Date.now() };
      keepUpload(stored);
      this.items.push(this.item(stored));
    }
    this.pump();
  }

  /**
   * Uploads the browser kept from an earlier visit go on: those made where this page adds photos
   * (the library's, or this share link's), once the page knows which that is.
   */
  async restore() {
    const kept = await storedUploads();
    if (this.listeners.destroyed) return;
    const base = this.options.base();
    for (const stored of kept) {
      if ((stored.base ?? '/uploads/') !== base) continue;
      if (this.items.some((item) => item.stored.key === stored.key)) continue;
      this.items.push(this.item(stored));
    }
    this.pump();
  }

  /**
   * @param {StoredUpload} stored
   * @returns {UploadItem}
   */
  item(stored) {
    const row = document.createElement('li');
    row.className = 'upload';
    row.dataset.key = stored.key;
    row.innerHTML = '<span class="upload-name"></span><span class="upload-note"></span><progress class="upload-bar" max="1" value="0"></progress>'
      + '<span class="upload-buttons"><button type="button" class="upload-pause">Pause</button>'
      + '<button type="button" class="upload-cancel" aria-label="Cancel">Cancel</button></span>';
    element(row, '.upload-name', HTMLElement).textContent = stored.name;
    this.list.append(row);
    this.root.hidden = false;
    return { stored, sent: 0, state: 'queued', note: 'Waiting', controller: null, failures: 0, row };
  }

  /** Starts what may start now. */
  pump() {
    const sending = this.items.filter((item) => item.state === 'sending').length;
    for (const item of this.items.filter((i) => i.state === 'queued').slice(0, Math.max(0, AT_ONCE - sending))) this.send(item);
    this.render();
  }

  /** @param {UploadItem} item */
  async send(item) {
    item.state = 'sending';
    item.note = 'Sending';
    const controller = new AbortController();
    item.controller = controller;
    this.render();
    try {
      if (!item.stored.url) {
        item.stored.url = await createUpload(item.stored.file, item.stored.name, { album: item.stored.album, folder: item.stored.folder, base: item.stored.base });
        keepUpload(item.stored);
      }
      item.sent = await uploadOffset(item.stored.url);
      if (controller.signal.aborted) return;
      const outcome = await sendFrom(item.stored.url, item.stored.file, item.sent, {
        signal: controller.signal,
        onProgress: (sent) => { item.sent = sent; this.renderSoon(); },
      });
      item.state = 'done';
      item.sent = item.stored.file.size;
      item.note = outcome.duplicate ? 'Already in the library' : 'Added';
      item.failures = 0;
      forgetUpload(item.stored.key);
    } catch (error) {
      if (controller.signal.aborted) return;  // paused or cancelled: they said so already
      this.failed(item, error);
    } finally {
      if (item.controller === controller) item.controller = null;
      this.pump();
    }
  }

  /**
   * A transient failure waits and tries again (at once when the network returns); any other is final.
   * @param {UploadItem} item
   * @param {unknown} error
   */
  failed(item, error) {
    const failure = error instanceof UploadError ? error : new UploadError(0, String(error));
    // Refused at its creation (a share link revoked or expired answers 404): final.
    const made = item.stored.url !== null;
    if (made && (failure.status === 404 || failure.status === 410)) {
      // The server no longer has it (expired, or another tab cancelled it): start it afresh.
      item.stored.url = null;
      keepUpload(item.stored);
    }
    if (failure.transient || (made && (failure.status === 404 || failure.status === 410))) {
      item.state = 'waiting';
      item.failures += 1;
      const seconds = failure.retryAfter ?? Math.min(30, 2 ** Math.min(item.failures, 5));
      item.note = navigator.onLine === false ? 'Waiting for the network' : `${failure.message} Trying again in ${seconds} s.`;
      this.listeners.timeout(() => { if (item.state === 'waiting') { item.state = 'queued'; this.pump(); } }, seconds * 1000);
    } else {
      item.state = 'failed';
      item.note = failure.message;
      forgetUpload(item.stored.key);
    }
  }

  retryWaiting() {
    for (const item of this.items) if (item.state === 'waiting') item.state = 'queued';
    this.pump();
  }

  /** @param {MouseEvent} event */
  clicked(event) {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    const row = button?.closest('li');
    const item = this.items.find((i) => i.row === row);
    if (!button || !item) return;
    if (button.classList.contains('upload-cancel')) this.cancel(item);
    else if (item.state === 'paused') { item.state = 'queued'; this.pump(); }
    else if (item.state !== 'done' && item.state !== 'failed') this.pause(item);
  }

  /** @param {UploadItem} item */
  pause(item) {
    item.controller?.abort();
    item.state = 'paused';
    item.note = 'Paused';
    this.pump();
  }

  /** @param {UploadItem} item */
  cancel(item) {
    item.controller?.abort();
    if (item.stored.url && item.state !== 'done') deleteUpload(item.stored.url);
    forgetUpload(item.stored.key);
    this.items = this.items.filter((i) => i !== item);
    item.row.remove();
    this.pump();
  }

  /** Done and failed rows go; the panel goes when nothing is left. */
  clearFinished() {
    for (const item of this.items.filter((i) => i.state === 'done' || i.state === 'failed')) item.row.remove();
    this.items = this.items.filter((i) => i.state !== 'done' && i.state !== 'failed');
    this.render();
  }

  renderSoon() {
    if (this.frame) return;
    this.frame = this.listeners.frame(() => { this.frame = 0; this.render(); });
  }

  render() {
    let size = 0, sent = 0, done = 0;
    for (const item of this.items) {
      size += item.stored.file.size;
      sent += Math.min(item.sent, item.stored.file.size);
      if (item.state === 'done') done += 1;
      const fraction = item.stored.file.size ? item.sent / item.stored.file.size : 1;
      element(item.row, '.upload-bar', HTMLProgressElement).value = Math.min(1, fraction);
      const note = item.state === 'sending' ? `${Math.floor(fraction * 100)}%` : item.note;
      element(item.row, '.upload-note', HTMLElement).textContent = note;
      item.row.dataset.state = item.state;
      const pause = element(item.row, '.upload-pause', HTMLButtonElement);
      pause.hidden = item.state === 'done' || item.state === 'failed';
      pause.textContent = item.state === 'paused' ? 'Resume' : 'Pause';
      element(item.row, '.upload-cancel', HTMLButtonElement).hidden = item.state === 'done';
    }
    this.total.value = size ? sent / size : 0;
    const count = this.items.length;
    this.summary.textContent = count === 0 ? '' : done === count ? `${count === 1 ? '1 photo' : `${count} photos`} added`
      : `Adding ${done} of ${count} · ${Math.floor((size ? sent / size : 0) * 100)}%`;
    this.root.hidden = count === 0;
  }

  /** @param {DragEvent} event */
  carriesFiles(event) {
    return this.options.accepts() && Boolean(event.dataTransfer?.types.includes('Files'));
  }

  /** @param {DragEvent} event */
  dragEnter(event) {
    if (!this.carriesFiles(event)) return;
    this.dragDepth += 1;
    this.showDropHint(true);
  }

  /** @param {boolean} shown */
  showDropHint(shown) {
    this.options.dropHint.hidden = !shown;
    if (!shown) this.dragDepth = 0;
  }

  /** @param {DragEvent} event */
  drop(event) {
    this.showDropHint(false);
    if (!this.carriesFiles(event)) return;
    event.preventDefault();
    this.add(Array.from(event.dataTransfer?.files ?? []));
  }

  destroy() {
    for (const item of this.items) item.controller?.abort();
    this.listeners.destroy();
  }
}
