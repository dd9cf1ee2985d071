// @ts-check
// Dragging a photo of an album in its own order to another place, with a mouse, as on a Mac's
// Photos: the cell follows the pointer once it has moved a few pixels, and dropped over another
// photo it takes that photo's place. A press that does not move stays a click (it opens the
// photo); a drag never does. Touch keeps its scrolling, pinching and long press (Select).

/** Pixels the pointer moves before a press becomes a drag. */
const DRAG_SLOP = 6;

/**
 * @typedef {object} CellDragHandlers
 * @property {() => boolean} enabled whether photos may be dragged now (an album in its own order)
 * @property {(point: { x: number, y: number }) => number | null} positionAt the place in the list under a point
 * @property {(id: number, position: number) => void} drop photo `id` dropped at `position`
 */

export class CellDrag {
  /**
   * @param {HTMLElement} list the grid's list of cells
   * @param {import('../util/listeners.js').Listeners} listeners the owner's registry
   * @param {CellDragHandlers} handlers
   */
  constructor(list, listeners, handlers) {
    this.handlers = handlers;
    /** @type {{ link: HTMLAnchorElement, id: number, x: number, y: number, dragging: boolean } | null} */
    this.press = null;
    listeners.on(list, 'pointerdown', (e) => {
      const link = e.target instanceof Element ? e.target.closest('a.cell') : null;
      if (e.pointerType !== 'mouse' || e.button !== 0 || !(link instanceof HTMLAnchorElement) || !handlers.enabled()) return;
      const id = Number(link.dataset.photoId);
      if (!id) return;
      this.press = { link, id, x: e.clientX, y: e.clientY, dragging: false };
    });
    listeners.on(window, 'pointermove', (e) => {
      const press = this.press;
      if (!press) return;
      const dx = e.clientX - press.x, dy = e.clientY - press.y;
      if (!press.dragging && Math.hypot(dx, dy) < DRAG_SLOP) return;
      press.dragging = true;
      press.link.classList.add('dragged');
      press.link.style.transform = `translate(${dx}px, ${dy}px)`;
    });
    listeners.on(window, 'pointerup', (e) => {
      const press = this.press;
      this.press = null;
      if (!press?.dragging) return;
      press.link.classList.remove('dragged');
      press.link.style.transform = '';
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
