// @ts-check
// What the search view offers before anything is typed: "On This Day" (a card for each earlier
// year with photos taken on today's month and day, from GET /memories) and the Places the photos
// were taken (a card each with its cover photo, where it lies and how many photos, from GET
// /places). Each card is a link to the search that finds its photos; a row with nothing in it is
// not shown, nor is one the server could not give.

import { listMemories, listPlaces, statusOf } from '../core/api.js';
import { searchHash } from '../core/routes.js';
import { element } from '../util/dom.js';

/** @typedef {import('../core/api.js').Place} Place */
/** @typedef {import('../core/api.js').Memories} Memories */

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', timeZone: 'UTC' });

export class SearchHome {
  /** @param {HTMLElement} root the search view's `.search-home` */
  constructor(root) {
    this.root = root;
    this.memories = element(root, '.search-memories', HTMLElement);
    this.memoryList = element(root, '.memories', HTMLElement);
    this.memoryDay = element(root, '.memories-day', HTMLElement);
    this.places = element(root, '.search-places', HTMLElement);
    this.placeList = element(root, '.places', HTMLElement);
    /** Bumped by every load: an older one's answers are dropped. */
    this.loads = 0;
  }

  /**
   * Asks for today's memories and the places, and draws what came; resolves to whether the
   * server could be reached for them.
   * @param {() => boolean} stillWanted
   */
  async load(stillWanted) {
    const load = ++this.loads;
    const [memories, places] = await Promise.allSettled([listMemories(today()), listPlaces()]);
    if (load !== this.loads || !stillWanted()) return true;
    this.drawMemories(memories.status === 'fulfilled' ? memories.value : null);
    this.drawPlaces(places.status === 'fulfilled' ? places.value : []);
    const unreachable = (/** @type {PromiseSettledResult<unknown>} */ result) => result.status === 'rejected' && statusOf(result.reason) === undefined;
    return !(unreachable(memories) && unreachable(places));
  }

  /** @param {Memories | null} memories */
  drawMemories(memories) {
    const years = (memories?.years ?? []).filter((year) => year.photos.length > 0);
    this.memories.hidden = years.length === 0;
    if (!memories) return;
    const [y, m, d] = memories.date.split('-').map(Number);
    this.memoryDay.textContent = dayFormat.format(new Date(Date.UTC(y, m - 1, d)));
    this.memoryList.replaceChildren(...years.map((year) => {
      const day = `${String(year.year).padStart(4, '0')}-${memories.date.slice(5)}`;
      const count = year.photos.length;
      return card(searchHash(day), year.photos[0].thumbnail, String(year.year),
        `${year.yearsAgo === 1 ? '1 year ago' : `${year.yearsAgo} years ago`} · ${count === 1 ? '1 photo' : `${count.toLocaleString()} photos`}`);
    }));
  }

  /** @param {Place[]} places */
  drawPlaces(places) {
    this.places.hidden = places.length === 0;
    this.placeList.replaceChildren(...places.map((place) => {
      const where = [place.region, place.country].filter((part) => part && part !== place.name).join(', ');
      const count = place.count === 1 ? '1 photo' : `${place.count.toLocaleString()} photos`;
      // The count first: a long region and country is what gets cut short.
      return card(searchHash(place.query), place.cover.thumbnail, place.name, where ? `${count} · ${where}` : count);
    }));
  }
}

/**
 * A card: a link to a search, its cover photo, a name and a line under it.
 * @param {string} href
 * @param {string} thumbnail
 * @param {string} name
 * @param {string} about
 */
function card(href, thumbnail, name, about) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = href;
  const img = document.createElement('img');
  img.src = thumbnail;
  img.alt = '';
  img.loading = 'lazy';
  const title = document.createElement('span');
  title.className = 'card-name';
  title.textContent = name;
  const line = document.createElement('span');
  line.className = 'card-about';
  line.textContent = about;
  link.append(img, title, line);
  item.append(link);
  return item;
}

/** Today on this device's calendar, as `YYYY-MM-DD`. */
function today() {
  const now = new Date();
  return `${String(now.getFullYear()).padStart(4, '0')}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}
