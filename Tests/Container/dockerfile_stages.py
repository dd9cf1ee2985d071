"""A small Dockerfile reader: stages and their instructions, enough to check and replay the image.

Both the pytest checks (test_dockerfile.py) and the bookworm-root boot (boot_root.py) read the
Dockerfile through this module, so what they check is what the image does.
"""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO / "Dockerfile"
# Libraries that come from the Swift toolchain rather than from Debian: the image's binary has
# them linked in (`--static-swift-stdlib`), a debug build loads them from the toolchain.
TOOLCHAIN_LIBRARY = re.compile(r"^(libswift\w*|libFoundation\w*|lib_Foundation\w*|libdispatch|libBlocksRuntime|libXCTest|libTesting)\.so")


@dataclass
class Instruction:
    keyword: str
    text: str

    def exec_form(self) -> list[str] | None:
        """The JSON array of `CMD ["a", "b"]` style arguments, or None in shell form."""
        stripped = self.text.strip()
        if stripped.startswith("["):
            try:
                value = json.loads(stripped)
            except json.JSONDecodeError:
                return None
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return value
        return None

    def words(self) -> list[str]:
        return shlex.split(self.text)


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> Instruction | None:
        found = self.all(keyword)
        return found[-1] if found else None

    def environment(self) -> dict[str, str]:
        """ENV instructions in order, `KEY=value` pairs (quotes removed)."""
        env: dict[str, str] = {}
        for instruction in self.all("ENV"):
            words = instruction.words()
            if len(words) >= 2 and "=" not in words[0]:
                env[words[0]] = " ".join(words[1:])
                continue
            for word in words:
                key, _, value = word.partition("=")
                env[key] = value
        return env

    def workdir_at(self, index: int) -> str:
        """The working directory in force at instruction `index`."""
        current = "/"
        for instruction in self.instructions[:index]:
            if instruction.keyword == "WORKDIR":
                target = instruction.text.strip()
                current = target if target.startswith("/") else str(Path(current) / target)
        return current

    def copies(self) -> list[tuple[dict[str, str], list[str], str, str]]:
        """Every COPY as (flags, sources, destination, absolute destination)."""
        result = []
        for index, instruction in enumerate(self.instructions):
            if instruction.keyword != "COPY":
                continue
            words = instruction.exec_form() or instruction.words()
            flags = {}
            while words and words[0].startswith("--"):
                name, _, value = words.pop(0)[2:].partition("=")
                flags[name] = value
            *sources, destination = words
            absolute = destination if destination.startswith("/") else str(Path(self.workdir_at(index)) / destination)
            result.append((flags, sources, destination, absolute.rstrip("/") or "/"))
        return result


def logical_lines(text: str) -> list[str]:
    """Joins backslash continuations and drops comment lines, as the builder does."""
    lines: list[str] = []
    current = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not current):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        current += stripped
        if current.strip():
            lines.append(current.strip())
        current = ""
    if current.strip():
        lines.append(current.strip())
    return lines


def substitute(text: str, arguments: dict[str, str]) -> str:
    return re.sub(r"\$\{?(\w+)\}?", lambda m: arguments.get(m.group(1), m.group(0)), text)


def parse(path: Path = DOCKERFILE) -> list[Stage]:
    arguments: dict[str, str] = {}
    stages: list[Stage] = []
    for line in logical_lines(path.read_text()):
        keyword, _, rest = line.partition(" ")
        keyword = keyword.upper()
        rest = rest.strip()
        if keyword == "ARG" and not stages:
            name, _, default = rest.partition("=")
            arguments[name] = default
            continue
        if keyword == "FROM":
            words = substitute(rest, arguments).split()
            words = [w for w in words if not w.startswith("--")]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append(Stage(base=words[0], name=name))
            continue
        if not stages:
            raise ValueError(f"{keyword} before the first FROM")
        stages[-1].instructions.append(Instruction(keyword, rest))
    return stages


def runtime_packages(stage: Stage) -> list[str]:
    """Packages that `apt-get install` lines of a stage's RUN instructions name."""
    packages: list[str] = []
    for instruction in stage.all("RUN"):
        for command in re.split(r"&&|;|\|\|", instruction.text):
            words = shlex.split(command)
            if "apt-get" in words and "install" in words:
                after = words[words.index("install") + 1:]
                packages += [w for w in after if not w.startswith("-")]
    return packages
