"""What scripts/unit-test.py and scripts/browser-test.py share: run a list of test units (a test
class, a test, a test file), each a process of its own with its output in a log file, several at
once, the longest of the last run first; stop a unit that overruns its time; then say what
failed, with its log, and which units and tests took longest.

Most of the tests' time is spent waiting (sockets, child processes, a browser, the database, the
clock), not computing, so units run side by side finish far sooner than one after another.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass
class Unit:
    name: str                       # what the summary calls it
    command: list[str]
    hint: float = 0.0               # seconds it is expected to take without a previous run
    log: Path = field(default=Path())
    status: int = 0
    seconds: float = 0.0
    cpu: float = 0.0                # CPU seconds of the process and all it started (where a cgroup counts them)
    timed_out: bool = False


@dataclass
class Outcome:
    units: list[Unit]
    failed: list[Unit]
    seconds: float


_running: set[subprocess.Popen] = set()
_running_lock = threading.Lock()
# Units' cgroups that still held a process when their unit ended: removed at the end of the run.
_left_cgroups: list[Path] = []


def _remove_left_cgroups(tries: int = 50) -> None:
    for _ in range(tries):
        for folder in list(_left_cgroups):
            try:
                folder.rmdir()
                _left_cgroups.remove(folder)
            except FileNotFoundError:
                _left_cgroups.remove(folder)
            except OSError:
                pass
        if not _left_cgroups:
            return
        time.sleep(0.1)


def _stop_all(*_):
    """A stopped run stops its units too (each leads a process group of its own)."""
    with _running_lock:
        for process in _running:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except OSError:
                pass
    sys.exit(143)


def scratch_folder(prefix: str) -> str | None:
    """A folder for the tests' scratch files (their libraries, servers' data, the browser's
    profile) in /dev/shm when it is a tmpfs with 4 GiB free and neither TMPDIR nor
    TEST_DISK_SCRATCH is set; None to leave TMPDIR as it is. On a disk, every tile, database page
    and profile file the tests write waits for the file system: on this kind of machine's ext4,
    about a tenth of a browser test's time."""
    if os.environ.get("TMPDIR") or os.environ.get("TEST_DISK_SCRATCH"):
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
    folder = tempfile.mkdtemp(prefix=prefix, dir="/dev/shm")
    os.chmod(folder, 0o1777)  # the PostgreSQL server runs as its own user and makes its folder here too
    return folder


def order(units: list[Unit], durations: Path) -> list[Unit]:
    """Longest first: last run's seconds (build/…-durations.json), else the unit's hint."""
    try:
        last = json.loads(durations.read_text())
    except (OSError, ValueError):
        last = {}
    return sorted(units, key=lambda u: (-last.get(u.name, u.hint), u.name))


def _own_cgroup() -> Path | None:
    """The folder of this process's counting cgroup (cgroup v1's cpuacct, or v2), where a child
    cgroup of each unit's may be made: one that counts and does not schedule, so the units share
    the processors as they would without it (as scripts/timed.sh's stages)."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None
    for _, controllers, own in lines:
        if controllers == "cpuacct" and Path("/sys/fs/cgroup/cpuacct/cpuacct.usage").exists():
            return Path("/sys/fs/cgroup/cpuacct" + own.rstrip("/"))
    for number, _, own in lines:
        if number == "0" and Path("/sys/fs/cgroup/cgroup.controllers").exists():
            folder = Path("/sys/fs/cgroup" + own.rstrip("/"))
            try:
                if "cpu" in (folder / "cgroup.subtree_control").read_text().split():
                    return None
            except OSError:
                return None
            return folder
    return None


def _counting_cgroup(name: str) -> Path | None:
    """A new cgroup for one unit, counting the CPU of every process it starts (a browser's
    helpers too, which no parent waits for); None where this process may not make one."""
    parent = _own_cgroup()
    if parent is None:
        return None
    folder = parent / f"unit-{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}-{os.getpid()}"
    try:
        folder.mkdir()
    except OSError:
        return None
    return folder


def _cgroup_cpu(folder: Path) -> float | None:
    try:
        if (folder / "cpuacct.usage").exists():
            return int((folder / "cpuacct.usage").read_text()) / 1e9
        for line in (folder / "cpu.stat").read_text().splitlines():
            key, value = line.split()
            if key == "usage_usec":
                return int(value) / 1e6
    except (OSError, ValueError):
        pass
    return None


def _wait(process: subprocess.Popen, timeout: float) -> tuple[int, float] | None:
    """The exit status and the CPU seconds of `process` and of every descendant reaped below it,
    or None when it is still running after `timeout` s. Asked ten times a second: a unit runs for
    seconds to minutes."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return process.returncode, usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


