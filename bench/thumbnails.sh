#!/usr/bin/env bash
# Thumbnails first: the server's first start, in its default configuration, on a folder of COUNT
# distinct 12-megapixel JPEGs, timed from the moment it is launched until every photo's thumbnail
# answers 200, against `xargs -P<cores> vipsthumbnail -s 256` over the same files, in alternating
# rounds of the same run. Prints, for every round and as min / median / max, the RATIO of our wall
# time to the reference's (target ≤ 1.1), and the same ratio of CPU time.
#
# The photos are drawn with libvips: one larger texture (bench/lib/make-photo.sh), of which every
# photo is a different 4000×3000 window, so no two photos share their pixels.
#
# No event says that a thumbnail is made, so the script asks the server's own progress figure
# (`photoscroll_ingest_stage_photos{stage="thumbnails"}` in /metrics) every 20 ms, then checks
# that every photo's thumbnail answers 200 (asked again until it does); the time is taken once
# the last one has answered.
#
# Usage: bench/thumbnails.sh   (env: COUNT=200 RUNS=3 PHOTOSCROLL_BIN=.build/release/photoscroll)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

COUNT="${COUNT:-200}"
RUNS="${RUNS:-3}"
CORES="$(nproc)"
BIN="${PHOTOSCROLL_BIN:-.build/release/photoscroll}"
require_tools bench/thumbnails.sh vips vipsthumbnail python3 /usr/bin/time
require_binary
make_workdir

echo "== drawing a 4600×3450 texture and $COUNT distinct 4000×3000 JPEGs cut from it" >&2
mkdir -p "$WORK/photos"
bench/lib/make-photo.sh "$WORK/base.jpg" 4600 3450
vips copy "$WORK/base.jpg" "$WORK/base.v"
rm "$WORK/base.jpg"
# Window i starts at a different (x, y): 20 columns 30 px apart, rows 40 px apart.
seq 0 $((COUNT - 1)) | xargs -P "$CORES" -I{} sh -c '
    i=$1; x=$(( (i % 20) * 30 )); y=$(( (i / 20) % 15 * 40 ))
    vips crop "$2/base.v" "$(printf "%s/photos/photo%06d.jpg[Q=90]" "$2" "$i")" "$x" "$y" 4000 3000' _ {} "$WORK"
rm "$WORK/base.v"

: > "$WORK/ratios.txt"
for run in $(seq 1 "$RUNS"); do
    rm -rf "$WORK/data" "$WORK/thumbs"; mkdir -p "$WORK/thumbs"
    port="$(free_port)"
    start="$(date +%s.%N)"
    "$BIN" serve --host 127.0.0.1 --port "$port" --photos "$WORK/photos" --data "$WORK/data" --log-level warning \
        > "$WORK/server.log" 2>&1 &
    OURS_PID=$!
    ours="$(python3 - "$port" "$COUNT" "$start" "$OURS_PID" "$(getconf CLK_TCK)" <<'PY'
import glob, http.client, json, re, sys, time
port, count, start, pid, hz = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
def cpu_seconds():
    ticks = 0
    for stat in glob.glob("/proc/%s/task/*/stat" % pid):
        try:
            fields = open(stat).read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return ticks / hz
conn = None
def get(path):
    global conn
    if conn is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    except OSError:
        conn = None
        raise
deadline = start + 3600
def pause():
    if time.time() > deadline: sys.exit("no answer within an hour")
    time.sleep(0.02)
# 1. The server's own count of photos past the thumbnail stage.
pattern = re.compile(rb'^photoscroll_ingest_stage_photos\{stage="thumbnails"\} (\S+)$', re.M)
while True:
    try:
        status, body = get("/metrics")
    except OSError:
        pause(); continue
    found = pattern.search(body) if status == 200 else None
    if found and float(found.group(1)) >= count: break
    pause()
# 2. Every photo listed, and every thumbnail answering 200.
ids, after = [], 0
while True:
    status, body = get("/photos?limit=1000&after=%d" % after)
    page = json.loads(body)["photos"]
    ids += [p["id"] for p in page]
    if len(page) < 1000: break
    after = page[-1]["id"]
if len(ids) < count: sys.exit("only %d photos listed" % len(ids))
waiting = ids
while waiting:
    waiting = [i for i in waiting if get("/photos/%d/thumbnail.jpg" % i)[0] != 200]
    if waiting: pause()
print("%.3f %.2f" % (time.time() - start, cpu_seconds()))
PY
)"
    kill "$OURS_PID"; wait "$OURS_PID" 2>/dev/null || true; OURS_PID=""
    start="$(date +%s.%N)"
    /usr/bin/time -f "%U %S" -o "$WORK/time" sh -c \
        'find "$1/photos" -name "*.jpg" -print0 | xargs -0 -P "$2" -n 8 vipsthumbnail -s 256 -o "$1/thumbs/%s.jpg"' _ "$WORK" "$CORES"
    ref_wall="$(python3 -c "import time; print('%.3f' % (time.time() - $start))")"
    ref_cpu="$(awk '{ printf "%.2f", $1 + $2 }' "$WORK/time")"
    [ "$(find "$WORK/thumbs" -name '*.jpg' | wc -l)" -eq "$COUNT" ] || { echo "vipsthumbnail made too few thumbnails" >&2; exit 1; }
    set -- $ours
    echo "$1 $ref_wall $2 $ref_cpu" | awk '{ printf "%.3f %.3f\n", $1 / $2, $3 / $4 }' >> "$WORK/ratios.txt"
    echo "round $run: every thumbnail answered $1 s after launch (server CPU $2 s); xargs -P$CORES vipsthumbnail -s 256: $ref_wall s (CPU $ref_cpu s); ratio $(tail -1 "$WORK/ratios.txt" | cut -d' ' -f1)" >&2
done
summary() {  # COLUMN
    cut -d' ' -f"$1" "$WORK/ratios.txt" | sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%.2f / %.2f / %.2f", v[1], m, v[NR] }'
}
echo "ratio photoscroll / xargs -P$CORES vipsthumbnail -s 256, $COUNT × 12 MP, min / median / max over $RUNS rounds:"
echo "  wall until every thumbnail answers: $(summary 1)   (target ≤ 1.1)"
echo "  CPU:                                $(summary 2)"
