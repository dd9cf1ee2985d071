"""A real collection: libraries of SIZES distinct small JPEGs in year/month folders, made here.

For each size, against the release binary in its shipped configuration (config.json, request log
on, a fresh data folder):
  server   first start to /readyz ready (the listing) against `find` walking and stat-ing the same
           files in the same run; time until the first ingest is done; restart to ready (median
           of 3); idle CPU over IDLE seconds once the ingest is done; RSS; GET /photos (the first
           page) latency, median of 30.
  browser  headless Chromium, phone 390×844 @2×: DOM elements and JS heap (after a GC) with the
           grid shown; frame times while scrolling top to bottom one screen a frame, against the
           same scroll of a bare page as tall, in the same browser; time to open photo N/2 from
           the grid (its photo drawn on its page), median of 5 photos around N/2.
Ratios: browser frames against the bare page; the other figures against the smallest size.

Run through bench/library.sh; env SIZES (default "1000 10000 100000"), IDLE (60), WORK (a folder
that keeps the generated libraries between runs; default a temporary one), FIRST_START_ONLY=1 (only
the first start to ready against the find walk, median of 3, without waiting for the ingest),
INGEST_ONLY=1 (only the first start through the whole ingest: stage times and CPU per photo).
"""

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "Tests", "Browser"))

from collection import make_collection  # noqa: E402
from conftest import new_driver  # noqa: E402
from gestures import emulate  # noqa: E402

BIN = os.environ.get("PHOTOSCROLL_BIN", os.path.join(REPO, ".build", "release", "photoscroll"))
SIZES = [int(s) for s in os.environ.get("SIZES", "1000 10000 100000").split()]
IDLE = float(os.environ.get("IDLE", "60"))
TICK = os.sysconf("SC_CLK_TCK")


def get(url, timeout=30):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


class Server:
    def __init__(self, photos, data, log):
        self.started = time.monotonic()
        self.log = open(log, "a")
        self.process = subprocess.Popen([BIN, "serve", "--port", "0", "--photos", photos, "--data", data],
                                        cwd=REPO, stdout=subprocess.PIPE, stderr=self.log, text=True)
        first = self.process.stdout.readline()
        self.url = first.split("listening on ", 1)[1].strip()
        self.process.stdout.close()

    def wait_ready(self, timeout=600):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                status, _ = get(self.url + "/readyz", timeout=5)
                if status == 200:
                    return time.monotonic() - self.started
            except OSError:
                pass
            time.sleep(0.005)
        raise RuntimeError("never ready")

    def metric(self, name):
        _, body = get(self.url + "/metrics")
        for line in body.decode().splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                yield line

    def gauge(self, name, labels=""):
        for line in self.metric(name):
            if labels in line:
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def rss_megabytes(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)
        self.log.close()


