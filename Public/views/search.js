// @ts-check
// The search view (#/search?q=…): the field with its suggestions, and what was found in the
// library's own grid (windowed at any size, each cell opening the pager on the results). With
// nothing typed it offers On This Day and the Places. It says in words when nothing matches, when
// the server's index is still being filled (and asks again until it is), and when the server
// cannot be reached: search is online only, so offline it says so rather than failing.

import { statusOf } from '../core/api.js';
import { connection } from '../core/connection.js';
import { searchHash } from '../core/routes.js';
import { SearchResults } from '../core/search-results.js';
import { SearchBox } from '../ui/search-box.js';
import { SearchHome } from '../ui/search-home.js';
import { PhotoGrid } from './grid.js';
import { element } from '../util/dom.js';
import { Listeners } from '../util/listeners.js';

/** While the index is still being filled, the search is asked again this often (ms). */
const PARTIAL_MS = 3000;
const OFFLINE = 'Search needs the server, which cannot be reached now. It runs again as soon as the server answers.';

export class SearchView {
  /**
   * @param {HTMLElement} root `#search-view`
   * @param {{ density?: import('../ui/grid-density.js').GridDensity }} [options] the grids' shared density
   */
  constructor(root, options = {}) {
    this.root = root;
    this.listeners = new Listeners();
    this.results = new SearchResults();
    this.list = element(root, '.search-results', HTMLElement);
    this.grid = new PhotoGrid(this.list, this.results, { months: false, density: options.density });
    this.status = element(root, '.search-status', HTMLElement);
    this.hint = element(root, '.search-hint', HTMLElement);
    this.note = element(root, '.search-note', HTMLElement);
    this.home = new SearchHome(element(root, '.search-home', HTMLElement));
    this.box = new SearchBox({
      form: element(root, '.search-form', HTMLFormElement),
      input: element(root, '.search-input', HTMLInputElement),
      list: element(root, '.search-suggestions', HTMLElement),
    }, { onSearch: (query) => this.go(query) });
    /** The query shown ('' for none). */
    this.query = '';
    /** @type {unknown} why the last search got no answer, or null */
    this.trouble = null;
    this.partialTimer = 0;
    this.shown = false;
    // Asked again the moment the server answers, when it could not be reached.
    this.listeners.on(connection, 'back', () => {
      if (this.shown && this.trouble !== null && statusOf(this.trouble) === undefined) this.show(this.query, { again: true });
    });
    this.listeners.add(() => { this.grid.destroy(); this.box.destroy(); });
  }

  /**
   * On screen or not: hidden, its grid draws nothing, its keys are off and it asks nothing more.
   * @param {boolean} shown
   */
  setShown(shown) {
    this.shown = shown;
    this.root.hidden = !shown;
    this.grid.setActive(shown);
    this.box.setShown(shown);
    if (!shown) this.listeners.clear(this.partialTimer);
  }

  /**
   * A search from the field: its URL, so that Back and a reload come back to it.
   * @param {string} query
   */
  go(query) {
    // On a phone the keyboard goes, for the results to be seen.
    if (matchMedia('(pointer: coarse)').matches) this.box.input.blur();
    const hash = searchHash(query);
    if (location.hash !== hash) location.hash = hash;
    else this.show(query, { again: true });
  }

  /** Puts the focus in the field. */
  focusField() { this.box.input.focus({ preventScroll: true }); }

  /**
   * Shows the search for `query` (nothing typed: On This Day and the Places), once its first
   * photos are in, unless `stillWanted()` says the person went elsewhere meanwhile.
   * @param {string} query
   * @param {{ again?: boolean, stillWanted?: () => boolean }} options `again`: asked even when already answered
   */
  async show(query, { again = false, stillWanted = () => true } = {}) {
    this.query = query;
    this.box.set(query);
    this.listeners.clear(this.partialTimer);
    this.list.setAttribute('aria-label', query ? `Photos matching ${query}` : 'Search results');
    if (!query) {
      this.results.clear();
      this.trouble = null;
      this.describe();
      this.home.root.hidden = false;
      const reached = await this.home.load(() => stillWanted() && this.query === query);
      if (this.query === query) {
        this.trouble = reached ? null : new Error('unreachable');
        this.describe();
      }
      return;
    }
    this.home.root.hidden = true;
    if (this.results.query !== query || again) this.status.textContent = 'Searching…';
    try {
      await this.results.run(query, { again });
      this.trouble = null;
    } catch (error) {
      if (this.query !== query) return;
      this.trouble = error;
      this.results.clear();
    }
    if (this.query !== query || !stillWanted()) return;
    this.describe();
    // Photos not indexed yet are not found: asked again until the index is whole.
    if (this.results.partial && this.trouble === null) {
      this.partialTimer = this.listeners.timeout(() => { if (this.shown) this.show(query, { again: true }); }, PARTIAL_MS);
    }
  }

  /** The words under the field: how many photos, none, or why there is no answer. */
  describe() {
    const query = this.query;
    const count = this.results.count;
    let status = '', hint = '', note = '';
    if (this.trouble !== null) {
      status = statusOf(this.trouble) === undefined ? OFFLINE
        : `This search cannot be run: ${this.trouble instanceof Error ? this.trouble.message : String(this.trouble)}`;
    } else if (query && count === 0) {
      status = `No photos match “${query}”.`;
      hint = 'Try a place, a year or a month (2019, July 2019), a camera, or words of a file or folder name.';
    } else if (query) {
      status = count === 1 ? '1 photo' : `${count.toLocaleString()} photos`;
    }
    if (query && this.trouble === null && this.results.partial) {
      note = 'The library is still being indexed: more photos may match in a moment.';
    }
    this.status.textContent = status;
    this.root.classList.toggle('search-empty', Boolean(query) && this.trouble === null && count === 0);
    this.root.classList.toggle('search-offline', this.trouble !== null && statusOf(this.trouble) === undefined);
    this.hint.textContent = hint;
    this.hint.hidden = !hint;
    this.note.textContent = note;
    this.note.hidden = !note;
  }

  /**
   * The cell of photo `id` and its box on screen, if drawn.
   * @param {number} id
   */
  cell(id) {
    const cell = this.list.querySelector(`[data-photo-id="${id}"]`);
    return cell ? { cell, rect: cell.getBoundingClientRect(), square: true } : null;
  }

  /** Lets go of its grid, its field, its listeners and timers. */
  destroy() { this.listeners.destroy(); }
}