def _run(unit: Unit, env: dict[str, str], timeout: float) -> Unit:
    started = time.monotonic()
    cgroup = _counting_cgroup(unit.name)
    with open(unit.log, "wb") as out:
        process = subprocess.Popen(unit.command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        if cgroup is not None:
            try:
                # At once: the unit starts its browser and servers only after its imports.
                (cgroup / "cgroup.procs").write_text(str(process.pid))
            except OSError:
                cgroup = None
        with _running_lock:
            _running.add(process)
        try:
            ended = _wait(process, timeout)
            if ended is None:
                unit.timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                ended = _wait(process, float("inf"))
                out.write(f"\n[runner] stopped after {timeout:.0f} s (UNIT_TIMEOUT)\n".encode())
            unit.status, unit.cpu = ended
        finally:
            with _running_lock:
                _running.discard(process)
    if cgroup is not None:
        # Counted by the kernel, the helpers no parent waited for included.
        unit.cpu = _cgroup_cpu(cgroup) or unit.cpu
        try:
            cgroup.rmdir()  # not while a process it started lives on (a database server stopping)
        except OSError:
            with _running_lock:
                _left_cgroups.append(cgroup)
    unit.seconds = time.monotonic() - started
    return unit


def run(units: list[Unit], jobs: int, logs: Path, env: dict[str, str], durations: Path,
        passed: "callable[[Unit, str], bool]", timeout: float) -> Outcome:
    """Runs every unit, `jobs` at once; `passed(unit, log text)` judges each."""
    logs.mkdir(parents=True, exist_ok=True)
    for unit in units:
        unit.log = logs / (re.sub(r"[^A-Za-z0-9_.-]", "_", unit.name) + ".log")
    signal.signal(signal.SIGTERM, _stop_all)
    signal.signal(signal.SIGINT, _stop_all)
    started = time.monotonic()
    failed: list[Unit] = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(_run, unit, env, timeout) for unit in order(units, durations)]
        for future in as_completed(futures):
            unit = future.result()
            if unit.timed_out or not passed(unit, unit.log.read_text(errors="replace")):
                failed.append(unit)
                why = "timed out" if unit.timed_out else f"exit {unit.status}"
                print(f"FAILED {unit.name} ({why}, {unit.seconds:.1f} s)", flush=True)
    _remove_left_cgroups()
    try:
        previous = json.loads(durations.read_text())
    except (OSError, ValueError):
        previous = {}
    durations.parent.mkdir(parents=True, exist_ok=True)
    durations.write_text(json.dumps({**previous, **{u.name: round(u.seconds, 2) for u in units}}, indent=0, sort_keys=True))
    return Outcome(units, failed, time.monotonic() - started)


ERROR_LINE = re.compile(r"error:|Fatal error|failed|FAILED|Error|assert|Traceback|Crash|Stack dump|signal", re.IGNORECASE)


def report_failures(failed: list[Unit], tail: int = 120) -> None:
    """Each failed unit: where its log is, its error lines, and the end of its log."""
    for unit in failed:
        text = unit.log.read_text(errors="replace").splitlines()
        rel = unit.log.relative_to(REPO) if unit.log.is_relative_to(REPO) else unit.log
        print(f"\n==== FAILED {unit.name}: {'timed out' if unit.timed_out else f'exit {unit.status}'} "
              f"after {unit.seconds:.1f} s; the whole log: {rel}")
        errors = [line for line in text[:-tail] if ERROR_LINE.search(line)] if len(text) > tail else []
        if errors:
            print(f"---- error lines before the end ({len(errors)}; the last 40):")
            print("\n".join(errors[-40:]))
        print(f"---- the last {min(tail, len(text))} lines of {len(text)}:")
        print("\n".join(text[-tail:]))
    sys.stdout.flush()


class summary:
    """Within `with summary(path):` what is printed also goes to `path` (make test prints it
    after the stage table)."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(self.path, "w")
        self.stdout = sys.stdout
        outer = self

        class Tee:
            def write(self, text):
                outer.file.write(text)
                return outer.stdout.write(text)

            def flush(self):
                outer.file.flush()
                outer.stdout.flush()

        sys.stdout = Tee()
        return self

    def __exit__(self, *_):
        sys.stdout = self.stdout
        self.file.close()


def report_failed_lines(lines: list[str], most: int = 20) -> None:
    """The lines that name what failed (a test and its message), at the very end of a runner's
    summary, where a log cut to its tail still shows them."""
    if lines:
        print()
        print("\n".join(f"  {line[:300]}" for line in lines[:most]))


def report_slowest(title: str, timings: dict[str, float], count: int = 15, unit: str = "s") -> None:
    slowest = sorted(timings.items(), key=lambda item: -item[1])[:count]
    if slowest:
        print(f"\nThe {len(slowest)} slowest {title}:")
        for name, seconds in slowest:
            print(f"  {seconds:8.1f} {unit}  {name}")
