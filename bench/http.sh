#!/usr/bin/env bash
# Static-file throughput: a 10 KB file served by our release server and by nginx (sendfile on,
# the same number of workers as our event loops, keep-alive), measured with wrk over loopback in
# the same run, alternating rounds. Two races, both printed:
#   - the default configuration: ours as a user starts it (the shipped config.json, request log
#     on, written to a file) against nginx with its default access log (combined, to a file);
#   - request logging off: ours with --log-level warning against nginx with access_log off;
# then our default against our own log-off figure (median requests/s, CPU per request, ratios,
# and the ratio in each round). Last, the floor (bench/lib/floor.c), raced in the same rounds: a
# server that answers every request with the same file and does nothing else, so the share of
# its throughput that ours and nginx reach says how far their ratio could still go here.
#
# Usage: bench/http.sh   (env: DURATION=10s ROUNDS=5 CONNECTIONS=64 THREADS=2;
#                         BIN=path/to/photoscroll measures another build, e.g. an older one;
#                         HEADERS=browser sends the fields a browser sends with an image request,
#                         and asks for a 10 KB JPEG instead: with its Accept-Encoding we would
#                         gzip the text file and nginx, gzip off, would not, so the two would not
#                         be sending the same bytes)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-5}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
CORES="$(nproc)"
BIN="${BIN:-.build/release/photoscroll}"
HEADERS="${HEADERS:-wrk}"

require_tools bench/http.sh wrk nginx python3 curl cc
require_binary
make_workdir

# The page's files plus one 10 KB file, in a temporary copy so nothing is added to Public/.
mkdir -p "$WORK/public" "$WORK/photos" "$WORK/data"
[ -d Public ] && cp -R Public/. "$WORK/public/"
python3 -c "import sys; sys.stdout.write(('PhotoScroll static file benchmark. ' * 400)[:10240])" > "$WORK/public/bench.txt"
head -c 10240 /dev/urandom > "$WORK/public/bench.jpg"
FILE=bench.txt
WRK_SCRIPT=()
if [ "$HEADERS" = browser ]; then
    FILE=bench.jpg
    cat > "$WORK/browser.lua" <<'LUA'
wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
wrk.headers["Accept"] = "image/avif,image/webp,image/apng,image/*,*/*;q=0.8"
wrk.headers["Accept-Encoding"] = "gzip, deflate, br"
wrk.headers["Accept-Language"] = "en-GB,en;q=0.9"
wrk.headers["Referer"] = "http://127.0.0.1/"
wrk.headers["Sec-Fetch-Dest"] = "image"
wrk.headers["Sec-Fetch-Mode"] = "no-cors"
wrk.headers["Sec-Fetch-Site"] = "same-origin"
wrk.headers["Connection"] = "keep-alive"
LUA
    WRK_SCRIPT=(-s "$WORK/browser.lua")
fi
chmod -R a+rX "$WORK/public"

# Ours: no photo library (an empty folder), otherwise as configured by the shipped config.json
# (one event loop per core); one as it comes, request log on, one with only warnings logged.
DEFAULT_PORT="$(free_port)"
"$BIN" serve --host 127.0.0.1 --port "$DEFAULT_PORT" --public "$WORK/public" --photos "$WORK/photos" --data "$WORK/data" \
    > "$WORK/ours-default.log" 2>&1 &
DEFAULT_PID=$!
OURS_PIDS="$DEFAULT_PID"
mkdir -p "$WORK/data-off"
OFF_PORT="$(free_port)"
"$BIN" serve --host 127.0.0.1 --port "$OFF_PORT" --public "$WORK/public" --photos "$WORK/photos" --data "$WORK/data-off" \
    --log-level warning > "$WORK/ours-off.log" 2>&1 &
OFF_PID=$!
OURS_PIDS="$OURS_PIDS $OFF_PID"
wait_for "$DEFAULT_PORT"
wait_for "$OFF_PORT"

