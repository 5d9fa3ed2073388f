"""``pitch play`` in the ten-point family (issue 15): the jokers and the off-jack on screen, the
pitcher naming trump (T5), the face-down discard (T4: nobody else's discards ever shown), bids
to 10 (T8: 5-9 and 0 for 10), the extra points on the hand's panel and the score sheet (T7), and
whole matches against bots of every level, driven through Textual's pilot."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from pitchcards.actions import BIDS, TRUMP
from pitchcards.cards import cards_of
from pitchcards.cli import main
from pitchcards.deck import deck_model
from pitchcards.rules import VARIANTS
from pitchcards.tui.app import PitchApp
from pitchcards.tui.config import LEVELS, GameConfig
from pitchcards.tui.controller import GameController
from pitchcards.tui.history import history_text
from pitchcards.tui.screens import ResultScreen, SetupScreen, TextScreen
from pitchcards.tui.text import card_label, hand_log, sorted_hand, table_text
from pitchcards.tui.widgets import BidButton, CardView
from test_tui import FAST, run, settle, text_of
from test_tui import data_home as data_home  # the autouse temporary folders

TEN = GameConfig(variant="ten-point", seed=5, level="medium")
#: Every text on the main screen, where a card could be shown.
PANELS = ("#top", "#table", "#scores", "#auction", "#hand", "#info", "#message", "#prompt")


def screen_text(app: PitchApp) -> str:
    main_screen = app.screen_stack[0]
    parts = [str(main_screen.query_one(p).render()) for p in PANELS if p != "#hand"]
    parts += [str(w.render()) for w in main_screen.query(CardView) if w.display]
    return "\n".join(parts)


def others_discards(app: PitchApp) -> set[str]:
    """The labels of the cards the other seats have discarded so far (hidden from you)."""
    hand = app.ctl.hand
    assert hand is not None
    return {card_label(c) for s in range(hand.players) if s != app.ctl.human_seat
            for c in cards_of(hand.discarded(s))}


def assert_no_hidden_discard(app: PitchApp) -> None:
    """T4: no card another seat threw face down appears anywhere on the screen or the log."""
    hidden = others_discards(app)
    shown = screen_text(app) + "\n" + hand_log(app.ctl, app.ctl.view()).plain
    for label in hidden:
        assert label not in shown, (label, shown)


async def take_turn(pilot: Pilot[Any], app: PitchApp, bid: str | None = None,
                    clicks: bool = False) -> None:
    """Your turn by keys (or clicks): ``bid`` (a bar key) or the lowest legal bid or pass;
    trump ♥; discard your first cards; the first legal card in play."""
    view = app.ctl.view()
    if view.phase in ("auction", "declare"):
        legal = app.legal_bids(view)
        if view.phase == "declare":
            key = "trump-H"
        else:
            key = bid if bid in legal else "pass" if "pass" in legal else min(
                legal, key=lambda k: int(k) if k.isdigit() else 99)
        if clicks:
            await pilot.click(f"#bid-{key}")
            await pilot.click(f"#bid-{key}")
        else:
            press = {"pass": "p", "moon": "m", "10": "0", "trump-C": "1", "trump-D": "2",
                     "trump-H": "3", "trump-S": "4"}.get(key, key)
            await pilot.press(press, "enter")
        return
    cards = app.cards(view)
    legal_cards = app.legal_cards(view)
    i = next(i for i, c in enumerate(cards) if c in legal_cards)
    if clicks:
        await pilot.click(f"#card{i + 1}")
        await pilot.click(f"#card{i + 1}")
        return
    await pilot.press(str(i + 1), "enter")


async def play_to_result(pilot: Pilot[Any], app: PitchApp, bid: str | None = None,
                         clicks: bool = False) -> None:
    while True:
        await settle(pilot, app, timeout=60)
        if isinstance(app.screen, ResultScreen):
            return
        assert_no_hidden_discard(app)
        await take_turn(pilot, app, bid, clicks)
        await pilot.pause(0.02)


#: A deal where you hold both jokers and J♣, the off-jack when spades are trump (seed 23).
JOKERS = GameConfig(variant="ten-point", seed=23, level="medium")


def history(app: PitchApp) -> list[Any]:
    hand = app.ctl.hand
    assert hand is not None
    return list(hand.history)


async def until_my(pilot: Pilot[Any], app: PitchApp, phase: str) -> None:
    """Let the bots act until you act in ``phase``."""
    for _ in range(200):
        await settle(pilot, app, timeout=60)
        assert not isinstance(app.screen, ResultScreen), f"the hand ended before {phase}"
        if app.ctl.view().phase == phase:
            return
        await take_turn(pilot, app)
        await pilot.pause(0.02)
    raise AssertionError(f"never your turn in {phase}")


def shown_cards(app: PitchApp) -> list[CardView]:
    return [w for w in app.screen_stack[0].query(CardView) if w.display]


async def bid_ten_and_name_spades(pilot: Pilot[Any], app: PitchApp, clicks: bool) -> None:
    """Your bid of 10 (key 0, or two clicks), then ♠ as trump (key 4, or two clicks)."""
    await until_my(pilot, app, "auction")
    legend = text_of(app, "#prompt")
    assert "0 (10)" in legend and "chooses a bid" in legend  # T8: the keys for 5-10
    before = len(history(app))
    if clicks:
        await pilot.click("#bid-10")
        assert len(history(app)) == before and app.choice == BIDS[10]
        await pilot.click("#bid-10")
    else:
        await pilot.press("0")
        assert len(history(app)) == before  # a key only chooses
        assert text_of(app, "#prompt").startswith("Enter: bid 10")
        await pilot.press("enter")
    await pilot.pause(0.05)
    assert history(app)[before] == (app.ctl.human_seat, BIDS[10])
    await until_my(pilot, app, "declare")
    assert "Name trump" in text_of(app, "#prompt")
    suits = [b for b in app.screen_stack[0].query(BidButton) if b.display]
    assert [b.key for b in suits] == ["trump-C", "trump-D", "trump-H", "trump-S"]
    assert all(b.has_class("legal") for b in suits)
    if clicks:
        await pilot.click("#bid-trump-S")
        await pilot.click("#bid-trump-S")
    else:
        await pilot.press("4")
        assert text_of(app, "#prompt").startswith("Enter: trump ♠")
        await pilot.press("enter")
    await pilot.pause(0.05)
    assert (app.ctl.human_seat, TRUMP[3]) in history(app)


def check_jokers_and_off_jack(app: PitchApp) -> None:
    """T1-T3 on screen: ☆LJ and ★BJ drawn as such, sorted with the trumps (spades), J♣
    marked as a trump (=♠)."""
    view = app.ctl.view()
    widgets = shown_cards(app)
    faces = [str(w.render()) for w in widgets]
    assert any("☆LJ" in f for f in faces) and any("★BJ" in f for f in faces)
    off_jack = next(f for w, f in zip(widgets, faces, strict=True) if w.card == 9)
    assert "=♠" in off_jack
    model = deck_model(view.rules)
    suits = [model.suit_of[3][w.card] for w in widgets if w.card is not None]
    assert suits == sorted(suits)  # grouped by the suit each follows: the trumps together
    trumps = [w.card for w in widgets if w.card is not None and model.suit_of[3][w.card] == 3]
    assert {9, 52, 53} <= set(trumps)
    assert trumps == sorted(trumps, key=model.trump_order[3].index)
    assert [w.card for w in widgets] == sorted_hand(view)


async def discard_three(pilot: Pilot[Any], app: PitchApp, clicks: bool) -> None:
    """T4: three discards, the count left said after each; another seat's never shown."""
    await until_my(pilot, app, "discard")
    me = app.ctl.human_seat
    hand = app.ctl.hand
    assert hand is not None
    # Cy, left of the dealer, discarded first: said, but never which cards
    assert "Cy discards a card." in text_of(app, "#message")
    assert "face down" not in text_of(app, "#message")  # the table and the prompt say it
    for left in (3, 2, 1):
        assert_no_hidden_discard(app)
        assert f"Discard 3 cards face down ({left} left)" in text_of(app, "#prompt")
        card = app.cards(app.ctl.view())[-1]  # the highest spade: a real choice
        before = hand.discarded(me)
        if clicks:
            await pilot.click(f"#card{len(shown_cards(app))}")
            assert hand.discarded(me) == before  # a click only chooses
            await pilot.click(f"#card{len(shown_cards(app))}")
        else:
            await pilot.press(str(len(shown_cards(app))))
            assert hand.discarded(me) == before
            await pilot.press("enter")
        await pilot.pause(0.05)
        assert hand.discarded(me) == before | (1 << card)
        if left > 1:
            await settle(pilot, app, timeout=60)
    assert hand.discarded(me).bit_count() == 3


