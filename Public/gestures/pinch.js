// @ts-check
// Two fingers zooming a photo: the photo point first under their centre stays under it wherever
// the centre goes, and below fit or past the maximum the zoom stretches and resists. When they
// lift, the photo springs back inside its limits around the same point.

/** @typedef {import('../photo/zoomable-photo.js').ZoomablePhoto} ZoomablePhoto */
/** @typedef {import('../photo/zoomable-photo.js').Point} Point */

export class PinchGesture {
  constructor() {
    this.active = false;
    /** @type {ZoomablePhoto | null} */
    this.photo = null;
    this.distance = 1;
    this.scale = 1;
    /** @type {Point} the photo point under the fingers' centre when they landed */
    this.anchor = { x: 0, y: 0 };
    /** @type {Point} */
    this.lastCentre = { x: 0, y: 0 };
  }

  /**
   * Fingers at client points `a` and `b` on `photo`.
   * @param {ZoomablePhoto} photo
   * @param {Point} a
   * @param {Point} b
   */
  start(photo, a, b) {
    this.active = true;
    this.photo = photo;
    photo.stop();
    photo.zooming = true;
    const c = this.centre(photo, a, b);
    this.distance = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
    this.scale = photo.s;
    this.anchor = photo.toPhoto(c.x, c.y);
    this.lastCentre = c;
  }

  /**
   * The centre of the fingers on the photo's stage (which may itself be moving with the strip).
   * @param {ZoomablePhoto} photo
   * @param {Point} a
   * @param {Point} b
   */
  centre(photo, a, b) {
    const r = photo.stage.getBoundingClientRect();
    return { x: (a.x + b.x) / 2 - r.left, y: (a.y + b.y) / 2 - r.top };
  }

  /**
   * @param {Point} a
   * @param {Point} b
   */
  move(a, b) {
    const photo = this.photo;
    if (!this.active || !photo) return;
    const c = this.centre(photo, a, b);
    const raw = (this.scale * Math.hypot(a.x - b.x, a.y - b.y)) / this.distance;
    const t = photo.around(photo.stretchScale(raw), c.x, c.y, this.anchor.x, this.anchor.y);
    this.lastCentre = c;
    photo.place(t.s, t.tx, t.ty);
  }

  /**
   * A finger lifted. With none left the photo settles; with one, a pan carries on from here.
   * @param {number} fingersLeft
   */
  end(fingersLeft) {
    const photo = this.photo;
    if (!this.active || !photo) return;
    this.active = false;
    photo.zooming = false;
    if (fingersLeft === 0) photo.settle(this.lastCentre);
    else photo.render();
  }
}
