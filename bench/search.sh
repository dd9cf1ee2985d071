#!/usr/bin/env bash
# Search at scale: the p95 of one-word, two-word and prefix queries and of suggestions, each
# against the p95 of a `GET /photos?limit=50` page in the same run (ratio), for a library of
# PHOTOS photos (default 100,000) with COMMENTS comments (default 20,000); how long the index
# takes to fill at the first start against the ingest's thumbnail stage of the same start; and
# the index's size on disk against the catalog's.
#
# The photos are copies of TEMPLATES small JPEGs (default 40), each with its own date taken,
# camera, lens and GPS position (exiftool), spread over folders by place and year under file
# names of their own: the catalog has PHOTOS rows with varied words, while the ingest builds
# TEMPLATES pyramids (equal bytes share one). Place names come from a cities table of the eight
# cities the positions are near, written here (the server reads any GeoNames cities table).
# Searches ask for pages of 50, like the reference page.
#
# Each kind asks 100 to 200 distinct queries made of the library's words in turn, more than the
# server keeps answers for, so its figure is a first search's; a few queries asked again and
# again give a second figure, the kept answers' (a search's next pages, the same search again).
#
# The server runs in its default configuration but for the comment rate limit (commentsPerMinute
# 0) and the place tables' folder; SQLite in its data folder, or PostgreSQL with
# DATABASE=postgres://… (an empty database: the index is filled at the first start).
#
# Usage: bash bench/search.sh      (BIN=path/to/photoscroll, PHOTOS, COMMENTS, TEMPLATES, DURATION seconds)
# Needs: wrk, vips, exiftool, curl, python3, sqlite3 (psql with DATABASE). Loopback only; stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/common.sh

BIN="${BIN:-.build/release/photoscroll}"
PHOTOS="${PHOTOS:-100000}"
COMMENTS="${COMMENTS:-20000}"
TEMPLATES="${TEMPLATES:-40}"
DURATION="${DURATION:-5}"
require_tools bench/search.sh wrk vips exiftool curl python3 sqlite3
require_binary
make_workdir

# The eight cities, as GeoNames writes them (name, latitude, longitude, country, admin1 code).
mkdir -p "$WORK/geonames" "$WORK/templates" "$WORK/data"
python3 - "$WORK/geonames" <<'PY'
import sys
cities = [("Lisbon", 38.71667, -9.13333, "PT", "14", "Lisbon"), ("Porto", 41.14961, -8.61099, "PT", "17", "Porto"),
          ("São Paulo", -23.5475, -46.63611, "BR", "27", "São Paulo"), ("Paris", 48.85341, 2.3488, "FR", "11", "Île-de-France"),
          ("Tokyo", 35.6895, 139.69171, "JP", "40", "Tokyo"), ("New York City", 40.71427, -74.00597, "US", "NY", "New York"),
          ("London", 51.50853, -0.12574, "GB", "ENG", "England"), ("Sydney", -33.86785, 151.20732, "AU", "02", "New South Wales")]
with open(sys.argv[1] + "/cities15000.txt", "w") as out:
    for number, (name, lat, lon, country, admin, _) in enumerate(cities, 1):
        columns = [""] * 19
        columns[0], columns[1], columns[2], columns[4], columns[5], columns[8], columns[10] = str(number), name, name, str(lat), str(lon), country, admin
        out.write("\t".join(columns) + "\n")
with open(sys.argv[1] + "/admin1CodesASCII.txt", "w") as out:
    for name, _, _, country, admin, region in cities:
        out.write(f"{country}.{admin}\t{region}\t{region}\t0\n")
PY