TYPES="text/plain txt; text/html html; text/css css; text/javascript js; image/jpeg jpg;"
NGINX_LOG_PORT="$(free_port)"
start_nginx "$WORK/nginx-log" "$WORK/public" "$NGINX_LOG_PORT" "$TYPES" "" on
NGINX_LOG_WORKERS="$(pgrep -P "$NGINX_PID" | tr '\n' ' ')"
NGINX_OFF_PORT="$(free_port)"
start_nginx "$WORK/nginx-off" "$WORK/public" "$NGINX_OFF_PORT" "$TYPES" "" off
NGINX_OFF_WORKERS="$(pgrep -P "$NGINX_PID" | tr '\n' ' ')"
FLOOR_TYPE=text/plain
[ "$FILE" = bench.jpg ] && FLOOR_TYPE=image/jpeg
start_floor "$WORK/public/$FILE" "$FLOOR_TYPE"

url() { echo "http://127.0.0.1:$1/$FILE"; }
for port in "$DEFAULT_PORT" "$OFF_PORT" "$NGINX_LOG_PORT" "$NGINX_OFF_PORT" "$FLOOR_PORT"; do
    [ "$(curl -s -o /dev/null -w '%{size_download}' "$(url "$port")")" = 10240 ] || { echo "$(url "$port") does not serve the 10 KB file" >&2; exit 1; }
    wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "${WRK_SCRIPT[@]}" "$(url "$port")" > /dev/null   # warm-up
done

# Rounds alternate between the five servers so that other load on the machine hits all alike.
for name in ours-default nginx-log ours-off nginx-off floor; do : > "$WORK/$name.txt"; done
for round in $(seq 1 "$ROUNDS"); do
    race ours-default "$DEFAULT_PID" "${WRK_SCRIPT[@]}" "$(url "$DEFAULT_PORT")"
    race nginx-log "$NGINX_LOG_WORKERS" "${WRK_SCRIPT[@]}" "$(url "$NGINX_LOG_PORT")"
    race ours-off "$OFF_PID" "${WRK_SCRIPT[@]}" "$(url "$OFF_PORT")"
    race nginx-off "$NGINX_OFF_WORKERS" "${WRK_SCRIPT[@]}" "$(url "$NGINX_OFF_PORT")"
    race floor "$FLOOR_PID" "${WRK_SCRIPT[@]}" "$(url "$FLOOR_PORT")"
    echo "round $round (requests/s): ours default $(tail -1 "$WORK/ours-default.txt" | cut -d' ' -f1), nginx log $(tail -1 "$WORK/nginx-log.txt" | cut -d' ' -f1), ours log off $(tail -1 "$WORK/ours-off.txt" | cut -d' ' -f1), nginx log off $(tail -1 "$WORK/nginx-off.txt" | cut -d' ' -f1), floor $(tail -1 "$WORK/floor.txt" | cut -d' ' -f1)" >&2
done
echo "request log lines written: ours $(wc -l < "$WORK/ours-default.log"), nginx $(wc -l < "$WORK/nginx-log/logs/access.log")" >&2

SETUP="static 10 KB ($FILE, $HEADERS headers), wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $CORES cores, median of $ROUNDS alternating rounds"
report_medians "default configuration (ours: shipped config.json, request log on; nginx: default access log), $SETUP" "$WORK/ours-default.txt" "$WORK/nginx-log.txt"
report_round_ratios "$WORK/ours-default.txt" "$WORK/nginx-log.txt"
report_medians "request logging off (ours: --log-level warning; nginx: access_log off)" "$WORK/ours-off.txt" "$WORK/nginx-off.txt"
report_round_ratios "$WORK/ours-off.txt" "$WORK/nginx-off.txt"
report_log_cost "$WORK/ours-default.txt" "$WORK/ours-off.txt"
report_floor "ours log off" "$WORK/ours-off.txt" "$WORK/nginx-off.txt" "$WORK/floor.txt"