def find_walk(photos):
    """The reference for a first listing: GNU find walking the tree and stat-ing every file."""
    started = time.monotonic()
    subprocess.run(["find", photos, "-type", "f", "-printf", "%s %T@ %i\\n"], check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def wait_ingest(server, total, marks):
    """Waits until every photo is built; records in `marks` when the thumbnail stage was done
    (every photo examined with its thumbnail) and the server's CPU seconds then."""
    last = 0
    while True:
        if "thumbnails" not in marks and server.gauge("photoscroll_ingest_stage_photos", 'stage="thumbnails"') >= total:
            marks["thumbnails"] = time.monotonic()
            marks["thumbnails_cpu"] = server.cpu_seconds()
        queued = server.gauge("photoscroll_ingest_queue_length")
        unexamined = server.gauge("photoscroll_photos_unexamined")
        if queued == 0 and unexamined == 0 and server.gauge("photoscroll_photos", 'status="processing"') == 0:
            return
        if time.monotonic() - last > 30:
            ready = server.gauge("photoscroll_photos", 'status="ready"')
            print(f"    ingest: {int(ready)}/{total} ready, {int(queued)} queued", flush=True)
            last = time.monotonic()
        time.sleep(0.5)


def page_latency(server, runs=30):
    times = []
    for _ in range(runs):
        started = time.monotonic()
        get(server.url + "/photos")
        times.append((time.monotonic() - started) * 1000)
    return statistics.median(times)


# arguments: start (fraction of the page), pixels a frame (0: one screen), frames at most (0: to the bottom).
SCROLL = """
const [from, pixels, most, done] = arguments;
const end = document.documentElement.scrollHeight - innerHeight;
window.scrollTo(0, from * end);
const step = pixels || innerHeight;
let last = null;
const frames = [];
function tick(t) {
  if (last !== null) frames.push(t - last);
  last = t;
  if (scrollY >= end - 1 || (most && frames.length >= most)) return done(frames);
  window.scrollBy(0, step);
  requestAnimationFrame(tick);
}
setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(tick)), 500);
"""
# A brisk fling: 120 px a frame (7,200 px/s) for 5 s from the middle, thumbnails loading all the way.
FLING = (0.5, 120, 300)

BARE = """
document.body.innerHTML = '';
const tall = document.createElement('div');
tall.style.height = arguments[0] + 'px';
document.body.appendChild(tall);
"""

OPEN = """
const [id, done] = [arguments[0], arguments[arguments.length - 1]];
const started = performance.now();
location.hash = '#/photos/' + id;
function drawn() {
  const page = document.querySelector('.page.current');
  if (!page || document.getElementById('pager-view').hidden) return false;
  for (const img of page.querySelectorAll('img')) if (img.complete && img.naturalWidth > 0) return true;
  for (const canvas of page.querySelectorAll('canvas')) {
    if (!canvas.width || !canvas.height) continue;
    const pixel = canvas.getContext('2d').getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
    if (pixel[3] > 0) return true;
  }
  return false;
}
(function poll() { if (drawn()) done(performance.now() - started); else requestAnimationFrame(poll); })();
"""


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else 0


def browser(server, total):
    driver = new_driver(390, 844)
    emulate(driver, 390, 844, dpr=2, mobile=True)
    driver.set_script_timeout(600)
    try:
        driver.get(server.url + "/#/")
        deadline = time.monotonic() + 60
        while not driver.execute_script("return document.documentElement.dataset.ready === 'true'"):
            if time.monotonic() > deadline:
                raise RuntimeError("page never ready")
            time.sleep(0.05)
        time.sleep(2)
        driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
        heap = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"] / 1e6
        dom = driver.execute_script("return document.getElementsByTagName('*').length")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        frames = driver.execute_async_script(SCROLL, 0, 0, 0)
        fling = driver.execute_async_script(SCROLL, *FLING)
        dom_after = driver.execute_script("return document.getElementsByTagName('*').length")
        driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
        heap_after = driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"] / 1e6
        driver.execute_script("window.scrollTo(0, 0)")
        ids = json.loads(get(server.url + f"/photos?after={max(0, total // 2 - 3)}&limit=5")[1])["photos"]
        opens = []
        for photo in ids:
            driver.get("about:blank")
            driver.get(server.url + "/#/")
            while not driver.execute_script("return document.documentElement.dataset.ready === 'true'"):
                time.sleep(0.05)
            opens.append(driver.execute_async_script(OPEN, photo["id"]))
        # The reference: the same scroll over a bare page as tall, in the same browser.
        driver.get(server.url + "/favicon.svg")
        driver.get("about:blank")
        driver.execute_script(BARE, height)
        bare = driver.execute_async_script(SCROLL, 0, 0, 0)
        bare_fling = driver.execute_async_script(SCROLL, *FLING)
        return {"dom": dom, "dom_after": dom_after, "heap": heap, "heap_after": heap_after, "frames": frames,
                "fling": fling, "bare": bare, "bare_fling": bare_fling, "open": statistics.median(opens), "height": height}
    finally:
        driver.quit()


def first_start_only(size, work):
    photos = os.path.join(work, f"photos-{size}")
    times, walks = [], []
    for _ in range(3):
        data = tempfile.mkdtemp(prefix=f"library-data-{size}-", dir=work)
        walks.append(find_walk(photos))
        server = Server(photos, data, os.path.join(work, f"server-{size}.log"))
        times.append(server.wait_ready())
        server.stop()
        subprocess.run(["rm", "-rf", data], check=True)
    return statistics.median(times), statistics.median(walks)


def run(size, work):
    photos = os.path.join(work, f"photos-{size}")
    marker = os.path.join(photos, ".complete")
    if not os.path.exists(marker):
        print(f"  making {size:,} photos…", flush=True)
        subprocess.run(["rm", "-rf", photos], check=True)
        started = time.monotonic()
        make_collection(photos, size)
        open(marker, "w").close()
        print(f"  made in {time.monotonic() - started:.0f} s", flush=True)
    data = tempfile.mkdtemp(prefix=f"library-data-{size}-", dir=work)
    log = os.path.join(work, f"server-{size}.log")
    subprocess.run(["sync"], check=False)
    walk = find_walk(photos)
    result = {"size": size, "walk": walk}

    server = Server(photos, data, log)
    result["first_ready"] = server.wait_ready()
    result["first_page_ingesting"] = page_latency(server, runs=5)
    started = time.monotonic()
    marks = {}
    wait_ingest(server, size, marks)
    result["ingest"] = time.monotonic() - started + result["first_ready"]
    result["thumbnails"] = marks.get("thumbnails", time.monotonic()) - started + result["first_ready"]
    # CPU per photo over the whole first start (listing, both stages), from the process's own counters.
    result["cpu_per_photo_ms"] = server.cpu_seconds() * 1000 / size
    result["thumbnail_cpu_per_photo_ms"] = marks.get("thumbnails_cpu", server.cpu_seconds()) * 1000 / size
    if os.environ.get("INGEST_ONLY") == "1":
        server.stop()
        subprocess.run(["rm", "-rf", data], check=True)
        return result
    time.sleep(3)
    before = server.cpu_seconds()
    time.sleep(IDLE)
    result["idle_cpu"] = (server.cpu_seconds() - before) * 60 / IDLE
    result["rss"] = server.rss_megabytes()
    result["first_page"] = page_latency(server)
    result.update(browser(server, size))
    server.stop()

    restarts = []
    for _ in range(3):
        server = Server(photos, data, log)
        restarts.append(server.wait_ready())
        server.stop()
    result["restart"] = statistics.median(restarts)
    subprocess.run(["rm", "-rf", data], check=True)
    return result


def main():
    work = os.environ.get("WORK") or tempfile.mkdtemp(prefix="photoscroll-library-")
    os.makedirs(work, exist_ok=True)
    print(f"libraries in {work}; binary {BIN}; idle CPU over {IDLE:.0f} s", flush=True)
    if os.environ.get("FIRST_START_ONLY") == "1":
        print("| photos | first start → ready, median of 3 | find walking and stat-ing the same files | ratio |")
        print("| --- | --- | --- | --- |")
        for size in SIZES:
            ready, walk = first_start_only(size, work)
            print(f"| {size:,} | {ready:.2f} s | {walk:.2f} s | {ready / max(0.001, walk):.1f} |", flush=True)
        return
    results = []
    for size in SIZES:
        print(f"== {size:,} photos", flush=True)
        result = run(size, work)
        results.append(result)
        print(json.dumps({k: v for k, v in result.items() if k not in ("frames", "bare", "fling", "bare_fling")}), flush=True)

    base = results[0]
    if os.environ.get("INGEST_ONLY") == "1":
        print("| photos | thumbnail stage done | whole build done | CPU per photo: thumbnail stage / whole |")
        print("| --- | --- | --- | --- |")
        for r in results:
            print(f"| {r['size']:,} | {r['thumbnails']:.0f} s | {r['ingest']:.0f} s "
                  f"| {r['thumbnail_cpu_per_photo_ms']:.1f} / {r['cpu_per_photo_ms']:.1f} ms |")
        for r in results[1:]:
            print(f"{r['size']:,} against {base['size']:,}: CPU per photo ×{r['cpu_per_photo_ms'] / base['cpu_per_photo_ms']:.2f} "
                  f"(target ≤ 1.10), thumbnail stage ×{r['thumbnail_cpu_per_photo_ms'] / base['thumbnail_cpu_per_photo_ms']:.2f}")
        return
    print()
    def frames_text(frames, bare):
        slow = sum(1 for f in frames if f > 20)
        return (f"{statistics.median(frames):.1f} / {percentile(frames, 95):.1f} / {max(frames):.1f} ms, {slow} of {len(frames)} > 20 ms "
                f"(bare page p95 {percentile(bare, 95):.1f} ms)")

    print("| photos | thumbnail stage done | whole build done | CPU per photo: thumbnail stage / whole | idle CPU / min after the build |")
    print("| --- | --- | --- | --- | --- |")
    for r in results:
        print(f"| {r['size']:,} | {r['thumbnails']:.0f} s | {r['ingest']:.0f} s "
              f"| {r['thumbnail_cpu_per_photo_ms']:.1f} / {r['cpu_per_photo_ms']:.1f} ms | {r['idle_cpu']:.3f} s |")
    for r in results[1:]:
        print(f"{r['size']:,} against {base['size']:,}: CPU per photo ×{r['cpu_per_photo_ms'] / base['cpu_per_photo_ms']:.2f} "
              f"(target ≤ 1.10), thumbnail stage ×{r['thumbnail_cpu_per_photo_ms'] / base['thumbnail_cpu_per_photo_ms']:.2f}")
    print()
    print("| photos | first start → ready (find walk) | whole first ingest | restart → ready | idle CPU / min | RSS | GET /photos first page | grid DOM elements (after scrolling) | JS heap MB (after scrolling) | open photo N/2 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        print(f"| {r['size']:,} | {r['first_ready']:.2f} s ({r['walk']:.2f} s) | {r['ingest']:.0f} s "
              f"| {r['restart']:.2f} s | {r['idle_cpu']:.3f} s | {r['rss']:.0f} MB "
              f"| {r['first_page']:.1f} ms ({r['first_page_ingesting']:.1f} ms while ingesting) "
              f"| {r['dom']} ({r['dom_after']}) | {r['heap']:.1f} ({r['heap_after']:.1f}) | {r['open']:.0f} ms |")
    print()
    print("| photos | scroll top to bottom, a screen a frame: frame p50 / p95 / max | fling 7,200 px/s for 5 s from the middle |")
    print("| --- | --- | --- |")
    for r in results:
        print(f"| {r['size']:,} | {frames_text(r['frames'], r['bare'])} | {frames_text(r['fling'], r['bare_fling'])} |")
    print()
    for r in results[1:]:
        print(f"{r['size']:,} against {base['size']:,}: DOM ×{r['dom_after'] / base['dom_after']:.2f}, "
              f"heap ×{r['heap_after'] / base['heap_after']:.2f}, open ×{r['open'] / base['open']:.2f}, "
              f"first page ×{r['first_page'] / base['first_page']:.2f}, restart ×{r['restart'] / base['restart']:.2f}")
    for r in results:
        print(f"{r['size']:,}: scroll p95 frame / bare page p95 = {percentile(r['frames'], 95) / max(0.001, percentile(r['bare'], 95)):.2f}, "
              f"fling {percentile(r['fling'], 95) / max(0.001, percentile(r['bare_fling'], 95)):.2f}; "
              f"first start / find walk = {r['first_ready'] / max(0.001, r['walk']):.1f}")


if __name__ == "__main__":
    main()
