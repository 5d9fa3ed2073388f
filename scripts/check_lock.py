"""Is the lock current?  Every requirement pyproject.toml states for what the test command
installs (the dependencies and the extras ``test``, ``rl``, ``sb3``, ``cluster``, and
requirements/lock-tools.in)
must be in the lock at a version it allows.  Prints each one that is not, by name, and exits 1.

    python scripts/check_lock.py requirements/test-py311.txt

Run by scripts/test.sh right after installing, so a stale lock stops the test command before
anything else runs; tests/test_lock.py runs it on the real files and on a stale copy."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

try:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
except ImportError:  # a bare interpreter (scripts/lock.sh --check before any install): pip's copy
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[assignment]
    from pip._vendor.packaging.utils import canonicalize_name  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ("test", "rl", "sb3", "cluster")  # what scripts/test.sh installs: '.[test,rl,sb3,cluster]'
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)")


def locked_versions(lock_text: str) -> dict[str, str]:
    """The lock's ``name==version`` lines, by canonical name."""
    pins: dict[str, str] = {}
    for line in lock_text.splitlines():
        match = _PIN.match(line)
        if match:
            pins[canonicalize_name(match.group(1))] = match.group(2)
    return pins


def wanted(pyproject_text: str, tools_text: str = "") -> list[tuple[Requirement, str]]:
    """Each requirement the test command installs, with where it is stated."""
    project = tomllib.loads(pyproject_text)["project"]
    found = [(Requirement(r), "dependencies") for r in project.get("dependencies", [])]
    optional = project.get("optional-dependencies", {})
    for extra in EXTRAS:
        found += [(Requirement(r), f"[{extra}]") for r in optional.get(extra, [])]
    for line in tools_text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            found.append((Requirement(line), "requirements/lock-tools.in"))
    return found


def stale(pyproject_text: str, lock_text: str, tools_text: str = "") -> list[str]:
    """One sentence per requirement the lock does not satisfy; empty when it is current."""
    pins = locked_versions(lock_text)
    problems = []
    for requirement, where in wanted(pyproject_text, tools_text):
        if requirement.marker is not None and not any(
                requirement.marker.evaluate({"extra": extra}) for extra in ("", *EXTRAS)):
            continue  # not for this platform or Python
        name = canonicalize_name(requirement.name)
        if name not in pins:
            problems.append(f"{requirement.name}: pyproject.toml {where} asks for "
                            f"{requirement} but the lock has no {requirement.name}")
        elif not requirement.specifier.contains(pins[name], prereleases=True):
            problems.append(f"{requirement.name}: pyproject.toml {where} asks for "
                            f"{requirement} but the lock has {requirement.name}=={pins[name]}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lock = Path(argv[0])
    if not lock.is_file():
        print(f"no lock for this Python at {lock}: make one with bash scripts/lock.sh",
              file=sys.stderr)
        return 1
    tools = ROOT / "requirements" / "lock-tools.in"
    problems = stale((ROOT / "pyproject.toml").read_text(), lock.read_text(),
                     tools.read_text() if tools.is_file() else "")
    for problem in problems:
        print(f"stale lock {lock}: {problem}", file=sys.stderr)
    if problems:
        print("refresh it with: bash scripts/lock.sh (then run the suite and commit both)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
