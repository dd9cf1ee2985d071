// @ts-check
// Work asked for again while it runs is done once more after it, however often it was asked:
// a view drawn again for a burst of changes is fetched at most twice.

/**
 * `run` now, or once more after the run under way when asked meanwhile: however many events come
 * while a view is being fetched, it is fetched at most once more.
 * @param {() => Promise<unknown>} run
 */
export function coalesced(run) {
  let running = false, again = false;
  const go = async () => {
    if (running) { again = true; return; }
    running = true;
    try {
      do {
        again = false;
        await run().catch(() => {});
      } while (again);
    } finally {
      running = false;
    }
  };
  return go;
}
