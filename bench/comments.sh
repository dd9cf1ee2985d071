#!/usr/bin/env bash
# Comment posting under load: POST throughput and p99 latency with 32 concurrent clients while
# another wrk keeps fetching tiles, against two references measured in the same run:
# - GET /healthz on the same server with the same clients and tile load (what the HTTP layer
#   alone can do: the ratio is the share of it a validated, durably stored comment keeps);
# - the sqlite3 CLI doing synchronous=FULL WAL inserts, one transaction each, for as long (what
#   durable acknowledgement costs on this disk one at a time, with no HTTP, JSON or validation).
#   A ratio above 1 is group commit at work: concurrent posts share one fsync.
#
# Usage: bash bench/comments.sh            (PHOTOSCROLL_BIN overrides the binary; DURATION seconds)
# Needs: wrk, sqlite3, vips (scripts/install-deps.sh build bench). Loopback only; stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${PHOTOSCROLL_BIN:-.build/release/photoscroll}
DURATION=${DURATION:-10}
CLIENTS=32
for tool in wrk sqlite3 vips curl; do
    command -v "$tool" >/dev/null || { echo "bench/comments.sh needs $tool: scripts/install-deps.sh build bench" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "no binary at $BIN: run 'swift build -c release' (or set PHOTOSCROLL_BIN)" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# One photo large enough for a few pyramid levels.
mkdir -p "$work/photos" "$work/data"
vips gaussnoise "$work/photos/bench.jpg" 3000 2000 >/dev/null

# The rate limit is off: this measures the store and the server, not the abuse guard.
PHOTOSCROLL_COMMENTS_PER_MINUTE=0 PHOTOSCROLL_LOG_LEVEL=error \
    "$BIN" serve --port 0 --data "$work/data" --photos "$work/photos" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 1 200); do
    grep -q '^listening on ' "$work/server.out" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
    sleep 0.05
done
base=$(head -n1 "$work/server.out" | sed 's/^listening on //')
[ -n "$base" ] || { echo "the server did not start" >&2; cat "$work/server.err" >&2; exit 1; }

# The photo's id and a tile URL from the catalog (the scan may take a moment).
photo=""
for _ in $(seq 1 100); do
    photo=$(curl -fsS "$base/photos" | grep -o '"id":[0-9]*' | head -n1 | cut -d: -f2 || true)
    [ -n "$photo" ] && break
    sleep 0.1
done
[ -n "$photo" ] || { echo "no photo appeared in $base/photos" >&2; exit 1; }
tile="$base/photos/$photo/tiles/0/0/0.jpg"
curl -fsS -o /dev/null "$tile"

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
    n = n + 1
    return wrk.format(nil, nil, nil, '{"author":"wrk","text":"bench comment ' .. n .. ' with a few words"}')
end
done = function(summary, latency, requests)
    io.write(string.format("RESULT requests=%d seconds=%.3f p50_ms=%.2f p99_ms=%.2f non2xx=%d errors=%d\n",
        summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

echo "server $base, photo $photo; $CLIENTS posting clients for ${DURATION}s while 8 clients fetch $tile"
wrk -t2 -c8 -d"$((2 * DURATION + 2))s" "$tile" >"$work/tiles.txt" &
tiles_pid=$!
sleep 0.5
wrk -t2 -c"$CLIENTS" -d"${DURATION}s" -s "$work/post.lua" "$base/photos/$photo/comments" >"$work/post.txt"
# Reference 1, same server, same tile load: the cheapest request it has, with as many clients.
wrk -t2 -c"$CLIENTS" -d"${DURATION}s" --latency "$base/healthz" >"$work/healthz.txt"
wait "$tiles_pid"
health_rps=$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$work/healthz.txt")
health_p99=$(awk '$1 == "99%" { print $2 }' "$work/healthz.txt")

result=$(grep '^RESULT' "$work/post.txt")
requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$result")
seconds=$(sed 's/.*seconds=\([0-9.]*\).*/\1/' <<<"$result")
p50=$(sed 's/.*p50_ms=\([0-9.]*\).*/\1/' <<<"$result")
p99=$(sed 's/.*p99_ms=\([0-9.]*\).*/\1/' <<<"$result")
non2xx=$(sed 's/.*non2xx=\([0-9]*\).*/\1/' <<<"$result")
post_rps=$(awk -v r="$requests" -v s="$seconds" 'BEGIN { printf "%.0f", r / s }')
tile_rps=$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$work/tiles.txt")
stored=$(curl -fsS "$base/photos/$photo" | grep -o '"commentCount":[0-9]*' | cut -d: -f2 || echo "?")

# Reference 2: durable inserts through the sqlite3 CLI, one commit each, for the same length of time.
# Measured right after the load so both see the same disk; killed at the deadline and the rows counted.
ref="$work/reference.sqlite"
sqlite3 "$ref" "PRAGMA journal_mode=WAL;
  CREATE TABLE comments (id INTEGER PRIMARY KEY AUTOINCREMENT, photo_id INTEGER NOT NULL, author TEXT NOT NULL,
  text TEXT NOT NULL, created_at INTEGER NOT NULL, client TEXT NOT NULL DEFAULT '');" >/dev/null
awk 'BEGIN { print "PRAGMA synchronous=FULL;"
    for (i = 1; i <= 200000; i++) printf "INSERT INTO comments (photo_id, author, text, created_at, client) VALUES (1, %cwrk%c, %cbench comment %d with a few words%c, strftime(%c%%s%c), %c127.0.0.1%c);\n", 39, 39, 39, i, 39, 39, 39, 39, 39 }' >"$work/inserts.sql"
start=$(date +%s.%N)
timeout "$DURATION" sqlite3 "$ref" <"$work/inserts.sql" || true
end=$(date +%s.%N)
n=$(sqlite3 "$ref" "SELECT count(*) FROM comments")
ref_rps=$(awk -v n="$n" -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", n / (b - a) }')

echo "POST /photos/$photo/comments: $post_rps req/s, p50 ${p50} ms, p99 ${p99} ms, non-2xx $non2xx, commentCount now $stored"
echo "tiles meanwhile:             $tile_rps req/s"
echo "GET /healthz, same clients and tile load: $health_rps req/s, p99 $health_p99"
echo "sqlite3 CLI, durable inserts one commit each: $ref_rps inserts/s ($n in ${DURATION}s)"
awk -v a="$post_rps" -v b="$health_rps" 'BEGIN { printf "ratio: durable POST / GET /healthz throughput = %.2f\n", a / b }'
awk -v a="$post_rps" -v b="$ref_rps" 'BEGIN { printf "ratio: durable POST / sqlite3 one-commit-per-insert throughput = %.2f (above 1: group commit)\n", a / b }'
