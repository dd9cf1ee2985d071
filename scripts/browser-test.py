#!/usr/bin/env python3
"""Runs the browser tests (Tests/Browser) and the container-image checks (Tests/Container) with
each test file in a pytest process of its own, several at a time (scripts/testrun.py), and says
which failed.

The tests mostly wait (for a server, for the page, for Chromium), so files side by side finish
far sooner than one after another. Each process has its own Chromium (conftest.SharedBrowser)
and its own servers on port 0 with their own folders; files that use the 2,500-photo collection
server (`collection_server`) share one process, so it is made once.

Usage: scripts/browser-test.py [--jobs N] [FILE…]
    env BROWSER_TEST_JOBS: processes at once (default 3); PHOTOSCROLL_BIN: the server binary;
    UNIT_TIMEOUT: seconds one process may take before it is stopped and failed (default 1800);
    TEST_DISK_SCRATCH=1: the tests' folders on disk (else in /dev/shm when it has 4 GiB free).
Each process's output is in build/browser-test/logs/NAME.log; a failing one's is printed.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import testrun  # noqa: E402

REPO = testrun.REPO
RUN = REPO / "build" / "browser-test"
DURATIONS = REPO / "build" / "browser-test-durations.json"
# Session fixtures too costly to make in every process: the files using one run together, at most
# PER_FIXTURE files to a process. The 2,500-photo collection costs a process about 35 s of CPU (the
# photos drawn, then listed and examined by its server): made once for its four files, not twice.
# That process is the stage's longest, so it starts first even without a last run's times.
# A file whose tests change the fixture for good (it says `CHANGES_SHARED_FIXTURE = True`) runs
# after the others of its process, which count on the fixture as made.
SHARED = ["collection_server"]
PER_FIXTURE = 4
SHARED_HINT = 600.0
CHANGES_FIXTURE = re.compile(r"^CHANGES_SHARED_FIXTURE = True", re.MULTILINE)
OUTCOME = re.compile(r"^=*\s*((?:\d+ \w+(?:, )?)+|no tests ran) in [\d.]+s")
DURATION = re.compile(r"^(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S+)$")
# pytest's short summary (-rfE): one line per failed or erroring test, with its message.
FAILED_TEST = re.compile(r"^(?:FAILED|ERROR) \S+")


def files(given: list[str]) -> list[Path]:
    if given:
        return [Path(f).resolve() for f in given]
    return sorted((REPO / "Tests" / "Browser").glob("test_*.py")) + sorted((REPO / "Tests" / "Container").glob("test_*.py"))


def groups(paths: list[Path]) -> list[list[Path]]:
    together: dict[str, list[Path]] = {}
    alone: list[list[Path]] = []
    for path in paths:
        text = path.read_text(errors="replace")
        shared = next((fixture for fixture in SHARED if re.search(rf"\b{fixture}\b", text)), None)
        if shared:
            together.setdefault(shared, []).append(path)
        else:
            alone.append([path])
    for paths in together.values():
        paths.sort(key=lambda p: bool(CHANGES_FIXTURE.search(p.read_text(errors="replace"))))
    shared_groups = [paths[i:i + PER_FIXTURE] for paths in together.values() for i in range(0, len(paths), PER_FIXTURE)]
    return alone + shared_groups


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("BROWSER_TEST_JOBS", "3")))
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()

    pytest = REPO / ".venv" / "bin" / "pytest"
    if not pytest.exists():
        sys.exit(f"{pytest} is missing: run `scripts/install-deps.sh build test` first")
    todo = []
    for group in groups(files(args.files)):
        name = "+".join(p.stem for p in group)
        rel = [str(p.relative_to(REPO)) for p in group]
        todo.append(testrun.Unit(name, [str(pytest), "-q", "-rfEs", "--durations=0", "--durations-min=1", *rel],
                                 hint=SHARED_HINT if len(group) > 1 else 0.0))
    shutil.rmtree(RUN, ignore_errors=True)
    env = dict(os.environ)
    # Wide enough that pytest's one-line summary of a failure keeps its message (80 without a terminal).
    env["COLUMNS"] = "240"
    # Libraries, servers' data and the browsers' profiles in memory where there is room.
    scratch = testrun.scratch_folder("photoscroll-browser-tests-")
    if scratch:
        env["TMPDIR"] = scratch
    # The test photos are drawn once for the whole run (Tests/Browser/photos.py) and copied from here.
    photo_cache = tempfile.mkdtemp(prefix="photoscroll-test-photos-", dir=scratch)
    env["PHOTOSCROLL_TEST_PHOTO_CACHE"] = photo_cache

    counts: dict[str, str] = {}
    test_seconds: dict[str, float] = {}
    failed_tests: list[str] = []

    def passed(unit: testrun.Unit, log: str) -> bool:
        for line in log.splitlines():
            match = DURATION.match(line.strip())
            if match:
                test_seconds[match.group(2)] = test_seconds.get(match.group(2), 0.0) + float(match.group(1))
        outcome = [m.group(1) for m in map(OUTCOME.match, log.splitlines()) if m]
        counts[unit.name] = outcome[-1] if outcome else "no summary"
        failed_tests.extend(line for line in log.splitlines() if FAILED_TEST.match(line))
        return unit.status == 0

    try:
        outcome = testrun.run(todo, args.jobs, RUN / "logs", env, DURATIONS, passed,
                              float(os.environ.get("UNIT_TIMEOUT", "1800")))
    finally:
        shutil.rmtree(scratch or photo_cache, ignore_errors=True)
    testrun.report_failures(outcome.failed)
    with testrun.summary(RUN / "summary.txt"):
        testrun.report_slowest("test files (seconds of their processes)", {u.name: u.seconds for u in outcome.units})
        testrun.report_slowest("test files by CPU (their processes, browsers and servers)", {u.name: u.cpu for u in outcome.units},
                               unit="s of CPU")
        testrun.report_slowest("tests (setup + call + teardown, as pytest timed them)", test_seconds)
        print()
        for unit in sorted(outcome.units, key=lambda u: u.name):
            print(f"  {unit.name}: {counts.get(unit.name, '?')} ({unit.seconds:.1f} s, {unit.cpu:.1f} s of CPU)")
        testrun.report_failed_lines(failed_tests)
        print(f"{len(outcome.units)} processes, {len(outcome.failed)} failed"
              f"{': ' + ', '.join(u.name for u in outcome.failed) if outcome.failed else ''}; "
              f"{outcome.seconds:.1f} s with {args.jobs} at once.")
    return 1 if outcome.failed else 0


if __name__ == "__main__":
    sys.exit(main())
