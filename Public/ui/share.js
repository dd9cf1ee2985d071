// @ts-check
// Sharing a photo: the system's share sheet (Web Share API) where there is one, else its link
// copied to the clipboard, with a word on screen that it was.

let toastTimer = 0;

/**
 * A short message at the bottom of the screen, gone after two seconds.
 * @param {string} text
 */
export function toast(text) {
  const element = document.getElementById('toast');
  if (!element) return;
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => { element.hidden = true; }, 2000);
}

/**
 * Copies text; the Clipboard API needs a secure page, so a plain-http server on the LAN uses a selection.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch { /* not allowed here: try the old way */ }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.cssText = 'position:fixed;top:0;left:0;opacity:0;';
  document.body.appendChild(field);
  field.select();
  let done = false;
  try { done = document.execCommand('copy'); } catch { done = false; }
  field.remove();
  return done;
}

/**
 * Shares `url` (named `title`); resolves to 'shared', 'copied', 'cancelled' or 'failed'.
 * @param {string} title
 * @param {string} url
 * @returns {Promise<'shared' | 'copied' | 'cancelled' | 'failed'>}
 */
export async function share(title, url) {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      // Not allowed (no user gesture, a policy): copying still works.
    }
  }
  if (await copyText(url)) {
    toast('Link copied');
    return 'copied';
  }
  toast(`Copy this link: ${url}`);
  return 'failed';
}
