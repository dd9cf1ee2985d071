// @ts-check
// Runs before the page's modules. When one of them cannot be fetched (a busy server's 503, a
// replica restarting, a dropped connection), none of them runs, and the page would say "Loading
// photos…" for good. Instead it says what happened and loads itself again, a little later each
// time, until it starts or five attempts have failed.
(() => {
  const KEY = 'photoscroll-page-attempts';
  const RETRIES = 5;
  const storage = (() => { try { return window.sessionStorage; } catch { return null; } })();
  const attempts = Number(storage?.getItem(KEY) || 0);
  let failed = false;
  // A module that cannot be fetched fires `error` at its <script>; captured here on the way down.
  window.addEventListener('error', (event) => {
    const script = event.target;
    if (failed || !(script instanceof HTMLScriptElement) || script.type !== 'module') return;
    failed = true;
    const status = document.getElementById('grid-status');
    if (attempts >= RETRIES || !storage) {
      storage?.removeItem(KEY);
      if (status) status.textContent = 'The page could not be loaded from the server. Reload to try again.';
      return;
    }
    const seconds = 2 ** attempts;
    if (status) status.textContent = `The page could not be loaded from the server; trying again in ${seconds} s…`;
    storage.setItem(KEY, String(attempts + 1));
    window.setTimeout(() => location.reload(), seconds * 1000);
  }, true);
  // Modules run before DOMContentLoaded, and a failed one has said so by then.
  document.addEventListener('DOMContentLoaded', () => { if (!failed) storage?.removeItem(KEY); });
})();