# TEMPLATES photos, each different in its pixels and its metadata.
cameras=("FUJIFILM|X100V|" "SONY|ILCE-7M3|FE 35mm F1.8" "Canon|Canon EOS R5|RF24-70mm F2.8 L IS USM" "Apple|iPhone 13|" "NIKON CORPORATION|NIKON Z 6|NIKKOR Z 50mm f/1.8 S")
positions=("38.72 -9.14" "41.15 -8.61" "-23.55 -46.64" "48.86 2.35" "35.69 139.69" "40.71 -74.01" "51.51 -0.13" "-33.87 151.21")
# The folders' places and occasions and the comments' words, which the searches ask for too.
places=(lisboa porto sampa paris tokyo nyc london sydney)
occasions=(beach birthday garden museum wedding market hike concert)
comment_words=(birthday sunset grandma picnic fireworks harbour snow breakfast)
for t in $(seq 0 $((TEMPLATES - 1))); do
    vips black "$WORK/templates/$t.v" 64 48 --bands 3
    vips linear "$WORK/templates/$t.v" "$WORK/templates/$t.jpg" 1 "$((t * 5 % 256))" --uchar
    IFS='|' read -r make model lens <<< "${cameras[$((t % ${#cameras[@]}))]}"
    read -r lat lon <<< "${positions[$((t % ${#positions[@]}))]}"
    year=$((2014 + t % 11)); month=$((1 + (t * 7) % 12)); day=$((1 + (t * 11) % 28))
    args=(-q -overwrite_original -DateTimeOriginal="$(printf '%04d:%02d:%02d 12:%02d:00' "$year" "$month" "$day" "$t")"
          -Make="$make" -Model="$model" -GPSLatitude="${lat#-}" -GPSLatitudeRef="$([ "${lat#-}" = "$lat" ] && echo N || echo S)"
          -GPSLongitude="${lon#-}" -GPSLongitudeRef="$([ "${lon#-}" = "$lon" ] && echo E || echo W)")
    [ -n "$lens" ] && args+=(-LensModel="$lens")
    exiftool "${args[@]}" "$WORK/templates/$t.jpg"
    rm "$WORK/templates/$t.v"
done
# PHOTOS copies in one process: folders by place and year, names of their own.
python3 - "$WORK/templates" "$WORK/photos" "$PHOTOS" "$TEMPLATES" "${places[*]}" "${occasions[*]}" <<'PY'
import os, sys
templates, photos, count, kinds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
places, occasions = sys.argv[5].split(), sys.argv[6].split()
data = [open(f"{templates}/{t}.jpg", "rb").read() for t in range(kinds)]
for i in range(count):
    t = i % kinds
    folder = f"{photos}/{places[t % 8]}-{2014 + t % 11}/{occasions[(i // kinds) % 8]}"
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/IMG_{i:06d}.jpg", "wb") as out:
        out.write(data[t])
PY

FLAGS=(--photos "$WORK/photos" --data "$WORK/data")
[ -n "${DATABASE:-}" ] && FLAGS+=(--database "$DATABASE")
PORT="$(free_port)"
started=$(date +%s%N)
PHOTOSCROLL_COMMENTS_PER_MINUTE=0 PHOTOSCROLL_PLACE_NAMES="$WORK/geonames" \
    "$BIN" serve --port "$PORT" "${FLAGS[@]}" > "$WORK/server.out" 2> "$WORK/server.log" &
OURS_PID=$!
wait_for "$PORT"
base="http://127.0.0.1:$PORT"
# The first start: when the thumbnail stage ends and when the index is whole, from /readyz's detail.
thumbnails_ms=""; index_ms=""
for _ in $(seq 1 36000); do
    ready=$(curl -fsS "$base/readyz" 2>/dev/null || true)
    now=$(( ($(date +%s%N) - started) / 1000000 ))
    if [ -z "$thumbnails_ms" ] && echo "$ready" | grep -q '"ready"\|"busy"\|"degraded"' \
       && ! echo "$ready" | python3 -c 'import json,re,sys; d=json.load(sys.stdin).get("detail") or ""; m=re.search(r"thumbnails (\d+) of (\d+)", d); sys.exit(0 if m and m.group(1) != m.group(2) else 1)'; then
        [ "$(curl -fsS "$base/photos?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" = "$PHOTOS" ] && thumbnails_ms=$now
    fi
    if [ -z "$index_ms" ] && echo "$ready" | grep -q '"ready"\|"busy"\|"degraded"' && ! echo "$ready" | grep -q 'Search index'; then
        [ "$(curl -fsS "$base/photos?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" = "$PHOTOS" ] && index_ms=$now
    fi
    [ -n "$thumbnails_ms" ] && [ -n "$index_ms" ] && break
    sleep 0.2
done
echo "first start, $PHOTOS photos: thumbnail stage done after ${thumbnails_ms:-?} ms, search index whole after ${index_ms:-?} ms (both from the start)"

# The comments, on photos spread over the library, with words of their own.
cat > "$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local words = {$(printf '"%s", ' "${comment_words[@]}")}
local n = 0
request = function()
    n = n + 1
    local id = (n * 7919) % $PHOTOS + 1
    return wrk.format(nil, "/photos/" .. id .. "/comments", nil,
        '{"author":"wrk","text":"' .. words[n % #words + 1] .. ' with ' .. words[(n * 3) % #words + 1] .. ' ' .. n .. '"}')
end
LUA
posted=0
while [ "$posted" -lt "$COMMENTS" ]; do
    wrk -t2 -c8 -d3s -s "$WORK/post.lua" "$base" > "$WORK/posts.txt"
    posted=$((posted + $(awk '/requests in/ { print $1 }' "$WORK/posts.txt")))
done
echo "library: $PHOTOS photos, about $posted comments"
# Measured once the ingest's later stage is done too (a photo's change bumps the list's
# generation, after which suggestions and places read the list again), and the index has been
# idle long enough to compact its comments' writes (a second, then about a second's work).
for _ in $(seq 1 36000); do
    curl -fsS "$base/readyz" | grep -q 'Ingest\|Search index' || break
    sleep 0.5
done
sleep 10

# p95 of each kind of request, asked in turn from a list.
cat > "$WORK/ask.lua" <<'LUA'
local targets = {}
for line in io.lines(os.getenv("TARGETS")) do targets[#targets + 1] = line end
local n = 0
request = function()
    n = n + 1
    return wrk.format("GET", targets[(n - 1) % #targets + 1])
end
done = function(summary, latency, requests)
    io.write(string.format("P95 %.2f %d %d\n", latency:percentile(95) / 1000, summary.requests, summary.errors.status))
end
LUA
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$OURS_PID/stat"; }
p95() {  # p95 NAME [TARGET…]: the p95 in ms of asking the targets (or NAME.targets') in turn, and the server's CPU per request in NAME.cpu
    local name="$1"; shift
    [ $# -eq 0 ] || printf '%s\n' "$@" > "$WORK/$name.targets"
    local before; before=$(cpu_ticks)
    TARGETS="$WORK/$name.targets" wrk -t1 -c4 -d"${DURATION}s" -s "$WORK/ask.lua" "$base" > "$WORK/$name.out"
    awk -v a="$before" -v b="$(cpu_ticks)" -v hz="$(getconf CLK_TCK)" '/^P95/ { if ($3 > 0) printf "%.2f", (b - a) * 1000 / hz / $3 }' \
        "$WORK/$name.out" > "$WORK/$name.cpu"
    # A run in which no request was answered, or one was answered with an error, has no figure.
    awk '/^P95/ { if ($4 > 0 || $3 == 0) { print "errors" } else { print $2 } }' "$WORK/$name.out"
}
# What users type: distinct queries, many more than the server keeps answers for (the last 8 per
# process, `SearchScoreCache`), so that nearly every request is a first search. They are built
# from the library's own words (the folders' places and occasions, the years, months and days
# taken, the cameras and lenses, the file names, the comments' words and numbers) and asked in a
# shuffled order that repeats only after the whole list.
python3 - "$WORK" "$PHOTOS" "$TEMPLATES" "${places[*]}" "${occasions[*]}" "${comment_words[*]} with" "${cameras[@]}" <<'PY'
import random, re, sys, urllib.parse
work, photos, templates = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
places, occasions, comment_words, cameras = sys.argv[4].split(), sys.argv[5].split(), sys.argv[6].split(), sys.argv[7:]
months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
words = lambda text: [w for w in re.split(r"[^0-9a-z]+", text.lower()) if len(w) > 1]
# Each template's words, as the bench wrote them into its photos and folders.
taken = []
for t in range(templates):
    camera = words(" ".join(cameras[t % len(cameras)].split("|")))
    year, month, day = 2014 + t % 11, 1 + (t * 7) % 12, 1 + (t * 11) % 28
    taken.append((places[t % 8], str(year), months[month - 1], f"{year:04d}-{month:02d}-{day:02d}", camera))
rng = random.Random(44)
files = [f"{rng.randrange(photos):06d}" for _ in range(20)]
# Comments end in their number in a run of the posting client, counted from 1 in every run.
numbers = [str(rng.randrange(1, 500)) for _ in range(20)]
vocabulary = list(dict.fromkeys(places + occasions + comment_words + ["img"]
                                + [w for place, year, month, day, camera in taken for w in (year, month, day, *camera)]))
one = vocabulary + files + numbers
two = [f"{a} {b}" for t, (place, year, month, day, camera) in enumerate(taken)
       for a, b in ((place, year), (camera[-1], month), (occasions[t % 8], year), (comment_words[t % 8], place), (camera[0], day))]
alphabetic = [w for w in vocabulary if len(w) > 3 and "-" not in w]
prefix = [w[:n] for w in alphabetic for n in range(3, len(w)) if w[:n] not in vocabulary]
suggest = [w[:n] for w in vocabulary for n in range(1, min(len(w), 4))]
for name, queries, path in (("one", one, "/search?limit=50&q="), ("two", two, "/search?limit=50&q="),
                            ("prefix", prefix, "/search?limit=50&q="), ("suggest", suggest, "/search/suggest?q=")):
    queries = list(dict.fromkeys(queries))[:200]
    rng.shuffle(queries)
    with open(f"{work}/{name}.targets", "w") as out:
        out.writelines(path + urllib.parse.quote_plus(q) + "\n" for q in queries)
PY
distinct() { wc -l < "$WORK/$1.targets" | tr -d ' '; }
reference=$(p95 photos "/photos?limit=50" "/photos?limit=50&after=5000" "/photos?limit=50&after=40000")
one=$(p95 one); two=$(p95 two); prefix=$(p95 prefix); suggest=$(p95 suggest)
# Kept answers: a few queries asked again and again, each answered from SearchScoreCache after
# its first ask while the index is unchanged (a search's next pages, the same search again).
kept_one=$(p95 kept-one "/search?q=lisboa&limit=50" "/search?q=2019&limit=50" "/search?q=fujifilm&limit=50" "/search?q=birthday&limit=50" "/search?q=tokyo&limit=50")
kept_two=$(p95 kept-two "/search?q=lisboa+2019&limit=50" "/search?q=x100v+july&limit=50" "/search?q=paris+sunset&limit=50" "/search?q=canon+beach&limit=50")
kept_prefix=$(p95 kept-prefix "/search?q=lis&limit=50" "/search?q=fuj&limit=50" "/search?q=tok&limit=50" "/search?q=bir&limit=50" "/search?q=ilce&limit=50")
ratio() { awk -v a="$1" -v b="$reference" 'BEGIN { if (a == "errors" || b == "errors") print "?"; else printf "%.1f", a / b }'; }
# The server's CPU per request: what a request costs, whatever else the machine runs.
cpu() { cat "$WORK/$1.cpu"; }
cpu_ratio() { awk -v a="$(cpu "$1")" -v b="$(cpu photos)" 'BEGIN { if (a == "" || b == "" || b == 0) print "?"; else printf "%.1f", a / b }'; }
echo "p95, ms (ratio to GET /photos?limit=50's p95 in this run); the server's CPU per request, ms (ratio):"
echo "  GET /photos?limit=50  $reference; CPU $(cpu photos)"
echo "first searches (distinct queries in turn, more than the server keeps answers for):"
echo "  one-word query        $one ($(ratio "$one")x); CPU $(cpu one) ($(cpu_ratio one)x); $(distinct one) queries"
echo "  two-word query        $two ($(ratio "$two")x); CPU $(cpu two) ($(cpu_ratio two)x); $(distinct two) queries"
echo "  prefix query          $prefix ($(ratio "$prefix")x); CPU $(cpu prefix) ($(cpu_ratio prefix)x); $(distinct prefix) queries"
echo "  suggestions           $suggest ($(ratio "$suggest")x); CPU $(cpu suggest) ($(cpu_ratio suggest)x); $(distinct suggest) prefixes"
echo "kept answers (the same 4 or 5 queries asked again and again):"
echo "  one-word query        $kept_one ($(ratio "$kept_one")x); CPU $(cpu kept-one) ($(cpu_ratio kept-one)x)"
echo "  two-word query        $kept_two ($(ratio "$kept_two")x); CPU $(cpu kept-two) ($(cpu_ratio kept-two)x)"
echo "  prefix query          $kept_prefix ($(ratio "$kept_prefix")x); CPU $(cpu kept-prefix) ($(cpu_ratio kept-prefix)x)"

# Sizes on disk.
if [ -z "${DATABASE:-}" ]; then
    # Pages in use, read through the write-ahead log (the files' sizes would count a WAL not yet
    # checkpointed, of either, as its own).
    size() { sqlite3 "$WORK/data/$1.sqlite" "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size"; }
    catalog=$(size catalog); index=$(size search)
else
    catalog=$(psql -Atq "$DATABASE" -c "SELECT pg_total_relation_size('photos') + pg_total_relation_size('albums')")
    # The words and, where the build keeps them, their postings.
    index=$(psql -Atq "$DATABASE" -c "SELECT pg_total_relation_size('search_photos') + coalesce(pg_total_relation_size(to_regclass('search_postings')), 0)")
fi
awk -v i="$index" -v c="$catalog" 'BEGIN { printf "index %.1f MB, catalog %.1f MB (%.2fx)\n", i / 1e6, c / 1e6, i / c }'
