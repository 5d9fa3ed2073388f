"""The screen as text and a scripted player, for the snapshot tests (tests/snapshots/) and the
README's screenshot (scripts/tui_screenshot.py): both drive the same app the same way.

:func:`play_until` answers every turn of yours with keys, as a player would (the lowest legal
bid or pass, then Enter; ♣ when you name trump; the first legal card to play or discard, then
Enter), until ``stop(app)`` holds.  With
fixed seeds, bots that do not watch the clock (``easy``, ``medium``) and no pauses, the screens
it stops at are the same on every run.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from .app import PitchApp
from .screens import ResultScreen

__all__ = ["play_until", "screen_text"]


def screen_text(app: PitchApp) -> str:
    """What the terminal shows now, as plain text (one line per row, trailing spaces cut)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def _idle(app: PitchApp) -> bool:
    """Nothing is moving: your turn, or a result panel, or the game is over."""
    if isinstance(app.screen, ResultScreen):
        return True
    return (app.ctl.over or app.ctl.human_to_act) and not app.busy and \
        len(app.screen_stack) == 1


def _bid_order(key: str) -> int:
    """The bar's bid keys from the lowest: 1..10, then the moon."""
    return int(key) if key.isdigit() else 99


async def play_until(pilot: Pilot[Any], app: PitchApp, stop: Callable[[PitchApp], bool],
                     limit: float = 30.0) -> None:
    """Take your turns with keys until ``stop(app)`` holds at a still moment."""
    for _ in range(int(limit / 0.01)):
        await pilot.pause(0.01)
        if not _idle(app):
            continue
        if stop(app):
            await pilot.pause(0.05)
            return
        if isinstance(app.screen, ResultScreen):
            await pilot.press("enter")
            continue
        view = app.ctl.view()
        if view.phase == "auction":
            keys = app.legal_bids(view)
            key = "pass" if "pass" in keys else min(keys, key=_bid_order)
            await pilot.press({"pass": "p", "moon": "m", "10": "0"}.get(key, key), "enter")
        elif view.phase == "declare":  # T5: the first suit, ♣
            await pilot.press("1", "enter")
        else:
            cards = app.cards(view)
            legal = app.legal_cards(view)
            i = next(i for i, c in enumerate(cards) if c in legal)
            await pilot.press(str(i + 1), "enter")
    raise TimeoutError(f"play_until: {stop} did not hold within {limit} s")
