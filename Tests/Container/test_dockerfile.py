"""Checks the Dockerfile against the repository and the built binary, without a container engine.

The runtime stage must install every shared library the binary loads (resolved to Debian
packages on this Debian 12 machine), copy paths that exist, run as a non-root user, and keep
the container conventions people rely on (port, volumes, health check, stop signal).
"""
from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from dockerfile_stages import REPO, TOOLCHAIN_LIBRARY, Stage, parse, runtime_packages



@lru_cache(maxsize=None)
def stages() -> tuple[Stage, ...]:
    return tuple(parse())


def build_stage() -> Stage:
    return stages()[0]


def runtime_stage() -> Stage:
    return stages()[-1]


def binary() -> Path:
    """PHOTOSCROLL_BIN (what make test checks, while it may be linking a release binary beside),
    else the newest built binary, release or debug: both link the same system libraries."""
    if os.environ.get("PHOTOSCROLL_BIN"):
        return (REPO / os.environ["PHOTOSCROLL_BIN"]).resolve()
    built = [c for c in (REPO / ".build/release/photoscroll", REPO / ".build/debug/photoscroll") if c.exists()]
    if not built:
        pytest.fail("No photoscroll binary: run `swift build` first (make test does).")
    return max(built, key=lambda c: c.stat().st_mtime)


def swift_executable() -> str:
    found = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    assert Path(found).exists(), "the Swift toolchain is needed to check the build image's version"
    return found


@lru_cache(maxsize=None)
def shared_libraries() -> dict[str, str]:
    """soname → resolved path, for every library the dynamic loader maps for the binary."""
    out = subprocess.run(["ldd", str(binary())], capture_output=True, text=True, check=True).stdout
    libraries = {}
    for line in out.splitlines():
        match = re.match(r"\s*(\S+) => (/\S+)", line)
        if match:
            libraries[match.group(1)] = match.group(2)
        elif "not found" in line:
            pytest.fail(f"ldd cannot resolve a library of the binary: {line.strip()}")
    assert libraries, "ldd listed no libraries: is the binary dynamically linked as expected?"
    return libraries


def owning_packages(paths: list[str]) -> dict[str, str]:
    """path → Debian package, trying the /usr-merged spellings too (one dpkg call per round)."""
    def spellings(path: str) -> list[str]:
        out = [path, os.path.realpath(path)]
        out += ["/usr" + p for p in out if not p.startswith("/usr/")]
        out += [p[len("/usr"):] for p in out if p.startswith("/usr/")]
        return list(dict.fromkeys(out))

    owners: dict[str, str] = {}
    for round_ in range(4):
        asked = {s: path for path in paths if path not in owners
                 for s in spellings(path)[round_:round_ + 1]}
        if not asked:
            continue
        out = subprocess.run(["dpkg", "-S", *asked], capture_output=True, text=True).stdout
        for line in out.splitlines():
            package, sep, owned = line.partition(": ")
            if sep and owned in asked and not line.startswith("diversion"):
                owners.setdefault(asked[owned], package.split(",")[0].split(":")[0].strip())
    return owners


def dependency_closure(packages: list[str]) -> set[str]:
    """The packages apt installs for `packages`: Depends and Pre-Depends, recursively."""
    out = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
         "--no-breaks", "--no-replaces", "--no-enhances", *packages],
        capture_output=True, text=True, check=True).stdout
    return {line.split(":")[0] for line in out.splitlines() if line and not line.startswith((" ", "<"))}


def test_build_stage_uses_the_swift_bookworm_image_of_our_toolchain():
    base = build_stage().base
    match = re.fullmatch(r"swift:(\d+)\.(\d+)(?:\.\d+)?-bookworm", base)
    assert match, f"the build stage should use swift:6.x-bookworm, not {base}"
    version = subprocess.run([swift_executable(), "--version"], capture_output=True, text=True).stdout
    local = re.search(r"Swift version (\d+)\.(\d+)", version)
    assert local, version
    assert match.groups() == local.groups(), f"{base} builds with another Swift than the toolchain here ({local.group(0)})"


