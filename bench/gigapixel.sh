#!/usr/bin/env bash
# Gigapixel photos, in one run on one 960-megapixel photo (40000×24000, a detailed 10000×6000
# drawing repeated 4×4, so it compresses like a photo):
#
#  1. Ready: `photoscroll ingest` of the JPEG against `vips dzsave` of it (256-pixel tiles,
#     quality 85), in alternating rounds, with /usr/bin/time: wall and peak RSS, printed as
#     min / median / max of the per-round ratios photoscroll / dzsave.
#  2. Landing: a server running on an empty folder, the JPEG copied in; how long after it is
#     listed a native tile in its middle (the deepest level), its fitted view (IIIF
#     full/!1440,900), level 0's tile and its thumbnail come, all asked at once, before the
#     pyramid exists; against libvips in the same rounds (`vips crop` of that tile's region read
#     in order, `vips thumbnail` to 1440×900), as ratios. Once for the JPEG as drawn (no restart
#     markers) and once saved again with a restart at every MCU row.
#  3. In place: the same photo as a pyramidal JPEG BigTIFF (`vips tiffsave --tile --pyramid
#     --bigtiff --compression jpeg`), in a server's photos folder and in iipsrv's (Debian's
#     iipimage-server, FastCGI behind nginx, one process per core): the data folder's bytes once
#     it is ready (goal: a thumbnail); single-request latency of cold native tiles (each asked
#     once, never before, alternating servers), and of cold IIIF regions (!1024,1024); hot tiles'
#     throughput (wrk over 64 tiles asked again and again). Every figure is min / median / max,
#     and ratios are ours / iipsrv's from the same run.
#  4. Scan (PARTS=scan, not in the default run): the JPEG as drawn (no restart markers) through
#     bench/lib/scan-index.c, the index of its entropy code (Sources/CJPEGTiles/jpegscanindex.c)
#     against libjpeg's own passes over it in the same rounds: a whole decode, one at 1/8 (the
#     first stage's), and one passing every row over with jpeg_skip_scanlines; and the middle row
#     of tiles cut with the index and decoded. Wall and CPU seconds, and ratios to the whole
#     decode of the same round, min / median / max. No server runs.
#
# Usage: bench/gigapixel.sh   (env: ROUNDS=3 COLD=40 DURATION=5s CONNECTIONS=16 WIDTH=40000
#                              HEIGHT=24000 PARTS="ready landing inplace scan" LANDING="plain restart"
#                              PHOTO=a.jpg (instead of drawing one) BIN=…)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh
. bench/lib/iipsrv.sh

ROUNDS="${ROUNDS:-3}"
COLD="${COLD:-40}"
DURATION="${DURATION:-5s}"
CONNECTIONS="${CONNECTIONS:-16}"
WIDTH="${WIDTH:-40000}"
HEIGHT="${HEIGHT:-24000}"
PARTS="${PARTS:-ready landing inplace}"
LANDING="${LANDING:-plain restart}"
CORES="$(nproc)"
BIN="${BIN:-.build/release/photoscroll}"
IIPSRV=/usr/lib/iipimage-server/iipsrv.fcgi
QUALITY=85

require_tools bench/gigapixel.sh vips vipsheader bc python3 curl wrk nginx /usr/bin/time
# The scan runs no server.
[ -z "$(echo " $PARTS " | sed 's/ scan / /g' | tr -d ' ')" ] || require_binary
make_workdir
IIP_PIDS=""
trap 'for p in $IIP_PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done; cleanup_workdir' EXIT

# min / median / max of the numbers in a file, one a line.
spread() {
    sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3g / %.3g / %.3g", v[1], m, v[NR] }'
}

# One measured command: appends "wall_seconds peak_kb" to LOG.
timed() {  # LOG COMMAND…
    local log="$1"; shift
    /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >"$WORK/stdout" 2>"$WORK/stderr" || {
        echo "failed: $*" >&2; cat "$WORK/stderr" >&2; exit 1
    }
    cat "$WORK/time" >> "$log"
}

mkdir -p "$WORK/source" "$WORK/images"
if [ -n "${PHOTO:-}" ]; then
    WIDTH="$(vipsheader -f width "$PHOTO")"; HEIGHT="$(vipsheader -f height "$PHOTO")"
