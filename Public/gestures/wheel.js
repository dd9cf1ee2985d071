// @ts-check
// Wheels and trackpads. A trackpad pinch arrives as ctrl+wheel and zooms the photo under the
// pointer (never the page); two fingers scrolling pan a zoomed photo, and sideways on a fitted one
// they page, the strip following the fingers and settling once they stop. In the zoom view a
// mouse wheel zooms; in the pager it scrolls the page, as everywhere else.
//   host.strip, host.target(event) as for ViewerGestures; host.wheelZooms: a plain wheel zooms.

const IDLE_MS = 140;

export class WheelGesture {
  constructor(element, host) {
    this.host = host;
    this.zoomTimer = null;
    this.pageTimer = null;
    this.samples = [];
    element.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
  }

  wheel(e) {
    const target = this.host.target(e);
    const photo = target?.photo?.photo && target.photo.photo.status !== 'failed' ? target.photo : null;
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? window.innerHeight : 1;
    const dx = e.deltaX * unit, dy = e.deltaY * unit;
    // Trackpads scroll with fractional or sideways deltas; a mouse wheel moves in whole lines.
    const isScroll = !e.ctrlKey && (e.deltaMode === 0 && (dx !== 0 || !Number.isInteger(dy)));
    if (e.ctrlKey || (!isScroll && this.host.wheelZooms)) {
      if (!photo) return; // off the photo, ctrl+wheel stays the browser's own page zoom
      e.preventDefault();
      this.zoom(photo, e, dy * (e.ctrlKey ? 0.01 : 0.002));
      return;
    }
    if (!isScroll) return;
    if (photo && !photo.atFit && !this.pageTimer) {
      e.preventDefault();
      photo.stop();
      photo.placeClamped(photo.s, photo.tx - dx, photo.ty - dy);
      return;
    }
    if (Math.abs(dx) > Math.abs(dy) || this.pageTimer) {
      e.preventDefault();
      this.page(dx, e.timeStamp);
    } else if (this.host.wheelZooms) {
      e.preventDefault();
    }
  }

  zoom(photo, e, amount) {
    const r = photo.stage.getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    photo.stop();
    photo.zooming = true;
    const p = photo.toPhoto(px, py);
    const t = photo.around(photo.clampScale(photo.s * Math.exp(-amount)), px, py, p.x, p.y);
    photo.placeClamped(t.s, t.tx, t.ty);
    clearTimeout(this.zoomTimer);
    this.zoomTimer = setTimeout(() => { photo.zooming = false; photo.render(); }, IDLE_MS);
  }

  /** Sideways scrolling drags the strip; when the fingers stop it settles like a released drag. */
  page(dx, time) {
    const strip = this.host.strip;
    if (!this.pageTimer) { strip.catch(); this.samples = []; }
    strip.dragBy(-dx);
    this.samples.push({ dx, time });
    this.samples = this.samples.filter((s) => time - s.time < 100);
    clearTimeout(this.pageTimer);
    this.pageTimer = setTimeout(() => {
      this.pageTimer = null;
      const span = this.samples.length > 1 ? time - this.samples[0].time : 0;
      const moved = this.samples.reduce((sum, s) => sum + s.dx, 0);
      strip.release(span > 0 ? -moved / span : 0);
    }, IDLE_MS);
  }
}
