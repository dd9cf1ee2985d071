#!/usr/bin/env bash
# Cold photos: how soon a photo that lands in the folder of a running server shows. The clock
# starts when the file lands (renamed in whole). Each round starts a fresh server twice and lets
# bench/cold.py play one user each time:
#   grid    the photo is listed (the event stream says it was added) and the grid asks for its
#           thumbnail at once: both timed since the photo landed;
#   viewer  the photo is opened as soon as its record gives its size (the event stream's first
#           record of it with a width: what a viewer needs to know which tiles to ask for): every
#           tile of the level that fills a 2880×1800 screen asked at once, as a browser does (6
#           connections), timed from that request (the first anyone makes for the photo) and
#           since the photo landed; then the first native tile (the middle one), timed from its
#           own request.
# References, measured in the same rounds, alternating: `vips dzsave` of the whole photo (what a
# pre-rendering server needs before its first tile) and iipsrv's first tile of a freshly started
# process from a pyramidal TIFF (made once, before the rounds). Every figure is printed as
# min / median / max over the rounds, and ratios per round.
#
# Usage: bench/cold.sh   (env: RUNS=3 WIDTH=10000 HEIGHT=7500 PHOTO=some.jpg)
# Targets: listed with its thumbnail ≤ 1 s; fitted view ≤ 0.3 s from its request; native tile
# ≤ 0.8 s from its request.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh
. bench/lib/iipsrv.sh

RUNS="${RUNS:-3}"
WIDTH="${WIDTH:-10000}"
HEIGHT="${HEIGHT:-7500}"
BIN="${PHOTOSCROLL_BIN:-.build/release/photoscroll}"
IIPSRV=/usr/lib/iipimage-server/iipsrv.fcgi

for tool in vips python3 curl nginx; do
    command -v "$tool" >/dev/null || { echo "bench/cold.sh needs $tool (make bench installs it)" >&2; exit 1; }
done
[ -x "$IIPSRV" ] || { echo "bench/cold.sh needs iipsrv (make bench installs iipimage-server)" >&2; exit 1; }
[ "$BIN" != .build/release/photoscroll ] || ensure_release_binary

WORK="$(mktemp -d)"
SERVER_PID="" IIP_PID="" IIP_PIDS="" NGINX_PID="" NGINX_PIDS=""
stop() { for p in "$@"; do [ -n "$p" ] && kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done; }
cleanup() { stop "$SERVER_PID" "$IIP_PID" $NGINX_PIDS; rm -rf "$WORK"; }
trap cleanup EXIT

if [ -n "${PHOTO:-}" ]; then
    cp "$PHOTO" "$WORK/source.jpg"
    WIDTH="$(vipsheader -f width "$WORK/source.jpg")"; HEIGHT="$(vipsheader -f height "$WORK/source.jpg")"
else
    echo "== drawing a ${WIDTH}x${HEIGHT} photo" >&2
    bench/lib/make-photo.sh "$WORK/source.jpg" "$WIDTH" "$HEIGHT"
fi
echo "== a pyramidal TIFF for iipsrv" >&2
mkdir -p "$WORK/images"
vips tiffsave "$WORK/source.jpg" "$WORK/images/photo.tif" --tile --pyramid --tile-width 256 --tile-height 256 --compression jpeg --Q 85
chmod -R a+rX "$WORK"

