#!/usr/bin/env bash
# Uploads over loopback against `cp`: the same photos (1 GB in all, uncompressed TIFFs drawn by
# libvips) sent to the release server as tus creations with their data (curl -T, streamed from the
# file, one request each; the photos folder and the data folder on the same disk), and copied with
# `cp` into a folder of that disk, alternately ROUNDS times. The server syncs every photo before it answers, `cp` does
# not, so `cp` followed by `sync` is timed too. Prints the medians and the ratios (goal: uploads at
# least 0.8 of `cp`'s throughput).
#
# Then one 2 GB photo is uploaded while the server's RSS is sampled every 50 ms (from /proc): its
# RSS before, at its peak and after say whether memory stays flat (it should not grow with the
# photo's size).
#
# Usage: bench/upload.sh   (env: ROUNDS=3 TOTAL_MB=1024 FILES=8 BIG_MB=2048)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

ROUNDS="${ROUNDS:-3}"
TOTAL_MB="${TOTAL_MB:-1024}"
FILES="${FILES:-8}"
BIG_MB="${BIG_MB:-2048}"
BIN=.build/release/photoscroll

for tool in vips python3 curl; do
    command -v "$tool" >/dev/null || { echo "bench/upload.sh needs $tool (make bench installs it)" >&2; exit 1; }
done
ensure_release_binary

WORK="$(mktemp -d "${TMPDIR:-/tmp}/upload-bench.XXXXXX")"
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

now() { date +%s.%N; }
median() { python3 -c 'import statistics,sys; print("%.3f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

# Photos of TOTAL_MB / FILES megabytes each: one float band of Perlin noise, uncompressed.
mkdir -p "$WORK/source"
per_file=$(( TOTAL_MB * 1024 * 1024 / FILES ))
side=$(python3 -c "import math; print(int(math.sqrt($per_file / 4)))")
echo "== drawing $FILES photos of ${side}x${side} float pixels ($((per_file >> 20)) MiB each)" >&2
for i in $(seq 1 "$FILES"); do
    vips perlin "$WORK/source/photo$i.tif[compression=none]" "$side" "$side" --cell-size $((200 + i))
done
bytes=$(du -cb "$WORK/source"/*.tif | tail -1 | cut -f1)

start_server() {  # DATA PHOTOS
    local port
    port="$(free_port)"
    "$BIN" serve --host 127.0.0.1 --port "$port" --photos "$2" --data "$1" --log-level warning \
        --max-image-pixels 4000000000 --max-upload-megabytes 8192 --ingest-concurrency 1 --shutdown-grace-seconds 1 \
        > "$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    wait_for "$port"
    PORT=$port
}

stop_server() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

upload_all() {  # → seconds to send every photo, each one request, each answered once stored
    local started ended
    started="$(now)"
    for f in "$WORK"/source/*.tif; do
        local name
        name="$(basename "$f" | base64 -w0)"
        curl -sf -o /dev/null -X POST "http://127.0.0.1:$PORT/uploads" -H 'Tus-Resumable: 1.0.0' \
            -H "Upload-Length: $(stat -c%s "$f")" -H "Upload-Metadata: filename $name" \
            -H 'Content-Type: application/offset+octet-stream' -T "$f" \
            || { echo "upload of $f failed" >&2; tail -5 "$WORK/server.log" >&2; exit 1; }
    done
    ended="$(now)"
    python3 -c "print($ended - $started)"
}

copy_all() {  # DEST [sync] → seconds
    local started ended
    started="$(now)"
    cp "$WORK"/source/*.tif "$1"/
    [ "${2:-}" = sync ] && sync
    ended="$(now)"
    python3 -c "print($ended - $started)"
}

# The source files are read from the page cache by both, as `cp` would read them on a second copy.
cat "$WORK"/source/*.tif > /dev/null
uploads=(); copies=(); synced=()
for round in $(seq 1 "$ROUNDS"); do
    rm -rf "$WORK/run"; mkdir -p "$WORK/run/photos" "$WORK/run/copy" "$WORK/run/copy-sync"
    sync
    start_server "$WORK/run/data" "$WORK/run/photos"
    uploads+=("$(upload_all)")
    stop_server
    sync
    copies+=("$(copy_all "$WORK/run/copy")")
    sync
    synced+=("$(copy_all "$WORK/run/copy-sync" sync)")
    echo "round $round: upload ${uploads[-1]} s, cp ${copies[-1]} s, cp+sync ${synced[-1]} s" >&2
done
rm -rf "$WORK/run"

up=$(median "${uploads[@]}"); cp_s=$(median "${copies[@]}"); cps=$(median "${synced[@]}")
python3 - "$bytes" "$up" "$cp_s" "$cps" <<'PY'
import sys
size, up, cp, cps = int(sys.argv[1]), *map(float, sys.argv[2:])
mb = size / 1e6
print(f"{mb:.0f} MB of photos")
print(f"upload (tus, curl, fsync per photo): {up:.3f} s  {mb / up:.0f} MB/s")
print(f"cp:                                  {cp:.3f} s  {mb / cp:.0f} MB/s   uploads / cp = {cp / up:.2f}  (goal >= 0.8)")
print(f"cp + sync:                           {cps:.3f} s  {mb / cps:.0f} MB/s   uploads / (cp + sync) = {cps / up:.2f}")
PY

# Memory during one large upload.
rm -f "$WORK"/source/*.tif
big_side=$(python3 -c "import math; print(int(math.sqrt($BIG_MB * 1024 * 1024)))")
echo "== drawing one ${big_side}x${big_side} photo ($BIG_MB MiB)" >&2
vips black "$WORK/source/big.tif[compression=none]" "$big_side" "$big_side"
mkdir -p "$WORK/big/photos"
start_server "$WORK/big/data" "$WORK/big/photos"
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status"; }
before=$(rss)
: > "$WORK/rss"
( while kill -0 "$SERVER_PID" 2>/dev/null; do rss >> "$WORK/rss"; sleep 0.05; done ) &
SAMPLER=$!
big_seconds=$(upload_all)
after=$(rss)
kill "$SAMPLER" 2>/dev/null || true
peak=$(sort -n "$WORK/rss" | tail -1)
python3 - "$before" "$peak" "$after" "$BIG_MB" "$big_seconds" <<'PY'
import sys
before, peak, after = (int(x) / 1024 for x in sys.argv[1:4])
size, seconds = int(sys.argv[4]), float(sys.argv[5])
print(f"one {size} MiB upload in {seconds:.2f} s: server RSS {before:.0f} MiB before, {peak:.0f} MiB at peak, "
      f"{after:.0f} MiB after (peak - before = {peak - before:.0f} MiB, {100 * (peak - before) / size:.1f}% of the photo)")
PY
stop_server
