// @ts-check
// How things move after the finger lets go, as UIScrollView moves them: a fling decelerates
// (velocity × 0.998 every millisecond), an edge stretches like rubber, and every settle is a
// spring that starts from the finger's velocity. Positions are px, velocities px per ms.

/** UIScrollView's normal deceleration: the share of velocity kept after one millisecond. */
export const DECELERATION_RATE = 0.998;

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

/** True when the person asked for less motion: programmatic animations then jump to their end. */
export function prefersReducedMotion() { return reducedMotion.matches; }

/**
 * How far a drag of `overshoot` px past an edge shows, for a view `dimension` px long:
 * UIScrollView's curve, which follows the finger at first and never reaches `dimension`.
 * @param {number} overshoot
 * @param {number} dimension
 */
export function rubberBand(overshoot, dimension, constant = 0.55) {
  if (overshoot === 0 || dimension <= 0) return 0;
  const shown = (1 - 1 / ((Math.abs(overshoot) * constant) / dimension + 1)) * dimension;
  return Math.sign(overshoot) * shown;
}

/**
 * The inverse of rubberBand: the drag that shows `shown` px past the edge.
 * @param {number} shown
 * @param {number} dimension
 */
export function rubberBandInverse(shown, dimension, constant = 0.55) {
  if (shown === 0 || dimension <= 0) return 0;
  const s = Math.min(Math.abs(shown), dimension * 0.999);
  return (Math.sign(shown) * ((1 / (1 - s / dimension) - 1) * dimension)) / constant;
}

/**
 * Where a fling starting at `velocity` comes to rest, relative to where it started.
 * @param {number} velocity
 */
export function projectedDistance(velocity, rate = DECELERATION_RATE) {
  return -velocity / Math.log(rate);
}

/**
 * Where a motion is `t` ms after its start, and whether it has come to rest there.
 * @typedef {{ value: number, velocity: number, done: boolean }} MotionState
 * @typedef {{ at(t: number): MotionState }} Motion anything that moves along the clock
 */

/**
 * A damped spring from `from` to `to`, solved in closed form (no per-frame integration, so a
 * slow frame never changes the path). `velocity` is the finger's, px per ms; `frequency` is the
 * natural frequency in radians per second; a damping ratio of 1 never oscillates.
 */
export class Spring {
  /**
   * @param {{ from: number, to: number, velocity?: number, dampingRatio?: number, frequency?: number,
   *   precision?: number }} options
   */
  constructor({ from, to, velocity = 0, dampingRatio = 1, frequency = 20, precision = 0.5 }) {
    this.to = to;
    this.x0 = from - to;
    this.v0 = velocity * 1000; // px per second
    this.zeta = dampingRatio;
    this.omega = frequency;
    this.precision = precision;
    this.omegaD = this.zeta < 1 ? this.omega * Math.sqrt(1 - this.zeta * this.zeta) : 0;
  }

  /**
   * Displacement from the target and its velocity (px per ms) `t` ms after the start.
   * @param {number} t
   */
  state(t) {
    const s = t / 1000, { x0, v0, zeta, omega } = this;
    const decay = Math.exp(-zeta * omega * s);
    if (zeta >= 1) {
      const b = v0 + omega * x0;
      return { x: decay * (x0 + b * s), v: (decay * (b - omega * (x0 + b * s))) / 1000 };
    }
    const wd = this.omegaD, a = x0, b = (v0 + zeta * omega * x0) / wd;
    const cos = Math.cos(wd * s), sin = Math.sin(wd * s);
    const x = decay * (a * cos + b * sin);
    const v = -zeta * omega * x + decay * (-a * wd * sin + b * wd * cos);
    return { x, v: v / 1000 };
  }

  /**
   * The position at `t` ms, and whether the spring has come to rest there.
   * @param {number} t
   * @returns {MotionState}
   */
  at(t) {
    const { x, v } = this.state(t);
    const done = Math.abs(x) < this.precision && Math.abs(v) < this.precision / 50;
    return { value: done ? this.to : this.to + x, velocity: v, done };
  }
}

let flights = 0;

/**
 * A photo starts flying on the compositor (an open or a close); call what it returns when it lands.
 * While one flies, work that can wait a frame paces itself (tiles are asked for a slice per frame),
 * so the main thread keeps drawing frames and taking input during the flight.
 * @returns {() => void}
 */
export function flightStarted() {
  flights += 1;
  let landed = false;
  return () => {
    if (landed) return;
    landed = true;
    flights -= 1;
  };
}

/** True while a photo flies. */
export function flying() { return flights > 0; }

/**
 * A spring from 0 to 1, sampled for an animation the compositor runs (Web Animations): where it
 * is at each of `samples` evenly spaced moments, and how long it takes to come to rest. Between
 * two samples the browser interpolates linearly; at 30 samples a half-second spring is within a
 * pixel of its closed form.
 * @param {number} frequency radians per second, as Spring's
 * @param {number} [samples]
 * @returns {{ duration: number, progress: number[] }} ms, and progress[i] at i / (samples − 1) of it
 */
