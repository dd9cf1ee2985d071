#!/usr/bin/env bash
# Hot tiles: random tiles over every level of a 75-megapixel photo, served by our release server
# (`?v=` URLs, the in-memory tile cache) and by nginx serving the same pyramid exported as static
# files (sendfile on, open_file_cache, one worker per core), measured with wrk over loopback in the
# same run, keep-alive, 64 connections, alternating rounds (five by default). Two races, both printed:
#   - the default configuration: ours as a user starts it (the shipped config.json, request log
#     on, written to a file) against nginx with its default access log (combined, to a file);
#   - request logging off: ours with --log-level warning against nginx with access_log off;
# then our default against our own log-off figure. Each prints the median requests/s and CPU
# time per request (all threads, user and system), the ratios, and the ratio in each round.
# A third race: ours as a private library out of the box (shipped config, request log on, every
# tile checked against a signed-in session's cookie) against the same nginx with its default log.
# Last, the floor (bench/lib/floor.c), raced in the same rounds: a server that answers every
# request with one tile of the pyramid's mean size and does nothing else, so the share of its
# throughput that ours and nginx reach says how far their ratio could still go on this machine.
#
# Usage: bench/tiles.sh   (env: ROUNDS=5 DURATION=5s CONNECTIONS=64 THREADS=2 WIDTH=10000 HEIGHT=7500
#                          TILE_CACHE_MEGABYTES=n passes --tile-cache-megabytes to both of ours (a
#                          tuned variant; 0 sends the built tiles from disk with sendfile);
#                          HEADERS=browser sends the nine header fields a browser adds to an image
#                          request, instead of wrk's Host alone;
#                          BIN=path/to/photoscroll measures another build, e.g. an older one)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

DURATION="${DURATION:-5s}"
ROUNDS="${ROUNDS:-5}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
WIDTH="${WIDTH:-10000}"
HEIGHT="${HEIGHT:-7500}"
TILE_CACHE_MEGABYTES="${TILE_CACHE_MEGABYTES:-}"
HEADERS="${HEADERS:-wrk}"
CORES="$(nproc)"
BIN="${BIN:-.build/release/photoscroll}"

require_tools bench/tiles.sh wrk nginx vips python3 curl cc
require_binary
make_workdir


mkdir -p "$WORK/photos" "$WORK/data" "$WORK/www"
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
# The private library's requests carry the session cookie a browser would send.
extra = (extra[:-1] + ', ["Cookie"] = "COOKIE"}') if extra else ', {["Cookie"] = "COOKIE"}'
script("private", "/photos/1/tiles/{z}/{x}/{y}.jpg?v=VERSION")
print(f"{len(tiles)} tiles over {len(info['levels'])} levels", file=sys.stderr)
PY

# Each of ours has its own copy of the built data folder.
cp -a "$WORK/data" "$WORK/data-off"
cp -a "$WORK/data" "$WORK/data-private"
printf '%s\n' "bench password 1234" | "$BIN" users add bench --data "$WORK/data-private" >&2
TUNED=()
[ -n "$TILE_CACHE_MEGABYTES" ] && TUNED=(--tile-cache-megabytes "$TILE_CACHE_MEGABYTES")
DEFAULT_PORT="$(free_port)"
"$BIN" serve --host 127.0.0.1 --port "$DEFAULT_PORT" --photos "$WORK/photos" --data "$WORK/data" "${TUNED[@]}" > "$WORK/ours-default.log" 2>&1 &
DEFAULT_PID=$!
OURS_PIDS="$DEFAULT_PID"
OFF_PORT="$(free_port)"
"$BIN" serve --host 127.0.0.1 --port "$OFF_PORT" --photos "$WORK/photos" --data "$WORK/data-off" --log-level warning "${TUNED[@]}" > "$WORK/ours-off.log" 2>&1 &
OFF_PID=$!
OURS_PIDS="$OURS_PIDS $OFF_PID"
PRIVATE_PORT="$(free_port)"
"$BIN" serve --host 127.0.0.1 --port "$PRIVATE_PORT" --photos "$WORK/photos" --data "$WORK/data-private" --access private "${TUNED[@]}" > "$WORK/ours-private.log" 2>&1 &
PRIVATE_PID=$!
OURS_PIDS="$OURS_PIDS $PRIVATE_PID"
wait_for "$DEFAULT_PORT"
wait_for "$OFF_PORT"
wait_for "$PRIVATE_PORT"
VERSION="$(curl -sf "http://127.0.0.1:$DEFAULT_PORT/photos/1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')"
sed -i "s/VERSION/$VERSION/" "$WORK/ours.lua" "$WORK/private.lua"
COOKIE="$(curl -sf -D - -o /dev/null -H 'Content-Type: application/json' -d '{"username":"bench","password":"bench password 1234"}' \
    "http://127.0.0.1:$PRIVATE_PORT/session" | awk -F'[ ;]' 'tolower($1) == "set-cookie:" { print $2 }')"
