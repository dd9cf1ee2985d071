// @ts-check
// One resumable upload over tus 1.0 (the server's /uploads/, docs/uploads.md): made with POST,
// sent with PATCH from the server's offset, asked again with HEAD after any failure, so a
// connection lost at any byte costs only the bytes in flight. No library: the protocol is four
// requests, and XMLHttpRequest is what reports upload progress.

const TUS = { 'Tus-Resumable': '1.0.0' };
/** Bytes per PATCH: a lost connection resends at most this much, and progress stays fine-grained. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** Where a complete upload's photo is: its id once listed, and whether it was there already. */
/** @typedef {{ photoId: number | null, duplicate: boolean }} UploadOutcome */

/** A failure the server answered, with its words; `status` 0 when it could not be reached. */
export class UploadError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {number | null} [retryAfter]
   */
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }

  /** Worth trying again later: the network, a busy or full server, an upload held by a cut request. */
  get transient() {
    return this.status === 0 || this.status === 408 || this.status === 409 || this.status === 423 || this.status === 429
      || this.status >= 500;
  }
}

/**
 * @param {number} status
 * @param {string | null} retryAfter
 * @param {string} body
 */
function errorOf(status, retryAfter, body) {
  let detail = '';
  try { detail = JSON.parse(body).detail || ''; } catch { /* not problem+json */ }
  const retry = Number.parseInt(retryAfter || '', 10);
  return new UploadError(status, detail || `The server answered ${status}.`, Number.isFinite(retry) ? retry : null);
}

/**
 * Makes an upload of `file` on the server; resolves to its path (`/uploads/{id}`).
 * @param {Blob} file
 * @param {string} name
 * @param {{ album?: number | null, folder?: string | null, base?: string }} [where] `album`: an album the photo
 *   joins; `folder`: the folder it goes into; `base`: the endpoint, `/uploads/` or a share link's
 *   `/s/{token}/uploads/` (which puts every photo into the link's folder: neither is sent)
 * @returns {Promise<string>}
 */
export async function createUpload(file, name, where = {}) {
  const base = where.base ?? '/uploads/';
  const metadata = [`filename ${base64(name)}`];
  if (where.album != null && base === '/uploads/') metadata.push(`album ${base64(String(where.album))}`);
  if (where.folder && base === '/uploads/') metadata.push(`folder ${base64(where.folder)}`);
  let response;
  try {
    response = await fetch(base, {
      method: 'POST',
      headers: { ...TUS, 'Upload-Length': String(file.size), 'Upload-Metadata': metadata.join(',') },
    });
  } catch { throw new UploadError(0, 'The server could not be reached.'); }
  if (response.status !== 201) throw errorOf(response.status, response.headers.get('Retry-After'), await response.text());
  const location = response.headers.get('Location');
  if (!location) throw new UploadError(response.status, 'The server gave the upload no address.');
  return new URL(location, window.location.origin).pathname;
}

/**
 * How many bytes of the upload at `url` the server has (HEAD).
 * @param {string} url
 * @returns {Promise<number>}
 */
export async function uploadOffset(url) {
  let response;
  try { response = await fetch(url, { method: 'HEAD', headers: TUS, cache: 'no-store' }); } catch {
    throw new UploadError(0, 'The server could not be reached.');
  }
  if (!response.ok) throw errorOf(response.status, response.headers.get('Retry-After'), '');
  const offset = Number.parseInt(response.headers.get('Upload-Offset') || '', 10);
  if (!Number.isFinite(offset)) throw new UploadError(response.status, 'The server did not say how far the upload is.');
  return offset;
}

/**
 * Sends `file` from `offset` to its end, a chunk per PATCH, reporting the bytes that have left.
 * @param {string} url
 * @param {Blob} file
 * @param {number} offset
 * @param {{ onProgress: (sent: number) => void, signal: AbortSignal }} options
 * @returns {Promise<UploadOutcome>}
 */
export async function sendFrom(url, file, offset, { onProgress, signal }) {
  let at = offset;
  // Every byte arrived but the upload did not become a photo (a full disk then): an empty PATCH completes it.
  if (at === file.size) return (await patch(url, file.slice(at, at), at, () => {}, signal)).outcome;
  /** @type {UploadOutcome} */
  let outcome = { photoId: null, duplicate: false };
  while (at < file.size) {
    const start = at;
    const answer = await patch(url, file.slice(start, Math.min(file.size, start + CHUNK_BYTES)), start, (sent) => onProgress(start + sent), signal);
    at = answer.offset;
    outcome = answer.outcome;
    onProgress(at);
  }
  return outcome;
}

/**
 * One PATCH.
 * @param {string} url
 * @param {Blob} chunk
 * @param {number} offset
 * @param {(sent: number) => void} onProgress
 * @param {AbortSignal} signal
 * @returns {Promise<{ offset: number, outcome: UploadOutcome }>}
 */
function patch(url, chunk, offset, onProgress, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) { reject(new UploadError(0, 'Stopped.')); return; }
    const request = new XMLHttpRequest();
    request.open('PATCH', url);
    request.setRequestHeader('Tus-Resumable', '1.0.0');
    request.setRequestHeader('Upload-Offset', String(offset));
    request.setRequestHeader('Content-Type', 'application/offset+octet-stream');
    request.upload.onprogress = (event) => onProgress(event.loaded);
    const stop = () => request.abort();
    signal.addEventListener('abort', stop, { once: true });
    request.onloadend = () => {
      signal.removeEventListener('abort', stop);
      if (request.status === 204) {
        const photo = Number.parseInt(request.getResponseHeader('Photo-ID') || '', 10);
        resolve({
          offset: Number.parseInt(request.getResponseHeader('Upload-Offset') || '0', 10),
          outcome: { photoId: Number.isFinite(photo) ? photo : null, duplicate: request.getResponseHeader('Photo-Duplicate') === 'true' },
        });
      } else if (request.status === 0) {
        reject(new UploadError(0, signal.aborted ? 'Stopped.' : 'The connection was lost.'));
      } else {
        reject(errorOf(request.status, request.getResponseHeader('Retry-After'), request.responseText));
      }
    };
    request.send(chunk);
  });
}

/**
 * Cancels an upload: the server deletes what it has.
 * @param {string} url
 */
export async function deleteUpload(url) {
  try { await fetch(url, { method: 'DELETE', headers: TUS }); } catch { /* unreachable: it expires on its own */ }
}

/** @param {string} text */
function base64(text) {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
