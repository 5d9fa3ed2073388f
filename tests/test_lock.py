"""The lock (requirements/test-py3XX.txt) is what the test command installs: it must satisfy
everything pyproject.toml asks for, and a stale one must be caught, naming the package
(scripts/check_lock.py; docs/testing.md, "The lock")."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / f"test-py{sys.version_info[0]}{sys.version_info[1]}.txt"


def _check_lock() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_lock", ROOT / "scripts" / "check_lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _texts() -> tuple[str, str, str]:
    return ((ROOT / "pyproject.toml").read_text(), LOCK.read_text(),
            (ROOT / "requirements" / "lock-tools.in").read_text())


def test_the_committed_lock_satisfies_pyproject() -> None:
    pyproject, lock, tools = _texts()
    assert _check_lock().stale(pyproject, lock, tools) == []


def test_every_pin_in_the_lock_is_exact_and_hashed() -> None:
    lock = LOCK.read_text()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.split("\n", 1)[1])
    pins = [block for block in blocks if "==" in block.split("\n", 1)[0]]
    assert len(pins) > 50  # the whole tree, not only the direct dependencies
    for block in pins:
        assert "--hash=sha256:" in block, block.split("\n", 1)[0]
    names = set(_check_lock().locked_versions(lock))
    assert {"pip", "setuptools", "pytest", "mypy", "redis", "fastapi"} <= names


@pytest.mark.parametrize(("change", "named"), [
    (('"redis>=5"', '"redis>=99"'), "redis>=99 but the lock has redis=="),
    (('"pytest>=8",', '"pytest>=8", "pytest-nonexistent>=1",'),
     "pytest-nonexistent>=1 but the lock has no pytest-nonexistent"),
    (('"torch==2.13.0"', '"torch==2.12.0"'), "torch==2.12.0 but the lock has torch==2.13.0"),
])
def test_a_stale_lock_is_caught_naming_the_package(change: tuple[str, str], named: str) -> None:
    pyproject, lock, tools = _texts()
    assert change[0] in pyproject
    problems = _check_lock().stale(pyproject.replace(*change), lock, tools)
    assert len(problems) == 1 and named in problems[0]


def test_the_check_stops_the_command_with_the_packages_name(tmp_path: Path) -> None:
    """As scripts/test.sh runs it: a copy of the repository whose pyproject.toml moved on."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "check_lock.py", tmp_path / "scripts")
    shutil.copytree(ROOT / "requirements", tmp_path / "requirements")
    pyproject = (ROOT / "pyproject.toml").read_text()
    (tmp_path / "pyproject.toml").write_text(pyproject.replace('"redis>=5"', '"redis>=99"'))
    lock = tmp_path / "requirements" / LOCK.name

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(tmp_path / "scripts" / "check_lock.py"),
                               str(lock)], capture_output=True, text=True, check=False)

    stale = run()
    assert stale.returncode == 1
    assert "redis>=99" in stale.stderr and "bash scripts/lock.sh" in stale.stderr
    (tmp_path / "pyproject.toml").write_text(pyproject)
    assert run().returncode == 0
