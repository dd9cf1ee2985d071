#!/usr/bin/env bash
# Backups of a running library: how long `photoscroll backup` and `restore` take and how large the
# file is for a library of PHOTOS photos (default 10,000) and COMMENTS comments (default 50,000),
# and what taking backups one after another does to the tiles and comments being served meanwhile:
# the p99 of a hot tile and of a comment's POST while `backup` runs in a loop, against the same
# load with no backup, in the same run (each the median of ROUNDS alternating rounds).
#
# The server runs in its default configuration but for the comment rate limit (commentsPerMinute
# 0), which would refuse the posting clients; SQLite in its data folder, or PostgreSQL with
# DATABASE=postgres://… . The photos are copies of one small JPEG (one pyramid) and one large
# photo for the tiles: the catalog has PHOTOS rows, the ingest builds two pyramids.
#
# Usage: bash bench/backup.sh      (BIN=path/to/photoscroll, PHOTOS, COMMENTS, DURATION seconds, ROUNDS)
# Needs: wrk, vips, curl (make bench installs them). Loopback only; stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

BIN="${BIN:-.build/release/photoscroll}"
PHOTOS="${PHOTOS:-10000}"
COMMENTS="${COMMENTS:-50000}"
DURATION="${DURATION:-8}"
ROUNDS="${ROUNDS:-3}"
require_tools bench/backup.sh wrk vips curl python3
require_binary
make_workdir

mkdir -p "$WORK/photos/many" "$WORK/data"
bench/lib/make-photo.sh "$WORK/photos/large.jpg" 4000 3000
vips sines "$WORK/small.jpg" 64 48
for i in $(seq 1 "$((PHOTOS - 1))"); do cp "$WORK/small.jpg" "$WORK/photos/many/$i.jpg"; done
FLAGS=(--photos "$WORK/photos" --data "$WORK/data")
[ -n "${DATABASE:-}" ] && FLAGS+=(--database "$DATABASE")
PORT="$(free_port)"
PHOTOSCROLL_COMMENTS_PER_MINUTE=0 "$BIN" serve --port "$PORT" "${FLAGS[@]}" > "$WORK/server.out" 2> "$WORK/server.log" &
OURS_PID=$!
wait_for "$PORT"
base="http://127.0.0.1:$PORT"
# Ready: every photo listed and both pyramids built.
for _ in $(seq 1 600); do
    curl -fsS "$base/readyz" 2>/dev/null | grep -q '"ready"' && break
    sleep 0.5
done
# The large photo's id, from the pages of the list.
large=$(python3 - "$base" <<'PY'
import json, sys, urllib.request
url = sys.argv[1] + "/photos?limit=1000"
while url:
    page = json.load(urllib.request.urlopen(url))
    for photo in page["photos"]:
        if photo["title"] == "large":
            print(photo["id"]); sys.exit(0)
    url = page.get("next") and (page["next"] if page["next"].startswith("http") else sys.argv[1] + page["next"])
sys.exit("the large photo is not listed")
PY
)
tile="$base/photos/$large/tiles/0/0/0.jpg"
curl -fsS -o /dev/null "$tile"

cat > "$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
    n = n + 1
    return wrk.format(nil, nil, nil, '{"author":"wrk","text":"bench comment ' .. n .. ' with a few words in it"}')
end
done = function(summary, latency, requests)
    io.write(string.format("RESULT %d %.2f %d\n", summary.requests, latency:percentile(99) / 1000, summary.errors.status))
end
LUA
# The comments: posted until there are COMMENTS.
count() { curl -fsS "$base/photos/$large" | python3 -c 'import json,sys; print(json.load(sys.stdin)["commentCount"])'; }
while [ "$(count)" -lt "$COMMENTS" ]; do
    wrk -t2 -c16 -d5s -s "$WORK/post.lua" "$base/photos/$large/comments" > /dev/null
done
echo "library: $(curl -fsS "$base/photos?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])') photos, $(count) comments"

# Backup and restore, alone.
started=$(date +%s%N)
"$BIN" backup --out "$WORK/alone.psbackup" "${FLAGS[@]}" > /dev/null
backup_ms=$(( ($(date +%s%N) - started) / 1000000 ))
started=$(date +%s%N)
"$BIN" restore "$WORK/alone.psbackup" --data "$WORK/restored" > /dev/null
restore_ms=$(( ($(date +%s%N) - started) / 1000000 ))
echo "backup $backup_ms ms, $(stat -c %s "$WORK/alone.psbackup") bytes; restore into an empty data folder (SQLite) $restore_ms ms"

# Tiles and comments served, with and without backups running.
round() {  # round NAME: one round of both loads; appends "tile_p99 post_p99" to $WORK/NAME.txt
    wrk -t1 -c8 -d"${DURATION}s" --latency "$tile" > "$WORK/tiles.txt" &
    local tiles=$!
    wrk -t1 -c8 -d"${DURATION}s" -s "$WORK/post.lua" "$base/photos/$large/comments" > "$WORK/posts.txt"
    wait "$tiles"
    local tile_p99 post_p99
    tile_p99=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub("us", "", v); v /= 1000 } else if (v ~ /ms$/) { sub("ms", "", v) } else { sub("s", "", v); v *= 1000 }; print v }' "$WORK/tiles.txt")
    post_p99=$(awk '/^RESULT/ { print $3 }' "$WORK/posts.txt")
    echo "$tile_p99 $post_p99" >> "$WORK/$1.txt"
}
backups=0
for _ in $(seq 1 "$ROUNDS"); do
    round quiet
    ( end=$(( $(date +%s) + DURATION )); while [ "$(date +%s)" -lt "$end" ]; do
          "$BIN" backup --out "$WORK/during.psbackup" "${FLAGS[@]}" > /dev/null; echo >> "$WORK/backups"; done ) &
    loop=$!
    round backing-up
    wait "$loop"
done
backups=$(wc -l < "$WORK/backups")
q_tile=$(cut -d' ' -f1 "$WORK/quiet.txt" | median); q_post=$(cut -d' ' -f2 "$WORK/quiet.txt" | median)
b_tile=$(cut -d' ' -f1 "$WORK/backing-up.txt" | median); b_post=$(cut -d' ' -f2 "$WORK/backing-up.txt" | median)
echo "p99 with no backup: tile $q_tile ms, comment POST $q_post ms (rounds: $(tr '\n' ';' < "$WORK/quiet.txt"))"
echo "p99 while backups ran one after another ($backups in all): tile $b_tile ms, comment POST $b_post ms (rounds: $(tr '\n' ';' < "$WORK/backing-up.txt"))"
awk -v a="$b_tile" -v b="$q_tile" -v c="$b_post" -v d="$q_post" \
    'BEGIN { printf "ratio during/before: tile p99 %.2f, comment POST p99 %.2f\n", a / b, c / d }'
