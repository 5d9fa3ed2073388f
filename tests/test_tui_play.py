"""``pitch play`` as players see it (issue 10): one test or more per numbered item, through
Textual's pilot (keys, mouse clicks, terminal sizes) and the texts behind the screen."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

import pitchcards as pc
from pitchcards.actions import BID, PASS
from pitchcards.bots.hints import compare_bids
from pitchcards.cards import card_symbol
from pitchcards.cli import main
from pitchcards.scoring import HandResult
from pitchcards.tui.app import KEYS, PitchApp
from pitchcards.tui.config import GameConfig
from pitchcards.tui.controller import GameController, money_text
from pitchcards.tui.history import earlier_rows
from pitchcards.tui.pace import load_pace
from pitchcards.tui.screens import ResultScreen, TextScreen
from pitchcards.tui.seats import MIN_HEIGHT, MIN_WIDTH
from pitchcards.tui.stats import StatsFile
from pitchcards.tui.text import outcome_text, table_text
from pitchcards.tui.words import count, sentence
from test_tui import FAST, my_turn, play_hand, run, settle, text_of
from test_tui import data_home as data_home  # the autouse temporary folders

#: The reproduction in issue 10, item 1.
TRAP = GameConfig(variant="auction", players=3, target=11, seed=7, options={"low_to": "holder"})


def history(app: PitchApp) -> list[Any]:
    hand = app.ctl.hand
    assert hand is not None
    return list(hand.history)


async def until(pilot: Pilot[Any], test: Any, what: str, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if test():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}")


# ---------------------------------------------------------------------- 1. the keyboard trap
def test_number_keys_in_the_auction_do_what_the_legend_says_and_nothing_else() -> None:
    app = PitchApp(GameConfig(**TRAP.__dict__), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        view = app.ctl.view()
        assert view.phase == "auction"
        legend = text_of(app, "#prompt")
        # the legend: numbers choose a bid, Enter confirms; it names the legal ones
        assert "chooses a bid" in legend and "Enter confirms" in legend
        legal = sorted(int(k) for k in app.legal_bids(view) if k.isdigit())
        assert f"{legal[0]}-{legal[-1]}" in legend or str(legal[0]) in legend
        before = history(app)
        for n in range(1, 7):
            await pilot.press(str(n))
            assert history(app) == before, f"pressing {n} acted"
            assert app.selected is None, f"pressing {n} picked a card"
            if n in legal:
                assert app.choice == BID[n]
                assert text_of(app, "#prompt").startswith(f"Enter: bid {n}")
                assert app.query_one(f"#bid-{n}").has_class("chosen")
            else:
                assert app.choice is None
                assert str(n) in text_of(app, "#message")  # says why nothing happened
        await pilot.press("escape")
        assert app.choice is None
        await pilot.press(str(legal[-1]), "enter")  # one deliberate key makes the bid
        await pilot.pause(0.05)
        assert history(app)[len(before)] == (app.ctl.human_seat, BID[legal[-1]])

    run(app, script)


def test_arrows_in_the_auction_choose_a_card_to_pitch_and_enter_pitches_it() -> None:
    app = PitchApp(GameConfig(**TRAP.__dict__), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        view = app.ctl.view()
        assert any(a.kind == "pitch" for a in view.legal_actions)
        before = history(app)
        await pilot.press("right")
        card = app.cards(view)[app.selected or 0]
        assert history(app) == before
        assert text_of(app, "#prompt").startswith(f"Enter: pitch {card_symbol(card)}")
        await pilot.press("enter")
        await pilot.pause(0.05)
        seat, action = history(app)[len(before)]
        assert seat == app.ctl.human_seat and action.kind == "pitch" and action.card == card

    run(app, script)


def test_number_keys_in_play_choose_a_card_and_only_enter_plays_it() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=3), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        while app.ctl.view().phase == "auction":
            await my_turn(pilot, app)
            await settle(pilot, app)
        view = app.ctl.view()
        cards = app.cards(view)
        before = history(app)
        for n in range(1, len(cards) + 1):
            await pilot.press(str(n), str(n))  # twice: still only chosen
            assert app.selected == n - 1 and history(app) == before
        legal = app.legal_cards(view)
        i = next(i for i, c in enumerate(cards) if c in legal)
        await pilot.press(str(i + 1))
        assert text_of(app, "#prompt").startswith(f"Enter: play {card_symbol(cards[i])}")
        await pilot.press("enter")
        await pilot.pause(0.05)
        assert history(app)[len(before)][1].card == cards[i]

    run(app, script)


def test_mouse_a_click_chooses_and_a_second_click_on_the_same_acts() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=3), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        view = app.ctl.view()
        key = sorted(app.legal_bids(view))[0]
        before = history(app)
        await pilot.click(f"#bid-{key}")
        await pilot.pause(0.02)
        assert history(app) == before and app.choice is not None
        await pilot.click(f"#bid-{key}")
        await pilot.pause(0.05)
        assert len(history(app)) > len(before)
        await settle(pilot, app)
        while app.ctl.view().phase == "auction":
            await my_turn(pilot, app)
            await settle(pilot, app)
        view = app.ctl.view()
        cards = app.cards(view)
        i = next(i for i, c in enumerate(cards) if c in app.legal_cards(view))
        assert app.selected == i  # chosen for you: one click on it chooses, it does not play
        before = history(app)
        await pilot.click(f"#card{i + 1}")
        await pilot.pause(0.02)
        assert app.selected == i and history(app) == before
        await pilot.click(f"#card{i + 1}")
        await pilot.pause(0.05)
        assert history(app)[len(before)] == (app.ctl.human_seat, pc.actions.PLAY[cards[i]])

    run(app, script)


# ---------------------------------------------------------------------- 2. pace, last trick
def test_wait_pace_holds_the_trick_and_t_shows_the_last_trick(data_home: Path) -> None:
    app = PitchApp(GameConfig(variant="auction", seed=3), delays=FAST, pace="wait")

    async def script(pilot: Pilot[Any]) -> None:
        for _ in range(4000):
            if app.waiting:
                break
            if app.ctl.human_to_act and not app.busy and len(app.screen_stack) == 1:
                await my_turn(pilot, app)
            await pilot.pause(0.01)
        assert app.waiting
        assert "press Enter for the next one" in text_of(app, "#prompt")
        seq = app.ctl.table.seq
        await pilot.pause(0.3)
        assert app.ctl.table.seq == seq  # nothing moves while the trick waits
        _leader, cards, winner = app.ctl.view().tricks[-1]
        await pilot.press("t")
        screen = app.screen
        assert isinstance(screen, TextScreen) and screen.title_text == "Last trick"
        body = screen.body if isinstance(screen.body, str) else screen.body.plain
        for card in cards:
            assert card_symbol(card) in body
        assert f"→ {app.ctl.name(winner)}" in body
        await pilot.press("escape", "enter")
        await pilot.pause(0.05)
        assert not app.waiting
        await pilot.press("f")  # wait -> fast, remembered
        assert app.pace == "fast" and "Pace fast" in text_of(app, "#message")

    run(app, script)
    settings = data_home.parent / "config" / "pitchcards" / "settings.json"
    assert json.loads(settings.read_text())["pace"] == "fast"
    assert load_pace() == ("fast", None)
    assert PitchApp(GameConfig(seed=1)).pace == "fast"
    settings.write_text("{not json")
    app2 = PitchApp(GameConfig(variant="auction", seed=3), delays=FAST)

    async def script2(pilot: Pilot[Any]) -> None:
        await settle(pilot, app2)
        assert app2.pace == "normal"
        await pilot.press("l")
        screen = app2.screen
        assert isinstance(screen, TextScreen)
        body = screen.body if isinstance(screen.body, str) else screen.body.plain
        assert "settings.json could not be read" in body

    run(app2, script2)
    assert (settings.parent / "settings.json.corrupt").exists()
    assert load_pace() == ("normal", None)


def test_undo_while_a_finished_trick_waits_takes_back_your_card() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=3), delays=FAST, pace="wait")

    async def script(pilot: Pilot[Any]) -> None:
        for _ in range(4000):
            if app.waiting:
                break
            if app.ctl.human_to_act and not app.busy and len(app.screen_stack) == 1:
                await my_turn(pilot, app)
            await pilot.pause(0.01)
        assert app.waiting
        mine = [i for i, (s, _) in enumerate(history(app)) if s == app.ctl.human_seat]
        await pilot.press("u")
        await settle(pilot, app)
        assert not app.waiting and len(history(app)) == mine[-1]
        assert app.ctl.human_to_act

    run(app, script)


# ---------------------------------------------------------------------- 3. seats, too small
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_seats_sit_around_the_table_you_at_the_bottom(players: int) -> None:
    ctl = GameController(GameConfig(variant="money", players=players, seed=4))
    ctl.deal()
    text = table_text(ctl, ctl.view(), MIN_WIDTH, MIN_HEIGHT).plain
    lines = text.splitlines()
    assert len(lines) <= MIN_HEIGHT and all(len(line) <= MIN_WIDTH for line in lines)
    for name in ctl.seating:
        assert name in text, f"{name} is not at the table of {players}"
    bottom = [line for line in lines if line.strip()][-2:]
    assert any("You" in line for line in bottom)
    if players == 4:  # across from you: the second seat to your left, on the top line
        assert ctl.name((ctl.human_seat + 2) % 4) in lines[0]


def test_partner_sits_across_and_is_named_so() -> None:
    ctl = GameController(GameConfig(variant="auction-partners", seed=4))
    ctl.deal()
    top = table_text(ctl, ctl.view()).plain.splitlines()[0]
    assert ctl.name(2) in top and "partner" in top


def test_too_small_terminal_says_so_plainly_then_plays_when_enlarged() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=1), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.ctl.human_to_act and not app.busy, "your turn")
        note = app.query_one("#toosmall")
        assert note.display and not app.query_one("#main").display
        said = str(note.render())
        assert "too small" in said and "60×20" in said and "80×24" in said
        await pilot.press("p", "enter", "1", "enter")  # the table is not shown: no action
        assert all(s != app.ctl.human_seat for s, _ in history(app))
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert app.query_one("#main").display and not note.display
        keys = app.query_one("#keys")
        assert keys.region.bottom == 24 and "q quit" in text_of(app, "#keys")

    run(app, script, size=(60, 20))


def test_the_keys_line_fits_80_columns() -> None:
    assert len(KEYS) <= 78


# ---------------------------------------------------------------------- 4. score history
def test_score_sheet_history_hand_by_hand_with_money() -> None:
    app = PitchApp(GameConfig(variant="money", players=3, seed=5), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)
        await pilot.press("enter")
        await play_hand(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("g")
        screen = app.screen
        assert isinstance(screen, TextScreen)
        body = screen.body if isinstance(screen.body, str) else screen.body.plain
        assert "your $" in body
        assert [row.number for row in app.rows] == [1, 2]
        session = app.ctl.session
        assert session is not None and app.rows[-1].money == session.ledger["You"]
        for row in app.rows:
            assert row.money is not None
            line = next(line for line in body.splitlines() if line.startswith(f"{row.number:>2} "))
            assert money_text(row.money) in line
            assert ("made" in line) == row.result.made

    run(app, script)


def test_score_sheet_history_is_rebuilt_for_a_resumed_game(tmp_path: Path) -> None:
    app = PitchApp(GameConfig(variant="money", players=4, seed=8), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        for _ in range(3):
            await play_hand(pilot, app)
            await pilot.press("enter")
        await settle(pilot, app)

    run(app, script)
    live = [(r.number, r.names, r.scores) for r in app.rows]
    assert len(live) == 3
    resumed = GameController.load(app.ctl.save(tmp_path / "save.txt"))
    assert [(r.number, r.names, r.scores) for r in earlier_rows(resumed)] == live
    assert all(r.money is None for r in earlier_rows(resumed))  # the record keeps no steps


def test_score_sheet_history_of_a_match() -> None:
    app = PitchApp(GameConfig(variant="auction-partners", seed=12), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("g")
        screen = app.screen
        assert isinstance(screen, TextScreen)
        body = screen.body if isinstance(screen.body, str) else screen.body.plain
        row = app.rows[0]
        line = next(line for line in body.splitlines() if line.startswith(" 1 "))
        assert ("made" if row.result.made else "set") in line
        assert line.split()[-2:] == [str(s) for s in row.scores]

    run(app, script)


# ---------------------------------------------------------------------- 5. join and leave news
class _Roll:
    """Stands in for the controller's between-hands dice: always ``value``."""

    def __init__(self, value: float) -> None:
        self.value = value

    def random(self) -> float:
        return self.value

    def choice(self, seq: Any) -> Any:
        return seq[0]


