#!/usr/bin/env python3
"""Runs the Swift tests (the built test bundle) with each test class in a process of its own,
several at a time, and says which failed (scripts/testrun.py).

The classes that take longest run a process per test, so no one class is the run's tail; which
those are comes from the last run (build/unit-test-durations.json), or, on a fresh checkout,
from SLOW below. A PostgreSQL cluster is shared by all the processes of a run
(PHOTOSCROLL_TEST_RUN_DIRECTORY, see Tests/SQLTesting/PostgresCluster.swift) and stopped at the
end; so are test photos made the same way every time (Tests/TestSupport/SharedFixture.swift),
made once for the run and removed at its end. The tests' scratch folders (TMPDIR) are made in memory (/dev/shm) when it has room:
thousands of small files and folders cost a busy disk's journal seconds, memory nothing; the
tests check what the files hold and how the server treats them, not the disk.

Usage: scripts/unit-test.py [--jobs N] [FILTER…]
    FILTER: a class (`LibraryTests.MoveTests`) or a target (`LibraryTests`); none: every class.
    env UNIT_TEST_JOBS: processes at once (default 6); TEST_DISK_SCRATCH=1: scratch on disk;
    UNIT_TIMEOUT: seconds one process may take before it is stopped and failed (default 600);
    TEST_BUILD_PATH: the build's scratch folder (default .build; make test's is .build/test).
Each process's output is in build/unit-test/logs/NAME.log; a failing one's is printed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import testrun  # noqa: E402

REPO = testrun.REPO
RUN = REPO / "build" / "unit-test"
DURATIONS = REPO / "build" / "unit-test-durations.json"
# A class whose last run took longer than this runs a process per test.
SPLIT_SECONDS = 30.0
# What took longest when this was written (seconds, a loaded 2-core machine): on a fresh checkout
# these start first, a process per test. The last run's durations, when there are any, win.
SLOW = {"AppTests.ReplicaLiveTests": 120, "AppTests.IIIFRoutesTests": 62, "ImagingTests.PyramidBuildTests": 44,
        "ImagingTests.FormatTests": 42, "ImagingTests.OrientationTests": 41, "ImagingTests.RegionRenderingTests": 39,
        "ImagingTests.RenderStopTests": 34, "LibraryTests.MoveTests": 32, "LibraryTests.HostileFolderTests": 29}
EXECUTED = re.compile(r"Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?")
XCTEST_ERROR = re.compile(r"\.swift:\d+: error: |Fatal error:")
TEST_CASE = re.compile(r"Test Case '(\S+)' (?:passed|failed|skipped) \((\d+(?:\.\d+)?) seconds\)")


def bundle() -> Path:
    # TEST_BUILD_PATH/debug (the scratch folder of the build, .build unless make test says) without
    # asking SwiftPM: `swift build --show-bin-path` waits for the build folder's lock, which a
    # release build beside holds for minutes.
    build_path = os.environ.get("TEST_BUILD_PATH", ".build")
    path = REPO / build_path / "debug" / "PhotoScrollPackageTests.xctest"
    if not path.exists():
        swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
        bin_path = subprocess.run([swift, "build", "--scratch-path", build_path, "--show-bin-path"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
        path = Path(bin_path) / "PhotoScrollPackageTests.xctest"
    if not path.exists():
        sys.exit(f"{path} is not built: run `swift build --build-tests` first")
    return path


def tests(test_bundle: Path, filters: list[str]) -> dict[str, list[str]]:
    """Class → its tests (`Target.Class/testName`), as the bundle lists them."""
    listed = subprocess.run([str(test_bundle), "--list-tests"], capture_output=True, text=True, check=True).stdout
    found: dict[str, list[str]] = {}
    for line in listed.splitlines():
        if "/" in line:
            found.setdefault(line.split("/")[0].strip(), []).append(line.strip())
    if filters:
        found = {name: t for name, t in found.items() if any(name == f or name.startswith(f + ".") for f in filters)}
    return found


def units(test_bundle: Path, found: dict[str, list[str]]) -> list[testrun.Unit]:
    try:
        last = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        last = {}
    made = []
    for name, its_tests in sorted(found.items()):
        seconds = last.get(name, sum(last.get(t, 0.0) for t in its_tests) or SLOW.get(name, 0.0))
        if seconds > SPLIT_SECONDS and len(its_tests) > 1:
            per_test = seconds / len(its_tests)
            made += [testrun.Unit(t, [str(test_bundle), t], hint=per_test) for t in its_tests]
        else:
            made.append(testrun.Unit(name, [str(test_bundle), name], hint=seconds))
    return made


def stop_shared_postgres(run: Path) -> None:
    record = run / "postgres"
    if not record.exists():
        return
    _, directory, bin_dir = record.read_text().split()
    command = [f"{bin_dir}/pg_ctl", "-D", f"{directory}/data", "-m", "immediate", "stop"]
    if os.geteuid() == 0:
        command = ["/usr/sbin/runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.rmtree(directory, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("UNIT_TEST_JOBS", "6")))
    parser.add_argument("filters", nargs="*")
    args = parser.parse_args()

    test_bundle = bundle()
    found = tests(test_bundle, args.filters)
    if not found:
        sys.exit(f"no test class matches {args.filters}")
    todo = units(test_bundle, found)
    shutil.rmtree(RUN, ignore_errors=True)
    (RUN / "shared").mkdir(parents=True)
    env = dict(os.environ, PHOTOSCROLL_TEST_RUN_DIRECTORY=str(RUN / "shared"))
    scratch = testrun.scratch_folder("photoscroll-tests-")
    if scratch:
        env["TMPDIR"] = scratch

    counts = {"executed": 0, "skipped": 0, "failures": 0}
    test_seconds: dict[str, float] = {}
    failed_lines: list[str] = []

    def passed(unit: testrun.Unit, log: str) -> bool:
        executed = EXECUTED.findall(log)
        failed_lines.extend(line for line in log.splitlines() if XCTEST_ERROR.search(line))
        for name, seconds in TEST_CASE.findall(log):
            test_seconds[name] = float(seconds)
        if executed:
            n, s, f = executed[-1]
            counts["executed"] += int(n)
            counts["skipped"] += int(s or 0)
            counts["failures"] += int(f)
        return unit.status == 0 and bool(executed)

    try:
        outcome = testrun.run(todo, args.jobs, RUN / "logs", env, DURATIONS, passed,
                              float(os.environ.get("UNIT_TIMEOUT", "600")))
    finally:
        stop_shared_postgres(RUN / "shared")
        # The test photos made once for the run (Tests/TestSupport/SharedFixture.swift).
        shutil.rmtree(RUN / "shared" / "fixtures", ignore_errors=True)
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)

    # The durations kept for next time: a class's, or its tests', as it ran this time.
    try:
        kept = json.loads(DURATIONS.read_text())
        for unit in outcome.units:
            if "/" in unit.name:
                kept.pop(unit.name.split("/")[0], None)
            else:
                kept = {k: v for k, v in kept.items() if not k.startswith(unit.name + "/")}
        DURATIONS.write_text(json.dumps(kept, indent=0, sort_keys=True))
    except (OSError, ValueError):
        pass
    # A class split into tests counts as the sum of its tests.
    per_class: dict[str, float] = {}
    cpu_per_class: dict[str, float] = {}
    for unit in outcome.units:
        per_class[unit.name.split("/")[0]] = per_class.get(unit.name.split("/")[0], 0.0) + unit.seconds
        cpu_per_class[unit.name.split("/")[0]] = cpu_per_class.get(unit.name.split("/")[0], 0.0) + unit.cpu
    testrun.report_failures(outcome.failed)
    with testrun.summary(RUN / "summary.txt"):
        testrun.report_slowest("test classes (seconds of their processes)", per_class)
        testrun.report_slowest("test classes by CPU (their processes and all they started)", cpu_per_class, unit="s of CPU")
        testrun.report_slowest("tests (as XCTest timed them)", test_seconds)
        testrun.report_failed_lines(failed_lines)
        print(f"\n{len(found)} classes in {len(outcome.units)} processes, {counts['executed']} tests "
              f"({counts['skipped']} skipped), {counts['failures']} failures, {len(outcome.failed)} processes failed"
              f"{': ' + ', '.join(u.name for u in outcome.failed) if outcome.failed else ''}; "
              f"{outcome.seconds:.1f} s with {args.jobs} at once, {sum(cpu_per_class.values()):.1f} s of CPU.")
    return 1 if outcome.failed else 0


if __name__ == "__main__":
    sys.exit(main())
