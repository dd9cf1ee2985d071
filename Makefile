# PhotoScroll. `make run` and `make test` install what is missing, build, and go.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

BIN_RELEASE := .build/release/photoscroll
BIN_DEBUG := .build/debug/photoscroll

.PHONY: run test build release deps test-deps bench test-container clean unit-test browser-test

## Install what is missing, build the release binary, serve http://localhost:8080 (a demo library if no photos are set).
run: deps release
	$(BIN_RELEASE) serve

## Install what is missing, build, run every test: Swift unit and live-socket tests, browser tests,
## container-image checks, and (as root) the boot of the image's runtime stage in a bookworm root.
test: deps test-deps build
	$(MAKE) unit-test
	$(MAKE) browser-test
	@if [ "$$(id -u)" -eq 0 ]; then $(MAKE) test-container; \
	else echo "test-container not run: booting the runtime stage needs root (sudo make test-container)"; fi

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh build test

build:
	swift build --build-tests

release:
	swift build -c release

unit-test:
	swift test

## Browser tests (headless Chromium) and container-image checks, against the real binary.
browser-test: build
	PHOTOSCROLL_BIN=$(BIN_DEBUG) .venv/bin/pytest -q Tests/Browser Tests/Container

## Benchmarks against nginx and vips dzsave; each prints its ratio.
bench: release
	@scripts/install-deps.sh build bench
	@for b in bench/*.sh; do echo "== $$b"; bash $$b || exit 1; done

## Boot the release binary in a Debian bookworm root built from the Dockerfile's runtime stage.
test-container:
	@scripts/install-deps.sh build container
	bash Tests/Container/run.sh

clean:
	rm -rf .build build