def test_join_and_leave_news_stays_in_the_auction_panel_and_the_log() -> None:
    app = PitchApp(GameConfig(variant="money", players=4, seed=5), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)
        app.ctl._events = _Roll(0.05)  # type: ignore[assignment]  # a bot leaves
        await pilot.press("enter")
        await settle(pilot, app)
        assert "Ann leaves and is paid" in text_of(app, "#auction")
        await my_turn(pilot, app)
        await settle(pilot, app)
        assert "Ann leaves" in text_of(app, "#auction")  # still there after more moves
        await play_hand(pilot, app)
        app.ctl._events = _Roll(0.95)  # type: ignore[assignment]  # a bot joins
        await pilot.press("enter")
        await settle(pilot, app)
        assert "joins the table" in text_of(app, "#auction")
        await pilot.press("l")
        screen = app.screen
        assert isinstance(screen, TextScreen)
        body = screen.body if isinstance(screen.body, str) else screen.body.plain
        assert "before hand 2: Ann leaves" in body and "joins the table" in body

    run(app, script)


# ---------------------------------------------------------------------- 6. undo, recorded
def test_undo_count_survives_save_and_resume(tmp_path: Path) -> None:
    ctl = GameController(GameConfig(variant="auction", seed=4))
    ctl.deal()
    while ctl.to_act != ctl.human_seat:
        seat = ctl.to_act
        assert seat is not None
        ctl.apply(ctl.choose(seat, ctl.bot_view(seat)), seat)
    ctl.apply(ctl.view().legal_actions[0], ctl.human_seat)
    assert ctl.undo() and ctl.undos == 1
    path = ctl.save(tmp_path / "game.txt")
    assert "\nundos 1\n" in path.read_text()
    assert GameController.load(path).undos == 1
    # a game without undo says nothing: records of games without undo are unchanged
    fresh = GameController(GameConfig(variant="auction", seed=4))
    assert "undos" not in fresh.record_text()


