#!/usr/bin/env bash
# IIIF Image API requests against iipsrv (Debian's iipimage-server, FastCGI behind nginx, one
# process per core) serving a pyramidal TIFF of the same photo (`vips tiffsave --tile --pyramid`,
# JPEG tiles at the same quality), and against our own /tiles, all in one run on a 75-megapixel
# photo whose pyramid is built. Our server runs as a user starts it (shipped config.json).
#
#  1. Tiles: every tile of every level, requested as a IIIF client following info.json does
#     (region and size from the implementation notes), at random; wrk over loopback, keep-alive.
#     Prints median requests/s of our IIIF, our /tiles (same tiles, `?v=` URLs) and iipsrv, and
#     the ratios IIIF/tiles and IIIF/iipsrv.
#  2. Arbitrary regions: random x,y,w,h with size !1024,1024, each URL asked once (nothing is a
#     repeat the cache could answer); requests/s of both servers, and the median latency of one
#     cold request at a time.
#  3. Hostile mix: HOSTILE_CLIENTS (32) clients from HOSTILE_ADDRESSES (8) loopback addresses
#     render random turned regions of the 75 MP photo (bench/lib/hostile-renders.py) while wrk
#     fetches the pyramid tiles of a second photo; the tiles' p50 and p99 latency against the
#     same wrk run with no renders (goal: p99 at most 2x the quiet run), and the server's RSS
#     before, at peak, and AFTER (60) seconds after the renders end. HOSTILE_ONLY=1 runs just
#     this round (no iipsrv).
#
# Usage: bench/iiif.sh   (env: ROUNDS=3 DURATION=5s REGION_DURATION=10s CONNECTIONS=64
#                          REGION_CONNECTIONS=4 COLD=25 WIDTH=10000 HEIGHT=7500 BIN=…;
#                          HOSTILE_CLIENTS=32 HOSTILE_ADDRESSES=8 HOSTILE_DURATION=10s
#                          HOSTILE_CONNECTIONS=16 AFTER=60 HOSTILE_ONLY=1;
#                          LOG_LEVEL=warning measures the tuned variant without the request log)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh
. bench/lib/iipsrv.sh

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-5s}"
REGION_DURATION="${REGION_DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-64}"
REGION_CONNECTIONS="${REGION_CONNECTIONS:-4}"
COLD="${COLD:-25}"
WIDTH="${WIDTH:-10000}"
HEIGHT="${HEIGHT:-7500}"
HOSTILE_CLIENTS="${HOSTILE_CLIENTS:-32}"
HOSTILE_ADDRESSES="${HOSTILE_ADDRESSES:-8}"
HOSTILE_DURATION="${HOSTILE_DURATION:-10s}"
HOSTILE_CONNECTIONS="${HOSTILE_CONNECTIONS:-16}"
AFTER="${AFTER:-60}"
HOSTILE_ONLY="${HOSTILE_ONLY:-}"
THREADS=2
CORES="$(nproc)"
BIN="${BIN:-.build/release/photoscroll}"
IIPSRV=/usr/lib/iipimage-server/iipsrv.fcgi

require_tools bench/iiif.sh wrk nginx vips python3 curl
[ -x "$IIPSRV" ] || { echo "bench/iiif.sh needs iipsrv (make bench installs iipimage-server)" >&2; exit 1; }
require_binary
make_workdir
IIP_PIDS=""
RENDERS_PID=""
# Every server started here stops with the benchmark: ours, nginx (its master, which takes its
# workers with it), each iipsrv, and the hostile render clients.
trap 'for p in $RENDERS_PID $IIP_PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done; cleanup_workdir' EXIT

mkdir -p "$WORK/photos" "$WORK/data" "$WORK/www" "$WORK/images"
echo "== drawing a ${WIDTH}x${HEIGHT} photo, building our pyramid and a pyramidal TIFF" >&2
bench/lib/make-photo.sh "$WORK/photos/photo1.jpg" "$WIDTH" "$HEIGHT"
# A second photo, whose pyramid tiles wrk fetches in the hostile mix while photo 1 is rendered.
bench/lib/make-photo.sh "$WORK/photos/photo2.jpg" 4000 3000
COMMON=(--photos "$WORK/photos" --data "$WORK/data")
"$BIN" ingest "${COMMON[@]}" >&2
[ -n "$HOSTILE_ONLY" ] || vips tiffsave "$WORK/photos/photo1.jpg" "$WORK/images/photo1.tif" --tile --pyramid \
    --tile-width 256 --tile-height 256 --compression jpeg --Q 85
