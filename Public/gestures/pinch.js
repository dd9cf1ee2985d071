// @ts-check
// Two fingers zooming a photo: the photo point first under their centre stays under it wherever
// the centre goes, and below fit or past the maximum the zoom stretches and resists. When they
// lift, the photo springs back inside its limits around the same point.

export class PinchGesture {
  constructor() {
    this.active = false;
    this.photo = null;
  }

  /** Fingers at client points `a` and `b` on `photo` (a ZoomablePhoto). */
  start(photo, a, b) {
    this.active = true;
    this.photo = photo;
    photo.stop();
    photo.zooming = true;
    const c = this.centre(a, b);
    this.distance = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
    this.scale = photo.s;
    this.anchor = photo.toPhoto(c.x, c.y);
    this.lastCentre = c;
  }

  /** The centre of the fingers on the photo's stage (which may itself be moving with the strip). */
  centre(a, b) {
    const r = this.photo.stage.getBoundingClientRect();
    return { x: (a.x + b.x) / 2 - r.left, y: (a.y + b.y) / 2 - r.top };
  }

  move(a, b) {
    if (!this.active) return;
    const photo = this.photo, c = this.centre(a, b);
    const raw = (this.scale * Math.hypot(a.x - b.x, a.y - b.y)) / this.distance;
    const t = photo.around(photo.stretchScale(raw), c.x, c.y, this.anchor.x, this.anchor.y);
    this.lastCentre = c;
    photo.place(t.s, t.tx, t.ty);
  }

  /** A finger lifted. With none left the photo settles; with one, a pan carries on from here. */
  end(fingersLeft) {
    if (!this.active) return;
    this.active = false;
    this.photo.zooming = false;
    if (fingersLeft === 0) this.photo.settle(this.lastCentre);
    else this.photo.render();
  }
}
