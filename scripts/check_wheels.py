#!/usr/bin/env python3
"""Check that every dependency of spite installs from a wheel on Windows and macOS, for CPython 3.11 to 3.13.

For each platform and Python version, the requirements of pyproject.toml (with the extras asked for) are resolved
as pip would there: each one whose environment marker holds on that platform (``pyreadline3; sys_platform ==
"win32"`` only on Windows) is downloaded with ``pip download --only-binary=:all: --platform ... --python-version
...`` and the requirements in its wheel's metadata follow, with the markers of that platform, not of this machine
(pip itself would judge them by this machine). Prints each package with its wheel's tag (``pure`` for
``py3-none-any``) and the ones that have no wheel there; exits 1 if any has none.

It needs the package registry (pip's own configuration): it is a check to run by hand, not a test.

    python scripts/check_wheels.py                                  # win_amd64, macOS arm64 and x86_64; 3.11-3.13
    python scripts/check_wheels.py --platform win_amd64 --python 3.11 --extras ""
"""

from __future__ import annotations

import argparse
import email.parser
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Target:
    """A platform as pip names it (--platform) and as environment markers see it."""

    name: str
    pip_platforms: tuple[str, ...]
    markers: dict[str, str]


TARGETS = {
    "win_amd64": Target(
        "win_amd64",
        ("win_amd64",),
        {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt", "platform_machine": "AMD64"},
    ),
    "macos_arm64": Target(
        "macos_arm64",
        ("macosx_11_0_arm64", "macosx_11_0_universal2"),
        {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix", "platform_machine": "arm64"},
    ),
    "macos_x86_64": Target(
        "macos_x86_64",
        ("macosx_10_13_x86_64", "macosx_10_13_universal2"),
        {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix", "platform_machine": "x86_64"},
    ),
}


@dataclass(frozen=True)
class Found:
    """One requirement as resolved for a target: the wheel pip chose, or why there is none."""

    name: str
    wheel: str | None
    why: str = ""

    @property
    def tag(self) -> str:
        if self.wheel is None:
            return "NO WHEEL"
        tags = parse_wheel_filename(Path(self.wheel).name)[3]
        return "pure" if any(t.abi == "none" and t.platform == "any" for t in tags) else sorted(str(t) for t in tags)[0]


def environment(target: Target, python: str) -> dict[str, str]:
    """The values of the environment markers on `target` under CPython `python` (like "3.12")."""
    return {
        **target.markers,
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def project_requirements(extras: list[str]) -> list[Requirement]:
    """The requirements of pyproject.toml: the dependencies, and those of each extra in `extras`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    texts = list(project["dependencies"])
    for extra in extras:
        texts += project["optional-dependencies"][extra]
    return [Requirement(t) for t in texts]


def download(requirement: str, target: Target, python: str, folder: Path) -> Found:
    """The wheel pip downloads for `requirement` on `target` (no dependencies: they are followed by the caller)."""
    name = canonicalize_name(Requirement(requirement).name)
    into = Path(tempfile.mkdtemp(dir=folder))
    platforms = [arg for p in target.pip_platforms for arg in ("--platform", p)]
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", *platforms]
    command += ["--python-version", python, "--implementation", "cp", "--dest", str(into), requirement]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    wheels = sorted(into.glob("*.whl"))
    if done.returncode != 0 or not wheels:
        last = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
        return Found(name, None, last[0] if last else done.stderr.strip()[-200:])
    return Found(name, str(wheels[0]))


def requires(wheel: str) -> list[str]:
    """The Requires-Dist lines of a wheel's metadata."""
    with zipfile.ZipFile(wheel) as archive:
        meta = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        message = email.parser.BytesParser().parsebytes(archive.read(meta))
    return message.get_all("Requires-Dist") or []


def resolve(roots: list[Requirement], target: Target, python: str, folder: Path) -> list[Found]:
    """Every package `roots` pull in on `target` under CPython `python`, each with the wheel pip picks for it there."""
    env = environment(target, python)
    wanted: dict[str, tuple[SpecifierSet, set[str]]] = {}  # name -> the specifiers and extras asked of it so far
    found: dict[str, Found] = {}
    queue = [(r, "") for r in roots]
    while queue:
        todo: dict[str, str] = {}
        for requirement, extra in queue:
            if requirement.marker is not None and not requirement.marker.evaluate({**env, "extra": extra}):
                continue
            name = canonicalize_name(requirement.name)
            specifier, extras = wanted.get(name, (SpecifierSet(), set()))
            joined = (specifier & requirement.specifier, extras | set(requirement.extras))
            if name in found and joined == (specifier, extras):
                continue
            wanted[name] = joined
            todo[name] = f"{name}{'[' + ','.join(sorted(joined[1])) + ']' if joined[1] else ''}{joined[0]}"
        queue = []
        with ThreadPoolExecutor(4) as pool:
            for f in pool.map(lambda text: download(text, target, python, folder), todo.values()):
                found[f.name] = f
                if f.wheel is None:
                    continue
                for line in requires(f.wheel):
                    child = Requirement(line)
                    for extra in wanted[f.name][1] or {""}:
                        queue.append((child, extra))
    return sorted(found.values(), key=lambda f: f.name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--platform", action="append", choices=sorted(TARGETS), help="(repeatable) default: all")
    parser.add_argument("--python", action="append", help="CPython version, like 3.12 (repeatable) default: 3.11, 3.12, 3.13")
    parser.add_argument("--extras", default="mail,test", help="extras of pyproject.toml to check too (default: mail,test)")
    args = parser.parse_args()
    targets = [TARGETS[t] for t in args.platform or sorted(TARGETS)]
    pythons = args.python or ["3.11", "3.12", "3.13"]
    roots = project_requirements([e for e in args.extras.split(",") if e])
    missing = 0
    with tempfile.TemporaryDirectory(prefix="spite-wheels-") as scratch:
        for target in targets:
            for python in pythons:
                results = resolve(roots, target, python, Path(scratch))
                bad = [f for f in results if f.wheel is None]
                missing += len(bad)
                pure = sum(f.tag == "pure" for f in results)
                verdict = "OK" if not bad else f"{len(bad)} WITHOUT A WHEEL"
                print(f"{target.name:13} CPython {python}: {len(results)} packages, {pure} pure Python: {verdict}")
                for f in results:
                    version = parse_wheel_filename(Path(f.wheel).name)[1] if f.wheel else ""
                    print(f"    {f.name:28} {version!s:12} {f.tag}" + (f"  ({f.why})" if f.why else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