chmod -R a+rX "$WORK"

OURS_PORT="$(free_port)"
SERVE_FLAGS=()
[ -n "${LOG_LEVEL:-}" ] && SERVE_FLAGS=(--log-level "$LOG_LEVEL")
"$BIN" serve --host 127.0.0.1 --port "$OURS_PORT" "${COMMON[@]}" "${SERVE_FLAGS[@]}" > "$WORK/ours.log" 2>&1 &
OURS_PID=$!
wait_for "$OURS_PORT"
OURS="http://127.0.0.1:$OURS_PORT"
VERSION="$(curl -sf "$OURS/photos/1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')"

if [ -z "$HOSTILE_ONLY" ]; then
# iipsrv: one FastCGI process per core, nginx in front of them (bench/lib/iipsrv.sh).
start_iipsrv 85
fi
IIP="http://127.0.0.1:${NGINX_PORT:-0}"
IIP_PREFIX="/fcgi-bin/iipsrv.fcgi?IIIF=photo1.tif"

python3 - "$WORK" "$WIDTH" "$HEIGHT" "$VERSION" "$IIP_PREFIX" "$ROUNDS" "$THREADS" "$COLD" <<'PY'
import math, random, sys
work, W, H, version, iip = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
rounds, threads, cold = int(sys.argv[6]), int(sys.argv[7]), max(200, int(sys.argv[8]))
T = 256
def iiif_tiles(W, H):
    max_zoom = max(0, math.ceil(math.log2(max(W, H) / T)))
    out = []
    for z in range(max_zoom + 1):
        s = 1 << (max_zoom - z)
        for m in range(-(-H // (T * s))):
            for n in range(-(-W // (T * s))):
                xr, yr = n * T * s, m * T * s
                wr, hr = min(T * s, W - xr), min(T * s, H - yr)
                ws = T if xr + T * s <= W else (W - xr + s - 1) // s
                hs = T if yr + T * s <= H else (H - yr + s - 1) // s
                region = "full" if (xr, yr, wr, hr) == (0, 0, W, H) else f"{xr},{yr},{wr},{hr}"
                out.append(f"{region}/{ws},{hs}/0/default.jpg")
    return out
max_zoom = max(0, math.ceil(math.log2(max(W, H) / T)))
tiles, ours_tiles = [], []
for z in range(max_zoom + 1):
    s = 1 << (max_zoom - z)
    for m in range(-(-H // (T * s))):
        for n in range(-(-W // (T * s))):
            xr, yr = n * T * s, m * T * s
            wr, hr = min(T * s, W - xr), min(T * s, H - yr)
            ws = T if xr + T * s <= W else (W - xr + s - 1) // s
            hs = T if yr + T * s <= H else (H - yr + s - 1) // s
            region = "full" if (xr, yr, wr, hr) == (0, 0, W, H) else f"{xr},{yr},{wr},{hr}"
            tiles.append(f"{region}/{ws},{hs}/0/default.jpg")
            ours_tiles.append(f"/photos/1/tiles/{z}/{n}/{m}.jpg?v={version}")
random.seed(14)
regions = []
for _ in range(50000):
    # At least 1024 pixels one way: a smaller region would need !1024,1024 to scale it up.
    while True:
        w, h = random.randint(256, W), random.randint(256, H)
        if max(w, h) >= 1024:
            break
    x, y = random.randint(0, W - w), random.randint(0, H - h)
    regions.append(f"{x},{y},{w},{h}/!1024,1024/0/default.jpg")
# Each thread of each round has its share of the regions; the last `cold` are never asked by wrk.
share = (len(regions) - cold) // (rounds * threads)
with open(f"{work}/share.txt", "w") as f:
    f.write(f"{share}\n")
def script(name, paths, sequential):
    with open(f"{work}/{name}.lua", "w") as f:
        f.write("local paths = {\n" + "".join(f'  "{p}",\n' for p in paths) + "}\nlocal n = #paths\n")
        # Sequential lists give each thread of each round (wrk's argument) a share of its own, so
        # no URL is asked twice (the shell checks no thread ran past its share); random ones pick
        # anywhere.
        f.write(f"local counter = 0\nlocal threads = 0\nlocal share = {share}\n")
        f.write("function setup(thread) threads = threads + 1; thread:set('id', threads); thread:set('seed', math.random(1, 1000000)) end\n")
        f.write(f"function init(args) math.randomseed(seed or os.time()); counter = (((tonumber(args[1]) or 1) - 1) * {threads} + id - 1) * share end\n")
        pick = "counter = counter % n + 1; return wrk.format('GET', paths[counter])" if sequential \
            else "return wrk.format('GET', paths[math.random(n)])"
        f.write(f"function request() {pick} end\n")
script("ours-iiif", ["/iiif/3/1/" + t for t in tiles], False)
script("ours-tiles", ours_tiles, False)
script("iip-tiles", [iip + "/" + t for t in tiles], False)
script("ours-regions", ["/iiif/3/1/" + r for r in regions], True)
script("iip-regions", [iip + "/" + r for r in regions], True)
script("hostile-tiles", ["/iiif/3/2/" + t for t in iiif_tiles(4000, 3000)], False)
# Cold single requests: regions nobody asked for in the runs (the list's far end).
with open(f"{work}/cold.txt", "w") as f:
    for r in regions[-cold:]:
        f.write(r + "\n")
print(f"{len(tiles)} tiles over {max_zoom + 1} levels, {len(regions)} regions", file=sys.stderr)
PY

# Both servers must answer the same URLs, and at the size asked for.
CHECKS=("$OURS/iiif/3/1/0,0,256,256/256,256/0/default.jpg" "$OURS/iiif/3/1/100,200,3000,2000/!1024,1024/0/default.jpg")
[ -z "$HOSTILE_ONLY" ] && CHECKS+=("$IIP$IIP_PREFIX/0,0,256,256/256,256/0/default.jpg" "$IIP$IIP_PREFIX/100,200,3000,2000/!1024,1024/0/default.jpg")
for url in "${CHECKS[@]}"; do
    curl -sf -o "$WORK/check.jpg" "$url" || { echo "no image from $url" >&2; exit 1; }
    echo "check: $(vipsheader "$WORK/check.jpg" | cut -d: -f2) from $url" >&2
done

if [ -z "$HOSTILE_ONLY" ]; then
echo "== tiles: wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds" >&2
for name in ours-iiif ours-tiles; do wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "$WORK/$name.lua" "$OURS" >/dev/null; done
wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "$WORK/iip-tiles.lua" "$IIP" >/dev/null
# measure_wrk keeps wrk's output in $WORK/wrk.out; a copy per run is checked for errors at the end.
keep() { cp "$WORK/wrk.out" "$WORK/$1-$2.wrk"; }
IIP_ALL="$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ') $IIP_PIDS"
: > "$WORK/iiif.txt"; : > "$WORK/tiles.txt"; : > "$WORK/iip.txt"
for round in $(seq 1 "$ROUNDS"); do
    measure_wrk "$OURS_PID" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/ours-iiif.lua" "$OURS" >> "$WORK/iiif.txt"; keep iiif "$round"
    measure_wrk "$OURS_PID" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/ours-tiles.lua" "$OURS" >> "$WORK/tiles.txt"; keep tiles "$round"
    measure_wrk "$IIP_ALL" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/iip-tiles.lua" "$IIP" >> "$WORK/iip.txt"; keep iip "$round"
    echo "round $round: iiif $(tail -1 "$WORK/iiif.txt"), tiles $(tail -1 "$WORK/tiles.txt"), iipsrv $(tail -1 "$WORK/iip.txt") (requests/s, CPU-us/request)" >&2
done

echo "== arbitrary regions: wrk -t$THREADS -c$REGION_CONNECTIONS -d$REGION_DURATION, $ROUNDS rounds" >&2
: > "$WORK/rours.txt"; : > "$WORK/riip.txt"
for round in $(seq 1 "$ROUNDS"); do
    measure_wrk "$OURS_PID" -t"$THREADS" -c"$REGION_CONNECTIONS" -d"$REGION_DURATION" -s "$WORK/ours-regions.lua" "$OURS" -- "$round" >> "$WORK/rours.txt"; keep rours "$round"
    measure_wrk "$IIP_ALL" -t"$THREADS" -c"$REGION_CONNECTIONS" -d"$REGION_DURATION" -s "$WORK/iip-regions.lua" "$IIP" -- "$round" >> "$WORK/riip.txt"; keep riip "$round"
    echo "round $round: ours $(tail -1 "$WORK/rours.txt"), iipsrv $(tail -1 "$WORK/riip.txt") (requests/s, CPU-us/request)" >&2
    # A thread that ran past its share asked regions another thread had asked: answers from cache.
    for f in "$WORK/rours-$round.wrk" "$WORK/riip-$round.wrk"; do
        awk -v share="$(cat "$WORK/share.txt")" -v threads="$THREADS" '/requests in/ && $1 / threads > share * 0.95 {
            printf "WARNING: %d requests in a round, near %d per thread: some regions may be repeats (ROUNDS fewer, or REGION_DURATION shorter)\n", $1, share }' "$f" >&2
    done
done
: > "$WORK/cold-ours.txt"; : > "$WORK/cold-iip.txt"
head -n "$COLD" "$WORK/cold.txt" | while read -r region; do
    curl -sf -o /dev/null -w '%{time_total}\n' "$OURS/iiif/3/1/$region" >> "$WORK/cold-ours.txt"
    curl -sf -o /dev/null -w '%{time_total}\n' "$IIP$IIP_PREFIX/$region" >> "$WORK/cold-iip.txt"
done

col() { cut -d' ' -f"$1" "$2" | median; }
if grep -l "Non-2xx" "$WORK"/*.wrk 2>/dev/null; then echo "some answers were not 200 (see above)" >&2; exit 1; fi
echo "IIIF on a ${WIDTH}x${HEIGHT} photo, pyramid built, $CORES cores, medians of $ROUNDS rounds, log level ${LOG_LEVEL:-as shipped (info: request log on)}"
printf 'tiles   ours IIIF  %9.0f requests/s  %6.1f CPU-us/request\n' "$(col 1 "$WORK/iiif.txt")" "$(col 2 "$WORK/iiif.txt")"
printf 'tiles   ours tiles %9.0f requests/s  %6.1f CPU-us/request\n' "$(col 1 "$WORK/tiles.txt")" "$(col 2 "$WORK/tiles.txt")"
printf 'tiles   iipsrv     %9.0f requests/s  %6.1f CPU-us/request\n' "$(col 1 "$WORK/iip.txt")" "$(col 2 "$WORK/iip.txt")"
printf 'regions ours IIIF  %9.1f requests/s  %6.0f CPU-us/request  cold median %5.1f ms\n' \
    "$(col 1 "$WORK/rours.txt")" "$(col 2 "$WORK/rours.txt")" "$(awk '{ print $1 * 1000 }' "$WORK/cold-ours.txt" | median)"
printf 'regions iipsrv     %9.1f requests/s  %6.0f CPU-us/request  cold median %5.1f ms\n' \
    "$(col 1 "$WORK/riip.txt")" "$(col 2 "$WORK/riip.txt")" "$(awk '{ print $1 * 1000 }' "$WORK/cold-iip.txt" | median)"
awk -v a="$(col 1 "$WORK/iiif.txt")" -v b="$(col 1 "$WORK/tiles.txt")" -v c="$(col 1 "$WORK/iip.txt")" \
    -v d="$(col 1 "$WORK/rours.txt")" -v e="$(col 1 "$WORK/riip.txt")" \
    'BEGIN { printf "ratio IIIF tiles / our tiles = %.2f, IIIF tiles / iipsrv = %.1f, regions ours / iipsrv = %.2f\n", a / b, a / c, d / e }'
fi

# The hostile mix: the same tile run of photo 2, quiet and then under a flood of turned renditions
# of photo 1; the server's resident memory around it.
rss_mb() { awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$OURS_PID/status"; }
# wrk --latency's percentile (50%, 99%) in milliseconds.
percentile_ms() {
    awk -v p="$1%" '$1 == p { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
        print (u == "us" ? v / 1000 : u == "s" ? v * 1000 : u == "m" ? v * 60000 : v) }' "$2"
}
echo "== hostile mix: wrk --latency -t$THREADS -c$HOSTILE_CONNECTIONS -d$HOSTILE_DURATION on photo 2's tiles," \
     "quiet, then beside $HOSTILE_CLIENTS render clients from $HOSTILE_ADDRESSES addresses" >&2
wrk -t"$THREADS" -c"$HOSTILE_CONNECTIONS" -d3s -s "$WORK/hostile-tiles.lua" "$OURS" >/dev/null
wrk --latency -t"$THREADS" -c"$HOSTILE_CONNECTIONS" -d"$HOSTILE_DURATION" -s "$WORK/hostile-tiles.lua" "$OURS" > "$WORK/quiet.wrk"
RSS_BEFORE="$(rss_mb)"
rm -f "$WORK/stop-renders"
python3 bench/lib/hostile-renders.py "$OURS_PORT" 1 "$WIDTH" "$HEIGHT" "$HOSTILE_CLIENTS" "$HOSTILE_ADDRESSES" \
    "$WORK/stop-renders" > "$WORK/renders.txt" &
RENDERS_PID=$!
( while [ ! -e "$WORK/stop-sampling" ]; do rss_mb; echo; sleep 0.5; done ) > "$WORK/rss.txt" &
SAMPLER_PID=$!
sleep 3  # the renders take the lane before the tiles are timed
wrk --latency -t"$THREADS" -c"$HOSTILE_CONNECTIONS" -d"$HOSTILE_DURATION" -s "$WORK/hostile-tiles.lua" "$OURS" > "$WORK/hostile.wrk"
# The clients stop: those waiting for an answer hang up, as impatient clients do.
touch "$WORK/stop-renders"
kill "$RENDERS_PID" 2>/dev/null || true
wait "$RENDERS_PID" 2>/dev/null || true
RENDERS_PID=""
sleep 1
touch "$WORK/stop-sampling"
wait "$SAMPLER_PID" 2>/dev/null || true
RSS_PEAK="$(sort -n "$WORK/rss.txt" | tail -1)"
echo "renders over; waiting ${AFTER}s for memory to come back" >&2
sleep "$AFTER"
RSS_AFTER="$(rss_mb)"
for f in quiet hostile; do
    if grep -q "Non-2xx" "$WORK/$f.wrk"; then echo "some tile answers were not 200 in the $f run" >&2; cat "$WORK/$f.wrk" >&2; exit 1; fi
done
Q50="$(percentile_ms 50 "$WORK/quiet.wrk")"; Q99="$(percentile_ms 99 "$WORK/quiet.wrk")"
H50="$(percentile_ms 50 "$WORK/hostile.wrk")"; H99="$(percentile_ms 99 "$WORK/hostile.wrk")"
echo "hostile mix: photo 2's pyramid tiles, wrk -c$HOSTILE_CONNECTIONS -d$HOSTILE_DURATION, beside $HOSTILE_CLIENTS clients rendering turned regions of photo 1"
printf 'tiles quiet    p50 %7.2f ms  p99 %7.2f ms  %9.0f requests/s\n' "$Q50" "$Q99" "$(awk '/Requests\/sec/ { print $2 }' "$WORK/quiet.wrk")"
printf 'tiles hostile  p50 %7.2f ms  p99 %7.2f ms  %9.0f requests/s\n' "$H50" "$H99" "$(awk '/Requests\/sec/ { print $2 }' "$WORK/hostile.wrk")"
awk -v a="$H50" -v b="$Q50" -v c="$H99" -v d="$Q99" \
    'BEGIN { printf "ratio hostile / quiet: p50 %.2f, p99 %.2f (goal: p99 at most 2)\n", a / b, c / d }'
echo "render answers by status: $(cat "$WORK/renders.txt")"
echo "server RSS: before ${RSS_BEFORE} MB, peak ${RSS_PEAK} MB, ${AFTER} s after the renders ${RSS_AFTER} MB ($((RSS_AFTER - RSS_BEFORE)) MB over before; goal: within 100)"