# iipsrv behind nginx (FastCGI), the process started afresh each round.
IIP_PORT="$(free_port)"
start_iipsrv_nginx "server 127.0.0.1:$IIP_PORT;"
read -r MAXZOOM MIDX MIDY < <(python3 - "$WIDTH" "$HEIGHT" <<'PY'
import sys
w, h, t = int(sys.argv[1]), int(sys.argv[2]), 256
z = 0
while (t << z) < max(w, h): z += 1
print(z, (w + t - 1) // t // 2, (h + t - 1) // t // 2)
PY
)
iip_first_tile() {
    start_iipsrv_process 85 "$IIP_PORT"
    # The same native tile as ours, as a IIIF region of the TIFF's full resolution.
    local x=$((MIDX * 256)) y=$((MIDY * 256))
    curl -sf -o /dev/null -w '%{time_total}' \
        "http://127.0.0.1:$NGINX_PORT/fcgi-bin/iipsrv.fcgi?IIIF=photo.tif/$x,$y,256,256/256,/0/default.jpg"
    stop "$IIP_PID"; IIP_PID=""
}

: > "$WORK/grid.txt"; : > "$WORK/viewer.txt"; : > "$WORK/refs.txt"
one_user() {  # MODE: a fresh server, an empty folder, the photo lands, one line of figures
    rm -rf "$WORK/photos" "$WORK/data"; mkdir -p "$WORK/photos"
    local port
    port="$(free_port)"
    "$BIN" serve --host 127.0.0.1 --port "$port" --photos "$WORK/photos" --data "$WORK/data" --log-level warning \
        > "$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 1000); do curl -sf -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.01; done
    python3 bench/cold.py "$1" "http://127.0.0.1:$port" "$WORK/photos" "$WORK/source.jpg" "$WIDTH" "$HEIGHT" >> "$WORK/$1.txt"
    stop "$SERVER_PID"; SERVER_PID=""
}
for run in $(seq 1 "$RUNS"); do
    one_user grid
    one_user viewer
    iip="$(iip_first_tile)"
    start="$(date +%s.%N)"
    vips dzsave "$WORK/source.jpg" "$WORK/dz" --tile-size 256 --overlap 0 --depth onetile --suffix '.jpg[Q=85]'
    dz="$(python3 -c "import time; print('%.3f' % (time.time() - $start))")"
    rm -rf "$WORK/dz_files" "$WORK/dz.dzi"
    echo "$iip $dz" >> "$WORK/refs.txt"
    echo "round $run: grid (listed thumbnail) $(tail -1 "$WORK/grid.txt"); viewer (listed fitted native native-since-fitted tiles sized fitted-since-landing) $(tail -1 "$WORK/viewer.txt"); iipsrv first tile $iip s, dzsave $dz s" >&2
done

python3 - "$WORK/grid.txt" "$WORK/viewer.txt" "$WORK/refs.txt" <<'PY'
import statistics, sys
grid, viewer, refs = ([list(map(float, l.split())) for l in open(f)] for f in sys.argv[1:4])
def mmm(values, fmt="%.3f"):
    return " / ".join(fmt % v for v in (min(values), statistics.median(values), max(values)))
col = lambda rows, i: [r[i] for r in rows]
print("seconds, min / median / max over %d rounds" % len(grid))
print("grid:   listed, since the photo landed     %s" % mmm(col(grid, 0)))
print("        thumbnail, since it landed         %s   (target ≤ 1 s)" % mmm(col(grid, 1)))
print("viewer: its size known, since it landed     %s" % mmm(col(viewer, 5)))
print("        fitted view (%d tiles at once),    %s   (target ≤ 0.3 s)" % (int(viewer[0][4]), mmm(col(viewer, 1))))
print("          since their request (the first for the photo)")
print("        fitted view, since the photo landed %s" % mmm(col(viewer, 6)))
print("        first native tile, since its request %s   (target ≤ 0.8 s)" % mmm(col(viewer, 2)))
print("        first native tile, since the fitted view's request %s" % mmm(col(viewer, 3)))
print("iipsrv first tile from a pyramidal TIFF    %s" % mmm(col(refs, 0)))
print("vips dzsave of the photo                   %s" % mmm(col(refs, 1)))
print("ratios, per round, min / median / max:")
print("  first native tile from its request / iipsrv first tile   %s" % mmm([v[2] / r[0] for v, r in zip(viewer, refs)], "%.2f"))
print("  fitted view since the photo landed / vips dzsave         %s" % mmm([v[6] / r[1] for v, r in zip(viewer, refs)], "%.2f"))
PY
