# PhotoScroll. `make run` and `make test` install what is missing, build, and go.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

BIN_RELEASE := .build/release/photoscroll
BIN_DEBUG := .build/debug/photoscroll

.PHONY: run test build release deps test-deps bench test-container clean unit-test browser-test typecheck fuzz fuzz-build fuzz-run \
        test-stages stage-server stage-build stage-typecheck stage-test-deps stage-unit stage-browser stage-fuzz-build stage-fuzz \
        stage-container-root stage-container test-times

## Seconds `make fuzz` runs each fuzzer (request parser, IIIF requests, photo-folder walk, JPEG
## location, TIFF layout, search queries). `make test` replays every seed and every find kept in
## .build, then gives each a number of new inputs (TEST_FUZZ_RUNS_<fuzzer>, about what each tries
## in 10 s alone on a quiet two-core machine), so that it fuzzes as much on a busy machine as on a
## quiet one, beside the other stages; at most TEST_FUZZ_SECONDS each. (Twice as many cost 30 s
## more of the run's CPU, which is what kept `make test` over eight minutes; `make fuzz` is the
## long search.)
FUZZ_SECONDS ?= 300
TEST_FUZZ_SECONDS ?= 180
TEST_FUZZ_RUNS_HTTPFuzz ?= 150000
TEST_FUZZ_RUNS_IIIFFuzz ?= 200000
TEST_FUZZ_RUNS_FolderWalkFuzz ?= 600
TEST_FUZZ_RUNS_JPEGLocationFuzz ?= 500000
TEST_FUZZ_RUNS_TIFFLayoutFuzz ?= 100000
TEST_FUZZ_RUNS_SearchQueryFuzz ?= 100000
FUZZERS := HTTPFuzz IIIFFuzz FolderWalkFuzz JPEGLocationFuzz TIFFLayoutFuzz SearchQueryFuzz
## make test runs as many fuzzers at a time as there are processors, beside its other stages.
CORES := $(shell nproc 2>/dev/null || echo 2)
## Stages of `make test` that may run at once.
TEST_JOBS ?= 8
## The image's build, as the Dockerfile's (release, the Swift runtime linked in, no debug
## information; Tests/Container checks they agree): `make test-container` builds it in a scratch
## folder of its own and boots it.
IMAGE_FLAGS := -c release --static-swift-stdlib -Xswiftc -gnone
IMAGE_BUILD_PATH := .build/image
## make test's debug build: in a scratch folder of its own, with line tables for backtraces but not
## the variables' debug information, which nothing in a test run reads. Measured alone from scratch
## (`--build-tests`): 146 s of CPU against 175 s with the defaults, 82 s of wall against 98 s. (The
## index store stays: on Linux the tests' build finds the XCTest cases in it.) Each module is
## compiled whole (-wmo), with two threads so that it still writes an object file per source file,
## as the link and the index store expect: one compiler per module instead of batches that each
## read the other files' declarations again. Measured from scratch on the same clone, nothing else
## running: 111 s of CPU against 149 s, 68 s of wall against 82 s; after a change to one file of
## App, 24 s of CPU against 27 s (22 s of wall against 16 s). Its own folder, so that `swift build`
## keeps .build/debug as it left it and neither build undoes the other's flags.
TEST_BUILD_PATH := .build/test
TEST_BUILD := --scratch-path $(TEST_BUILD_PATH) -Xswiftc -gline-tables-only -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc 2
BIN_TEST := $(TEST_BUILD_PATH)/debug/photoscroll
TIMED := scripts/timed.sh
ROOT := $(shell id -u)

## Install what is missing, build the release binary, serve http://localhost:8080 (a demo library if no photos are set).
run: deps release
	$(BIN_RELEASE) serve

