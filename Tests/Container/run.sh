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

# The image's build by default: release with the Swift runtime linked in, as the Dockerfile's
# (`make test-container`), in a scratch folder of its own, checked to need no Swift library.
# `make test` gives BINARY instead: its own debug build, already built for the other tests, which
# loads the Swift runtime from the toolchain; boot_root.py puts that runtime beside it, so the boot
# still checks that every other library comes from the runtime stage's packages.
IMAGE_FLAGS_OF_THE_DOCKERFILE="-c release --static-swift-stdlib -Xswiftc -gnone"
if [ -n "${BINARY:-}" ]; then
    exec python3 Tests/Container/boot_root.py "$BINARY"
fi
read -ra flags <<< "${IMAGE_FLAGS:-$IMAGE_FLAGS_OF_THE_DOCKERFILE}"
scratch="${IMAGE_BUILD_PATH:-.build/image}"
swift build "${flags[@]}" --scratch-path "$scratch" --product photoscroll
binary="$(swift build "${flags[@]}" --scratch-path "$scratch" --show-bin-path)/photoscroll"
if ldd "$binary" | grep 'libswift\|libFoundation' > /dev/null; then
    echo "the binary still needs the Swift runtime's shared libraries" >&2
    exit 1
fi
exec python3 Tests/Container/boot_root.py "$binary"
