"""Device emulation, touch gestures through the DevTools protocol, and waits on the page's state."""

import time


def emulate(driver, width, height, dpr=1, mobile=True):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": dpr, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})


def wait_for(predicate, timeout=30, interval=0.05, message="condition"):
    """`predicate`'s first truthy value, asked every `interval` s. The default timeout is for a
    loaded machine (three browsers and six test processes on two cores): a wait that ends when
    its condition holds costs nothing more for being long."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {message} (last value {last!r})")


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def touch(driver, kind, points, at=None):
    """`at` (seconds since the epoch) stamps the event with when the finger was there, so a
    gesture's speed is the one planned however late a busy machine delivers the event."""
    event = {"type": kind,
             "touchPoints": [{"x": x, "y": y, "id": i, "radiusX": 1, "radiusY": 1, "force": 1}
                             for i, (x, y) in enumerate(points)]}
    if at is not None:
        event["timestamp"] = at
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", event)


def swipe(driver, x0, y0, x1, y1, steps=12, pause=0.016):
    """One finger from (x0, y0) to (x1, y1)."""
    touch(driver, "touchStart", [(x0, y0)])
    for i in range(1, steps + 1):
        t = i / steps
        touch(driver, "touchMove", [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)])
        time.sleep(pause)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def pinch(driver, cx, cy, start_gap, end_gap, steps=16, pause=0.016):
    """Two fingers on a horizontal line through (cx, cy), moving from start_gap to end_gap apart.
    Returns the longest time, in seconds, between two finger moves: on a busy machine the fingers
    may stall long enough to count as a pause."""
    def points(gap):
        return [(cx - gap / 2, cy), (cx + gap / 2, cy)]
    touch(driver, "touchStart", points(start_gap))
    last, longest = time.monotonic(), 0.0
    for i in range(1, steps + 1):
        touch(driver, "touchMove", points(start_gap + (end_gap - start_gap) * i / steps))
        now = time.monotonic()
        longest, last = max(longest, now - last), now
        time.sleep(pause)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    return longest


def tap(driver, x, y):
    touch(driver, "touchStart", [(x, y)])
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def double_tap(driver, x, y, gap=0.12):
    """Two taps `gap` seconds apart, each event stamped with when it was meant to happen, so a busy
    machine that delivers the second late does not turn a double tap into two single ones."""
    start = time.time()
    for i, at in enumerate((start, start + gap)):
        touch(driver, "touchStart", [(x, y)], at=at)
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + 0.03})


VIEWER_STATE = """
const v = window.__viewer;
if (!v || !v.open) return null;
return {scale: v.scale, fitScale: v.fitScale, maxScale: v.maxScale, level: v.level,
        photoRect: v.photoRect, stageRect: v.stageRect, complete: v.complete,
        wanted: [...v.wantedTiles].sort(), requested: [...v.requestedTiles].sort(),
        requestCount: v.requestCount, dpr: v.devicePixelRatio, photoId: v.photoId};
"""


def viewer_state(driver):
    return driver.execute_script(VIEWER_STATE)


def settled_viewer(driver, timeout=30):
    """The viewer's state once every wanted tile has arrived and no gesture or animation runs."""
    seen = []

    def settled():
        state = viewer_state(driver)
        seen[:] = [state]
        return state if state and state["complete"] else None
    try:
        return wait_for(settled, timeout=timeout, message="viewer settled")
    except AssertionError:
        pending = js(driver, "return [...document.querySelectorAll('.zoom-slide.current .tile-layer img:not(.loaded)')].map(i => i.src)")
        raise AssertionError(f"viewer never settled: {seen[0]!r}, tiles still loading: {pending!r}") from None


def release(driver):
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def line(x0, y0, x1, y1, steps):
    return [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(steps + 1)]


def drag(driver, path, pause=0.016, hold=0.0, lift=True):
    """One finger along `path`; `hold` seconds still before lifting (then nothing flings).
    Each event carries the time it is meant for, `pause` after the one before."""
    start = time.time()
    touch(driver, "touchStart", [path[0]], at=start)
    for i, point in enumerate(path[1:], 1):
        touch(driver, "touchMove", [point], at=start + i * pause)
        time.sleep(pause)
    if hold:
        time.sleep(hold)
    if lift:
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [],
                                                            "timestamp": start + (len(path) - 1) * pause + hold})


SAMPLER = """
window.__samples = [];
const expr = new Function('return (' + arguments[0] + ')');
const tick = (now) => { window.__samples.push([now, expr()]); if (window.__samples.length < arguments[1]) requestAnimationFrame(tick); };
requestAnimationFrame(tick);
"""


def sample_frames(driver, expression, frames=240):
    """Records `expression` (JS) on every animation frame from now on, `frames` of them at most."""
    js(driver, SAMPLER, expression, frames)


def samples(driver):
    return js(driver, "return window.__samples")


def still(driver, expression, timeout=30):
    """Waits until `expression` (JS, a number) stops changing, and returns it."""
    last = [None]

    def settled():
        value = js(driver, f"return {expression}")
        same = last[0] is not None and abs(value - last[0]) < 1e-6
        last[0] = value
        return same
    wait_for(settled, timeout=timeout, interval=0.15, message=f"{expression} at rest")
    return last[0]