# ---------------------------------------------------------------------- 7. hints
def test_a_bid_hint_compares_every_option_in_the_same_terms_and_picks_the_best() -> None:
    points = {PASS: -0.3, BID[2]: 1.1, BID[3]: 0.4, BID[4]: -2.0, BID[5]: -3.5}
    best, reason = compare_bids(points)
    assert best == BID[2]
    assert reason.startswith("expected net score change: bid 2 +1.1, bid 3 +0.4, pass -0.3")
    assert "(and 1 more)" in reason


def test_a_long_hint_wraps_and_the_prompt_stays_on_screen() -> None:
    app = PitchApp(GameConfig(variant="auction", seed=1), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        prompt = app.query_one("#prompt").region
        app.say("Hint: " + "a long reason " * 30)
        await pilot.pause(0.05)
        assert app.query_one("#prompt").region == prompt
        assert app.query_one("#message").region.height == 2
        assert app.query_one("#keys").region.bottom == 24

    run(app, script)


# ---------------------------------------------------------------------- 8. words
def test_sentences_agree_with_you_and_with_others() -> None:
    assert sentence("You", "bid", "first") == "You bid first"
    assert sentence("Ann", "bid", "first") == "Ann bids first"
    assert sentence("You & Cy", "win", "the match!") == "You & Cy win the match!"
    assert sentence("Ann", "win", "the match!") == "Ann wins the match!"
    assert count(1, "player") == "1 player" and count(3, "player") == "3 players"
    ctl = GameController(GameConfig(variant="auction", seed=1))
    set_you = HandResult(pitcher=0, bid=2, made=False, moon=False, high=1, low=1, jack=None,
                         game=1, points=(0, 3, 0, 0), deltas=(-2, 3, 0, 0), trump="C")
    assert outcome_text(ctl, set_you).plain == "You bid 2 in ♣ and were set."
    made_ann = HandResult(pitcher=1, bid=3, made=True, moon=False, high=1, low=1, jack=1,
                          game=0, points=(1, 3, 0, 0), deltas=(1, 3, 0, 0), trump="S")
    assert outcome_text(ctl, made_ann).plain == "Ann bid 3 in ♠ and made it."


def test_table_size_errors_name_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "4", "--bots", "easy,easy,easy,easy,easy"]) == 2
    err = capsys.readouterr().err
    assert "5 levels" in err and "4-player table has 3 bot seats" in err
    assert main(["play", "--players", "4", "--bots", "5=hard"]) == 2
    assert "4-player table" in capsys.readouterr().err
    assert main(["play", "--variant", "setback", "--players", "3"]) == 2
    assert "exactly 4 players, not by 3" in capsys.readouterr().err
    assert main(["play", "--players", "1"]) == 2
    assert "1 players" not in capsys.readouterr().err