else
    echo "== drawing a ${WIDTH}x${HEIGHT} photo" >&2
    bench/lib/make-photo.sh "$WORK/source/tile.jpg" $((WIDTH / 4)) $((HEIGHT / 4))
    vips replicate "$WORK/source/tile.jpg" "$WORK/source/big.jpg[Q=90]" 4 4
    PHOTO="$WORK/source/big.jpg"
fi
echo "   $(du -m "$PHOTO" | cut -f1) MB" >&2

if [[ " $PARTS " == *" ready "* ]]; then
    : > "$WORK/ours.log"; : > "$WORK/dzsave.log"
    mkdir -p "$WORK/ready/photos"
    ln "$PHOTO" "$WORK/ready/photos/big.jpg"
    for round in $(seq "$ROUNDS"); do
        # Alternating, so both meet the same moments of a busy machine.
        timed "$WORK/dzsave.log" vips dzsave "$PHOTO" "$WORK/dz" --tile-size 256 --overlap 0 --depth onetile \
            --suffix ".jpg[Q=$QUALITY]"
        rm -rf "$WORK/dz_files" "$WORK/dz.dzi"
        timed "$WORK/ours.log" "$BIN" ingest --photos "$WORK/ready/photos" --data "$WORK/ready/data"
        rm -rf "$WORK/ready/data"
        echo "ready round $round: dzsave $(tail -1 "$WORK/dzsave.log"), photoscroll $(tail -1 "$WORK/ours.log") (wall s, peak KB)" >&2
    done
    paste "$WORK/ours.log" "$WORK/dzsave.log" | awk '{ print $1 / $3 }' > "$WORK/wall.ratio"
    paste "$WORK/ours.log" "$WORK/dzsave.log" | awk '{ print $2 / $4 }' > "$WORK/rss.ratio"
    awk '{ print $1 }' "$WORK/ours.log" > "$WORK/ours.wall"; awk '{ print $2 / 1024 }' "$WORK/ours.log" > "$WORK/ours.rss"
    echo
    echo "== 1. ready: a ${WIDTH}x${HEIGHT} JPEG, photoscroll ingest / vips dzsave, min / median / max of $ROUNDS rounds"
    echo "wall      $(spread "$WORK/wall.ratio")   (ours $(spread "$WORK/ours.wall") s)"
    echo "peak RSS  $(spread "$WORK/rss.ratio")   (ours $(spread "$WORK/ours.rss") MB)"
fi

# Starts our server on PHOTOS with a fresh data folder DATA; sets PORT and adds it to OURS_PIDS.
start_ours() {  # PHOTOS DATA
    PORT="$(free_port)"
    "$BIN" serve --host 127.0.0.1 --port "$PORT" --photos "$1" --data "$2" > "$WORK/serve-$PORT.log" 2>&1 &
    OURS_PIDS="$OURS_PIDS $!"
    LAST_PID=$!
    wait_for "$PORT"
}

stop_ours() {
    kill "$LAST_PID" 2>/dev/null && wait "$LAST_PID" 2>/dev/null || true
}

if [[ " $PARTS " == *" landing "* ]]; then
    # The photo as drawn (no restart markers) and saved again with a restart at every MCU row
    # (what `vips jpegsave --restart-interval` and many scanners and stitchers write), since a
    # band of rows is decoded alone only from such a file.
    if [[ " $LANDING " == *" restart "* ]]; then
        echo "== saving it again with a restart at every MCU row" >&2
        # Quality 90 keeps chroma at full size: 8-pixel MCUs.
        vips jpegsave "$PHOTO" "$WORK/source/big-restart.jpg" --Q 90 --restart-interval $(((WIDTH + 7) / 8))
    fi
    for kind in $LANDING; do
        photo="$PHOTO"
        [ "$kind" = restart ] && photo="$WORK/source/big-restart.jpg"
        for what in tile level0 thumbnail view tile-ref view-ref; do : > "$WORK/landing-$kind-$what"; done
        for round in $(seq "$ROUNDS"); do
            # Alternating, so both meet the same moments of a busy machine.
            if [ $((round % 2)) -eq 0 ]; then order="ref ours"; else order="ours ref"; fi
            for who in $order; do
                if [ "$who" = ref ]; then
                    # libvips doing the same: the deepest tile's region read in order (it decodes
                    # down to the region's rows) and the fitted view with shrink-on-load.
                    s=$(date +%s.%N)
                    vips crop "$photo[access=sequential]" "$WORK/ref-tile.jpg" $((WIDTH / 512 * 256)) $((HEIGHT / 512 * 256)) 256 256
                    e=$(date +%s.%N)
                    echo "$e - $s" | bc >> "$WORK/landing-$kind-tile-ref"
                    s=$(date +%s.%N)
                    vips thumbnail "$photo" "$WORK/ref-view.jpg" 1440 --height 900
                    e=$(date +%s.%N)
                    echo "$e - $s" | bc >> "$WORK/landing-$kind-view-ref"
                    continue
                fi
                rm -rf "$WORK/landing"
                mkdir -p "$WORK/landing/photos"
                start_ours "$WORK/landing/photos" "$WORK/landing/data"
                ln "$photo" "$WORK/landing/photos/big.jpg"
                python3 - "http://127.0.0.1:$PORT" "$WORK/landing-$kind" <<'PY'
