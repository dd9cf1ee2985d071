#!/usr/bin/env bash
# Cold tiles: how soon a photo that was never ingested shows. For each run, a fresh data folder,
# a fresh release server, and at once one tile (level 0, then a middle tile of level maxZoom),
# timed with curl's time_total and from the server's start. The reference is `vips dzsave` of the
# same photo (what a pre-rendering server needs before its first tile), measured in the same run.
# Prints medians and the ratio dzsave / first tile.
#
# Usage: bench/cold.sh   (env: RUNS=3 WIDTH=10000 HEIGHT=7500)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

RUNS="${RUNS:-3}"
WIDTH="${WIDTH:-10000}"
HEIGHT="${HEIGHT:-7500}"
BIN=.build/release/photoscroll

for tool in vips python3 curl; do
    command -v "$tool" >/dev/null || { echo "bench/cold.sh needs $tool (make bench installs it)" >&2; exit 1; }
done
ensure_release_binary

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

now() { date +%s.%N; }
median() { python3 -c 'import statistics,sys; print("%.3f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

mkdir -p "$WORK/photos"
echo "== drawing a ${WIDTH}x${HEIGHT} photo" >&2
bench/lib/make-photo.sh "$WORK/photos/photo1.jpg" "$WIDTH" "$HEIGHT"

# Level maxZoom's middle tile, from the pyramid geometry.
read -r MAXZOOM MIDX MIDY < <(python3 - "$WIDTH" "$HEIGHT" <<'PY'
import sys
w, h, t = int(sys.argv[1]), int(sys.argv[2]), 256
z = 0
while (t << z) < max(w, h): z += 1
print(z, (w + t - 1) // t // 2, (h + t - 1) // t // 2)
PY
)

# One run: start a server on a fresh data folder, ask for TILE as soon as the photo is listed.
first_tile() {  # TILE → "curl_seconds since_start_seconds"
    local data="$WORK/data-$RANDOM$RANDOM" port started
    port="$(free_port)"
    started="$(now)"
    "$BIN" serve --host 127.0.0.1 --port "$port" --photos "$WORK/photos" --data "$data" --log-level warning \
        > "$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 2000); do
        curl -sf -o /dev/null "http://127.0.0.1:$port/photos/1" 2>/dev/null && break
        sleep 0.005
    done
    local seconds
    seconds="$(curl -sf -o "$WORK/tile.jpg" -w '%{time_total}' "http://127.0.0.1:$port/photos/1/tiles/$1.jpg")"
    local ended
    ended="$(now)"
    kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
    rm -rf "$data"
    echo "$seconds $(python3 -c "print('%.3f' % ($ended - $started))")"
}

declare -a L0_CURL L0_START LM_CURL LM_START DZ
for run in $(seq 1 "$RUNS"); do
    read -r c s < <(first_tile "0/0/0"); L0_CURL+=("$c"); L0_START+=("$s")
    read -r c s < <(first_tile "$MAXZOOM/$MIDX/$MIDY"); LM_CURL+=("$c"); LM_START+=("$s")
    start="$(now)"
    vips dzsave "$WORK/photos/photo1.jpg" "$WORK/dz-$run" --tile-size 256 --overlap 0 --depth onetile --suffix '.jpg[Q=85]'
    DZ+=("$(python3 -c "print('%.3f' % ($(now) - $start))")")
    rm -rf "$WORK/dz-$run" "$WORK/dz-$run.dzi"
    echo "run $run: level 0 ${L0_CURL[-1]} s, level $MAXZOOM ${LM_CURL[-1]} s, dzsave ${DZ[-1]} s" >&2
done

L0="$(median "${L0_CURL[@]}")"; LM="$(median "${LM_CURL[@]}")"; D="$(median "${DZ[@]}")"
echo "first tile of a never-ingested ${WIDTH}x${HEIGHT} photo, median of $RUNS runs"
echo "level 0           $L0 s (curl), $(median "${L0_START[@]}") s from server start"
echo "level $MAXZOOM ($MIDX,$MIDY)  $LM s (curl), $(median "${LM_START[@]}") s from server start"
echo "vips dzsave       $D s"
awk -v d="$D" -v a="$L0" -v b="$LM" 'BEGIN { printf "ratio dzsave/first tile: level 0 %.1fx, level max %.1fx\n", d / a, d / b }'
