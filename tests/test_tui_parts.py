"""The terminal game in parts (issue 28, item 4): its stylesheets ship as package data."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pitchcards.tui.app import PitchApp
from pitchcards.tui.score_app import ScoreApp

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pitchcards"


def _package_data() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs: list[str] = config["tool"]["setuptools"]["package-data"]["pitchcards"]
    return globs


def test_the_stylesheets_are_files_shipped_as_package_data() -> None:
    # Textual's CSS_PATH, as its examples do: the look is in .tcss files beside the apps, and
    # the wheel carries them (as it carries the browser table's files), or an installed
    # ``pitch play`` would not start.
    shipped = {path for pattern in _package_data() for path in PACKAGE.glob(pattern)}
    for app in (PitchApp, ScoreApp):
        paths = app.CSS_PATH if isinstance(app.CSS_PATH, list) else [app.CSS_PATH]
        assert paths and not app.CSS, f"{app.__name__} keeps its look in .tcss files"
        for name in paths:
            path = PACKAGE / "tui" / str(name)
            assert path.suffix == ".tcss" and path.is_file(), path
            assert path in shipped, f"{path} is not in pyproject.toml's package-data"
    assert all(path in shipped for path in (PACKAGE / "tui").glob("*.tcss"))

