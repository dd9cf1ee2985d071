#!/usr/bin/env bash
# Fails when a source, test, page or document file still holds a merge's conflict markers: a
# conflict left in a Markdown file builds and passes every other test.
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(grep -rIn --exclude-dir=.build --exclude-dir=.venv --exclude-dir=build --exclude-dir=.git \
    -E '^(<<<<<<< |>>>>>>> |=======$)' Sources Tests Public docs scripts bench README.md Makefile Dockerfile config.json Package.swift || true)
if [ -n "$found" ]; then
    echo "merge conflict markers left in:"
    echo "$found"
    exit 1
fi
