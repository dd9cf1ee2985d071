#!/usr/bin/env bash
# Ingest: PhotoScroll building the tile pyramid of a 75-megapixel JPEG, against libvips' own
# `vips dzsave` writing the same 256-px tiles, measured in the same run, alternating, with
# /usr/bin/time (wall seconds, peak RSS, CPU seconds). Prints the median of each and the ratios.
# Targets: wall ≤ 1.1×, peak RSS ≤ 1.3×. CPU time is printed too: on a busy machine it is
# steadier than wall time.
#
#   bench/ingest.sh                     # 10000×7500, 3 runs each
#   RUNS=5 WIDTH=12000 HEIGHT=9000 bench/ingest.sh
#   PHOTO=some.jpg bench/ingest.sh      # an existing JPEG instead of the synthetic one
#   PHOTOSCROLL_BIN=.build/debug/photoscroll bench/ingest.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${PHOTOSCROLL_BIN:-.build/release/photoscroll}
RUNS=${RUNS:-3}
WIDTH=${WIDTH:-10000}
HEIGHT=${HEIGHT:-7500}
QUALITY=85

for tool in vips /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "ingest bench needs $tool (scripts/install-deps.sh bench)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "no $BIN: run 'swift build -c release' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/photoscroll-ingest.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A detailed synthetic photo: Perlin clouds in red, Worley cells in green, grain in blue, so that
# JPEG has real work at every level (a flat image would flatter both sides).
make_photo() {
    local out=$1 w=$2 h=$3 tmp=$work/gen
    mkdir -p "$tmp"
    vips perlin "$tmp/p.v" "$w" "$h" --cell-size 64
    vips worley "$tmp/w.v" "$w" "$h" --cell-size 97
    vips gaussnoise "$tmp/n.v" "$w" "$h" --sigma 18 --mean 0
    vips linear "$tmp/p.v" "$tmp/r.v" 128 128 --uchar
    vips linear "$tmp/w.v" "$tmp/g.v" 2.2 10 --uchar
    rm "$tmp/p.v" "$tmp/w.v"
    vips add "$tmp/r.v" "$tmp/n.v" "$tmp/b0.v"
    vips cast "$tmp/b0.v" "$tmp/b.v" uchar
    rm "$tmp/n.v" "$tmp/b0.v"
    vips bandjoin "$tmp/r.v $tmp/g.v $tmp/b.v" "$tmp/rgb.v"
    vips copy "$tmp/rgb.v" "$out[Q=90]" --interpretation srgb
    rm -rf "$tmp"
}

mkdir -p "$work/photos"
photo=$work/photos/big.jpg
if [ -n "${PHOTO:-}" ]; then
    cp "$PHOTO" "$photo"
else
    echo "rendering a ${WIDTH}×${HEIGHT} synthetic JPEG…"
    make_photo "$photo" "$WIDTH" "$HEIGHT"
fi
echo "photo: $(vipsheader "$photo" | cut -d, -f1 | cut -d' ' -f2), $(( $(stat -c %s "$photo") / 1048576 )) MB"

# One measured run: appends "wall_seconds peak_kb cpu_seconds" to $1, then removes the output.
measure() {
    local log=$1 out=$2; shift 2
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >"$work/stdout" 2>"$work/stderr" || {
        echo "failed: $*" >&2; cat "$work/stderr" >&2; exit 1
    }
    awk '{ print $1, $2, $3 + $4 }' "$work/time" >>"$log"
    count=$(find "$out" -name '*.jpg' | wc -l)
    echo "  $(basename "$log" .log): $(tail -1 "$log" | awk '{printf "%.2f s wall, %d MB, %.2f s CPU", $1, $2 / 1024, $3}'), $count JPEG files"
    rm -rf "$out"
}

for run in $(seq "$RUNS"); do
    echo "run $run/$RUNS"
    mkdir -p "$work/ref"
    measure "$work/vips.log" "$work/ref" \
        vips dzsave "$photo" "$work/ref/big" --tile-size 256 --overlap 0 --depth onetile --suffix ".jpg[Q=$QUALITY]"
    measure "$work/photoscroll.log" "$work/data" \
        "$BIN" ingest --photos "$work/photos" --data "$work/data" --tile-size 256 --jpeg-quality "$QUALITY"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ref_wall=$(awk '{print $1}' "$work/vips.log" | median)
our_wall=$(awk '{print $1}' "$work/photoscroll.log" | median)
ref_rss=$(awk '{print $2}' "$work/vips.log" | median)
our_rss=$(awk '{print $2}' "$work/photoscroll.log" | median)
ref_cpu=$(awk '{print $3}' "$work/vips.log" | median)
our_cpu=$(awk '{print $3}' "$work/photoscroll.log" | median)

echo
printf 'vips dzsave   wall %6.2f s   peak RSS %5d MB   CPU %6.2f s\n' "$ref_wall" "$((${ref_rss%.*} / 1024))" "$ref_cpu"
printf 'photoscroll   wall %6.2f s   peak RSS %5d MB   CPU %6.2f s\n' "$our_wall" "$((${our_rss%.*} / 1024))" "$our_cpu"
awk -v a="$our_wall" -v b="$ref_wall" 'BEGIN { printf "wall ratio     %.2f×  (target ≤ 1.10×)\n", a / b }'
awk -v a="$our_rss" -v b="$ref_rss" 'BEGIN { printf "peak RSS ratio %.2f×  (target ≤ 1.30×)\n", a / b }'
awk -v a="$our_cpu" -v b="$ref_cpu" 'BEGIN { printf "CPU ratio      %.2f×\n", a / b }'
