#!/usr/bin/env bash
# A real collection: libraries of 1,000, 10,000 and 100,000 distinct small JPEGs in year/month
# folders, made by the benchmark itself. Per size: first start and restart to ready, the whole
# first ingest, idle CPU, RSS, first-page latency of GET /photos, and in headless Chromium the
# grid's DOM size and JS heap, frame times scrolling top to bottom (against a bare page as tall in
# the same browser), and the time to open photo N/2. Ratios against the smallest size.
#
# Usage: bench/library.sh   (env: SIZES="1000 10000 100000" IDLE=60 WORK=dir-kept-between-runs INGEST_ONLY=1
#                            PHOTOSCROLL_BIN=.build/release/photoscroll)
# 100,000 photos take about 800 MB in WORK plus their pyramids, and the first ingest a while.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

for tool in vips chromium chromedriver find; do
    command -v "$tool" >/dev/null || { echo "bench/library.sh needs $tool (scripts/install-deps.sh build test)" >&2; exit 1; }
done
[ -x .venv/bin/python ] && .venv/bin/python -c 'import selenium' 2>/dev/null || scripts/install-deps.sh test
if [ -z "${PHOTOSCROLL_BIN:-}" ]; then
    PHOTOSCROLL_BIN=.build/release/photoscroll
    swift build -c release --product photoscroll >&2
fi
export PHOTOSCROLL_BIN
exec .venv/bin/python bench/library.py
