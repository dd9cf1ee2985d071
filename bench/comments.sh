#!/usr/bin/env bash
# Comment posting under load: POST throughput and p99 latency with 32 concurrent clients while
# another wrk keeps fetching tiles, against two references measured in the same run:
# - GET /healthz on the same server with the same clients and tile load (what the HTTP layer
#   alone can do: the ratio is the share of it a validated, durably stored comment keeps);
# - the sqlite3 CLI doing synchronous=FULL WAL inserts, one transaction each, for as long (what
#   durable acknowledgement costs on this disk one at a time, with no HTTP, JSON or validation).
#   A ratio above 1 is group commit at work: concurrent posts share one fsync.
# Then how soon a comment reaches a page that has its photo open (bench/lib/comment-delivery.py):
# DELIVERIES posts one at a time, each from its POST to its frame on an open live stream, against
# the POST's own round trip in the same run.
#
# Then replicas (docs/scale-out.md), in the same run, each figure the median of ROUNDS
# alternating runs, every server in its default configuration (shipped config.json, request
# log on, to a file):
# - durable POSTs per second and p99 through nginx to two replicas on one PostgreSQL (its
#   default durability: fsync and synchronous_commit on), against the same load through nginx
#   to one process on SQLite in its data folder;
# - a hot tile through nginx to two replicas, against the same through nginx to one replica.
#
# Usage: bash bench/comments.sh            (PHOTOSCROLL_BIN overrides the binary; DURATION seconds,
#                                           ROUNDS for the replica part, default 3; DELIVERIES
#                                           posts for the delivery figure, default 50)
# Needs: wrk, sqlite3, vips, nginx, postgresql (make bench installs them). Loopback only; stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh
. bench/lib/replicas.sh

BIN=${PHOTOSCROLL_BIN:-.build/release/photoscroll}
DURATION=${DURATION:-10}
CLIENTS=32
for tool in wrk sqlite3 vips curl; do
    command -v "$tool" >/dev/null || { echo "bench/comments.sh needs $tool: scripts/install-deps.sh build bench" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "no binary at $BIN: run 'swift build -c release' (or set PHOTOSCROLL_BIN)" >&2; exit 1; }

work=$(mktemp -d)
chmod 755 "$work"
WORK="$work"
server_pid=""
OURS_PIDS=""
NGINX_PIDS=""
cleanup() {
    local pid
    for pid in $server_pid $OURS_PIDS $NGINX_PIDS; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
    stop_postgres
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
python3 bench/lib/comment-delivery.py "$base" "$photo" "${DELIVERIES:-50}"

# --- Replicas: two on PostgreSQL behind nginx, against one on SQLite behind nginx ---------------
ROUNDS=${ROUNDS:-3}
kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
server_pid=""
if ! command -v nginx >/dev/null || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "replicas: not measured (needs nginx and postgresql: make bench installs them)"
    exit 0
fi
start_postgres "$work/pg"
mkdir -p "$work/shared" "$work/single"
start_server replica-a PHOTOSCROLL_DATABASE="$PG_URL" PHOTOSCROLL_COMMENTS_PER_MINUTE=0 PHOTOSCROLL_TRUSTED_PROXIES=127.0.0.1 -- \
    --data "$work/shared" --photos "$work/photos"
port_a=$SERVER_PORT
start_server replica-b PHOTOSCROLL_DATABASE="$PG_URL" PHOTOSCROLL_COMMENTS_PER_MINUTE=0 PHOTOSCROLL_TRUSTED_PROXIES=127.0.0.1 -- \
    --data "$work/shared" --photos "$work/photos"
port_b=$SERVER_PORT
start_server single PHOTOSCROLL_COMMENTS_PER_MINUTE=0 PHOTOSCROLL_TRUSTED_PROXIES=127.0.0.1 -- \
    --data "$work/single" --photos "$work/photos"
port_single=$SERVER_PORT
two=$(free_port); start_balancer "$work/nginx-two" "$two" "$port_a" "$port_b"
one_sqlite=$(free_port); start_balancer "$work/nginx-sqlite" "$one_sqlite" "$port_single"
one_replica=$(free_port); start_balancer "$work/nginx-one" "$one_replica" "$port_a"
for port in "$port_a" "$port_b" "$port_single"; do wait_for_photo "http://127.0.0.1:$port"; done
replica_photo=$PHOTO
# Hot tiles: one URL, fetched once through each path so every replica has it in memory.
hot="/photos/$replica_photo/tiles/0/0/0.jpg"
for port in "$port_a" "$port_b" "$port_single"; do
    for _ in 1 2; do curl -fsS -o /dev/null "http://127.0.0.1:$port$hot"; done
done

# post_run PORT OUT: one wrk run of durable POSTs; appends "req/s p99_ms non2xx" to OUT.
post_run() {
    wrk -t2 -c"$CLIENTS" -d"${DURATION}s" -s "$work/post.lua" "http://127.0.0.1:$1/photos/$replica_photo/comments" >"$work/wrk.txt"
    local r
    r=$(grep '^RESULT' "$work/wrk.txt")
    awk -v r="$r" 'BEGIN { n = split(r, f, /[ =]/); for (i = 2; i < n; i += 2) v[f[i]] = f[i + 1];
        printf "%.0f %.2f %d\n", v["requests"] / v["seconds"], v["p99_ms"], v["non2xx"] }' >>"$2"
}
# tile_run PORT OUT: one wrk run of the hot tile; appends "req/s p99_ms" to OUT.
tile_run() {
    wrk -t2 -c"$CLIENTS" -d"${DURATION}s" --latency "http://127.0.0.1:$1$hot" >"$work/wrk.txt"
    awk '/Requests\/sec/ { rps = $2 } $1 == "99%" { p = $2; if (p ~ /us$/) p = p / 1000; else if (p ~ /ms$/) p = p + 0; else if (p ~ /s$/) p = p * 1000 }
        END { printf "%.0f %.2f\n", rps, p }' "$work/wrk.txt" >>"$2"
}
median() { sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }

