#!/usr/bin/env python3
"""Runs the Swift tests (the built test bundle) with each test class in a process of its own,
several at a time, and says which failed.

Most of the tests' time is spent waiting (sockets, child processes, the database, the clock),
not computing, so classes run side by side finish far sooner than one after another. The
slowest classes of the last run start first (build/unit-test-durations.json), so the run does
not end waiting for one long class started last. A PostgreSQL cluster is shared by all the
processes of a run (PHOTOSCROLL_TEST_RUN_DIRECTORY, see Tests/SQLTesting/PostgresCluster.swift)
and stopped at the end. The tests' scratch folders (TMPDIR) are made in memory (/dev/shm) when
it has room: thousands of small files and folders cost a busy disk's journal seconds, memory
nothing; the tests check what the files hold and how the server treats them, not the disk.

Usage: scripts/unit-test.py [--jobs N] [FILTER…]
    FILTER: a class (`LibraryTests.MoveTests`) or a target (`LibraryTests`); none: every class.
    env UNIT_TEST_JOBS: processes at once (default 6); UNIT_TEST_DISK_SCRATCH=1: scratch on disk.
Each class's output is in build/unit-test/logs/CLASS.log; a failing class's is printed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUN = REPO / "build" / "unit-test"
DURATIONS = REPO / "build" / "unit-test-durations.json"
# Without a previous run, targets whose classes tend to be long start first.
TARGET_ORDER = ["LibraryTests", "AppTests", "SQLTests", "ImagingTests", "CommentsTests", "HTTPTests"]
EXECUTED = re.compile(r"Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?")


def bundle() -> Path:
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    path = Path(bin_path) / "PhotoScrollPackageTests.xctest"
    if not path.exists():
        sys.exit(f"{path} is not built: run `swift build --build-tests` first")
    return path


def classes(test_bundle: Path, filters: list[str]) -> list[str]:
    listed = subprocess.run([str(test_bundle), "--list-tests"], capture_output=True, text=True, check=True).stdout
    names = sorted({line.split("/")[0] for line in listed.splitlines() if "/" in line})
    if filters:
        names = [n for n in names if any(n == f or n.startswith(f + ".") for f in filters)]
    return names


def ordered(names: list[str]) -> list[str]:
    try:
        last = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        last = {}

    def key(name: str):
        target = name.split(".")[0]
        rank = TARGET_ORDER.index(target) if target in TARGET_ORDER else len(TARGET_ORDER)
        return (-last.get(name, 0.0), rank, name)

    return sorted(names, key=key)


def run_class(test_bundle: Path, name: str, env: dict[str, str]) -> tuple[str, int, float, str]:
    log = RUN / "logs" / f"{name}.log"
    started = time.monotonic()
    with open(log, "wb") as out:
        status = subprocess.run([str(test_bundle), name], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
    return name, status, time.monotonic() - started, log.read_text(errors="replace")


def scratch_folder() -> str | None:
    """A folder for the tests' scratch files in /dev/shm when it is a tmpfs with 4 GiB free and
    TMPDIR is not set already; None to leave TMPDIR as it is."""
    if os.environ.get("TMPDIR") or os.environ.get("UNIT_TEST_DISK_SCRATCH"):
        return None
    try:
        with open("/proc/mounts") as mounts:
            if not any(line.split()[1] == "/dev/shm" and line.split()[2] == "tmpfs" for line in mounts):
                return None
        stats = os.statvfs("/dev/shm")
    except OSError:
        return None
    if stats.f_bavail * stats.f_frsize < 4 << 30:
        return None
    import tempfile
    folder = tempfile.mkdtemp(prefix="photoscroll-tests-", dir="/dev/shm")
    os.chmod(folder, 0o1777)  # the PostgreSQL server runs as its own user and makes its folder here too
    return folder


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
    names = ordered(classes(test_bundle, args.filters))
    if not names:
        sys.exit(f"no test class matches {args.filters}")
    shutil.rmtree(RUN, ignore_errors=True)
    (RUN / "logs").mkdir(parents=True)
    (RUN / "shared").mkdir()
    env = dict(os.environ, PHOTOSCROLL_TEST_RUN_DIRECTORY=str(RUN / "shared"))
    scratch = scratch_folder()
    if scratch:
        env["TMPDIR"] = scratch

    started = time.monotonic()
    durations: dict[str, float] = {}
    failed: list[tuple[str, int, str]] = []
    executed = skipped = failures = 0
    # A stopped run still stops the shared server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(run_class, test_bundle, name, env) for name in names]
            for future in as_completed(futures):
                name, status, seconds, output = future.result()
                durations[name] = round(seconds, 2)
                counts = EXECUTED.findall(output)
                if counts:
                    n, s, f = counts[-1]
                    executed += int(n)
                    skipped += int(s or 0)
                    failures += int(f)
                if status != 0 or not counts:
                    failed.append((name, status, output))
                    print(f"FAILED {name} (exit {status}, {seconds:.1f} s)", flush=True)
    finally:
        stop_shared_postgres(RUN / "shared")
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)

    previous = {}
    try:
        previous = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        pass
    DURATIONS.write_text(json.dumps({**previous, **durations}, indent=0, sort_keys=True))

    for name, status, output in failed:
        print(f"\n==== {name} (exit {status}); build/unit-test/logs/{name}.log ends:")
        lines = [line for line in output.splitlines() if "error:" in line or "Fatal error" in line or "failed" in line]
        print("\n".join(lines[-40:]) if lines else "\n".join(output.splitlines()[-40:]))
    slowest = sorted(durations.items(), key=lambda item: -item[1])[:5]
    print(f"\n{len(names)} classes, {executed} tests ({skipped} skipped), {failures} failures, "
          f"{len(failed)} classes failed, in {time.monotonic() - started:.1f} s with {args.jobs} at once. "
          f"Slowest: " + ", ".join(f"{name.split('.')[-1]} {seconds:.1f} s" for name, seconds in slowest))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
