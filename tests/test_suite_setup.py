"""The test command's own set-up (tests/conftest.py): what it promises about the suite."""

from __future__ import annotations

from pathlib import Path

import pytest

import conftest

HERE = Path(__file__).resolve().parent


def test_every_module_named_to_start_first_exists() -> None:
    """A module renamed or removed would silently lose its early start (conftest.SLOW_FIRST)."""
    missing = [name for name in conftest.SLOW_FIRST if not (HERE / f"{name}.py").is_file()]
    assert not missing, f"conftest.SLOW_FIRST names modules that do not exist: {missing}"
    assert len(set(conftest.SLOW_FIRST)) == len(conftest.SLOW_FIRST)


def test_the_slow_modules_are_collected_first(request: pytest.FixtureRequest) -> None:
    """This run's collection: the modules of conftest.SLOW_FIRST that it holds come first, in
    that order, and every module's tests stay together."""
    modules: list[str] = []
    for item in request.session.items:
        if not modules or modules[-1] != item.path.stem:
            modules.append(item.path.stem)
    assert len(modules) == len(set(modules)), "a module's tests were split apart"
    slow = [name for name in conftest.SLOW_FIRST if name in modules]
    assert modules[:len(slow)] == slow
    rest = modules[len(slow):]
    kinds = [name.startswith(conftest.SLOW_KINDS) for name in rest]
    assert kinds == sorted(kinds, reverse=True), "a quick module came before a slow kind's"
