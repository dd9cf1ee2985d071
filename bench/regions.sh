#!/usr/bin/env bash
# CPU per IIIF region rendered from a built pyramid, one request at a time, of this build against
# a reference build (BASE: say, the release binary of the commit before a change) in alternating
# rounds, on the same random `!1024,1024` regions of a 75-megapixel photo in every round. Both run
# as a user starts them. One request at a time, and the server's own CPU count (the process's,
# which keeps the time of threads that have ended), hold still enough to show a change of a few
# per cent, which region throughput under wrk (bench/iiif.sh) on a shared machine hides.
#
# Prints CPU milliseconds per region of each build in each round, and the ratio this / reference
# by round with its min / median / max.
#
# Usage: BASE=path/to/reference/photoscroll bench/regions.sh
#        (env: ROUNDS=5 REGIONS=150 WARMUP=10 WIDTH=10000 HEIGHT=7500 BIN=…; BASE_CONFIG=the
#         reference's own config.json, when this one has keys the reference does not know)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh
ROUNDS="${ROUNDS:-5}"
REGIONS="${REGIONS:-150}"
WARMUP="${WARMUP:-10}"
WIDTH="${WIDTH:-10000}"
HEIGHT="${HEIGHT:-7500}"
BIN="${BIN:-.build/release/photoscroll}"
BASE="${BASE:-}"
BASE_CONFIG="${BASE_CONFIG:-config.json}"
if [ -z "$BASE" ]; then
    # `make bench` runs every benchmark; this one has nothing to compare without a second build.
    echo "bench/regions.sh compares two builds: set BASE=path to the reference build's photoscroll (not run)" >&2
    exit 0
fi
[ -x "$BASE" ] || { echo "no reference binary at $BASE" >&2; exit 1; }
require_tools bench/regions.sh vips python3 curl
require_binary
make_workdir
HZ="$(getconf CLK_TCK)"

echo "== drawing a ${WIDTH}x${HEIGHT} photo and building its pyramid with each build" >&2
mkdir -p "$WORK/photos"
bench/lib/make-photo.sh "$WORK/photos/photo1.jpg" "$WIDTH" "$HEIGHT"
for name in this reference; do
    binary="$BIN"; [ "$name" = reference ] && binary="$BASE"
    mkdir -p "$WORK/data-$name"
    config=config.json; [ "$name" = reference ] && config="$BASE_CONFIG"
    "$binary" ingest --config "$config" --photos "$WORK/photos" --data "$WORK/data-$name" --log-level warning >&2
done

# The regions, as bench/iiif.sh draws them: at least 1024 pixels one way, anywhere in the photo.
python3 - "$WIDTH" "$HEIGHT" "$((REGIONS + WARMUP))" > "$WORK/regions.txt" <<'PY'
import random, sys
W, H, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
random.seed(5)
for _ in range(n):
    while True:
        w, h = random.randint(256, W), random.randint(256, H)
        if max(w, h) >= 1024:
            break
    print(f"{random.randint(0, W - w)},{random.randint(0, H - h)},{w},{h}/!1024,1024/0/default.jpg")
PY

# ask BASE_URL FIRST COUNT: the regions FIRST…FIRST+COUNT-1 of the list, one after another.
ask() {
    python3 - "$1" "$WORK/regions.txt" "$2" "$3" <<'PY'
import sys, urllib.request
base, path, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
regions = open(path).read().split()[first:first + count]
for region in regions:
    with urllib.request.urlopen(f"{base}/iiif/3/1/{region}", timeout=60) as response:
        if response.status != 200 or not response.read():
            sys.exit(f"{region}: {response.status}")
PY
}

# measure NAME BINARY: CPU milliseconds per region of a server started for this round.
measure() {
    local port pid before after config=config.json
    [ "$1" = reference ] && config="$BASE_CONFIG"
    port="$(free_port)"
    "$2" serve --config "$config" --host 127.0.0.1 --port "$port" --photos "$WORK/photos" --data "$WORK/data-$1" > "$WORK/$1.log" 2>&1 &
    pid=$!
    OURS_PIDS="$OURS_PIDS $pid"
    wait_for "$port"
    ask "http://127.0.0.1:$port" "$REGIONS" "$WARMUP"
    before="$(cpu_ticks "$pid")"
    ask "http://127.0.0.1:$port" 0 "$REGIONS"
    after="$(cpu_ticks "$pid")"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    awk -v t="$((after - before))" -v hz="$HZ" -v n="$REGIONS" 'BEGIN { printf "%.2f\n", t * 1000 / hz / n }'
}

echo "== $ROUNDS alternating rounds of $REGIONS regions, one at a time" >&2
: > "$WORK/ratios.txt"
for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) -eq 1 ]; then
        reference="$(measure reference "$BASE")"; this="$(measure this "$BIN")"
    else
        this="$(measure this "$BIN")"; reference="$(measure reference "$BASE")"
    fi
    ratio="$(awk -v a="$this" -v b="$reference" 'BEGIN { printf "%.3f", a / b }')"
    echo "$ratio" >> "$WORK/ratios.txt"
    echo "round $round: this $this ms, reference $reference ms of CPU per region, ratio $ratio" >&2
done
echo "IIIF regions !1024,1024 of a ${WIDTH}x${HEIGHT} photo from its pyramid, one at a time, $(nproc) cores"
echo "CPU per region, this / reference by round: $(sort -n "$WORK/ratios.txt" | paste -sd' ')"
echo "min / median / max: $(sort -n "$WORK/ratios.txt" | head -1) / $(median < "$WORK/ratios.txt") / $(sort -n "$WORK/ratios.txt" | tail -1)"