: >"$work/post-two.txt"; : >"$work/post-sqlite.txt"; : >"$work/tile-two.txt"; : >"$work/tile-one.txt"
echo "replicas: $CLIENTS clients, ${DURATION}s a run, $ROUNDS rounds; nginx on :$two (two replicas on PostgreSQL), :$one_sqlite (one on SQLite), :$one_replica (one replica)"
for round in $(seq 1 "$ROUNDS"); do
    post_run "$two" "$work/post-two.txt"
    post_run "$one_sqlite" "$work/post-sqlite.txt"
    tile_run "$two" "$work/tile-two.txt"
    tile_run "$one_replica" "$work/tile-one.txt"
    echo "round $round (req/s p99-ms): POST two replicas $(tail -1 "$work/post-two.txt"), POST one SQLite $(tail -1 "$work/post-sqlite.txt"), tile two $(tail -1 "$work/tile-two.txt"), tile one $(tail -1 "$work/tile-one.txt")"
done
stored_pg=$(curl -fsS "http://127.0.0.1:$port_b/photos/$replica_photo" | grep -o '"commentCount":[0-9]*' | cut -d: -f2)
stored_a=$(curl -fsS "http://127.0.0.1:$port_a/photos/$replica_photo" | grep -o '"commentCount":[0-9]*' | cut -d: -f2)
post_two=$(median "$work/post-two.txt" 1); post_two_p99=$(median "$work/post-two.txt" 2)
post_one=$(median "$work/post-sqlite.txt" 1); post_one_p99=$(median "$work/post-sqlite.txt" 2)
tile_two=$(median "$work/tile-two.txt" 1); tile_one=$(median "$work/tile-one.txt" 1)
echo "POST, two replicas on PostgreSQL through nginx: median $post_two req/s, p99 $post_two_p99 ms (commentCount on A $stored_a, on B $stored_pg)"
echo "POST, one SQLite process through nginx:         median $post_one req/s, p99 $post_one_p99 ms"
awk -v a="$post_two" -v b="$post_one" 'BEGIN { printf "ratio: durable POST throughput, two replicas on PostgreSQL / one SQLite process = %.2f\n", a / b }'
awk -v a="$post_two_p99" -v b="$post_one_p99" 'BEGIN { printf "ratio: POST p99, two replicas on PostgreSQL / one SQLite process = %.2f\n", a / b }'
echo "hot tile through nginx: two replicas median $tile_two req/s, one replica median $tile_one req/s"
awk -v a="$tile_two" -v b="$tile_one" 'BEGIN { printf "ratio: hot tile throughput, two replicas / one replica = %.2f (on a machine of %d cores)\n", a / b, '"$(nproc)"' }'