## Install what is missing, build, run every test: the page's type-check, Swift unit and live-socket
## tests, browser tests and container-image checks, the fuzzers, and (as root) the boot
## of the image's runtime stage in a bookworm root. Stages run at once where they can (TEST_JOBS);
## each one's output is in build/test-logs/, and a table of what each took is printed at the end.
test:
	@rm -rf build/test-times build/test-logs
	@status=0; $(TIMED) packages scripts/install-deps.sh --packages-only build test $(if $(filter 0,$(ROOT)),container) \
	    && $(MAKE) --no-print-directory -k -j$(TEST_JOBS) test-stages || status=$$?; \
	    for s in build/unit-test/summary.txt build/browser-test/summary.txt; do [ -f $$s ] && cat $$s; done; \
	    scripts/test-times.sh; echo "load average at the end: $$(cut -d' ' -f1-3 /proc/loadavg)"; exit $$status

# The stages and what each waits for. The server's debug binary is built first, on its own: the
# browser tests need only it (and their Python packages), so they start while the Swift tests
# compile (`--build-tests` then reuses every module and does not relink the server under them).
# The unit tests wait for the test build. The fuzzers have a build of their own (AddressSanitizer),
# in a scratch folder of its own so that neither build waits for the other's lock. It starts at
# once, beside everything else, at the default priority: `nice` would not reach its compilers
# (swift-build starts those at the default priority). The bookworm root is made while everything
# builds: it needs only the Dockerfile and the network; the server's binary is booted in it.
# The Debian packages are installed first, on their own (apt takes one lock); the Python
# packages beside the build. The unit and browser runners print their slowest classes, files and
# tests; make test prints those lists and the table of the stages at the end.
test-stages: stage-typecheck stage-unit stage-browser stage-fuzz stage-container

stage-server:
	@$(TIMED) build-server swift build $(TEST_BUILD) --product photoscroll

stage-build: stage-server
	@$(TIMED) build swift build $(TEST_BUILD) --build-tests

stage-typecheck:
	@$(TIMED) typecheck sh -c 'scripts/no-conflict-markers.sh && tsc -p jsconfig.json && tsc -p jsconfig.worker.json'

stage-test-deps:
	@$(TIMED) test-deps scripts/install-deps.sh build test

stage-unit: stage-build
	@$(TIMED) unit-test env TEST_BUILD_PATH=$(TEST_BUILD_PATH) scripts/unit-test.py

stage-browser: stage-server stage-test-deps
	@$(TIMED) browser-test env PHOTOSCROLL_BIN=$(BIN_TEST) scripts/browser-test.py

stage-fuzz-build:
	@$(TIMED) fuzz-build $(MAKE) --no-print-directory fuzz-build

stage-fuzz: stage-fuzz-build
	@$(TIMED) fuzz $(MAKE) --no-print-directory -j$(CORES) fuzz-run FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) FUZZ_RUNS=test

ifeq ($(ROOT),0)
stage-container-root:
	@$(TIMED) container-root python3 Tests/Container/boot_root.py --prepare

# The runtime stage boots the tests' own server binary, with the toolchain's Swift runtime put
# beside it (Tests/Container/run.sh): a build of its own linked as the image's cost 53 s of
# CPU, a twentieth of the whole run, to load the same system libraries. `make test-container`
# builds the image's binary (release, the runtime linked in) and boots that.
stage-container: stage-container-root stage-server
	@$(TIMED) container-boot env BINARY=$(BIN_TEST) bash Tests/Container/run.sh
else
stage-container:
	@echo "test-container not run: booting the runtime stage needs root (sudo make test-container)"
endif

## The table of what each stage of the last `make test` took (wall and CPU).
test-times:
	@scripts/test-times.sh

deps:
	@scripts/install-deps.sh build places

test-deps:
	@scripts/install-deps.sh build test

build:
	swift build --build-tests

release:
	swift build -c release

## The Swift tests, each class in a process of its own, UNIT_TEST_JOBS at a time (scripts/unit-test.py;
## `swift test --filter Target.Class` runs one class the usual way).
unit-test: build
	scripts/unit-test.py

## The page's modules type-checked as they are (// @ts-check, JSDoc types; jsconfig.json): zero errors or it fails.
typecheck:
	tsc -p jsconfig.json
	tsc -p jsconfig.worker.json

## Browser tests (headless Chromium) and container-image checks, against the real binary: each test
## file a pytest process, BROWSER_TEST_JOBS at once (scripts/browser-test.py; `.venv/bin/pytest -q
## Tests/Browser/test_x.py` runs one file the usual way).
browser-test: build test-deps
	PHOTOSCROLL_BIN=$(BIN_DEBUG) scripts/browser-test.py