export function springCurve(frequency, samples = 30) {
  const spring = new Spring({ from: 0, to: 1, frequency, precision: 1e-3 });
  let duration = 16;
  while (!spring.at(duration).done && duration < 3000) duration += 16;
  const progress = [];
  for (let i = 0; i < samples; i++) progress.push(i === samples - 1 ? 1 : spring.at((duration * i) / (samples - 1)).value);
  return { duration, progress };
}

/**
 * A fling in one axis between `min` and `max`: decelerates at DECELERATION_RATE, and where it
 * reaches an edge with speed left, carries on past it and springs back (the bounce). Starting
 * outside the bounds (a release mid-stretch), it springs straight back to the edge.
 */
export class Momentum {
  /**
   * @param {{ from: number, velocity: number, min: number, max: number, rate?: number, precision?: number }} options
   */
  constructor({ from, velocity, min, max, rate = DECELERATION_RATE, precision = 0.5 }) {
    this.from = from;
    this.velocity = velocity;
    this.min = min;
    this.max = max;
    this.logRate = Math.log(rate);
    this.precision = precision;
    /** @type {{ spring: Spring, start: number } | null} */
    this.bounce = null;
    if (from < min || from > max) this.bounce = { spring: this.edgeSpring(from, velocity), start: 0 };
    this.rest = from + projectedDistance(velocity, rate);
  }

  /**
   * @param {number} from
   * @param {number} velocity
   */
  edgeSpring(from, velocity) {
    const to = from < this.min ? this.min : this.max;
    return new Spring({ from, to, velocity, dampingRatio: 1, frequency: 16, precision: this.precision });
  }

  /**
   * @param {number} t
   * @returns {MotionState}
   */
  at(t) {
    if (this.bounce) return this.bounce.spring.at(t - this.bounce.start);
    const decay = Math.exp(this.logRate * t);
    const value = this.from + (this.velocity * (decay - 1)) / this.logRate;
    const velocity = this.velocity * decay;
    if (value < this.min || value > this.max) {
      // Past the edge with speed to spare: from here on the edge pulls it back.
      this.bounce = { spring: this.edgeSpring(value, velocity), start: t };
      return this.bounce.spring.at(0);
    }
    const done = Math.abs(this.rest - value) < this.precision;
    return { value: done ? Math.min(this.max, Math.max(this.min, this.rest)) : value, velocity, done };
  }
}

/**
 * Runs one or more motions (anything with `at(t) → {value, done}`) on animation frames, calling
 * `onFrame(values)` each frame and `onDone()` once all have come to rest. `stop()` leaves things
 * where they are. Under reduced motion a Spring jumps to its end; a fling still glides, since it
 * is the finger's own movement carried on, as scrolling is.
 */
export class Animation {
  /**
   * @param {(Motion & { to?: number })[]} motions
   * @param {(values: number[]) => void} onFrame
   * @param {() => void} [onDone]
   */
  constructor(motions, onFrame, onDone) {
    this.motions = motions;
    this.onFrame = onFrame;
    this.onDone = onDone;
    /** @type {number | null} */
    this.frame = null;
    /** @type {number | null} */
    this.start = null;
    this.running = true;
    if (prefersReducedMotion() && motions.every((m) => m instanceof Spring)) {
      this.running = false;
      onFrame(motions.map((m) => /** @type {Spring} */ (m).to));
      onDone?.();
      return;
    }
    this.frame = requestAnimationFrame((now) => this.tick(now));
  }

  /** @param {number} now */
  tick(now) {
    if (!this.running) return;
    if (this.start === null) this.start = now - 1000 / 60; // the first frame already shows one step
    const t = now - this.start;
    const states = this.motions.map((m) => m.at(t));
    this.onFrame(states.map((s) => s.value));
    if (states.every((s) => s.done)) {
      this.running = false;
      this.onDone?.();
      return;
    }
    this.frame = requestAnimationFrame((next) => this.tick(next));
  }

  stop() {
    this.running = false;
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
  }
}

/**
 * The finger's velocity at release, from its positions over the last 100 ms; zero when it rested
 * before lifting (a drag that stops and then lets go does not fling).
 */
export class VelocityTracker {
  constructor() {
    /** @type {{ x: number, y: number, time: number }[]} */
    this.samples = [];
  }

  /**
   * @param {number} x
   * @param {number} y
   * @param {number} time
   */
  reset(x, y, time) { this.samples = [{ x, y, time }]; }

  /**
   * @param {number} x
   * @param {number} y
   * @param {number} time
   */
  add(x, y, time) {
    this.samples.push({ x, y, time });
    while (this.samples.length > 2 && time - this.samples[0].time > 100) this.samples.shift();
  }

  /**
   * @param {number} now
   * @returns {{ x: number, y: number }} px per ms
   */
  velocity(now) {
    const samples = this.samples;
    if (samples.length < 2) return { x: 0, y: 0 };
    const last = samples[samples.length - 1];
    if (now - last.time > 60) return { x: 0, y: 0 };
    const first = samples.find((s) => last.time - s.time <= 100) || samples[0];
    const dt = last.time - first.time;
    if (dt < 8) return { x: 0, y: 0 };
    const cap = 8; // px per ms: a jittery last sample never flings across a library
    const clamp = (/** @type {number} */ v) => Math.max(-cap, Math.min(cap, v));
    return { x: clamp((last.x - first.x) / dt), y: clamp((last.y - first.y) / dt) };
  }
}