async def ten_point_hand(pilot: Pilot[Any], app: PitchApp, clicks: bool) -> None:
    await bid_ten_and_name_spades(pilot, app, clicks)
    check_jokers_and_off_jack(app)
    await discard_three(pilot, app, clicks)
    await play_to_result(pilot, app, clicks=clicks)
    body = str(app.screen.query_one("#result-body").render())
    assert "You bid 10 in ♠" in body
    for point in ("Off-jack", "High joker", "Low joker", "Three = 3"):
        assert point in body, point
    result = app.ctl.results[-1]
    assert result.extra and sum(v for _, side, v in result.extra if side is not None) <= 6
    sheet = history_text(app.ctl, app.rows).plain
    assert "OJ  HJ  LJ  3" in sheet and "You 10♠" in sheet


def test_a_ten_point_hand_by_keys_names_trump_and_discards() -> None:
    app = PitchApp(GameConfig(**JOKERS.__dict__), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await ten_point_hand(pilot, app, clicks=False)

    run(app, script)


def test_a_ten_point_hand_by_clicks_names_trump_and_discards() -> None:
    app = PitchApp(GameConfig(**JOKERS.__dict__), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await ten_point_hand(pilot, app, clicks=True)

    run(app, script)


# ---------------------------------------------------------------- whole matches, every level
async def play_match(pilot: Pilot[Any], app: PitchApp, hands: int = 40) -> None:
    """Play to the match's end, by keys, bidding 4 where you may (only the bidder goes out),
    checking the discards stay hidden throughout."""
    for _ in range(hands):
        await play_to_result(pilot, app, bid="4")
        if app.ctl.over:
            return
        await pilot.press("enter")  # the next hand
    raise AssertionError(f"no winner after {hands} hands: {app.ctl.side_scores()}")


@pytest.mark.usefixtures("small_search_budgets")  # the terminal table is under test, not the bots
# Each level once and each variant twice (the eight pairs of both variants with every level
# were 8 whole matches on the pilot: the table is under test, not the pair; issue 27).
@pytest.mark.parametrize(("variant", "players", "level"),
                         [("ten-point", 4, LEVELS[0]), ("ten-point-cutthroat", 3, LEVELS[1]),
                          ("ten-point", 4, LEVELS[2]), ("ten-point-cutthroat", 3, LEVELS[3])])
def test_a_whole_ten_point_match_against_each_level(variant: str, players: int,
                                                   level: str) -> None:
    assert len(LEVELS) == 4, "a new level needs its match in the parametrization above"
    # A short match (target 5) keeps it quick; the hands are whole ten-point hands.
    app = PitchApp(GameConfig(variant=variant, players=players, level=level, target=5,
                              seed=4), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_match(pilot, app)
        assert isinstance(app.screen, ResultScreen)
        assert "win" in app.screen.title_text
        assert any(r.extra for r in app.ctl.results)  # scored as ten-point hands (T7)
        assert max(app.ctl.side_scores()) >= 5
        assert len(app.ctl.results) == len(app.rows)  # every hand on the score sheet

    run(app, script)


def test_the_command_line_starts_ten_point_games(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[GameConfig] = []

    def fake_run(config: GameConfig, **_: Any) -> int:
        started.append(config)
        return 0

    monkeypatch.setattr("pitchcards.tui.app.run", fake_run)
    assert main(["play", "--variant", "ten-point", "--bots", "expert", "--seed", "1"]) == 0
    assert main(["play", "--variant", "ten-point-cutthroat", "--players", "6", "--bots",
                 "easy,medium,hard,expert,easy"]) == 0
    assert main(["play", "--variant", "ten-point-cutthroat", "--players", "7"]) == 2
    first, second = started
    assert first.rules().name == "ten-point" and first.bot_levels() == ["expert"] * 3
    assert second.rules().points_total == 10 and second.table() == 6
    assert second.bot_levels() == ["easy", "medium", "hard", "expert", "easy"]


@pytest.mark.usefixtures("small_search_budgets")  # the setup screen is under test, not the bots
def test_the_setup_screen_starts_a_ten_point_match() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=8), delays=FAST, setup_first=True)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.pause(0.05)
        assert isinstance(app.screen, SetupScreen)
        order = list(VARIANTS)  # the setup screen cycles through the variants in this order
        steps = order.index("ten-point") - order.index("auction")
        await pilot.press(*["right"] * steps)  # auction -> ... -> ten-point
        await pilot.press("down", "down", "right")    # bots: medium -> hard
        await pilot.press("enter")
        await settle(pilot, app, timeout=60)
        assert app.ctl.rules.name == "ten-point" and app.config.level == "hard"
        assert "ten-point · to 52" in text_of(app, "#top")
        assert len(shown_cards(app)) == 9  # nine dealt (T4)
        await play_to_result(pilot, app)

    run(app, script)


def test_the_rules_page_of_ten_point() -> None:
    app = PitchApp(GameConfig(**TEN.__dict__), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app, timeout=60)
        await pilot.press("question_mark")
        await pilot.pause(0.05)
        assert isinstance(app.screen, TextScreen)
        page = str(app.screen.body)
        for words in ("Rules: ten-point", "Bids: 4, 5, 6, 7, 8, 9, 10.", "Everyone gets 9 cards",
                      "discards 3 face down", "names trump", "★ high joker, ☆ low joker",
                      "the three of trumps (3 points). 10 points a hand", "First to 52"):
            assert words in page, words
        assert "Moon:" not in page and "failed moon" not in page

    run(app, script)


def test_a_hint_names_trump_for_you() -> None:
    app = PitchApp(GameConfig(**JOKERS.__dict__), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await until_my(pilot, app, "auction")
        await pilot.press("0", "enter")
        await until_my(pilot, app, "declare")
        before = len(history(app))
        await pilot.press("h")
        for _ in range(3000):
            if "Hint" in text_of(app, "#message") or "No hint" in text_of(app, "#message"):
                break
            await pilot.pause(0.01)
        assert text_of(app, "#message").startswith("Hint: trump "), text_of(app, "#message")
        assert app.choice is not None and app.choice.kind == "trump"
        assert len(history(app)) == before  # chosen, not taken
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert app.ctl.view().trump is not None
        # in the discard, a hint chooses the card to throw away; Enter discards it
        await until_my(pilot, app, "discard")
        await pilot.press("h")
        for _ in range(3000):
            if "Hint" in text_of(app, "#message"):
                break
            await pilot.pause(0.01)
        assert text_of(app, "#message").startswith("Hint: discard ")
        assert app.selected is not None
        card = app.cards(app.ctl.view())[app.selected]
        assert "Enter discards" in text_of(app, "#prompt")
        await pilot.press("enter")
        await pilot.pause(0.05)
        hand = app.ctl.hand
        assert hand is not None and hand.discarded(app.ctl.human_seat) == 1 << card

    run(app, script)


def test_four_point_keys_are_unchanged() -> None:
    # 5-9 and 0 are no bid in the four-point auction; 1-4 still choose bids 1-4.
    app = PitchApp(GameConfig(variant="auction", players=3, seed=7), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        before = len(history(app))
        offered = {b.key for b in app.screen_stack[0].query(BidButton) if b.display}
        assert offered == {"pass", "1", "2", "3", "4"}
        for key in ("5", "9", "0"):
            await pilot.press(key)
            assert app.choice is None and len(history(app)) == before
        assert "There is no bid of" in text_of(app, "#message")

    run(app, script)


def test_the_table_shows_a_bot_discarding_never_its_cards() -> None:
    ctl = GameController(GameConfig(**JOKERS.__dict__))
    hand = ctl.deal()
    while hand.phase != "discard":
        seat = ctl.to_act
        assert seat is not None
        ctl.apply(ctl.choose(seat, ctl.bot_view(seat)) if seat else BIDS[10], seat)
        if hand.phase == "declare" and ctl.to_act == 0:
            ctl.apply(TRUMP[3], 0)
    seat = ctl.to_act
    assert seat is not None and seat != ctl.human_seat
    ctl.apply(ctl.choose(seat, ctl.bot_view(seat)), seat)  # one of its three discards
    assert hand.discarded(seat) and ctl.to_act == seat
    table = table_text(ctl, ctl.view(), 60, 14).plain
    assert "discarding" in table and "trump ♠ · discarding face down" in table
    for card in cards_of(hand.discarded(seat)):
        assert card_label(card) not in table