import json, math, sys, threading, time, urllib.error, urllib.request
base, log = sys.argv[1:3]
deadline = time.time() + 120
while time.time() < deadline:
    photos = json.load(urllib.request.urlopen(base + "/photos"))["photos"]
    if photos and photos[0].get("width"):
        break
    time.sleep(0.05)
photo = photos[0]
W, H, i = photo["width"], photo["height"], photo["id"]
z = max(0, math.ceil(math.log2(max(W, H) / 256)))
landed = time.monotonic()
def fetch(url):
    # A busy server answers 503 with Retry-After; the figure is the time to the image itself.
    while True:
        try:
            with urllib.request.urlopen(url, timeout=300) as answer:
                answer.read()
            return time.monotonic() - landed
        except urllib.error.HTTPError as error:
            if error.code != 503 or time.monotonic() - landed > 300:
                raise
            time.sleep(0.1)
# What a viewer opening the photo and one zooming straight into its middle ask, all at once.
asks = {"tile": f"{base}/photos/{i}/tiles/{z}/{W // 512}/{H // 512}.jpg",
        "level0": f"{base}/photos/{i}/tiles/0/0/0.jpg",
        "thumbnail": f"{base}/photos/{i}/thumbnail.jpg",
        "view": f"{base}/iiif/3/{i}/full/!1440,900/0/default.jpg"}
took = {}
def ask(name):
    took[name] = fetch(asks[name])
threads = [threading.Thread(target=ask, args=(name,)) for name in asks]
for t in threads: t.start()
for t in threads: t.join()
for name, seconds in took.items():
    open(f"{log}-{name}", "a").write(f"{seconds}\n")