## libFuzzer with AddressSanitizer, FUZZ_SECONDS each (side by side under `make -j`; make test runs one per processor): the request parser and the chunked decoder
## (Sources/HTTPFuzz; seeds in Fuzz/corpus, finds in .build/fuzz-corpus), then IIIF image requests
## resolved against image sizes and limits (Sources/IIIFFuzz; Fuzz/iiif-corpus, .build/iiif-fuzz-corpus),
## then the photo-folder walk on hostile folders built in a scratch folder per input, /dev/shm when
## there is one (Sources/FolderWalkFuzz; Fuzz/folder-corpus, .build/folder-fuzz-corpus; a walk that
## runs 10 s is a find), then a JPEG's location taken out of hostile metadata segments (Sources/JPEGLocationFuzz;
## Fuzz/jpeg-corpus, .build/jpeg-fuzz-corpus), then a tiled TIFF's directories read as a pyramid
## (Sources/TIFFLayoutFuzz; Fuzz/tiff-corpus, .build/tiff-fuzz-corpus), then search queries parsed
## (Sources/SearchQueryFuzz; Fuzz/search-corpus, .build/search-fuzz-corpus; a parse that runs 10 s
## is a find). A crash stops it with exit 1 and leaves the input as crash-* (timeout-*); replay it
## with `swift run HTTPFuzz crash-…` (or IIIFFuzz, FolderWalkFuzz, JPEGLocationFuzz, TIFFLayoutFuzz,
## SearchQueryFuzz).
fuzz: fuzz-build fuzz-run

# Each fuzzer's folder of finds (.build/…) and of seeds (Fuzz/…), the prefix of what it leaves
# when it finds something, and its own options. `make -j` runs them side by side (make test does).
HTTPFuzz_RUN := .build/fuzz-corpus Fuzz/corpus -artifact_prefix=.build/
IIIFFuzz_RUN := .build/iiif-fuzz-corpus Fuzz/iiif-corpus -artifact_prefix=.build/iiif-
FolderWalkFuzz_RUN := .build/folder-fuzz-corpus Fuzz/folder-corpus -artifact_prefix=.build/folder- -timeout=10
JPEGLocationFuzz_RUN := .build/jpeg-fuzz-corpus Fuzz/jpeg-corpus -artifact_prefix=.build/jpeg- -timeout=10
TIFFLayoutFuzz_RUN := .build/tiff-fuzz-corpus Fuzz/tiff-corpus -artifact_prefix=.build/tiff- -timeout=10
SearchQueryFuzz_RUN := .build/search-fuzz-corpus Fuzz/search-corpus -artifact_prefix=.build/search- -timeout=10 -max_len=16384

fuzz-run: $(addprefix fuzz-run-,$(FUZZERS))

# One fuzzer, its lines marked with its name (they interleave when fuzzers run side by side).
# Without Swift's own crash handler: a check that fails is then libFuzzer's deadly signal, with
# the input kept. (With it, the handler's stack reading was reported by AddressSanitizer instead,
# and a symbolizer it left behind held the pipe open, so the stage never ended.)
fuzz-run-%:
	@mkdir -p $(firstword $($*_RUN))
	@set -o pipefail; SWIFT_BACKTRACE=enable=no .build/fuzz/release/$* -max_total_time=$(FUZZ_SECONDS) $(if $(FUZZ_RUNS),-runs=$(TEST_FUZZ_RUNS_$*)) \
	    -print_final_stats=1 $(wordlist 3,9,$($*_RUN)) \
	    $(wordlist 1,2,$($*_RUN)) 2>&1 | sed -u 's/^/[$*] /'

fuzz-build: deps
	swift build -c release --product HTTPFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz
	swift build -c release --product IIIFFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz
	swift build -c release --product FolderWalkFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz
	swift build -c release --product JPEGLocationFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz
	swift build -c release --product TIFFLayoutFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz
	swift build -c release --product SearchQueryFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --build-path .build/fuzz

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
