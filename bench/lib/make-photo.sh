#!/usr/bin/env bash
# Draws a detailed synthetic photo (JPEG) with the vips command line, for benchmarks:
# three textures (Perlin, Worley, noise) as colour bands, so tiles compress like a real photo.
# Usage: bench/lib/make-photo.sh OUT.jpg [WIDTH] [HEIGHT]     (default 10000 × 7500 = 75 MP)
set -euo pipefail
out="$1"; w="${2:-10000}"; h="${3:-7500}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
vips perlin "$tmp/p.v" "$w" "$h" --cell-size 64
vips worley "$tmp/w.v" "$w" "$h" --cell-size 97
vips gaussnoise "$tmp/n.v" "$w" "$h" --sigma 18 --mean 0
vips linear "$tmp/p.v" "$tmp/r.v" 128 128 --uchar
vips linear "$tmp/w.v" "$tmp/g.v" 2.2 10 --uchar
vips add "$tmp/r.v" "$tmp/n.v" "$tmp/b0.v"
vips cast "$tmp/b0.v" "$tmp/b.v" uchar
vips bandjoin "$tmp/r.v $tmp/g.v $tmp/b.v" "$tmp/rgb.v"
vips copy "$tmp/rgb.v" "$tmp/srgb.v" --interpretation srgb
vips jpegsave "$tmp/srgb.v" "$out" --Q 90
