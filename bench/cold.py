"""One round of bench/cold.sh: a photo lands in the folder of a running server; how soon is it
there? Prints one line of seconds, by MODE:

  grid    listed thumbnail                (both since the photo landed; the grid asks for the
                                           thumbnail as soon as the photo is listed)
  viewer  listed fitted native native_since_fitted tiles sized fitted_since_landing
                                          (the viewer opens the photo as soon as its record
                                           gives its size, `sized` since it landed:
                                           fitted = every tile of the fitted view answered, since
                                           their request, the first for the photo; native = the
                                           first native tile, since its request, made once the
                                           fitted view is there; native_since_fitted = since the
                                           fitted view's request)

Usage: cold.py MODE BASE_URL PHOTOS_DIR SOURCE_JPEG WIDTH HEIGHT
The photo is copied beside the folder and renamed in, so it lands whole at one instant (the
clock's start). "listed" is when the server's event stream says it was added; the fitted view
is every tile of the level that fills a 2880×1800 screen, asked for at once as a browser does
(up to 6 connections); the native tile is the one in the middle of the photo.
"""
import concurrent.futures, http.client, json, os, shutil, sys, threading, time, urllib.parse

mode, base, photos, source = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
width, height = int(sys.argv[5]), int(sys.argv[6])
if mode not in ("grid", "viewer"):
    sys.exit("MODE is grid or viewer")
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

# Listen to the event stream before the photo lands: when the photo is listed, and when its
# record first carries its size (read from its header right after it is listed).
marks = {}
ready, listed_event, sized_event = threading.Event(), threading.Event(), threading.Event()
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
            now = time.monotonic()
            records = data.get("added", []) + data.get("changed", [])
            if event == "reset" and data.get("total", 0) > 0:
                # Too many changes for one event: the record is fetched instead.
                status, body = get("/photos/1")
                records = [json.loads(body)] if status == 200 else []
            for photo in records:
                marks.setdefault("listed", now)
                marks.setdefault("id", photo["id"])
                listed_event.set()
                if photo["id"] == marks["id"] and photo.get("width", 0) > 0:
                    marks.setdefault("sized", now)
                    sized_event.set()
            if sized_event.is_set():
                return
threading.Thread(target=listen, daemon=True).start()
ready.wait(10)

staging = os.path.join(os.path.dirname(os.path.abspath(photos)), ".landing.jpg")
shutil.copyfile(source, staging)
start = time.monotonic()
os.rename(staging, os.path.join(photos, "photo1.jpg"))

if not listed_event.wait(60):
    sys.exit("the photo was not listed within 60 s")
listed = marks["listed"] - start
pid = marks["id"]

if mode == "grid":
    # The grid asks for the thumbnail as soon as the photo is listed.
    status, _ = get("/photos/%d/thumbnail.jpg" % pid)
    if status != 200:
        sys.exit("thumbnail: %d" % status)
    print("%.3f %.3f" % (listed, time.monotonic() - start))
    sys.exit(0)

# The viewer opens the photo as soon as its record gives its size (what it needs to know which
# tiles to ask for): every tile of the fitted view at once, the first requests anyone makes for
# the photo (nothing has asked for its thumbnail).
if not sized_event.wait(60):
    sys.exit("the photo's size was not known within 60 s")
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

# Then it zooms in: the first native tile, in the middle of the photo.
native_asked = time.monotonic()
status, _ = get("/photos/%d/tiles/%d/%d/%d.jpg" % ((pid,) + native))
if status != 200:
    sys.exit("native tile: %d" % status)
native_done = time.monotonic()
print("%.3f %.3f %.3f %.3f %d %.3f %.3f" % (listed, fitted_done - asked, native_done - native_asked, native_done - asked,
                                            len(fitted_tiles), asked - start, fitted_done - start))
