#!/usr/bin/env bash
# Ingest: PhotoScroll building tile pyramids against libvips' own `vips dzsave` writing the same
# 256-px tiles at the same quality, measured in the same run, in alternating rounds, with
# /usr/bin/time (wall seconds, peak RSS, CPU seconds). Two cases:
#
#   big   one 75-megapixel JPEG: `photoscroll ingest` against one `vips dzsave`
#         (targets: wall ≤ 1.0×)
#   many  200 distinct 12-megapixel JPEGs: `photoscroll ingest` (one process, ingestConcurrency
#         photos at once) against `xargs -P<cores> vips dzsave`, one process a photo
#         (targets: wall ≤ 0.9×, peak RSS ≤ 1.2× of theirs together: the sum of the <cores>
#         largest peaks of the dzsave processes, which run side by side)
#
# Every figure is printed as min / median / max of the per-round ratios. CPU time is printed
# too: on a busy machine it is steadier than wall time.
#
#   bench/ingest.sh                         # both cases, 3 rounds
#   CASES=many COUNT=50 RUNS=5 bench/ingest.sh
#   PHOTO=some.jpg CASES=big bench/ingest.sh
#   PHOTOSCROLL_BIN=.build/debug/photoscroll bench/ingest.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${PHOTOSCROLL_BIN:-.build/release/photoscroll}
RUNS=${RUNS:-3}
CASES=${CASES:-"big many"}
COUNT=${COUNT:-200}
CORES=${CORES:-$(nproc)}
QUALITY=85

for tool in vips python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "ingest bench needs $tool (scripts/install-deps.sh bench)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "no $BIN: run 'swift build -c release' first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/photoscroll-ingest.XXXXXX")
trap 'rm -rf "$work"' EXIT

DZSAVE=(--tile-size 256 --overlap 0 --depth onetile --suffix ".jpg[Q=$QUALITY]")

# One measured command: prints "wall_seconds peak_kb cpu_seconds".
timed() {
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >"$work/stdout" 2>"$work/stderr" || {
        echo "failed: $*" >&2; cat "$work/stderr" >&2; exit 1
    }
    awk '{ print $1, $2, $3 + $4 }' "$work/time"
}

# N distinct photos with the pixels of one: each copy carries its own JPEG comment, so every
# file hashes differently (a library of copies would be one photo to PhotoScroll).
distinct_copies() {  # SOURCE DIR COUNT
    python3 - "$@" <<'PY'
import sys
source, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(source, "rb").read()
for i in range(count):
    text = b"photo %06d" % i
    comment = b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text
    with open("%s/photo%06d.jpg" % (folder, i), "wb") as out:
        out.write(data[:2] + comment + data[2:])
PY
}

# Ratios of our figure to theirs, per round, as "min median max".
ratios() {  # OURS_LOG THEIRS_LOG COLUMN
    paste "$1" "$2" | awk -v c="$3" -v n="$(awk '{print NF}' "$1" | head -1)" '{ print $c / $(c + n) }' | sort -n |
        awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f / %.2f / %.2f", v[1], m, v[NR] }'
}

report() {  # CASE OURS_LOG THEIRS_LOG WALL_TARGET RSS_TARGET
    echo
    echo "== $1: ratios photoscroll / reference, min / median / max over $RUNS rounds"
    echo "wall      $(ratios "$2" "$3" 1)   (target ≤ $4)"
    echo "peak RSS  $(ratios "$2" "$3" 2)   (target ≤ $5)"
    echo "CPU       $(ratios "$2" "$3" 3)"
}

if [[ " $CASES " == *" big "* ]]; then
    mkdir -p "$work/big/photos"
    photo=$work/big/photos/big.jpg
    if [ -n "${PHOTO:-}" ]; then cp "$PHOTO" "$photo"; else
        echo "drawing a 10000×7500 synthetic JPEG…"
        bench/lib/make-photo.sh "$photo" 10000 7500
    fi
    : >"$work/big-ours.log"; : >"$work/big-vips.log"
    for run in $(seq "$RUNS"); do
        # Alternating, so both see the same moments of a busy machine.
        mkdir -p "$work/ref"
        timed vips dzsave "$photo" "$work/ref/big" "${DZSAVE[@]}" >>"$work/big-vips.log"
        rm -rf "$work/ref"
        timed "$BIN" ingest --photos "$work/big/photos" --data "$work/big/data" --tile-size 256 --jpeg-quality "$QUALITY" \
            >>"$work/big-ours.log"
        rm -rf "$work/big/data"
        echo "big round $run: dzsave $(tail -1 "$work/big-vips.log"), photoscroll $(tail -1 "$work/big-ours.log") (wall s, peak KB, CPU s)"
    done
    report big "$work/big-ours.log" "$work/big-vips.log" 1.0 1.3
fi

if [[ " $CASES " == *" many "* ]]; then
    mkdir -p "$work/many/photos"
    echo "drawing a 4000×3000 synthetic JPEG and $COUNT distinct copies…"
    bench/lib/make-photo.sh "$work/one.jpg" 4000 3000
    distinct_copies "$work/one.jpg" "$work/many/photos" "$COUNT"
    : >"$work/many-ours.log"; : >"$work/many-vips.log"
    for run in $(seq "$RUNS"); do
        mkdir -p "$work/ref" "$work/peaks"
        start=$(date +%s.%N)
        find "$work/many/photos" -name '*.jpg' -print0 | xargs -0 -P "$CORES" -I{} sh -c '
            name=$(basename "$1" .jpg)
            /usr/bin/time -f "%M %U %S" -o "$2/peaks/$name" vips dzsave "$1" "$2/ref/$name" $3' _ {} "$work" \
            "--tile-size 256 --overlap 0 --depth onetile --suffix .jpg[Q=$QUALITY]"
        wall=$(python3 -c "import time; print('%.2f' % (time.time() - $start))")
        # Their peak together: the <cores> largest peaks, as that many run side by side.
        peak=$(cat "$work"/peaks/* | awk '{print $1}' | sort -rn | head -"$CORES" | awk '{ s += $1 } END { print s }')
        cpu=$(cat "$work"/peaks/* | awk '{ s += $2 + $3 } END { printf "%.2f", s }')
        echo "$wall $peak $cpu" >>"$work/many-vips.log"
        rm -rf "$work/ref" "$work/peaks"
        timed "$BIN" ingest --photos "$work/many/photos" --data "$work/many/data" --tile-size 256 --jpeg-quality "$QUALITY" \
            >>"$work/many-ours.log"
        rm -rf "$work/many/data"
        echo "many round $run: xargs -P$CORES dzsave $(tail -1 "$work/many-vips.log"), photoscroll $(tail -1 "$work/many-ours.log") (wall s, peak KB, CPU s)"
    done
    report "many ($COUNT × 12 MP)" "$work/many-ours.log" "$work/many-vips.log" 0.9 1.2
fi
