"""``pitch play`` driven headless through Textual's pilot: key presses in, screen contents out.

The app runs at 80×24 with bot pauses switched off; saves go to a temporary XDG_DATA_HOME.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

import pitchcards as pc
from pitchcards.bots import Bot, make_bot
from pitchcards.cards import card_symbol
from pitchcards.cli import main
from pitchcards.tui.app import Delays, PitchApp
from pitchcards.tui.config import GameConfig
from pitchcards.tui.controller import GameController
from pitchcards.tui.history import earlier_rows, history_text
from pitchcards.tui.screens import QuitScreen, ResultScreen, SetupScreen, TextScreen
from pitchcards.tui.widgets import BidButton, CardView

FAST = Delays(bot=0.0, trick=0.0)


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "pitchcards"


def run(app: PitchApp, script: Callable[[Pilot[Any]], Coroutine[Any, Any, None]],
        size: tuple[int, int] = (80, 24)) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await script(pilot)

    asyncio.run(go())


def text_of(app: PitchApp, selector: str) -> str:
    return str(app.screen_stack[0].query_one(selector).render())


async def settle(pilot: Pilot[Any], app: PitchApp, timeout: float = 10.0) -> None:
    """Wait until it is your turn, or a result panel is up, or the game is over."""
    for _ in range(int(timeout / 0.01)):
        if isinstance(app.screen, ResultScreen):
            return
        if app.ctl.human_to_act and not app.busy and len(app.screen_stack) == 1:
            return
        await pilot.pause(0.01)
    raise AssertionError(f"the app did not come back to you in time: screen {app.screen}, "
                         f"busy {app.busy}, result_open {app.result_open}, "
                         f"to act {app.ctl.to_act}, over {app.ctl.over}, "
                         f"in hand {app.ctl.in_hand}")


def check_screen(app: PitchApp) -> None:
    """Your cards are on screen, legal ones highlighted and the rest dimmed; no hidden cards."""
    view = app.ctl.view()
    legal = {a.card for a in view.legal_actions if a.card is not None}
    shown = [w for w in app.query(CardView) if w.display]
    assert [w.card for w in shown] == list(pc.cards.cards_of(view.hand_mask))
    for w in shown:
        assert card_symbol(w.card) in str(w.render())  # type: ignore[arg-type]
        if view.phase == "play":
            assert w.has_class("legal") == (w.card in legal)
            assert w.has_class("dim") == (w.card not in legal)
    if view.phase == "auction":
        bids = {b.key for b in app.query(BidButton) if b.has_class("legal")}
        assert bids == app.legal_bids(view)
    # Hidden information: the table shows no card a bot still holds.
    table = text_of(app, "#table")
    hand = app.ctl.hand
    assert hand is not None
    for seat in range(hand.players):
        if seat != app.ctl.human_seat:
            for card in pc.cards.cards_of(hand.hand_of(seat)):
                assert card_symbol(card) not in table


async def my_turn(pilot: Pilot[Any], app: PitchApp, pitch: bool = False) -> None:
    """Take your turn with keys: the lowest legal bid or pass, or the first legal card."""
    view = app.ctl.view()
    if view.phase == "auction":
        pitches = [a for a in view.legal_actions if a.kind == "pitch"]
        if pitch and pitches:
            cards = app.cards(view)
            await pilot.press("right")  # select a card, then Enter pitches it
            card = cards[app.selected or 0]
            await pilot.press("enter")
            assert (app.ctl.hand is not None and app.ctl.hand.pitcher is not None) or \
                any(a.card == card for _, a in app.ctl.hand.history)  # type: ignore[union-attr]
            return
        keys = app.legal_bids(view)
        key = "pass" if "pass" in keys else min(keys)
        await pilot.press({"pass": "p", "moon": "m"}.get(key, key), "enter")
        return
    cards = app.cards(view)
    legal = app.legal_cards(view)
    i = next(i for i, c in enumerate(cards) if c in legal)
    if app.selected != i:
        await pilot.press(str(i + 1))
    await pilot.press("enter")


async def play_hand(pilot: Pilot[Any], app: PitchApp, pitch: bool = False) -> None:
    """Play until the result panel shows."""
    while True:
        await settle(pilot, app)
        if isinstance(app.screen, ResultScreen):
            return
        check_screen(app)
        await my_turn(pilot, app, pitch)


async def play_match(pilot: Pilot[Any], app: PitchApp) -> None:
    """Play hands (at most 40) until the match is over and its result shows."""
    for _ in range(40):
        await play_hand(pilot, app)
        if app.ctl.over:
            break
        await pilot.press("enter")
    assert app.ctl.over


def test_a_whole_hand_with_keys() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=3), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        assert "Your bid" in text_of(app, "#prompt")
        await play_hand(pilot, app, pitch=True)
        screen = app.screen
        assert isinstance(screen, ResultScreen)
        body = str(screen.query_one("#result-body").render())
        for word in ("High", "Low", "Jack", "Game", "change"):
            assert word in body
        result = app.ctl.game.results[-1]
        assert ("made" in body) == result.made
        assert app.ctl.name(result.pitcher or 0) in body
        await pilot.press("enter")  # next hand
        await settle(pilot, app)
        assert len(app.ctl.game.hands) == 2

    run(app, script)


def test_a_short_match_to_its_winner(data_home: Path) -> None:
    config = GameConfig(variant="auction", players=3, target=3, seed=11, level="medium")
    app = PitchApp(config, delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_match(pilot, app)
        screen = app.screen
        assert isinstance(screen, ResultScreen)
        assert "wins the match" in screen.title_text or "win the match" in screen.title_text
        assert "Record saved" in str(screen.query_one("#result-body").render())

    run(app, script)
    records = list((data_home / "records").glob("*.txt"))
    assert len(records) == 1
    game = pc.replay(pc.read_record(records[0].read_text()))
    assert isinstance(game, pc.Match) and game.winner == app.ctl.game.winner
    assert main(["replay", str(records[0])]) == 0
    stats = json.loads((data_home / "stats.json").read_text())["variants"]["auction"]
    assert stats["matches"] == 1 and stats["wins"] == int(game.winner == 0)
    assert stats["hands"] == len(game.results)


def test_money_session_settles(data_home: Path) -> None:
    app = PitchApp(GameConfig(variant="money", players=3, seed=5), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)
        assert "$" in text_of(app, "#scores")
        await pilot.press("enter")
        await play_hand(pilot, app)
        await pilot.press("s")  # settle up
        await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, ResultScreen) and screen.title_text == "Session settled"
        assert "You" in str(screen.query_one("#result-body").render())
        assert app.ctl.over

    run(app, script)
    assert list((data_home / "records").glob("*money*.txt"))


def test_quit_saves_and_resume_continues(data_home: Path) -> None:
    app = PitchApp(GameConfig(variant="setback", seed=8, level="easy"), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        await my_turn(pilot, app)
        await settle(pilot, app)
        await pilot.press("q")
        await pilot.pause(0.05)
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("escape")  # keep playing
        await pilot.pause(0.05)
        assert not isinstance(app.screen, QuitScreen)
        await pilot.press("q", "y")
        await pilot.pause(0.05)

    run(app, script)
    saves = list((data_home / "saves").glob("*.txt"))
    assert len(saves) == 1
    history = list(app.ctl.hand.history)  # type: ignore[union-attr]

    resumed = GameController.load(saves[0])
    assert resumed.rules.name == "setback" and resumed.levels["Ann"] == "easy"
    assert list(resumed.hand.history) == history  # type: ignore[union-attr]
    app2 = PitchApp(resumed.config, resumed, delays=FAST)

    async def script2(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app2)
        assert len(app2.ctl.game.results) == 1

    run(app2, script2)


def test_bad_keys_do_nothing_harmful() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=4), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        before = list(app.ctl.hand.history)  # type: ignore[union-attr]
        await pilot.press("x", "z", "9", "0", "tab", "escape", "up", "down", "enter", "f5",
                          "ctrl+x", "backspace", "delete")
        await pilot.pause(0.05)
        assert list(app.ctl.hand.history) == before  # type: ignore[union-attr]
        await pilot.press("u")  # nothing of yours to undo yet: says so, changes nothing
        assert "Nothing of yours to undo" in text_of(app, "#message")
        assert list(app.ctl.hand.history) == before  # type: ignore[union-attr]
        # The rules page and the log open and close.
        await pilot.press("question_mark")
        await pilot.pause(0.05)
        assert isinstance(app.screen, TextScreen)
        await pilot.press("escape", "l")
        await pilot.pause(0.05)
        assert isinstance(app.screen, TextScreen)
        await pilot.press("escape")
        await play_hand(pilot, app)
        await pilot.press("x", "1", "left")  # on the result panel
        assert isinstance(app.screen, ResultScreen)

    run(app, script)


def test_undo_without_practice_is_recorded_and_hint_is_chosen() -> None:
    """Item 6: undo against bots needs no practice mode; the record says an undo happened.
    Item 7: the hint is shown (wrapped in the message lines) and chosen, Enter takes it."""
    app = PitchApp(GameConfig(variant="auction", seed=6), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        before = list(app.ctl.hand.history)  # type: ignore[union-attr]
        await my_turn(pilot, app)
        await settle(pilot, app)
        assert len(app.ctl.hand.history) > len(before)  # type: ignore[union-attr]
        await pilot.press("u")
        await settle(pilot, app)
        assert list(app.ctl.hand.history) == before  # type: ignore[union-attr]
        assert "Undone" in text_of(app, "#message")
        await pilot.press("h")
        for _ in range(1000):
            if "Hint" in text_of(app, "#message"):
                break
            await pilot.pause(0.01)
        message = text_of(app, "#message")
        assert "Hint" in message and "expected net score change" in message
        hinted = app.choice
        assert hinted is not None and text_of(app, "#prompt").startswith("Enter: ")
        await pilot.press("enter")  # takes the hint
        await pilot.pause(0.05)
        assert app.ctl.hand.history[len(before)] == (  # type: ignore[union-attr]
            app.ctl.human_seat, hinted)

    run(app, script)
    record = pc.read_record(app.ctl.record_text())
    assert record.undos == 1 and record.practice is False
    assert "\nundos 1\n" in app.ctl.record_text()


def test_fits_80x24_and_resizes() -> None:
    app = PitchApp(GameConfig(variant="money", players=8, seed=2), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        for selector in ("#top", "#table", "#scores", "#hand", "#prompt", "#keys"):
            region = app.screen.query_one(selector).region
            assert region.height > 0 and region.bottom <= 24 and region.right <= 80, selector
        table = text_of(app, "#table")
        for name in app.ctl.seating:
            assert name in table or f"{name} " in table
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.05)
        assert app.screen.query_one("#keys").region.bottom == 40
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.05)
        check_screen(app)

    run(app, script)


def test_setup_screen_starts_a_new_game() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=1), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        await pilot.press("n")
        await pilot.pause(0.05)
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("right")            # variant: auction -> auction-partners
        await pilot.press("down", "down", "right")  # bots: medium -> hard
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.ctl.rules.name == "auction-partners"
        assert set(app.ctl.levels.values()) == {"hard"}

    run(app, script)


def test_play_command_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["play", "--low-to", "nobody"])
    assert exc.value.code == 2
    assert "capturer" in capsys.readouterr().err
    assert main(["play", "--bots", "wizard"]) == 2
    assert "easy, medium, hard, expert" in capsys.readouterr().err
    assert main(["play", "--option", "colour=blue"]) == 2
    assert "options are" in capsys.readouterr().err
    assert main(["play", "--variant", "setback", "--players", "5"]) == 2
    assert main(["play", "--variant", "money", "--target", "7"]) == 2


@pytest.mark.usefixtures("small_search_budgets")  # the controller is under test, not the bots
@pytest.mark.parametrize(("variant", "level"), [("money", "easy"), ("auction", "medium"),
                                                ("auction-partners", "hard"),
                                                ("setback", "expert")])
def test_every_variant_and_level_plays_a_hand(variant: str, level: str) -> None:
    """Without the UI: the controller plays a hand of each variant, each bot level."""
    ctl = GameController(GameConfig(variant=variant, seed=9, level=level))
    you = make_bot(level, seed=1)
    ctl.deal()
    while ctl.in_hand:
        _act(ctl, you)
    assert len(ctl.game.results) == 1


def _act(ctl: GameController, you: Bot) -> None:
    """The seat to act moves: a bot through the controller, your seat by ``you``."""
    seat = ctl.to_act
    assert seat is not None
    view = ctl.bot_view(seat)
    action = you.choose(view) if seat == ctl.human_seat else ctl.choose(seat, view)
    events = ctl.apply(action, seat)
    assert events and events[0].type == "action_taken" and events[0].seat == seat


@pytest.mark.usefixtures("small_search_budgets")  # the controller is under test, not the bots
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("variant", ["money", "auction", "auction-partners", "setback"])
def test_complete_matches_of_every_variant_against_every_level(variant: str, level: str) -> None:
    """Without the UI: a whole match (to a short target; money: four hands, then settled) of
    each variant against bots of each level, your seat played by the same level."""
    target = None if variant == "money" else 3
    ctl = GameController(GameConfig(variant=variant, seed=11, level=level, target=target))
    you = make_bot(level, seed=2)
    hands = 0
    while not ctl.over and hands < 60:
        if variant == "money" and hands == 4:
            ctl.settle()
            # A-R7.3: per-hand money is zero-sum, leavers' payouts included.
            assert sum(ctl.game.payouts.values()) == 0
            break
        ctl.deal()
        hands += 1
        while ctl.in_hand:
            _act(ctl, you)
        ctl.between_hands()
    assert ctl.over, f"{variant} against {level} bots did not finish in {hands} hands"
    if variant != "money":
        assert ctl.winner_text


@pytest.mark.usefixtures("small_search_budgets")  # the sheet is under test, not the bots
def test_the_score_sheet_names_three_teams_apart() -> None:
    """TT1: with three teams of two a point won by another team says which ("T2", "T3"), not
    "opp" for both; your own team is "us"."""
    ctl = GameController(GameConfig(variant="three-teams", seed=9, level="easy"))
    you = make_bot("easy", seed=1)
    takers: set[int] = set()
    while len(ctl.game.results) < 4 and ctl.game.winner is None:
        ctl.deal()
        while ctl.in_hand:
            _act(ctl, you)
        r = ctl.game.results[-1]
        takers |= {s for s in (r.high, r.low, r.jack, r.game) if s is not None}
    rows = earlier_rows(ctl)
    sheet = history_text(ctl, rows).plain
    assert "opp" not in sheet and "T1-T3: the teams by number" in sheet
    mine = ctl.my_side
    for side in takers:
        assert ("us" if side == mine else f"T{side + 1}") in sheet
    assert len(takers - {mine}) >= 1  # another team took a point (seed 9)


def test_a_clocks_last_tick_after_the_table_is_gone_redraws_nothing() -> None:
    """The online game's clock ticks on a timer and redraws the table: a tick that lands
    while the app is closing (the table's widgets gone) must not raise (a chance failure of
    test_tui_remote before the guard)."""
    app = PitchApp(GameConfig(variant="auction", seed=3), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        await app.query("#keys").remove()
        app.refresh_screen()  # NoMatches before the guard
        assert not app.query("#keys")

    run(app, script)
