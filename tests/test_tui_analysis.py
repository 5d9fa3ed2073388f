"""``a`` at the end of a match in ``pitch play`` (issue 33): the analysis of the match on a
worker thread, its progress shown, Esc cancels it.  Headless through Textual's pilot; the
worker is awaited (never a clock), and a gate holds it where the test needs it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Static

from pitchcards.tui import analysis_screen
from pitchcards.tui.analysis_screen import AnalysisScreen
from pitchcards.tui.app import Delays, PitchApp
from pitchcards.tui.config import GameConfig
from pitchcards.tui.screens import ResultScreen
from test_tui import play_match

FAST = Delays(bot=0.0, trick=0.0)
Script = Callable[[Pilot[Any]], Coroutine[Any, Any, None]]


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "pitchcards"


def run(app: PitchApp, script: Script) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await script(pilot)

    asyncio.run(go())


def shown(screen: AnalysisScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def an_app() -> PitchApp:
    """A game to put the analysis page over (the page itself needs no finished match)."""
    return PitchApp(GameConfig(variant="auction", players=3, seed=4, level="medium"),
                    delays=FAST)


def test_the_analysis_page_shows_progress_then_the_report() -> None:
    app = an_app()
    steps: list[tuple[int, int]] = []

    def analyse(text: str, progress: Callable[[int, int], None]) -> str:
        for k in (1, 2, 3):
            progress(k, 3)
            steps.append((k, 3))
        return f"REPORT of {text.splitlines()[0]}"

    async def script(pilot: Pilot[Any]) -> None:
        screen = AnalysisScreen("pitchcards-record 2\n", analyse)
        await app.push_screen(screen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.outcome == "done" and steps == [(1, 3), (2, 3), (3, 3)]
        assert "REPORT of pitchcards-record 2" in shown(screen, "#analysis-body")
        assert "Analysis done" in shown(screen, "#analysis-progress")
        await pilot.press("escape")
        assert app.screen is not screen

    run(app, script)


def test_esc_cancels_the_analysis_at_its_next_decision() -> None:
    app = an_app()
    gate = threading.Event()
    reached: list[int] = []

    def analyse(_text: str, progress: Callable[[int, int], None]) -> str:
        progress(1, 3)
        reached.append(1)
        gate.wait(60)  # held until the page is closed
        progress(2, 3)  # raises: the page is closed
        reached.append(2)
        return "never shown"

    async def script(pilot: Pilot[Any]) -> None:
        screen = AnalysisScreen("pitchcards-record 2\n", analyse)
        await app.push_screen(screen)
        await pilot.press("escape")
        assert app.screen is not screen and screen.cancel.is_set()
        gate.set()
        await app.workers.wait_for_complete()
        assert screen.outcome == "cancelled" and 2 not in reached

    run(app, script)


def test_a_at_the_end_of_a_match_analyses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_screen, "DEALS", 2)  # the real analysis, tiny
    config = GameConfig(variant="auction", players=3, target=3, seed=11, level="medium")
    app = PitchApp(config, delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_match(pilot, app)  # the short match of test_tui
        result = app.screen
        assert isinstance(result, ResultScreen) and "a analyse" in result.keys
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.outcome == "done"
        body = shown(screen, "#analysis-body")
        assert "hand 1, dealer" in body and "summary" in body and "You" in body
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)  # back to the match's result

    run(app, script)
