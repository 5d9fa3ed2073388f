"""The terminal game in parts (issue 28, item 4): its stylesheets ship as package data; the
input choices and the status lines are UI-free and tested here without a screen."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from rich.text import Text

from pitchcards.actions import BIDS, PITCH, PLAY, TRUMP
from pitchcards.tui.app import PitchApp
from pitchcards.tui.choices import (
    Choices,
    bar_action,
    bid_key,
    bid_keys,
    legal_bids,
    legal_cards,
    offered,
    shown_cards,
)
from pitchcards.tui.config import GameConfig
from pitchcards.tui.controller import GameController
from pitchcards.tui.score_app import ScoreApp
from pitchcards.tui.status import prompt_line, top_line
from pitchcards.views import View

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


# --------------------------------------------------------------------------- the input choices
def _your_turn(variant: str, seed: int, phase: str) -> View:
    """Your view at your first turn in ``phase`` of a local game (bots play the rest; you
    take the first legal action until then) — no screen, no Textual."""
    ctl = GameController(GameConfig(variant=variant, seed=seed))
    ctl.deal()
    for _ in range(200):
        seat = ctl.to_act
        assert seat is not None
        if seat == ctl.human_seat:
            view = ctl.view()
            if view.phase == phase:
                return view
            ctl.apply(view.legal_actions[-1], seat)
        else:
            ctl.apply(ctl.choose(seat, ctl.bot_view(seat)), seat)
    raise AssertionError(f"no turn of yours in {phase}")


def test_the_choices_are_ui_free() -> None:
    # The input choices and the status lines are tested without Textual: importing them does
    # not import it (rich is the only drawing library they know).
    code = ("import sys, pitchcards.tui.choices, pitchcards.tui.status, pitchcards.tui.source; "
            "print('textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_in_the_auction_keys_choose_a_legal_bid_or_say_which_keys_do() -> None:
    view = _your_turn("auction", 3, "auction")
    assert {a.kind for a in view.legal_actions} >= {"pass", "bid", "pitch"}
    choices = Choices()
    said = choices.digit(view, 6)  # no bid of 6 in the four-point game
    assert isinstance(said, Text) and said.style == "red"
    assert said.plain == f"There is no bid of 6: {bid_keys(view)} chooses a bid."
    assert choices.choice is None
    assert choices.confirm(view) == "Choose first: " + bid_keys(view) + \
        " for a bid, ←→ for a card to pitch."
    legal = sorted(a.bid for a in view.legal_actions if a.kind == "bid" and a.bid)
    assert choices.digit(view, legal[0]) == "" and choices.choice == BIDS[legal[0]]
    assert choices.confirm(view) == BIDS[legal[0]]
    assert choices.second_click_on_bid(str(legal[0])) is False  # a key, not a click
    assert choices.click_bid(view, "pass") == "" and choices.second_click_on_bid("pass")
    assert choices.clear() and choices.choice is None and not choices.clear()
    # a card chosen in the auction is a pitch (a bid of 4 that leads it)
    assert choices.move(view, 1) is None
    card = shown_cards(view)[0]
    assert choices.selected == 0 and choices.choice == PITCH[card]
    assert choices.confirm(view) == PITCH[card]


def test_in_play_a_card_is_chosen_and_enter_plays_it() -> None:
    view = _your_turn("auction", 3, "play")
    cards = shown_cards(view)
    choices = Choices()
    assert choices.confirm(view) == f"Choose a card first (←/→ or 1-{min(len(cards), 9)})."
    choices.keep_a_legal_card(view)
    assert choices.selected is not None and cards[choices.selected] in legal_cards(view)
    assert choices.click_card(view, 0) is None and choices.selected == 0
    assert choices.second_click_on_card(view, 0) and not choices.second_click_on_card(view, 1)
    assert choices.confirm(view) == PLAY[cards[0]]
    choices.acted(PLAY[cards[0]], yours=True)
    assert choices.clicked is None and choices.selected == 0
    assert choices.digit(view, len(cards) + 1) is None and choices.selected == 0
    choices.fit(0)
    assert choices.selected is None


def test_naming_trump_digits_choose_a_suit_and_cards_wait() -> None:
    view = _your_turn("ten-point", 1, "declare")  # T5: the pitcher names trump
    choices = Choices()
    said = choices.pick(view, 0)
    assert isinstance(said, Text) and said.plain == "Name trump first: 1-4 chooses a suit."
    assert choices.digit(view, 5) is None and choices.choice is None
    assert choices.digit(view, 3) == "" and choices.choice == TRUMP[2]
    assert offered(view) == {"trump-C", "trump-D", "trump-H", "trump-S"}
    assert legal_bids(view) == offered(view)
    assert bar_action(bid_key(TRUMP[2])) == TRUMP[2]


# --------------------------------------------------------------------------- the status lines
def test_the_prompt_says_what_enter_does_with_the_choice() -> None:
    view = _your_turn("auction", 3, "auction")
    ctl_names = GameController(GameConfig(variant="auction", seed=3))
    choices = Choices()
    prompt = prompt_line(ctl_names, view, choices, mine=True)
    assert prompt.plain == f"Your bid: {bid_keys(view)} chooses a bid, ←→ a card to pitch; " \
                           "Enter confirms"
    choices.choose_bid(view, "pass")
    assert prompt_line(ctl_names, view, choices, mine=True).plain == \
        "Enter: pass  (choose again, or Esc)"
    assert prompt_line(ctl_names, view, choices, mine=True, waiting=True).plain.startswith(
        "Trick over: press Enter")
    assert prompt_line(ctl_names, view, choices, mine=True, stalled="Ann cannot move").plain \
        == "Ann cannot move. n new game, q quit (and save)"
    top = top_line(ctl_names, "fast", "   ? rules")
    assert top.plain == "Pitch · auction · to 7 · hand 0 · pace fast   ? rules"
