// @ts-check
// The grid at its widest: Months or Years, one card each with a key photo, its name and how many
// photos it holds, oldest at the top and newest at the bottom like the grid, as in Photos. A card
// is a button: choosing it asks the grid to show that month's (or year's) photos.
//
// A library of 100,000 photos spans a few hundred months, so the cards are all in the document;
// only their key photos are asked for as they come near the screen (one record each).

/** @typedef {import('./grid.js').GridList} GridList */
/** @typedef {'months' | 'years'} SummaryKind */
/**
 * One month or year: its photos are positions first … first + count − 1.
 * @typedef {{ first: number, count: number, date: Date }} PhotoGroup
 */

const DAY = 86_400_000;
const formats = {
  months: new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  years: new Intl.DateTimeFormat(undefined, { year: 'numeric', timeZone: 'UTC' }),
};
const counts = new Intl.NumberFormat();

export class GridSummary {
  /**
   * @param {HTMLElement} list the grid's list, after which the cards go
   * @param {GridList} index the photos, in the order taken
   * @param {import('../util/listeners.js').Listeners} listeners the grid's registry
   * @param {(group: PhotoGroup) => void} choose a card chosen
   */
  constructor(list, index, listeners, choose) {
    this.index = index;
    this.root = document.createElement('ol');
    this.root.className = 'grid-summary';
    this.root.hidden = true;
    list.after(this.root);
    /** @type {SummaryKind | null} what the cards show, null before the first */
    this.kind = null;
    /** @type {PhotoGroup[]} */
    this.groups = [];
    /** Whether the photos changed since the cards were made. */
    this.stale = true;
    /** @type {WeakMap<Element, PhotoGroup>} card → its group */
    this.groupOf = new WeakMap();
    this.observer = listeners.observe(new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting || !(entry.target instanceof HTMLElement)) continue;
        this.observer.unobserve(entry.target);
        this.drawKeyPhoto(entry.target);
      }
    }, { rootMargin: '400px 0px' }));
    listeners.on(this.root, 'click', (e) => {
      const card = e.target instanceof Element ? e.target.closest('.summary-card') : null;
      const group = card && this.groupOf.get(card);
      if (group) choose(group);
    });
    listeners.on(index, 'change', (e) => {
      if (!(/** @type {CustomEvent<{ structural: boolean }>} */ (e).detail.structural)) return;
      this.stale = true;
      if (!this.root.hidden && this.kind) this.show(this.kind);
    });
    listeners.add(() => this.root.remove());
  }

  get shown() { return !this.root.hidden; }

  /**
   * Shows the months or the years (made again when the photos changed).
   * @param {SummaryKind} kind
   */
  show(kind) {
    this.root.hidden = false;
    if (kind === this.kind && !this.stale) return;
    this.kind = kind;
    this.stale = false;
    this.groups = groupsOf(this.index, kind);
    this.root.dataset.kind = kind;
    this.root.setAttribute('aria-label', kind === 'months' ? 'Months' : 'Years');
    this.observer.disconnect();
    this.root.replaceChildren(...this.groups.map((group) => this.card(group, kind)));
  }

  hide() { this.root.hidden = true; }

  /**
   * @param {PhotoGroup} group
   * @param {SummaryKind} kind
   */
  card(group, kind) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'summary-card';
    button.dataset.first = String(group.first);
    const img = document.createElement('img');
    img.alt = '';
    img.decoding = 'async';
    const name = document.createElement('span');
    name.className = 'summary-name';
    name.textContent = formats[kind].format(group.date);
    const count = document.createElement('span');
    count.className = 'summary-count';
    count.textContent = group.count === 1 ? '1 photo' : `${counts.format(group.count)} photos`;
    button.append(img, name, count);
    item.append(button);
    this.groupOf.set(button, group);
    this.observer.observe(button);
    return item;
  }

  /**
   * The key photo of a card near the screen: the middle one of its group.
   * @param {HTMLElement} card
   */
  async drawKeyPhoto(card) {
    const group = this.groupOf.get(card);
    const img = card.querySelector('img');
    if (!group || !img) return;
    const key = group.first + Math.floor(group.count / 2);
    const photo = this.index.recordAt(key) ?? await this.index.at(key).catch(() => null);
    if (photo && card.isConnected && photo.status !== 'failed') img.src = photo.thumbnail;
  }

  /**
   * The group of the card at a point on screen, or null.
   * @param {{ x: number, y: number }} point
   */
  groupAt(point) {
    const card = document.elementFromPoint(point.x, point.y)?.closest('.summary-card');
    return (card && this.groupOf.get(card)) ?? null;
  }

  /**
   * Scrolls the card holding position `i` to `y` on screen (its middle there).
   * @param {number} i
   * @param {number} y
   */
  reveal(i, y) {
    const at = this.groups.findIndex((group) => i < group.first + group.count);
    const card = this.root.children[at < 0 ? this.groups.length - 1 : at];
    if (!card) return;
    const box = card.getBoundingClientRect();
    window.scrollBy(0, box.top + box.height / 2 - y);
  }
}

/**
 * The months or years of a list in the order taken: runs of positions, since the order is by date.
 * @param {GridList} index
 * @param {SummaryKind} kind
 * @returns {PhotoGroup[]}
 */
function groupsOf(index, kind) {
  /** @type {PhotoGroup[]} */
  const groups = [];
  let day = NaN;
  let key = NaN;
  for (let i = 0; i < index.count; i++) {
    // Photos of one day are one run: the calendar is asked once a day, not once a photo.
    if (index.days[i] !== day) {
      day = index.days[i];
      const date = new Date(day * DAY);
      const next = kind === 'months' ? date.getUTCFullYear() * 12 + date.getUTCMonth() : date.getUTCFullYear();
      if (next !== key || !groups.length) {
        key = next;
        groups.push({ first: i, count: 0, date });
      }
    }
    groups[groups.length - 1].count += 1;
  }
  return groups;
}
