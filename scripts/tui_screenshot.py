"""Export docs/pitch-play.svg and docs/pitch-play-hint.svg: `pitch play` at 80×24 from a fixed
seed, mid-hand, and at your first bid with a hint (h) on the screen.

    .venv/bin/python scripts/tui_screenshot.py

Four players, medium bots, seed 7: the keys play as the snapshot tests do
(pitchcards.tui.snapshot.play_until) until you are to play in the second trick, with cards in
front of the seats.  Settings and statistics go to a temporary folder, never yours.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "docs"


async def main() -> None:
    from pitchcards.tui.app import Delays, PitchApp
    from pitchcards.tui.config import GameConfig
    from pitchcards.tui.snapshot import play_until

    app = PitchApp(GameConfig(variant="auction", seed=7, level="medium"), delays=Delays(0, 0))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(pilot, app, lambda app: app.ctl.human_to_act
                         and len(app.ctl.view().tricks) >= 1 and bool(app.ctl.view().trick))
        app.save_screenshot("pitch-play.svg", str(OUT))
    print(OUT / "pitch-play.svg")
    app = PitchApp(GameConfig(variant="auction", seed=7, level="medium"), delays=Delays(0, 0))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(pilot, app, lambda app: app.ctl.human_to_act
                         and app.ctl.view().phase == "auction")
        await pilot.press("h")
        for _ in range(600):  # the expert thinks on a worker thread (a fraction of a second)
            await pilot.pause(0.05)
            if "Hint:" in str(app.message):
                break
        app.save_screenshot("pitch-play-hint.svg", str(OUT))
    print(OUT / "pitch-play-hint.svg")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_DATA_HOME"] = os.environ["XDG_CONFIG_HOME"] = home
        asyncio.run(main())
