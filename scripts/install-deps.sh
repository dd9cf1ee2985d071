#!/usr/bin/env bash
# Installs the Debian packages (and, for browser tests, the Python packages) that a group needs,
# skipping whatever is already there. Groups: build, test, bench, container.
# Uses sudo when not root. Safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages_for() {
    case "$1" in
        build) echo "pkg-config libvips-dev libvips-tools zlib1g-dev libsqlite3-dev libxxhash-dev" ;;
        test) echo "chromium chromium-driver python3-venv sqlite3 curl" ;;
        bench) echo "nginx-light wrk hyperfine libvips-tools sqlite3 curl" ;;
        container) echo "debootstrap" ;;
        *) echo "unknown group $1" >&2; exit 2 ;;
    esac
}

missing=()
for group in "$@"; do
    for p in $(packages_for "$group"); do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

for group in "$@"; do
    if [ "$group" = test ]; then
        # Browser tests: selenium and pytest in a project-local virtualenv.
        if [ ! -x .venv/bin/pytest ] || ! .venv/bin/python -c 'import selenium' 2>/dev/null; then
            python3 -m venv .venv
            .venv/bin/pip install --quiet --disable-pip-version-check -r Tests/Browser/requirements.txt
        fi
    fi
done

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
    echo "Swift 6 is not installed: get a toolchain for Debian 12 and put its usr/bin on PATH." >&2
    exit 1
fi
