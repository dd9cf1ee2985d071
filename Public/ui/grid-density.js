// @ts-check
// How dense the grids are: one choice for every list of photos (the library, an album, a folder,
// Favourites, a search's results, a share link's photos), so a photo is the same size wherever it
// is seen. It is a number of columns from 1 to 15, or, past the densest, the Months and then the
// Years of a list in the order taken, as Photos' pinch goes. Until someone chooses, the style
// sheet's columns apply (as many as fit at its least cell size). The choice is kept on the device
// (localStorage), so a reload and the next visit show the grid as it was left.

/** @typedef {number | 'months' | 'years'} Density columns, or one key photo a month or a year */

/** The column counts a pinch, Ctrl+wheel or + and − step through, fewest first. */
export const COLUMN_STEPS = Object.freeze([1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15]);
/** Past the densest columns, in order. */
const SUMMARIES = /** @type {const} */ (['months', 'years']);
/** Months and Years as columns to a pinch: a pinch of 1.5 past 15 columns is Months, as much again Years. */
const SUMMARY_COLUMNS = { months: 22, years: 34 };
const STORAGE_KEY = 'photoscroll.gridDensity';

/**
 * Emits `change` (a CustomEvent whose detail is a DensityChange) when the density is chosen anew.
 * @typedef {{ density: Density | null, point: { x: number, y: number } | null, position: number | null }} DensityChange
 *   what was chosen, the point on screen that stays put while it changes (the fingers, the mouse,
 *   the screen's centre), or the position the grid is to show (a month or a year tapped)
 */
export class GridDensity extends EventTarget {
  constructor() {
    super();
    /** @type {Density | null} the choice; null: the style sheet's columns */
    this.density = read();
    /** @type {number | null} the columns shown before Months or Years, to come back to */
    this.lastColumns = typeof this.density === 'number' ? this.density : null;
  }

  /** The columns chosen, or null (the style sheet's, or a summary). */
  get columns() { return typeof this.density === 'number' ? this.density : null; }

  /** Months or Years, or null for photos. */
  get summary() { return typeof this.density === 'string' ? this.density : null; }

  /**
   * Chooses a density; the grids on screen redraw keeping `point` (or `position`) where it is.
   * @param {Density | null} density
   * @param {{ point?: { x: number, y: number } | null, position?: number | null }} [where]
   */
  set(density, where = {}) {
    const { point = null, position = null } = where;
    if (density === this.density && position === null) return;
    this.density = density;
    if (typeof density === 'number') this.lastColumns = density;
    write(density);
    /** @type {DensityChange} */
    const detail = { density, point, position };
    this.dispatchEvent(new CustomEvent('change', { detail }));
  }

  /**
   * The next density from `shown` columns (or a summary) in the direction asked: +1 denser (more
   * columns, then Months, then Years), −1 larger photos. The summaries only where `summaries`.
   * @param {Density} shown
   * @param {1 | -1} direction
   * @param {boolean} summaries
   * @returns {Density}
   */
  static next(shown, direction, summaries) {
    const order = /** @type {Density[]} */ ([...COLUMN_STEPS, ...(summaries ? SUMMARIES : [])]);
    if (typeof shown === 'string') {
      const at = order.indexOf(shown);
      if (at < 0) return COLUMN_STEPS[COLUMN_STEPS.length - 1];
      return order[Math.max(0, Math.min(order.length - 1, at + direction))];
    }
    // Columns the style sheet chose may lie between two steps: the next step beyond them.
    if (direction > 0) return order.find((step) => typeof step === 'string' || step > shown) ?? order[order.length - 1];
    return [...COLUMN_STEPS].reverse().find((step) => step < shown) ?? COLUMN_STEPS[0];
  }

  /**
   * The density nearest (on a log scale, as a pinch scales) to a wanted number of columns, the
   * summaries counted as the columns they are worth; the summaries only where `summaries`.
   * @param {number} wanted
   * @param {boolean} summaries
   * @returns {Density}
   */
  static nearest(wanted, summaries) {
    const order = /** @type {Density[]} */ ([...COLUMN_STEPS, ...(summaries ? SUMMARIES : [])]);
    let best = order[0];
    for (const density of order) {
      if (Math.abs(Math.log(GridDensity.worth(density) / wanted)) < Math.abs(Math.log(GridDensity.worth(best) / wanted))) best = density;
    }
    return best;
  }

  /**
   * What a density is worth in columns to a pinch, which scales the columns it started from.
   * @param {Density} density
   */
  static worth(density) { return typeof density === 'number' ? density : SUMMARY_COLUMNS[density]; }
}

/** @returns {Density | null} */
function read() {
  let kept = null;
  try { kept = localStorage.getItem(STORAGE_KEY); } catch { /* storage refused: the default */ }
  if (kept === 'months' || kept === 'years') return kept;
  const columns = Number(kept);
  return kept && COLUMN_STEPS.includes(columns) ? columns : null;
}

/** @param {Density | null} density */
function write(density) {
  try {
    if (density === null) localStorage.removeItem(STORAGE_KEY); else localStorage.setItem(STORAGE_KEY, String(density));
  } catch { /* storage refused: kept for this page only */ }
}
