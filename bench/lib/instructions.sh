#!/usr/bin/env bash
# User-space instructions per request, from callgrind: deterministic within about 1 %, so it
# shows changes that wall figures on a shared machine hide (docs/perf.md).
#
# The release binary with debug info stripped (valgrind 3.19 cannot read Swift's DWARF 5) runs
# under `valgrind --tool=callgrind --instr-atstart=no` with two event loops; after a warm-up,
# instrumentation is switched on for one wrk run, and the program's total Ir is divided by the
# requests wrk counted.
#
# Usage: bench/lib/instructions.sh [tile|static|page|photo]
#   tile: random tiles of a 4000x3000 photo; static: a 10 KiB file; page: GET /photos?limit=200
#   over 200 photos (JSON); photo: GET /photos/{id} (JSON)
#   env: LOG=default   the shipped configuration (request log on, written to a file), or
#        LOG=off       --log-level warning (no request log)
#        HEADERS=browser   the nine fields a browser sends with an image request
#        ACCESS=private    a private library (--access private), every request with a signed-in
#                          session's cookie; ACCESS=public (the default) as a loopback host is
#        BIN=path/to/photoscroll, DURATION=5s, WARMUP=10s, CONNECTIONS=8 (fewer for slow answers
#        such as page: under instrumentation each takes seconds)
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/lib/common.sh

WHAT="${1:-tile}"
LOG="${LOG:-default}"
HEADERS="${HEADERS:-wrk}"
DURATION="${DURATION:-5s}"
WARMUP="${WARMUP:-10s}"
BIN="${BIN:-.build/release/photoscroll}"
CONNECTIONS="${CONNECTIONS:-8}"
ACCESS="${ACCESS:-public}"

require_tools bench/lib/instructions.sh valgrind callgrind_control wrk vips python3 curl strip
require_binary
make_workdir

cp "$BIN" "$WORK/photoscroll"
strip --strip-debug "$WORK/photoscroll"
mkdir -p "$WORK/photos" "$WORK/data" "$WORK/www"
bench/lib/make-photo.sh "$WORK/photos/photo1.jpg" 4000 3000
if [ "$WHAT" = page ] || [ "$WHAT" = photo ]; then
    # A library of 200 photos for the JSON answers: small crops of the big one, each its own
    # picture, so ingest builds every pyramid and the server has nothing left to build.
    for i in $(seq 2 200); do
        vips crop "$WORK/photos/photo1.jpg" "$WORK/photos/photo$i.jpg" $((i * 17)) $((i * 11)) 320 240
    done
fi
head -c 10240 /dev/urandom > "$WORK/www/file.bin"
"$WORK/photoscroll" ingest --photos "$WORK/photos" --data "$WORK/data" --log-level warning | tail -n 1 >&2

FLAGS=(--host 127.0.0.1 --photos "$WORK/photos" --data "$WORK/data" --public "$WORK/www" --event-loops 2)
[ "$LOG" = off ] && FLAGS+=(--log-level warning)
if [ "$ACCESS" = private ]; then
    FLAGS+=(--access private)
    printf '%s\n' "bench password 1234" | "$WORK/photoscroll" users add bench --data "$WORK/data" >&2
fi
PORT="$(free_port)"
FLAGS+=(--port "$PORT")
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/callgrind.out" \
    "$WORK/photoscroll" serve "${FLAGS[@]}" > "$WORK/server.log" 2>&1 &
OURS_PID=$!
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

COOKIE=""
if [ "$ACCESS" = private ]; then
    COOKIE="$(curl -sf -D - -o /dev/null -H 'Content-Type: application/json' -d '{"username":"bench","password":"bench password 1234"}' \
        "http://127.0.0.1:$PORT/session" | awk -F'[ ;]' 'tolower($1) == "set-cookie:" { print $2 }')"
    [ -n "$COOKIE" ] || { echo "could not sign in" >&2; exit 1; }
fi
VERSION="$(curl -sf ${COOKIE:+-H "Cookie: $COOKIE"} "http://127.0.0.1:$PORT/photos/1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')"
python3 - "$WORK" "$WHAT" "$VERSION" "$HEADERS" "$COOKIE" <<'PY'
import sys
work, what, version, headers, cookie = sys.argv[1:]
browser = {
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    "Accept": "image/avif,image/webp,image/apng,image/*,*/*;q=0.8",
    "Accept-Encoding": "gzip, deflate, br", "Accept-Language": "en-GB,en;q=0.9",
    "Referer": "http://127.0.0.1/", "Sec-Fetch-Dest": "image", "Sec-Fetch-Mode": "no-cors",
    "Sec-Fetch-Site": "same-origin", "Connection": "keep-alive",
}
fields = dict(browser) if headers == "browser" else {}
if cookie:
    fields["Cookie"] = cookie
extra = ", {" + ", ".join(f'["{k}"] = "{v}"' for k, v in fields.items()) + "}" if fields else ""
with open(f"{work}/load.lua", "w") as f:
    if what == "static":
        f.write('function request() return wrk.format("GET", "/file.bin"' + extra + ') end\n')
    elif what == "page":
        f.write('function request() return wrk.format("GET", "/photos?limit=200"' + extra + ') end\n')
    elif what == "photo":
        f.write('function request() return wrk.format("GET", "/photos/100"' + extra + ') end\n')
    else:
        # 4000x3000 at 256: levels 0..4; every tile of every level, picked at random.
        import math
        paths = []
        for z in range(5):
            s = 2 ** (z - 4)
            cols, rows = math.ceil(math.ceil(4000 * s) / 256), math.ceil(math.ceil(3000 * s) / 256)
            paths += [f"/photos/1/tiles/{z}/{x}/{y}.jpg?v={version}" for x in range(cols) for y in range(rows)]
        f.write("local paths = {\n" + "".join(f'  "{p}",\n' for p in paths) + "}\n")
        f.write("function request() return wrk.format('GET', paths[math.random(#paths)]" + extra + ") end\n")
PY

URL="http://127.0.0.1:$PORT"
wrk -t2 -c"$CONNECTIONS" -d"$WARMUP" --timeout 60s -s "$WORK/load.lua" "$URL" > /dev/null
callgrind_control -i on "$OURS_PID" > /dev/null
wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --timeout 60s -s "$WORK/load.lua" "$URL" > "$WORK/wrk.out"
callgrind_control -i off "$OURS_PID" > /dev/null
callgrind_control -d "$OURS_PID" > /dev/null
[ -n "${KEEP:-}" ] && cp "$WORK"/callgrind.out.1 "$KEEP"
REQUESTS="$(awk '/requests in/ { print $1 }' "$WORK/wrk.out")"
ERRORS="$(awk '/Non-2xx/ { print $5 }' "$WORK/wrk.out")"
# callgrind writes `totals:` (older versions `summary:`) for the instrumented part.
IR="$(cat "$WORK"/callgrind.out* | awk '/^totals:/ { t += $2 } /^summary:/ { s += $2 } END { print (t > 0 ? t : s) }')"
echo "$WHAT, log $LOG, $HEADERS headers, $ACCESS library: $REQUESTS requests${ERRORS:+ ($ERRORS non-2xx)}, $(awk -v i="$IR" -v r="$REQUESTS" 'BEGIN { printf "%.0f", i / r }') user-space instructions per request"
[ "$LOG" = off ] || echo "access log lines: $(grep -c ' http: GET ' "$WORK/server.log" || true)" >&2
