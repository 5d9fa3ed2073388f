"""``pitch play`` at a call-your-partner table (issue 36, docs/rules.md 2.8): you win the
auction, the call is a choice made by keys like the others (←→ through the cards you may call,
1-4 through a suit's, Enter calls it: CP3), the called card is said on the info line and the
reveal when the card is played (CP5), driven through Textual's pilot."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from pitchcards.actions import CALL
from pitchcards.cards import card_suit, cards_of
from pitchcards.tui.app import PitchApp
from pitchcards.tui.config import GameConfig
from pitchcards.tui.screens import ResultScreen
from pitchcards.tui.text import card_label
from test_tui import FAST, run, settle, text_of
from test_tui import data_home as data_home  # the autouse temporary folders
from test_tui_tenpoint import history

#: A deal (seed 2) where you deal, so bid last: your bid of 4 wins the auction.
CALL_GAME = GameConfig(variant="call-partner", seed=2, level="medium")


async def _bid_four(pilot: Pilot[Any], app: PitchApp) -> None:
    """Let the bots bid until your turn; bid 4 by keys."""
    await settle(pilot, app, timeout=60)
    view = app.ctl.view()
    assert view.phase == "auction" and "4" in app.legal_bids(view), view.legal_actions
    await pilot.press("4", "enter")
    await settle(pilot, app, timeout=60)


def test_you_call_a_card_by_keys_and_the_reveal_is_said() -> None:
    app = PitchApp(CALL_GAME, delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await _bid_four(pilot, app)
        view = app.ctl.view()
        me = app.ctl.human_seat
        assert view.phase == "call" and view.pitcher == me
        assert "Call your partner's card" in text_of(app, "#prompt")
        calls = sorted((a for a in view.legal_actions if a.kind == "call"),
                       key=lambda a: a.card or 0)
        # h: a hint chooses a call (Enter would make it)
        await pilot.press("h")
        for _ in range(3000):
            if app.choices.choice is not None:
                break
            await pilot.pause(0.01)
        assert app.choices.choice in calls, app.choices.choice
        assert text_of(app, "#message").startswith("Hint: call ")
        before = len(history(app))
        await pilot.press("1")
        assert len(history(app)) == before  # a key only chooses
        first_club = next(a for a in calls if a.card is not None and card_suit(a.card) == 0)
        assert text_of(app, "#prompt").startswith(f"Enter: call {card_label(first_club.card)}")
        # 3: the hearts; → the next call; ← back
        await pilot.press("3")
        hearts = [a for a in calls if a.card is not None and card_suit(a.card) == 2]
        assert app.choices.choice == hearts[0]
        await pilot.press("right")
        assert app.choices.choice == calls[calls.index(hearts[0]) + 1]
        await pilot.press("left")
        assert app.choices.choice == hearts[0]
        # a card another seat was dealt (the test knows the deal; the screen does not), chosen
        # by its suit's digit pressed until it comes
        hand = app.ctl.hand
        assert hand is not None
        others = {c for s in range(hand.players) if s != me for c in cards_of(hand.dealt[s])}
        chosen = next(a for a in calls if a.card in others)
        digit = str(card_suit(chosen.card) + 1)
        for _ in range(len(calls)):
            if app.choices.choice == chosen:
                break
            await pilot.press(digit)
        assert app.choices.choice == chosen and chosen in CALL
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert (me, chosen) in history(app)
        label = card_label(chosen.card)
        # the call said to you, and on the info line while the card is unplayed
        await settle(pilot, app, timeout=60)
        said = text_of(app, "#message") + "\n" + text_of(app, "#info")
        assert f"You called {label}: its holder is your secret partner." in said, said
        assert "partner" not in text_of(app, "#table")  # nobody marked before the reveal
        holder = hand.partner
        played = False
        while not isinstance(app.screen, ResultScreen):
            view = app.ctl.view()
            if view.partner_known and not played and view.phase == "play":
                played = True
                # the reveal on the message line and the partnership on the info line
                if holder is not None and holder != me:
                    name = app.ctl.name(holder)
                    assert f"{label} is out: {name} is your partner!" in text_of(app, "#message")
                    assert f"{name} is your partner ({label})" in text_of(app, "#info")
            cards = app.cards(view)
            legal = app.legal_cards(view)
            i = next(i for i, c in enumerate(cards) if c in legal)
            await pilot.press(str(i + 1), "enter")
            await pilot.pause(0.02)
            await settle(pilot, app, timeout=60)
        # this deal: the card called was dealt, so the reveal came during the play
        assert holder is not None and holder != me and played, (holder, played)

    run(app, script, size=(100, 30))
