// @ts-check
// Dragging a photo of an album in its own order to another place, with a mouse, as on a Mac's
// Photos: the cell follows the pointer once it has moved a few pixels, and dropped over another
// photo it takes that photo's place. A press that does not move stays a click (it opens the
// photo); a drag never does. Touch keeps its scrolling, pinching and long press (Select).
//
// In Select, a chosen photo dragged takes every chosen photo with it, as iOS Photos does: the
// dragged cell carries their count, the places of the others are dimmed, and they land together.

/** Pixels the pointer moves before a press becomes a drag. */
const DRAG_SLOP = 6;

/**
 * @typedef {object} CellDragHandlers
 * @property {() => boolean} enabled whether photos may be dragged now (an album in its own order)
 * @property {(id: number) => number[]} moving the photos a drag of photo `id` moves (none: it does not move)
 * @property {(point: { x: number, y: number }) => number | null} positionAt the place in the list under a point
 * @property {(id: number, position: number) => void} drop photo `id` (and those moving with it) dropped at `position`
 */

export class CellDrag {
  /**
   * @param {HTMLElement} list the grid's list of cells
   * @param {import('../util/listeners.js').Listeners} listeners the owner's registry
   * @param {CellDragHandlers} handlers
   */
  constructor(list, listeners, handlers) {
    this.handlers = handlers;
    /** @type {{ link: HTMLAnchorElement, id: number, moving: number[], x: number, y: number, dragging: boolean } | null} */
    this.press = null;
    /** Dims the places of the other photos moving with the dragged one, by id: the cells are reused. */
    this.marks = document.createElement('style');
    document.head.append(this.marks);
    listeners.add(() => this.marks.remove());
    listeners.on(list, 'pointerdown', (e) => {
      const link = e.target instanceof Element ? e.target.closest('a.cell') : null;
      if (e.pointerType !== 'mouse' || e.button !== 0 || !(link instanceof HTMLAnchorElement) || !handlers.enabled()) return;
      const id = Number(link.dataset.photoId);
      const moving = id ? handlers.moving(id) : [];
      if (!moving.length) return;
      this.press = { link, id, moving, x: e.clientX, y: e.clientY, dragging: false };
    });
    listeners.on(window, 'pointermove', (e) => {
      const press = this.press;
      if (!press) return;
      const dx = e.clientX - press.x, dy = e.clientY - press.y;
      if (!press.dragging && Math.hypot(dx, dy) < DRAG_SLOP) return;
      if (!press.dragging) {
        press.dragging = true;
        press.link.classList.add('dragged');
        if (press.moving.length > 1) {
          press.link.append(movingCount(press.moving.length));
          const others = press.moving.filter((id) => id !== press.id);
          this.marks.textContent = `${others.map((id) => `#grid a.cell[data-photo-id="${id}"]`).join(',')}{opacity:.3}`;
        }
      }
      press.link.style.transform = `translate(${dx}px, ${dy}px)`;
    });
    listeners.on(window, 'pointerup', (e) => {
      const press = this.press;
      this.press = null;
      if (!press?.dragging) return;
      press.link.classList.remove('dragged');
      press.link.style.transform = '';
      press.link.querySelector('.moving-count')?.remove();
      this.marks.textContent = '';
      // The click that ends a drag is not a tap on the photo.
      const off = listeners.on(window, 'click', (click) => { click.preventDefault(); click.stopPropagation(); }, { capture: true, once: true });
      listeners.timeout(off, 0);
      const position = handlers.positionAt({ x: e.clientX, y: e.clientY });
      if (position !== null) handlers.drop(press.id, position);
    });
    // A link's own drag (its URL) would take the pointer away from the page.
    listeners.on(list, 'dragstart', (e) => { if (handlers.enabled()) e.preventDefault(); });
  }
}

/**
 * The badge on a dragged or lifted photo that says how many photos move with it.
 * @param {number} count
 */
export function movingCount(count) {
  const badge = document.createElement('span');
  badge.className = 'moving-count';
  badge.textContent = String(count);
  badge.setAttribute('aria-hidden', 'true');
  return badge;
}