def test_build_stage_builds_release_with_the_static_swift_runtime():
    runs = " ".join(i.text for i in build_stage().all("RUN"))
    assert re.search(r"swift build -c release[^&]*--static-swift-stdlib", runs), runs
    # `make test-container` builds the binary it boots (Tests/Container/run.sh) the way the image
    # does; make test boots its debug build with the toolchain's Swift runtime beside it.
    image = re.search(r"swift build (-c release[^&]*?) --product photoscroll", runs).group(1)
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^IMAGE_FLAGS := (.*)$", makefile, re.M).group(1).strip() == image, "the Makefile's IMAGE_FLAGS are the Dockerfile's"
    run = (REPO / "Tests/Container/run.sh").read_text()
    assert re.search(r'^IMAGE_FLAGS_OF_THE_DOCKERFILE="(.*)"$', run, re.M).group(1) == image, "run.sh builds as the Dockerfile by default"
    installed = set(runtime_packages(build_stage()))
    assert {"libvips-dev", "libsqlite3-dev", "zlib1g-dev", "libxxhash-dev", "libsodium-dev", "libargon2-dev", "pkg-config"} <= installed, installed


def test_runtime_stage_is_bookworm_slim():
    assert runtime_stage().base == "debian:bookworm-slim"
    assert len(stages()) == 2 and build_stage().name, "two stages, the first one named for COPY --from"


def test_every_shared_library_is_installed_by_the_runtime_stage():
    libraries = shared_libraries()
    static_runtime = "--static-swift-stdlib" in " ".join(i.text for i in build_stage().all("RUN"))
    from_toolchain = {name for name in libraries if TOOLCHAIN_LIBRARY.match(name)}
    if from_toolchain:
        # A debug build links the toolchain's shared runtime; the image's release build links it statically.
        assert static_runtime, f"the binary needs {sorted(from_toolchain)}, which the runtime stage does not have"
    debian = {name: path for name, path in libraries.items() if name not in from_toolchain}
    owners = owning_packages(sorted(set(debian.values())))
    unowned = sorted(set(debian.values()) - owners.keys())
    assert not unowned, f"no Debian package owns {unowned}"
    installed = runtime_packages(runtime_stage())
    assert installed, "the runtime stage installs no packages"
    closure = dependency_closure(installed)
    missing = sorted({f"{owners[path]} ({name})" for name, path in debian.items() if owners[path] not in closure})
    assert not missing, f"the runtime stage ({' '.join(installed)}) does not provide {missing}"
    # The libraries the binary itself links against, named directly rather than through libvips.
    for direct in ("libvips42", "libsqlite3-0", "zlib1g", "libxxhash0", "libsodium23", "libargon2-1"):
        assert direct in installed, f"{direct} should be installed by name"


def test_runtime_stage_installs_nothing_the_binary_does_not_need():
    installed = runtime_packages(runtime_stage())
    needed = dependency_closure(list(owning_packages(sorted(set(shared_libraries().values()))).values()))
    extra = [p for p in installed if p not in needed]
    assert not extra, f"installed but not needed by the binary: {extra}"
    runs = " ".join(i.text for i in runtime_stage().all("RUN"))
    assert "--no-install-recommends" in runs
    assert "rm -rf /var/lib/apt/lists" in runs, "apt lists should not stay in the image"


def test_copy_sources_exist_and_land_where_the_binary_looks():
    stage = runtime_stage()
    workdir = stage.workdir_at(len(stage.instructions))
    destinations = {}
    for flags, sources, _, absolute in stage.copies():
        if "from" in flags:
            assert flags["from"] == build_stage().name
            continue
        for source in sources:
            assert (REPO / source).exists(), f"COPY {source}: no such path in the repository"
            destinations[source.rstrip("/")] = absolute
    for build_copy in build_stage().copies():
        for source in build_copy[1]:
            assert (REPO / source).exists(), f"COPY {source}: no such path in the repository"
    # The binary reads config.json from its working directory and serves Public/ relative to it.
    assert destinations.get("config.json") == f"{workdir}/config.json"
    assert destinations.get("Public") == f"{workdir}/Public"


def test_runs_as_a_fixed_non_root_user_who_owns_the_volumes():
    user = runtime_stage().last("USER")
    assert user, "no USER: the server would run as root"
    name = user.text.split(":")[0]
    assert name not in ("root", "0")
    runs = " ".join(i.text for i in runtime_stage().all("RUN"))
    assert re.search(rf"useradd [^&]*--uid (\d+)[^&]* {name}\b", runs), "create the user with a fixed uid"
    uid = int(re.search(r"--uid (\d+)", runs).group(1))
    assert uid >= 1000
    chown = re.search(rf"chown {name}(:\w+)? ([^&]+)", runs)
    assert chown and {"/photos", "/data"} <= set(chown.group(2).split()), "the volumes must belong to the user"


