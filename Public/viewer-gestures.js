// Pointer, wheel and key input for the zoom view, turned into viewer calls.
// Two pointers pinch around their centre; one pointer pans, or swipes to a neighbour at fit;
// two quick taps zoom in twice as close (or back to fit at native resolution).

const TAP_SLOP = 10, DOUBLE_TAP_MS = 320, DOUBLE_TAP_SLOP = 40;

/** Input handling bound to one ZoomViewer. */
export class ViewerGestures {
  constructor(viewer) {
    this.viewer = viewer;
    this.pointers = new Map();
    this.pan = null;
    this.pinch = null;
    this.lastTap = null;
    this.wheeling = false;
    this.wheelTimer = null;
    const stage = viewer.stage;
    stage.addEventListener('pointerdown', (e) => this.down(e));
    stage.addEventListener('pointermove', (e) => this.move(e));
    stage.addEventListener('pointerup', (e) => this.up(e, false));
    stage.addEventListener('pointercancel', (e) => this.up(e, true));
    stage.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    stage.addEventListener('dblclick', (e) => e.preventDefault());
    // Safari's own pinch events would zoom the page; the viewer does its own.
    stage.addEventListener('gesturestart', (e) => e.preventDefault());
    document.addEventListener('keydown', (e) => this.key(e));
  }

  get pinching() { return this.pinch !== null; }

  point(e) {
    const rect = this.viewer.stage.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  down(e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    this.viewer.stage.setPointerCapture?.(e.pointerId);
    this.pointers.set(e.pointerId, this.point(e));
    this.viewer.cancelAnimation();
    if (this.pointers.size === 1) this.startPan(e.timeStamp);
    else if (this.pointers.size === 2) this.startPinch();
  }

  startPan(time) {
    const [p] = this.pointers.values();
    const v = this.viewer;
    this.pan = { x: p.x, y: p.y, tx: v.tx, ty: v.ty, time, mode: null, fit: v.atFit, moved: false };
  }

  startPinch() {
    const v = this.viewer;
    const [a, b] = [...this.pointers.values()];
    const centre = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    this.pan = null;
    if (v.offsetX) v.setOffset(0);
    this.pinch = {
      distance: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), s: v.s,
      photoX: (centre.x - v.tx) / v.s, photoY: (centre.y - v.ty) / v.s,
    };
  }

  move(e) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.set(e.pointerId, this.point(e));
    const v = this.viewer;
    if (this.pinch && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const centre = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const s = Math.min(v.maxScale, Math.max(v.fitScale, this.pinch.s * Math.hypot(a.x - b.x, a.y - b.y) / this.pinch.distance));
      // The photo point first under the fingers' centre stays under it, wherever the centre moves.
      v.place(s, centre.x - this.pinch.photoX * s, centre.y - this.pinch.photoY * s);
      return;
    }
    if (!this.pan) return;
    const p = this.pointers.get(e.pointerId);
    const dx = p.x - this.pan.x, dy = p.y - this.pan.y;
    if (!this.pan.moved && Math.hypot(dx, dy) > TAP_SLOP) {
      this.pan.moved = true;
      this.pan.mode = this.pan.fit && Math.abs(dx) > Math.abs(dy) ? 'swipe' : 'pan';
    }
    if (this.pan.mode === 'swipe') v.setOffset(dx);
    else if (this.pan.mode === 'pan') v.place(v.s, this.pan.tx + dx, this.pan.ty + dy);
  }

  up(e, cancelled) {
    if (!this.pointers.has(e.pointerId)) return;
    const last = this.pointers.get(e.pointerId);
    this.pointers.delete(e.pointerId);
    const v = this.viewer;
    if (this.pinch) {
      if (this.pointers.size < 2) {
        this.pinch = null;
        // The remaining finger keeps panning from where it is, without a jump.
        if (this.pointers.size === 1) { this.startPan(e.timeStamp); this.pan.moved = true; this.pan.mode = 'pan'; }
        v.render();
      }
      return;
    }
    const pan = this.pan;
    this.pan = null;
    if (!pan || cancelled) { v.setOffset(0); return; }
    if (pan.mode === 'swipe') {
      const dx = last.x - pan.x;
      const fast = Math.abs(dx) / Math.max(1, e.timeStamp - pan.time) > 0.5;
      if ((Math.abs(dx) > Math.min(80, v.vw * 0.2) || (fast && Math.abs(dx) > 30)) && v.callbacks.onPage(dx < 0 ? 1 : -1)) return;
      this.springBack();
      return;
    }
    if (!pan.moved && e.timeStamp - pan.time < 400) this.tap(last, e.timeStamp);
  }

  springBack() {
    const v = this.viewer;
    const from = v.offsetX, started = performance.now();
    const step = (now) => {
      const t = Math.min(1, (now - started) / 200);
      v.setOffset(from * Math.pow(1 - t, 3));
      if (t < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  tap(p, time) {
    const previous = this.lastTap;
    clearTimeout(this.singleTapTimer);
    if (previous && time - previous.time < DOUBLE_TAP_MS && Math.hypot(p.x - previous.x, p.y - previous.y) < DOUBLE_TAP_SLOP) {
      this.lastTap = null;
      this.viewer.toggleZoomAt(p.x, p.y);
    } else {
      this.lastTap = { ...p, time };
      // A single tap shows or hides the bar, as in Photos; only once it is clear no second tap follows.
      this.singleTapTimer = setTimeout(() => this.viewer.toggleChrome(), DOUBLE_TAP_MS);
    }
  }

  wheel(e) {
    e.preventDefault();
    const v = this.viewer;
    if (!v.isOpen) return;
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? v.vh : 1;
    const dx = e.deltaX * unit, dy = e.deltaY * unit;
    // Trackpads pinch as ctrl+wheel and scroll with fractional or sideways deltas; a mouse wheel zooms.
    const isScroll = !e.ctrlKey && e.deltaMode === 0 && (dx !== 0 || !Number.isInteger(dy));
    if (isScroll) {
      if (!v.atFit) v.panBy(-dx, -dy);
      return;
    }
    this.wheeling = true;
    clearTimeout(this.wheelTimer);
    this.wheelTimer = setTimeout(() => { this.wheeling = false; v.render(); }, 160);
    const p = this.point(e);
    v.zoomAround(p.x, p.y, v.s * Math.exp(-dy * (e.ctrlKey ? 0.01 : 0.002)));
  }

  key(e) {
    const v = this.viewer;
    if (!v.isOpen || e.altKey || e.metaKey || (e.ctrlKey && e.key !== '0')) return;
    const step = 80;
    const actions = {
      Escape: () => v.callbacks.onClose(),
      '+': () => v.zoomBy(2), '=': () => v.zoomBy(2),
      '-': () => v.zoomBy(0.5), _: () => v.zoomBy(0.5),
      0: () => v.animateTo(v.fitScale, null, null),
      ArrowLeft: () => (v.atFit ? v.callbacks.onPage(-1) : v.panBy(step, 0)),
      ArrowRight: () => (v.atFit ? v.callbacks.onPage(1) : v.panBy(-step, 0)),
      ArrowUp: () => v.panBy(0, step),
      ArrowDown: () => v.panBy(0, -step),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  }
}
