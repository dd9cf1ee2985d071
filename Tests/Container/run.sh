#!/usr/bin/env bash
# Boots the Dockerfile's runtime stage in a Debian bookworm root (no container engine needed) and
# checks the server in it: see boot_root.py. Needs root and the Debian mirror; `make test-container`.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"

if [ "$(id -u)" -ne 0 ]; then
    echo "Tests/Container/run.sh needs root (mmdebstrap, mount, chroot); try: sudo make test-container" >&2
    exit 2
fi

# The image's build: release with the Swift runtime linked in, in a scratch folder of its own
# (make test builds it there beside the debug build, so this only checks it is up to date).
scratch="${IMAGE_BUILD_PATH:-.build/image}"
swift build -c release --static-swift-stdlib -Xswiftc -gnone --scratch-path "$scratch" --product photoscroll
binary="$(swift build -c release --static-swift-stdlib -Xswiftc -gnone --scratch-path "$scratch" --show-bin-path)/photoscroll"
if ldd "$binary" | grep 'libswift\|libFoundation' > /dev/null; then
    echo "the release binary still needs the Swift runtime's shared libraries" >&2
    exit 1
fi
exec python3 Tests/Container/boot_root.py "$binary"
