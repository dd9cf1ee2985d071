// @ts-check
// The photos the pager and the zoom view page through, in order. They never hold the whole
// library: they ask a sequence for what they draw, and that is all a sequence must answer:
//   count            how many photos there are (0 until known)
//   indexOf(id)      Promise of the position of photo `id`, or -1
//   at(index)        Promise of the Photo at `index` (undefined past the ends)
//   peek(index)      the Photo at `index` if it is at hand now, else undefined (drawn without a flash)
//   subscribe(fn)    fn() is called whenever the photos or their order change; returns unsubscribe
// ListSequence answers from one list in memory; PhotoIndex (photo-index.js), what the page uses,
// answers the same questions over the paged API (GET /photos/summary, GET /photos?after=&limit=).

/** A sequence over a list already in memory. */
export class ListSequence {
  constructor(photos = []) {
    this.listeners = new Set();
    this.replace(photos);
  }

  /** Puts another list in place (a refresh); listeners hear of it. */
  replace(photos) {
    this.photos = photos;
    this.positions = new Map(photos.map((p, i) => [p.id, i]));
    for (const listener of this.listeners) listener();
  }

  get count() { return this.photos.length; }

  indexOf(id) { return Promise.resolve(this.positions.get(id) ?? -1); }

  at(index) { return Promise.resolve(this.photos[index]); }

  peek(index) { return this.photos[index]; }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
