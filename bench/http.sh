#!/usr/bin/env bash
# Static-file throughput: a 10 KB file served by our release server and by nginx (sendfile on,
# access_log off, the same number of workers as our event loops, keep-alive), measured with wrk
# over loopback in the same run. Prints requests/s for both and the ratio ours/nginx.
#
# Usage: bench/http.sh   (env: DURATION=10s ROUNDS=3 CONNECTIONS=64 THREADS=2;
#                         BIN=path/to/photoscroll measures another build, e.g. an older one)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
CORES="$(nproc)"
BIN="${BIN:-.build/release/photoscroll}"

require_tools bench/http.sh wrk nginx python3 curl
require_binary
make_workdir

# The page's files plus one 10 KB file, in a temporary copy so nothing is added to Public/.
mkdir -p "$WORK/public" "$WORK/photos" "$WORK/data" "$WORK/nginx/logs"
[ -d Public ] && cp -R Public/. "$WORK/public/"
python3 -c "import sys; sys.stdout.write(('PhotoScroll static file benchmark. ' * 400)[:10240])" > "$WORK/public/bench.txt"
chmod -R a+rX "$WORK/public"

# Ours: no photo library (an empty folder), only warnings logged, one event loop per core.
OURS_PORT="$(free_port)"
"$BIN" serve --host 127.0.0.1 --port "$OURS_PORT" --public "$WORK/public" --photos "$WORK/photos" --data "$WORK/data" \
    --log-level warning --event-loops "$CORES" > "$WORK/ours.log" 2>&1 &
OURS_PID=$!
wait_for "$OURS_PORT"

NGINX_PORT="$(free_port)"
start_nginx "$WORK/nginx" "$WORK/public" "$NGINX_PORT" "text/plain txt; text/html html; text/css css; text/javascript js;"
NGINX_WORKERS="$(pgrep -P "$NGINX_PID" | tr '\n' ' ')"

OURS_URL="http://127.0.0.1:$OURS_PORT/bench.txt"
NGINX_URL="http://127.0.0.1:$NGINX_PORT/bench.txt"
for url in "$OURS_URL" "$NGINX_URL"; do
    [ "$(curl -s -o /dev/null -w '%{size_download}' "$url")" = 10240 ] || { echo "$url does not serve the 10 KB file" >&2; exit 1; }
    wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$url" > /dev/null   # warm-up
done

# Rounds alternate between the two servers so that other load on the machine hits both alike.
: > "$WORK/ours.txt"; : > "$WORK/nginx.txt"
for round in $(seq 1 "$ROUNDS"); do
    measure_wrk "$OURS_PID" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$OURS_URL" >> "$WORK/ours.txt"
    measure_wrk "$NGINX_WORKERS" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$NGINX_URL" >> "$WORK/nginx.txt"
    echo "round $round: ours $(tail -1 "$WORK/ours.txt" | cut -d' ' -f1) req/s, nginx $(tail -1 "$WORK/nginx.txt" | cut -d' ' -f1) req/s" >&2
done

report_medians "static 10 KB, wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $CORES cores, median of $ROUNDS alternating rounds"
