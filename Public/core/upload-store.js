// @ts-check
// Uploads not finished yet, kept in the browser (IndexedDB) with their files, so an upload
// interrupted by a closed tab, a reload or a lost network goes on when the page is opened again,
// from the server's offset. An entry goes when its upload is done or cancelled.

/**
 * @typedef {object} StoredUpload
 * @property {string} key this browser's name for it
 * @property {string} name the file's name
 * @property {Blob} file its bytes (a File is a Blob)
 * @property {string | null} url the server's upload (`/uploads/{id}`) once made
 * @property {number | null} album the album it joins, when an album was open (an older entry's
 *   number was a folder's id, which the server now reads as an album's)
 * @property {string | null} [folder] the folder it goes into, when a folder was open
 * @property {string} [base] the uploads endpoint it was made at: `/uploads/`, or a share link's
 *   `/s/{token}/uploads/` (left out by older entries: `/uploads/`)
 * @property {number} added when it was added (ms)
 */

const NAME = 'photoscroll-uploads';
const STORE = 'uploads';

/** @type {Promise<IDBDatabase | null> | null} */
let opening = null;

/** The database, or null where the browser keeps none (private modes): uploads then last as long as the tab. */
function database() {
  opening ??= new Promise((resolve) => {
    /** @type {IDBOpenDBRequest} */
    let request;
    try { request = indexedDB.open(NAME, 1); } catch { resolve(null); return; }
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
  return opening;
}

/**
 * Runs one request in a transaction; resolves to its result (undefined without a database).
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} make
 * @returns {Promise<T | undefined>}
 */
async function run(mode, make) {
  const db = await database();
  if (!db) return undefined;
  return new Promise((resolve) => {
    /** @type {IDBRequest<T>} */
    let request;
    try { request = make(db.transaction(STORE, mode).objectStore(STORE)); } catch { resolve(undefined); return; }
    request.onsuccess = () => resolve(request.result);
    // A full quota or a closed database: the upload still goes on, only not across a reload.
    request.onerror = () => resolve(undefined);
  });
}

/** @param {StoredUpload} upload */
export function keepUpload(upload) { return run('readwrite', (store) => store.put(upload)); }

/** @param {string} key */
export function forgetUpload(key) { return run('readwrite', (store) => store.delete(key)); }

/** Every upload left unfinished, oldest first. */
export async function storedUploads() {
  /** @type {StoredUpload[]} */
  const all = (await run('readonly', (store) => store.getAll())) ?? [];
  return all.sort((a, b) => a.added - b.added);
}
