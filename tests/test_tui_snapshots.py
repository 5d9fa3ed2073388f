"""Snapshot tests: ``pitch play``'s screens at 80×24 as text, for a fixed seed in each variant,
so that a change in wording or layout shows up in review (issue 10).

The expected screens are ``tests/snapshots/*.txt``.  After a deliberate change, regenerate them
and read the diff before committing::

    PITCH_SNAPSHOTS=update .venv/bin/pytest -q tests/test_tui_snapshots.py

When the snapshots are written (``PITCH_SNAPSHOTS=update``) each screen is taken twice in a row
from two fresh apps, and one that differs between them is refused, so a snapshot that depends on
timing is caught as it is made rather than at random later; an ordinary run takes each game
once and compares it with the stored screen (issue 27: the second game was a third of the
module's time).  One app stops at each of a game's moments in turn (one hand played a run, not
one a screen).
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from pitchcards.tui.app import PitchApp
from pitchcards.tui.config import GameConfig
from pitchcards.tui.screens import ResultScreen
from pitchcards.tui.snapshot import play_until, screen_text
from test_tui import FAST
from test_tui import data_home as data_home  # the autouse temporary folders

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("PITCH_SNAPSHOTS") == "update"

#: (snapshot name, settings); bots are ``medium`` (the heuristic: no clock in its choices).
GAMES = {
    "auction": GameConfig(variant="auction", seed=7, level="medium"),
    "auction-3-holder": GameConfig(variant="auction", players=3, target=11, seed=7,
                                   options={"low_to": "holder"}),
    "auction-partners": GameConfig(variant="auction-partners", seed=12, level="medium"),
    "setback": GameConfig(variant="setback", seed=21, level="easy"),
    "money-5": GameConfig(variant="money", players=5, seed=5, level="medium"),
    "money-8": GameConfig(variant="money", players=8, seed=2, level="medium"),
    # The ten-point family: nine cards, jokers, the discard (T1-T8).
    "ten-point": GameConfig(variant="ten-point", seed=23, level="medium"),
}

#: Moments, in the order a hand reaches them: your first bid, your first discard, your first
#: card of the second trick, the first hand's result.
MOMENTS: dict[str, Callable[[PitchApp], bool]] = {
    "bid": lambda app: app.ctl.human_to_act and app.ctl.view().phase == "auction",
    # T4: your first discard, nine cards in a row and the count left
    "discard": lambda app: app.ctl.human_to_act and app.ctl.view().phase == "discard",
    "play": lambda app: app.ctl.human_to_act and len(app.ctl.view().tricks) >= 1,
    "result": lambda app: isinstance(app.screen, ResultScreen),
}
#: Every game at the three moments every game has, and ten-point's discard.
CASES = [(game, moment) for game in GAMES for moment in ("bid", "play", "result")] + [
    ("ten-point", "discard")]


def take(config: GameConfig, moments: tuple[str, ...]) -> dict[str, str]:
    """The screens at ``moments``, in their order, from one fresh app playing one game."""
    app = PitchApp(GameConfig(**config.__dict__), delays=FAST)
    out: dict[str, str] = {}

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for moment in moments:
                await play_until(pilot, app, MOMENTS[moment])
                out[moment] = screen_text(app)

    asyncio.run(go())
    return out


@functools.cache
def screens(game: str) -> tuple[dict[str, str], dict[str, str]]:
    """A game's screens at all its moments from a fresh app, and, when the snapshots are being
    written, from a second one (else the first again): one game played to the first hand's
    result stops at each moment on its way (the bid and play moments come before the result)."""
    moments = tuple(m for m in MOMENTS if (game, m) in CASES)
    first = take(GAMES[game], moments)
    return first, take(GAMES[game], moments) if UPDATE else first


@pytest.mark.parametrize(("game", "moment"), CASES)
def test_screen_matches_its_snapshot(game: str, moment: str) -> None:
    first, second = screens(game)
    screen = first[moment]
    assert second[moment] == screen, "the screen differs between two runs: it depends on timing"
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    path = SNAPSHOTS / f"{game}-{moment}.txt"
    if UPDATE:
        path.write_text(screen, encoding="utf-8")
    assert path.exists(), f"{path.name} is missing: run PITCH_SNAPSHOTS=update (module doc)"
    expected = path.read_text(encoding="utf-8")
    assert screen == expected, (f"{path.name} changed; if that is intended, regenerate with "
                                "PITCH_SNAPSHOTS=update and review the diff\n" + screen)
