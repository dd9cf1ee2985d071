#!/usr/bin/env bash
# Hot tiles: random tiles over every level of a 75-megapixel photo, served by our release server
# (`?v=` URLs, the in-memory tile cache) and by nginx serving the same pyramid exported as static
# files (sendfile on, access_log off, one worker per core), measured with wrk over loopback in the
# same run, keep-alive, 64 connections, alternating rounds. Prints the median requests/s and CPU
# time per request (all threads, user and system) of both, and their ratios.
#
# Usage: bench/tiles.sh   (env: ROUNDS=3 DURATION=5s CONNECTIONS=64 THREADS=2 WIDTH=10000 HEIGHT=7500
#                          TILE_CACHE_MEGABYTES=256; 0 sends the built tiles from disk with sendfile;
#                          HEADERS=browser sends the nine header fields a browser adds to an image
#                          request, instead of wrk's Host alone;
#                          BIN=path/to/photoscroll measures another build, e.g. an older one)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

DURATION="${DURATION:-5s}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
WIDTH="${WIDTH:-10000}"
HEIGHT="${HEIGHT:-7500}"
TILE_CACHE_MEGABYTES="${TILE_CACHE_MEGABYTES:-256}"
HEADERS="${HEADERS:-wrk}"
CORES="$(nproc)"
BIN="${BIN:-.build/release/photoscroll}"

require_tools bench/tiles.sh wrk nginx vips python3 curl
require_binary
make_workdir


mkdir -p "$WORK/photos" "$WORK/data" "$WORK/www" "$WORK/nginx/logs"
echo "== drawing a ${WIDTH}x${HEIGHT} photo" >&2
bench/lib/make-photo.sh "$WORK/photos/photo1.jpg" "$WIDTH" "$HEIGHT"
COMMON=(--photos "$WORK/photos" --data "$WORK/data" --log-level warning)
echo "== ingest and export" >&2
/usr/bin/time -f "ingest: %e s, %M KB max RSS" "$BIN" ingest "${COMMON[@]}" >&2
"$BIN" export 1 --out "$WORK/www/p" "${COMMON[@]}" >&2
chmod -R a+rX "$WORK/www"

# Every tile of every level, as paths; wrk picks one at random per request.
python3 - "$WORK" "$HEADERS" <<'PY'
import json, sys
work, headers = sys.argv[1], sys.argv[2]
# What a browser sends with an image request, for HEADERS=browser.
browser = {
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    "Accept": "image/avif,image/webp,image/apng,image/*,*/*;q=0.8",
    "Accept-Encoding": "gzip, deflate, br",
    "Accept-Language": "en-GB,en;q=0.9",
    "Referer": "http://127.0.0.1/",
    "Sec-Fetch-Dest": "image",
    "Sec-Fetch-Mode": "no-cors",
    "Sec-Fetch-Site": "same-origin",
    "Connection": "keep-alive",
}
extra = ", {" + ", ".join(f'["{k}"] = "{v}"' for k, v in browser.items()) + "}" if headers == "browser" else ""
info = json.load(open(f"{work}/www/p/info.json"))
tiles = [(l["z"], x, y) for l in info["levels"] for x in range(l["columns"]) for y in range(l["rows"])]
def script(name, fmt):
    with open(f"{work}/{name}.lua", "w") as f:
        f.write("local paths = {\n")
        for z, x, y in tiles:
            f.write('  "' + fmt.format(z=z, x=x, y=y) + '",\n')
        f.write("}\n")
        f.write("local n = #paths\n")
        f.write("function setup(thread) thread:set('seed', math.random(1, 1000000)) end\n")
        f.write("function init(args) math.randomseed(seed or os.time()) end\n")
        f.write("function request() return wrk.format('GET', paths[math.random(n)]" + extra + ") end\n")
script("nginx", "/p/{z}/{x}/{y}.jpg")
script("ours", "/photos/1/tiles/{z}/{x}/{y}.jpg?v=VERSION")
print(f"{len(tiles)} tiles over {len(info['levels'])} levels", file=sys.stderr)
PY

OURS_PORT="$(free_port)"
"$BIN" serve --host 127.0.0.1 --port "$OURS_PORT" "${COMMON[@]}" --event-loops "$CORES" --tile-cache-megabytes "$TILE_CACHE_MEGABYTES" > "$WORK/ours.log" 2>&1 &
OURS_PID=$!
wait_for "$OURS_PORT"
VERSION="$(curl -sf "http://127.0.0.1:$OURS_PORT/photos/1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')"
sed -i "s/VERSION/$VERSION/" "$WORK/ours.lua"

NGINX_PORT="$(free_port)"
start_nginx "$WORK/nginx" "$WORK/www" "$NGINX_PORT" "image/jpeg jpg;" "open_file_cache max=10000 inactive=60s;"

# Warm-up: every tile once into both servers' caches (and the page cache).
wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "$WORK/ours.lua" "http://127.0.0.1:$OURS_PORT" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "$WORK/nginx.lua" "http://127.0.0.1:$NGINX_PORT" >/dev/null
# Rounds alternate between the two, so a busy moment on the machine hits both alike; medians count.
NGINX_WORKERS="$(pgrep -P "$NGINX_PID" | tr '\n' ' ')"
: > "$WORK/ours.txt"; : > "$WORK/nginx.txt"
for round in $(seq 1 "$ROUNDS"); do
    measure_wrk "$OURS_PID" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/ours.lua" "http://127.0.0.1:$OURS_PORT" >> "$WORK/ours.txt"
    measure_wrk "$NGINX_WORKERS" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$WORK/nginx.lua" "http://127.0.0.1:$NGINX_PORT" >> "$WORK/nginx.txt"
    echo "round $round: ours $(tail -1 "$WORK/ours.txt"), nginx $(tail -1 "$WORK/nginx.txt") (requests/s, CPU-us/request)" >&2
done
report_medians "random hot tiles of a ${WIDTH}x${HEIGHT} photo, wrk -t$THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds (median), $CORES cores, tile cache ${TILE_CACHE_MEGABYTES} MiB, $HEADERS headers"