print("landing: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in took.items()), file=sys.stderr)
PY
                stop_ours
            done
        done
        for what in tile view; do
            paste "$WORK/landing-$kind-$what" "$WORK/landing-$kind-$what-ref" | awk '{ print $1 / $2 }' > "$WORK/landing-$kind-$what.ratio"
        done
        echo
        echo "== 2. landing ($kind JPEG): seconds from listed to an answer, asked all at once before the pyramid exists, $ROUNDS rounds"
        echo "native tile, middle of level max   $(spread "$WORK/landing-$kind-tile") s; vips crop (in order) $(spread "$WORK/landing-$kind-tile-ref") s; ratio $(spread "$WORK/landing-$kind-tile.ratio")"
        echo "fitted view (full/!1440,900)        $(spread "$WORK/landing-$kind-view") s; vips thumbnail $(spread "$WORK/landing-$kind-view-ref") s; ratio $(spread "$WORK/landing-$kind-view.ratio")"
        echo "level 0 tile                        $(spread "$WORK/landing-$kind-level0") s"
        echo "thumbnail                           $(spread "$WORK/landing-$kind-thumbnail") s"
    done
fi

if [[ " $PARTS " == *" scan "* ]]; then
    cc -O2 -o "$WORK/scan-index" bench/lib/scan-index.c Sources/CJPEGTiles/jpegscanindex.c Sources/CJPEGTiles/entropycode.c \
        Sources/CJPEGTiles/jpegstrips.c Sources/CJPEGTiles/jpegrestarts.c Sources/CVipsShims/shims.c \
        -ISources/CJPEGTiles/include -ISources/CJPEGTiles -ISources/CVipsShims/include $(pkg-config --cflags --libs vips) -ljpeg -lm
    echo "== the scan index: one round at a time, wall then CPU seconds of each pass (whole, 1/8, skip, index, band)" >&2
    "$WORK/scan-index" "$PHOTO" "$ROUNDS" | tee "$WORK/scan" >&2
    # Columns 2-6: wall seconds; 7-11: CPU seconds of the same passes.
    for column in 2 3 4 5 6 7 8 9 10 11; do cut -d' ' -f$column "$WORK/scan" > "$WORK/scan-$column"; done
    for column in 3 4 5 6; do awk -v c=$column '{ print $c / $2 }' "$WORK/scan" > "$WORK/scan-$column.ratio"; done
    for column in 8 9 10 11; do awk -v c=$column '{ print $c / $7 }' "$WORK/scan" > "$WORK/scan-$column.ratio"; done
    echo
    echo "== 4. scan index of the JPEG without restarts ($(du -m "$PHOTO" | cut -f1) MB), wall and CPU seconds, ratios to the whole decode in the same round, $ROUNDS rounds"
    echo "whole decode (Huffman, IDCT, colour)    wall $(spread "$WORK/scan-2") s; CPU $(spread "$WORK/scan-7") s"
    echo "decode at 1/8 (the first stage's)       wall $(spread "$WORK/scan-3") s, ratio $(spread "$WORK/scan-3.ratio"); CPU $(spread "$WORK/scan-8") s, ratio $(spread "$WORK/scan-8.ratio")"
    echo "every row skipped (jpeg_skip_scanlines) wall $(spread "$WORK/scan-4") s, ratio $(spread "$WORK/scan-4.ratio"); CPU $(spread "$WORK/scan-9") s, ratio $(spread "$WORK/scan-9.ratio")"
    echo "the index (Huffman codes alone)         wall $(spread "$WORK/scan-5") s, ratio $(spread "$WORK/scan-5.ratio"); CPU $(spread "$WORK/scan-10") s, ratio $(spread "$WORK/scan-10.ratio")"
    echo "middle tile row cut with it, decoded    wall $(spread "$WORK/scan-6") s, ratio $(spread "$WORK/scan-6.ratio"); CPU $(spread "$WORK/scan-11") s, ratio $(spread "$WORK/scan-11.ratio")"
fi

if [[ " $PARTS " == *" inplace "* ]]; then
    echo "== writing the pyramidal JPEG BigTIFF" >&2
    vips tiffsave "$PHOTO" "$WORK/images/big.tif" --tile --tile-width 256 --tile-height 256 --pyramid --bigtiff \
        --compression jpeg --Q "$QUALITY"
    echo "   $(du -m "$WORK/images/big.tif" | cut -f1) MB" >&2
    mkdir -p "$WORK/inplace/photos"
    ln "$WORK/images/big.tif" "$WORK/inplace/photos/big.tif"
    chmod -R a+rX "$WORK"
    start_ours "$WORK/inplace/photos" "$WORK/inplace/data"
    OURS="http://127.0.0.1:$PORT"
    started=$(date +%s.%N)
    until curl -sf "$OURS/photos/1" | grep -q '"status":"ready"'; do sleep 0.1; done
    ready=$(python3 -c "import time; print(f'{$(date +%s.%N) - $started:.2f}')")
    tiles_bytes=$(du -sb "$WORK/inplace/data/tiles" | cut -f1)
    files=$(find "$WORK/inplace/data/tiles" -type f | wc -l)

    # iipsrv: one FastCGI process per core, nginx in front of them (bench/lib/iipsrv.sh).
    start_iipsrv "$QUALITY"
    IIP="http://127.0.0.1:$NGINX_PORT/fcgi-bin/iipsrv.fcgi?IIIF=big.tif"

    # Cold single requests, alternating servers: distinct native tiles and regions, each asked once.
    python3 - "$OURS" "$IIP" "$WIDTH" "$HEIGHT" "$COLD" "$WORK" <<'PY'
import http.client, random, sys, time, urllib.parse
ours, iip, W, H, cold, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
def connection(base):
    u = urllib.parse.urlsplit(base)
    return http.client.HTTPConnection(u.hostname, u.port, timeout=120), u.path + ("?" + u.query if u.query else "")
def timed(conn, path):
    start = time.monotonic()
    conn.request("GET", path)
    answer = conn.getresponse()
    body = answer.read()
    assert answer.status == 200 and body[:2] == b"\xff\xd8", (path, answer.status, body[:200])
    return time.monotonic() - start
random.seed(48)
cells = random.sample([(x, y) for x in range(W // 256) for y in range(H // 256)], 2 * cold + 64)
regions = []
for _ in range(cold):
    w, h = random.randint(1024, W), random.randint(1024, H)
    regions.append((random.randint(0, W - w), random.randint(0, H - h), w, h))
(oc, op), (ic, ip) = connection(ours), connection(iip)
logs = {name: open(f"{work}/{name}", "w") for name in ["tile-ours", "tile-iip", "region-ours", "region-iip"]}
for i in range(cold):
    x, y = cells[i]
    logs["tile-ours"].write(f"{timed(oc, f'{op}/iiif/3/1/{x * 256},{y * 256},256,256/256,256/0/default.jpg')}\n")
    x, y = cells[cold + i]
    logs["tile-iip"].write(f"{timed(ic, f'{ip}/{x * 256},{y * 256},256,256/256,256/0/default.jpg')}\n")
    x, y, w, h = regions[i]
    if i % 2:
        logs["region-ours"].write(f"{timed(oc, f'{op}/iiif/3/1/{x},{y},{w},{h}/!1024,1024/0/default.jpg')}\n")
        logs["region-iip"].write(f"{timed(ic, f'{ip}/{x},{y},{w},{h}/!1024,1024/0/default.jpg')}\n")
    else:
        logs["region-iip"].write(f"{timed(ic, f'{ip}/{x},{y},{w},{h}/!1024,1024/0/default.jpg')}\n")
        logs["region-ours"].write(f"{timed(oc, f'{op}/iiif/3/1/{x},{y},{w},{h}/!1024,1024/0/default.jpg')}\n")
# Hot tiles: the last 64 cells, asked again and again by wrk.
hot = cells[2 * cold:]
for name, prefix in [("hot-ours", "/iiif/3/1"), ("hot-iip", ip)]:
    with open(f"{work}/{name}.lua", "w") as f:
        f.write("local paths = {\n" + "".join(f'  "{prefix}/{x * 256},{y * 256},256,256/256,256/0/default.jpg",\n' for x, y in hot) + "}\n")
        f.write("local n = #paths\nfunction request() return wrk.format('GET', paths[math.random(n)]) end\n")
PY
    for name in tile region; do
        paste "$WORK/$name-ours" "$WORK/$name-iip" | awk '{ print $1 / $2 }' > "$WORK/$name.ratio"
    done
    : > "$WORK/hot.ratio"; : > "$WORK/hot-ours.rps"; : > "$WORK/hot-iip.rps"
    for round in $(seq "$ROUNDS"); do
        wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/hot-iip.lua" "http://127.0.0.1:$NGINX_PORT" \
            | awk '/Requests\/sec/ { print $2 }' >> "$WORK/hot-iip.rps"
        wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/hot-ours.lua" "$OURS" | awk '/Requests\/sec/ { print $2 }' >> "$WORK/hot-ours.rps"
        echo "hot round $round: ours $(tail -1 "$WORK/hot-ours.rps")/s, iipsrv $(tail -1 "$WORK/hot-iip.rps")/s" >&2
    done
    paste "$WORK/hot-ours.rps" "$WORK/hot-iip.rps" | awk '{ print $1 / $2 }' > "$WORK/hot.ratio"
    echo
    echo "== 3. in place: the same photo as a pyramidal JPEG BigTIFF ($(du -m "$WORK/images/big.tif" | cut -f1) MB), ours / iipsrv"
    echo "ready after $ready s; data folder's tiles: $files files, $tiles_bytes bytes"
    echo "cold native tile   ours $(spread "$WORK/tile-ours") s, iipsrv $(spread "$WORK/tile-iip") s, ratio $(spread "$WORK/tile.ratio")  ($COLD each)"
    echo "cold region !1024  ours $(spread "$WORK/region-ours") s, iipsrv $(spread "$WORK/region-iip") s, ratio $(spread "$WORK/region.ratio")"
    echo "hot tiles req/s    ours $(spread "$WORK/hot-ours.rps"), iipsrv $(spread "$WORK/hot-iip.rps"), ratio $(spread "$WORK/hot.ratio")  ($ROUNDS rounds)"
fi