def test_bot_levels_are_written_whole_at_the_table() -> None:
    ctl = GameController(GameConfig(variant="auction", seed=1, bots=("easy", "medium", "hard")))
    ctl.deal()
    text = table_text(ctl, ctl.view()).plain
    for level in ("easy", "medium", "hard"):
        assert level in text


# ---------------------------------------------------------------------- 9. small items
def test_resumed_auction_shows_every_earlier_bid(tmp_path: Path) -> None:
    ctl = GameController(GameConfig(variant="money", players=5, seed=5))
    ctl.deal()
    while ctl.view().phase == "auction" and len(ctl.view().auction) < 5:
        seat = ctl.to_act
        assert seat is not None
        if seat == ctl.human_seat:  # the lowest bid: the auction goes on round the table
            ctl.apply(min((a for a in ctl.view().legal_actions if a.kind == "bid"),
                          key=lambda a: a.bid or 0), seat)
        else:
            ctl.apply(ctl.choose(seat, ctl.bot_view(seat)), seat)
    bids = list(ctl.view().auction)
    assert len(bids) >= 5
    path = ctl.save(tmp_path / "save.txt")
    resumed = GameController.load(path)
    app = PitchApp(resumed.config, resumed, delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        await pilot.pause(0.1)
        assert_every_bid_shown(app, bids)

    run(app, script)


def assert_every_bid_shown(app: PitchApp, bids: list[tuple[int, Any]]) -> None:
    """The auction panel lists every bid (no "… N earlier lines") and who made it."""
    panel = text_of(app, "#auction")
    assert "earlier" not in panel
    for seat, action in bids:
        assert f"{app.ctl.name(seat)} {'pass' if action.kind == 'pass' else ''}" in panel


def test_money_auction_panel_keeps_room_for_bids_at_eight_players() -> None:
    app = PitchApp(GameConfig(variant="money", players=8, seed=2), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        await pilot.pause(0.05)
        assert app.query_one("#auction").content_size.height >= 3
        assert_every_bid_shown(app, list(app.ctl.view().auction))

    run(app, script)


def test_seven_player_result_needs_no_scrolling() -> None:
    app = PitchApp(GameConfig(variant="auction", players=7, seed=3), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)
        screen = app.screen
        assert isinstance(screen, ResultScreen)
        await pilot.pause(0.05)
        assert screen.query_one("#dialog-body").max_scroll_y == 0
        body = str(screen.query_one("#result-body").render())
        for name in app.ctl.seating:
            assert name in body

    run(app, script)


# ---------------------------------------------------------------------- statistics
def test_statistics_count_hands_and_survive_a_corrupt_or_missing_file(data_home: Path) -> None:
    path = data_home / "stats.json"
    assert not path.exists()
    fresh = StatsFile(path)
    assert fresh.variants == {} and fresh.problem is None  # missing: a fresh start
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{garbage", encoding="utf-8")
    app = PitchApp(GameConfig(variant="auction", players=3, target=11, seed=11), delays=FAST)

    async def script(pilot: Pilot[Any]) -> None:
        await play_hand(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("i")
        screen = app.screen
        assert isinstance(screen, TextScreen)
        body = screen.body if isinstance(screen.body, str) else screen.body.plain
        assert "could not be read" in body and "auction" in body

    run(app, script)
    assert (data_home / "stats.json.corrupt").read_text() == "{garbage"
    data = json.loads(path.read_text())
    auction = data["variants"]["auction"]
    assert auction["hands"] == 1 and auction["matches"] == 0
    result = app.ctl.game.results[0]
    assert auction["points"] == result.deltas[0]
    assert auction["bids"] == int(result.pitcher == 0)
    path.write_text(json.dumps({"version": 1, "variants": {"auction": {"hands": "x"}}}))
    assert StatsFile(path).of("auction").hands == 0  # a bad field reads as 0, not a crash


def test_statistics_count_a_finished_match(data_home: Path) -> None:
    stats = StatsFile(data_home / "stats.json")
    stats.add_match("setback", won=True)
    stats.add_match("setback", won=False)
    again = StatsFile(data_home / "stats.json")
    assert (again.of("setback").matches, again.of("setback").wins) == (2, 1)
    assert Fraction(again.of("setback").wins, again.of("setback").matches) == Fraction(1, 2)



# ---------------------------------------------------------------------- the README's key table
#: How the README writes each key of the table screen's bindings.
README_KEYS = {"left": "`←` `→`", "right": "`←` `→`", "enter": "`Enter` / `Space`",
               "space": "`Enter` / `Space`", "escape": "`Esc`", "question_mark": "`?`",
               "ctrl+q": "`q`", **{str(i % 10): "`1`–`9`, `0`" for i in range(1, 11)},
               "p": "`p`, `1`–`4`, `m`", "m": "`p`, `1`–`4`, `m`"}


def test_readme_key_table_matches_the_screen() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Playing in the terminal"):readme.index("## What is here")]
    rows = {line.split(" | ")[0].removeprefix("| ") for line in section.splitlines()
            if line.startswith("| `")}
    bound = set()
    for binding in PitchApp.BINDINGS:
        for key in binding.key.split(","):  # type: ignore[union-attr]
            shown = README_KEYS.get(key, f"`{key}`")
            bound.add(shown)
            assert shown in rows, f"key {key} is not in the README's key table"
    assert rows <= bound, f"the README lists keys the screen does not have: {rows - bound}"
    for part in KEYS.split("  "):  # the keys line on screen: "h hint", "q quit" ...
        assert f"| `{part.split()[0]}` |" in section
