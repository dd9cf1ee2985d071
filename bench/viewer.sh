#!/usr/bin/env bash
# Zoom viewer in headless Chromium against our server on loopback: time from opening the zoom view
# to the first complete screen of tiles (ratio against a bare fetch+decode of the same tiles in the
# same browser), and tile requests for one pinch from fit to native (ratio against a perfect viewer).
#
# Usage: bench/viewer.sh   (env: RUNS=5 WIDTH=8000 HEIGHT=6000 PHOTOSCROLL_BIN=.build/release/photoscroll;
#        ONLY=tap REFERENCE_PAGE=../other-checkout/Public: tap to sharp and the flights' frame gaps only,
#        this page against that one; see bench/viewer.py)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

for tool in vips chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "bench/viewer.sh needs $tool (scripts/install-deps.sh build test)" >&2; exit 1; }
done
[ -x .venv/bin/python ] && .venv/bin/python -c 'import selenium' 2>/dev/null || scripts/install-deps.sh test
if [ -z "${PHOTOSCROLL_BIN:-}" ]; then
    PHOTOSCROLL_BIN=.build/release/photoscroll
    [ -x "$PHOTOSCROLL_BIN" ] || swift build -c release
fi
export PHOTOSCROLL_BIN
exec .venv/bin/python bench/viewer.py
