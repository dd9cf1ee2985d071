# PhotoScroll. `make run` and `make test` install what is missing, build, and go.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

BIN_RELEASE := .build/release/photoscroll
BIN_DEBUG := .build/debug/photoscroll

.PHONY: run test build release deps test-deps bench test-container clean unit-test browser-test typecheck fuzz fuzz-build

## Seconds `make fuzz` runs each fuzzer (request parser, IIIF requests); `make test` gives each 30.
FUZZ_SECONDS ?= 300
FUZZ_BIN := .build/fuzz/release/HTTPFuzz
IIIF_FUZZ_BIN := .build/fuzz/release/IIIFFuzz

## Install what is missing, build the release binary, serve http://localhost:8080 (a demo library if no photos are set).
run: deps release
	$(BIN_RELEASE) serve

## Install what is missing, build, run every test: Swift unit and live-socket tests, browser tests,
## container-image checks, and (as root) the boot of the image's runtime stage in a bookworm root.
test: deps test-deps build
	$(MAKE) typecheck
	$(MAKE) unit-test
	$(MAKE) fuzz FUZZ_SECONDS=30
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

## The page's modules type-checked as they are (// @ts-check, JSDoc types; jsconfig.json): zero errors or it fails.
typecheck:
	tsc -p jsconfig.json

## Browser tests (headless Chromium) and container-image checks, against the real binary.
browser-test: build
	PHOTOSCROLL_BIN=$(BIN_DEBUG) .venv/bin/pytest -q Tests/Browser Tests/Container

## libFuzzer with AddressSanitizer, FUZZ_SECONDS each: the request parser and the chunked decoder
## (Sources/HTTPFuzz; seeds in Fuzz/corpus, finds in .build/fuzz-corpus), then IIIF image requests
## resolved against image sizes and limits (Sources/IIIFFuzz; Fuzz/iiif-corpus, .build/iiif-fuzz-corpus).
## A crash stops it with exit 1 and leaves the input as crash-*; replay it with `swift run HTTPFuzz crash-…`
## (or IIIFFuzz).
fuzz: fuzz-build
	@mkdir -p .build/fuzz-corpus .build/iiif-fuzz-corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=.build/ .build/fuzz-corpus Fuzz/corpus
	$(IIIF_FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=.build/iiif- .build/iiif-fuzz-corpus Fuzz/iiif-corpus

fuzz-build: deps
	swift build -c release --product HTTPFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz
	swift build -c release --product IIIFFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz

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