[ -n "$COOKIE" ] || { echo "could not sign in to the private server" >&2; exit 1; }
sed -i "s/COOKIE/$COOKIE/" "$WORK/private.lua"

NGINX_LOG_PORT="$(free_port)"
start_nginx "$WORK/nginx-log" "$WORK/www" "$NGINX_LOG_PORT" "image/jpeg jpg;" "open_file_cache max=10000 inactive=60s;" on
NGINX_LOG_WORKERS="$(pgrep -P "$NGINX_PID" | tr '\n' ' ')"
NGINX_OFF_PORT="$(free_port)"
start_nginx "$WORK/nginx-off" "$WORK/www" "$NGINX_OFF_PORT" "image/jpeg jpg;" "open_file_cache max=10000 inactive=60s;" off
NGINX_OFF_WORKERS="$(pgrep -P "$NGINX_PID" | tr '\n' ' ')"
# The floor answers with the tile nearest the pyramid's mean size, whatever is asked.
MEAN_TILE="$(python3 - "$WORK/www/p" <<'PY'
import glob, os, sys
files = glob.glob(os.path.join(sys.argv[1], "[0-9]*", "*", "*.jpg"))
mean = sum(map(os.path.getsize, files)) / len(files)
print(min(files, key=lambda f: abs(os.path.getsize(f) - mean)))
PY
)"
start_floor "$MEAN_TILE" image/jpeg

# Warm-up: every tile once into every server's caches (and the page cache).
for target in "ours.lua $DEFAULT_PORT" "ours.lua $OFF_PORT" "private.lua $PRIVATE_PORT" "nginx.lua $NGINX_LOG_PORT" "nginx.lua $NGINX_OFF_PORT" "nginx.lua $FLOOR_PORT"; do
    set -- $target
    wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "$WORK/$1" "http://127.0.0.1:$2" >/dev/null
done
# Rounds alternate between the five, so a busy moment on the machine hits all alike; medians count.
for name in ours-default nginx-log ours-off nginx-off floor ours-private; do : > "$WORK/$name.txt"; done
for round in $(seq 1 "$ROUNDS"); do
    race ours-default "$DEFAULT_PID" -s "$WORK/ours.lua" "http://127.0.0.1:$DEFAULT_PORT"
    race nginx-log "$NGINX_LOG_WORKERS" -s "$WORK/nginx.lua" "http://127.0.0.1:$NGINX_LOG_PORT"
    race ours-off "$OFF_PID" -s "$WORK/ours.lua" "http://127.0.0.1:$OFF_PORT"
    race nginx-off "$NGINX_OFF_WORKERS" -s "$WORK/nginx.lua" "http://127.0.0.1:$NGINX_OFF_PORT"
    race floor "$FLOOR_PID" -s "$WORK/nginx.lua" "http://127.0.0.1:$FLOOR_PORT"
    race ours-private "$PRIVATE_PID" -s "$WORK/private.lua" "http://127.0.0.1:$PRIVATE_PORT"
    echo "round $round (requests/s, CPU-us/request): ours default $(tail -1 "$WORK/ours-default.txt"), nginx log $(tail -1 "$WORK/nginx-log.txt"), ours log off $(tail -1 "$WORK/ours-off.txt"), nginx log off $(tail -1 "$WORK/nginx-off.txt"), floor $(tail -1 "$WORK/floor.txt"), ours private $(tail -1 "$WORK/ours-private.txt")" >&2
done
echo "request log lines written: ours $(wc -l < "$WORK/ours-default.log"), nginx $(wc -l < "$WORK/nginx-log/logs/access.log")" >&2
SETUP="random hot tiles of a ${WIDTH}x${HEIGHT} photo, wrk -t$THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds (median), $CORES cores, $HEADERS headers${TILE_CACHE_MEGABYTES:+, tile cache $TILE_CACHE_MEGABYTES MiB}"
report_medians "default configuration (ours: shipped config.json, request log on; nginx: default access log), $SETUP" "$WORK/ours-default.txt" "$WORK/nginx-log.txt"
report_round_ratios "$WORK/ours-default.txt" "$WORK/nginx-log.txt"
report_medians "request logging off (ours: --log-level warning; nginx: access_log off)" "$WORK/ours-off.txt" "$WORK/nginx-off.txt"
report_round_ratios "$WORK/ours-off.txt" "$WORK/nginx-off.txt"
report_log_cost "$WORK/ours-default.txt" "$WORK/ours-off.txt"
report_medians "private library out of the box, signed in (ours: shipped config.json and --access private, a session cookie on every tile; nginx: default access log)" "$WORK/ours-private.txt" "$WORK/nginx-log.txt"
report_round_ratios "$WORK/ours-private.txt" "$WORK/nginx-log.txt"
report_floor "ours log off" "$WORK/ours-off.txt" "$WORK/nginx-off.txt" "$WORK/floor.txt"