def test_container_conventions():
    stage = runtime_stage()
    assert stage.last("EXPOSE").text.split() == ["8080"]
    volumes = set()
    for volume in stage.all("VOLUME"):
        volumes |= set(volume.exec_form() or volume.words())
    assert volumes == {"/photos", "/data"}
    assert stage.last("STOPSIGNAL").text == "SIGTERM"
    entrypoint = stage.last("ENTRYPOINT").exec_form()
    assert entrypoint, "ENTRYPOINT in exec form, so the server is PID 1 and gets SIGTERM"
    copied = {absolute for flags, _, _, absolute in stage.copies() if "from" in flags}
    assert entrypoint[0] in copied or any(f"{d}/{entrypoint[0]}" in copied for d in ("/usr/local/bin", "/usr/bin"))


def test_environment_names_real_settings_for_a_container():
    env = runtime_stage().environment()
    keys = json.loads((REPO / "config.json").read_text()).keys()
    names = {"PHOTOSCROLL_" + re.sub(r"([A-Z])", r"_\1", key).upper(): key for key in keys}
    for variable in env:
        assert variable in names, f"ENV {variable} is not a setting (known: {sorted(names)})"
    assert env["PHOTOSCROLL_HOST"] == "0.0.0.0"
    assert env["PHOTOSCROLL_PHOTOS"] == "/photos"
    assert env["PHOTOSCROLL_DATA"] == "/data"
    assert env["PHOTOSCROLL_LOG_FORMAT"] == "json"
    # Docker sends SIGKILL 10 s after SIGTERM by default; in-flight requests must finish first.
    assert 0 < float(env["PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS"]) < 10
    assert "PHOTOSCROLL_PORT" not in env, "leave the port to config.json so plain PORT still works"


def test_health_check_runs_a_subcommand_the_binary_has():
    healthcheck = runtime_stage().last("HEALTHCHECK")
    assert healthcheck, "no HEALTHCHECK"
    command = healthcheck.text.split("CMD", 1)[1].strip()
    words = json.loads(command) if command.startswith("[") else command.split()
    assert words[0] == "photoscroll" and words[1] == "health", words
    timeout = re.search(r"--timeout=(\d+)s", healthcheck.text)
    assert timeout and "--timeout" in words and float(words[words.index("--timeout") + 1]) < int(timeout.group(1))
    usage = subprocess.run([str(binary()), "--help"], capture_output=True, text=True, timeout=30).stdout
    assert re.search(r"^\s+health\s", usage, re.M), "`photoscroll --help` lists no health subcommand"
    # Against a port nobody listens on, the check fails with exit 1 and one line, not a usage error.
    result = subprocess.run([str(binary()), *words[1:], "--url", "http://127.0.0.1:9"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert len((result.stdout + result.stderr).strip().splitlines()) == 1


def test_dockerignore_keeps_local_state_out_and_lets_sources_in():
    patterns = [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]

    def ignored(path: str) -> bool:
        verdict = False
        for pattern in patterns:
            negate = pattern.startswith("!")
            body = pattern[1:] if negate else pattern
            if fnmatch.fnmatch(path, body) or path.startswith(body.rstrip("/") + "/"):
                verdict = not negate
        return verdict

    for local in (".build", "data", "build", ".venv", ".git"):
        assert ignored(local), f"{local} should be in .dockerignore"
    for stage in stages():
        for flags, sources, _, _ in stage.copies():
            if "from" not in flags:
                for source in sources:
                    assert not ignored(source.rstrip("/")), f"{source} is copied but ignored"


def test_nothing_test_only_goes_into_the_image():
    # The tests' own server (Tests/Browser/mockserver.py) and their page hooks
    # (Tests/Browser/page/hooks.js) stay out: the image copies only what the server needs, and the
    # context leaves the tests and the benchmarks out.
    for stage in stages():
        for flags, sources, _, _ in stage.copies():
            if "from" not in flags:
                for source in sources:
                    top = source.strip("./").split("/")[0]
                    assert top in ("Package.swift", "Sources", "Public", "config.json"), f"COPY {source}"
    ignored = {line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()}
    assert {"Tests", "bench"} <= ignored, "the tests and the benchmarks out of the build context"
    # And Public/, which the image serves, holds nothing only a test uses.
    for path in (REPO / "Public").rglob("*"):
        if path.is_file() and path.suffix in (".js", ".html"):
            assert "window.__" not in path.read_text(), f"{path.relative_to(REPO)} exposes a test hook"
