"""One round of bench/cold.sh: a photo lands in the folder of a running server; how soon is it
listed, its thumbnail, its fitted view and a native tile there? Prints one line of seconds:
listed thumbnail fitted fitted_from_request native native_from_request

Usage: cold.py BASE_URL PHOTOS_DIR SOURCE_JPEG WIDTH HEIGHT
The photo is copied beside the folder and renamed in, so it lands whole at one instant (the
clock's start). "listed" is when the server's event stream says it was added; the fitted view
is every tile of the level that fills a 2880×1800 screen, asked for at once as a browser does
(up to 6 connections); the native tile is the one in the middle of the photo.
"""
import concurrent.futures, http.client, json, os, shutil, sys, threading, time, urllib.parse

base, photos, source, width, height = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
url = urllib.parse.urlparse(base)
T = 256

def connection():
    return http.client.HTTPConnection(url.hostname, url.port, timeout=60)

def get(path, conn=None):
    own = conn is None
    conn = conn or connection()
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    if own:
        conn.close()
    return response.status, body

# The pyramid's geometry, as the server computes it.
max_zoom = 0
while (T << max_zoom) < max(width, height):
    max_zoom += 1
def level(z):
    s = max_zoom - z
    return ((width + (1 << s) - 1) >> s, (height + (1 << s) - 1) >> s)
fit = min(1.0, 2880 / width, 1800 / height)
want = (int(-(-width * fit // 1)), int(-(-height * fit // 1)))
view = next(z for z in range(max_zoom + 1) if level(z)[0] >= want[0] and level(z)[1] >= want[1])
vw, vh = level(view)
fitted_tiles = [(view, x, y) for y in range((vh + T - 1) // T) for x in range((vw + T - 1) // T)]
nw, nh = level(max_zoom)
native = (max_zoom, (nw + T - 1) // T // 2, (nh + T - 1) // T // 2)

# Listen to the event stream before the photo lands.
listed_at = {}
ready = threading.Event()
def listen():
    conn = connection()
    conn.request("GET", "/photos/events", headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    ready.set()
    event = None
    while True:
        line = response.fp.readline()
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:") and event in ("photos", "reset"):
            data = json.loads(line[5:])
            for photo in data.get("added", []):
                listed_at.setdefault("time", time.monotonic())
                listed_at.setdefault("id", photo["id"])
            if event == "reset" and data.get("total", 0) > 0:
                listed_at.setdefault("time", time.monotonic())
            if "time" in listed_at:
                return
threading.Thread(target=listen, daemon=True).start()
ready.wait(10)

staging = os.path.join(os.path.dirname(os.path.abspath(photos)), ".landing.jpg")
shutil.copyfile(source, staging)
start = time.monotonic()
os.rename(staging, os.path.join(photos, "photo1.jpg"))

deadline = start + 60
while "time" not in listed_at and time.monotonic() < deadline:
    time.sleep(0.002)
if "time" not in listed_at:
    sys.exit("the photo was not listed within 60 s")
listed = listed_at["time"] - start
pid = listed_at.get("id", 1)

# The grid asks for the thumbnail as soon as the photo is listed.
status, _ = get("/photos/%d/thumbnail.jpg" % pid)
if status != 200:
    sys.exit("thumbnail: %d" % status)
thumbnail = time.monotonic() - start

# The viewer opens the photo: its record, then every tile of the fitted view at once.
status, _ = get("/photos/%d" % pid)
asked = time.monotonic()
def fetch(tiles):
    conn = connection()
    for z, x, y in tiles:
        status, _ = get("/photos/%d/tiles/%d/%d/%d.jpg" % (pid, z, x, y), conn)
        if status != 200:
            raise RuntimeError("tile %d/%d/%d: %d" % (z, x, y, status))
    conn.close()
with concurrent.futures.ThreadPoolExecutor(6) as pool:
    list(pool.map(fetch, [fitted_tiles[i::6] for i in range(6)]))
fitted_done = time.monotonic()

native_asked = time.monotonic()
status, _ = get("/photos/%d/tiles/%d/%d/%d.jpg" % ((pid,) + native))
if status != 200:
    sys.exit("native tile: %d" % status)
native_done = time.monotonic()
print("%.3f %.3f %.3f %.3f %.3f %.3f %d" % (listed, thumbnail, fitted_done - start, fitted_done - asked,
                                            native_done - start, native_done - native_asked, len(fitted_tiles)))
