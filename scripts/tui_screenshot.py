"""Export docs/pitch-play.svg: `pitch play` at 80×24, mid-hand, from a fixed seed.

    .venv/bin/python scripts/tui_screenshot.py
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from pitchcards.tui.app import Delays, PitchApp
from pitchcards.tui.config import GameConfig

OUT = Path(__file__).resolve().parent.parent / "docs"


async def main() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=5, level="hard"), delays=Delays(0, 0))
    async with app.run_test(size=(80, 24)) as pilot:
        # Play with keys until you are to follow in the second trick: pass in the auction, then
        # the first legal card.
        for _ in range(4000):
            await pilot.pause(0.01)
            if not (app.ctl.human_to_act and not app.busy):
                continue
            view = app.ctl.view()
            if view.phase == "play" and len(view.tricks) >= 1 and view.trick:
                break
            if view.phase == "auction":
                await pilot.press("p" if "pass" in app.legal_bids(view) else "2")
            else:
                cards = app.cards(view)
                legal = app.legal_cards(view)
                i = next(i for i, c in enumerate(cards) if c in legal)
                await pilot.press(str(i + 1), "enter")
        await pilot.pause(0.1)
        app.save_screenshot("pitch-play.svg", str(OUT))
    print(OUT / "pitch-play.svg")


if __name__ == "__main__":
    asyncio.run(main())
