"""``pitch play --join`` / ``--new-table``: the table screen at a real ``pitch serve`` table.

One server for the module (a subprocess on a free port, SQLite); each test makes a table with
the Python client and runs the Textual app headless (``App.run_test``) joined by invite.  The
other seats are a Python-client random player and the server's bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from pitchcards.cards import card_symbol
from pitchcards.cli import main
from pitchcards.client import Client, Seat, TableConnection
from pitchcards.events import ActionTaken, ActionUndone, TrickWon
from pitchcards.notation import read_record, replay
from pitchcards.tui.app import Delays, PitchApp
from pitchcards.tui.config import GameConfig
from pitchcards.tui.online import OnlineSource, online_app
from pitchcards.tui.remote import RemoteGame, host_table, join_table, table_config
from pitchcards.tui.screens import ResultScreen
from pitchcards.tui.snapshot import play_until, screen_text
from pitchcards.tui.stats import StatsFile
from server_helpers import FAST, ServerProcess, play_randomly, server_fixture

server = server_fixture()

SHORT = {"target": 1, "win_rule": "first_to_target_HLJG_order", "win_requires_made_bid": False}


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def table_app(game: RemoteGame, tmp_path: Path, pace: str = "fast") -> PitchApp:
    """The app at 80×24 with no trick pause (``pace="wait"``: each trick waits for Enter)."""
    return online_app(game, delays=Delays(bot=0.0, trick=None if pace == "wait" else 0.0),
                      pace=pace, stats=StatsFile(tmp_path / "stats.json"), retry=0.2)


def artifact(name: str) -> Path:
    """Where a test keeps a screenshot: ``test-artifacts/NAME``."""
    folder = Path(__file__).resolve().parent.parent / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name


def online(app: PitchApp) -> OnlineSource:
    """The app's game source: a server table's."""
    assert isinstance(app.source, OnlineSource)
    return app.source


async def until(pilot: Pilot[Any], what: Callable[[], bool], timeout: float = 15.0,
                why: str = "") -> None:
    for _ in range(int(timeout / 0.02)):
        if what():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"not in {timeout} s: {why or what}")


@contextlib.asynccontextmanager
async def random_player(api: Client, seat: Seat, seed: int) -> Any:
    """The host's seat played by random legal actions over the Python client."""
    table = await api.connect(seat)
    task = asyncio.create_task(play_randomly(table, random.Random(seed)))
    try:
        yield table
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await table.close()


def at_table(server: ServerProcess, tmp_path: Path, options: dict[str, Any],
             script: Callable[[Pilot[Any], PitchApp, TableConnection], Awaitable[None]],
             seed: int = 1, pace: str = "fast") -> None:
    """A 4-seat table: Ann (the host, a random player over the client), you in the terminal
    (joined by invite), two server bots; started; then ``script``."""
    async def go() -> None:
        async with Client(server.url) as api:
            host = await api.create_table("Ann", players=4, options=options,
                                          bots={2: "easy", 3: "easy"}, settings=FAST)
            assert host.invite_url is not None
            seat, info = await join_table(host.invite_url, server.url, "Bea")
            game = RemoteGame(seat, table_config(info), info, invite_url=host.invite_url)
            app = table_app(game, tmp_path, pace)
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: online(app).connection == "connected", why="connected")
                assert "Waiting for the host to start" in screen_text(app)
                async with random_player(api, host, seed) as ann:
                    await api.start(host)
                    await script(pilot, app, ann)

    asyncio.run(go())


def test_your_cards_and_keys_reach_the_server_refusals_and_a_dropped_socket(
        server: ServerProcess, tmp_path: Path) -> None:
    async def script(pilot: Pilot[Any], app: PitchApp, ann: TableConnection) -> None:
        game = online(app).remote
        await until(pilot, lambda: game.human_to_act and not app.busy, why="your turn")
        view = game.view()
        shown = screen_text(app)
        # the hand row: one line shows every card of the hand (where it sits depends on how
        # many lines the bar and the messages take at that moment, so it is not counted from
        # the bottom: that failed once under load)
        def hand_row_drawn() -> bool:
            return any(all(card_symbol_of(card) in row for card in view.hand)
                       for row in screen_text(app).splitlines())

        await until(pilot, hand_row_drawn, why=f"the hand {view.hand} drawn in one row")
        shown = screen_text(app)
        assert "Bea" not in shown and "Ann" in shown  # you are "You"; the others by name
        # your turn, whatever it is, taken with keys: it reaches the other seats
        mine = len([e for e in ann.events if isinstance(e, ActionTaken)
                    and e.seat == game.human_seat])
        expected = await take_turn(pilot, app)
        await until(pilot, lambda: len([e for e in ann.events if isinstance(e, ActionTaken)
                                        and e.seat == game.human_seat]) > mine,
                    why="your action reached the other seats")
        said = [e for e in ann.events if isinstance(e, ActionTaken)
                and e.seat == game.human_seat][-1]
        assert said.action == expected and not said.by_bot
        await pilot.press("u")  # no undo at a server table: it says so, and nothing changes
        assert str(app.message).startswith("Undo is not available at a server table")
        assert game.conn is not None and not any(isinstance(e, ActionUndone)
                                                 for e in game.conn.events)
        # a card the rules forbid is refused by the server, and its reason said
        refused = False
        for _ in range(400):
            await until(pilot, lambda: (game.human_to_act and not app.busy
                                        and len(app.screen_stack) == 1)
                        or isinstance(app.screen, ResultScreen), why="your turn to play")
            if isinstance(app.screen, ResultScreen):
                await pilot.press("enter")
                continue
            view = game.view()
            cards = app.cards(view)
            legal = app.legal_cards(view)
            wrong = [i for i, c in enumerate(cards) if c not in legal]
            if view.phase == "auction" or not wrong:
                await take_turn(pilot, app)
                await pilot.pause(0.05)
                continue
            seq = ann.seq
            await pilot.press(str(wrong[0] + 1), "enter")
            await until(pilot, lambda: "Refused (" in str(app.message), why="the refusal")
            # the engine's reason and its sentence, as the local game says it
            assert str(app.message).startswith("Refused (must_follow_suit): You must "), \
                app.message
            assert not app.busy and game.human_to_act  # still your turn: choose again
            assert ann.seq == seq  # nothing changed at the table
            refused = True
            break
        assert refused, "no hand gave a card the rules forbid"
        # the socket drops: the screen says so, reconnects, and the game goes on
        assert game.conn is not None
        await game.conn.drop()
        await until(pilot, lambda: "Reconnected" in str(app.message), why="reconnected")
        before = game.conn.seq
        await until(pilot, lambda: game.human_to_act and not app.busy
                    and len(app.screen_stack) == 1, why="your turn after reconnecting")
        await take_turn(pilot, app)
        await until(pilot, lambda: game.conn is not None and game.conn.seq > before,
                    why="an action after reconnecting")

    at_table(server, tmp_path, {"target": 11}, script, seed=3)


async def take_turn(pilot: Pilot[Any], app: PitchApp) -> str:
    """Your turn with keys, as a player would: the lowest bid or pass, or the first card that
    may be pitched or played, then Enter; the action in the engine's words."""
    view = online(app).remote.view()
    bids = app.legal_bids(view)
    if bids:
        key = "pass" if "pass" in bids else min(bids)
        await pilot.press({"pass": "p", "moon": "m"}.get(key, key), "enter")
        return "pass" if key == "pass" else f"bid {key}"
    cards = app.cards(view)
    i = next(i for i, c in enumerate(cards) if c in app.legal_cards(view))
    kind = "pitch" if view.phase == "auction" else "play"
    if kind == "pitch":
        await pilot.press("right", *["right"] * i, "enter")
    else:
        await pilot.press(str(i + 1), "enter")
    return f"{kind} {view.hand[i]}"


def card_symbol_of(name: str) -> str:
    from pitchcards.cards import parse_card

    return card_symbol(parse_card(name))


def test_a_short_game_plays_to_the_end_screen(server: ServerProcess, tmp_path: Path) -> None:
    async def script(pilot: Pilot[Any], app: PitchApp, ann: TableConnection) -> None:
        def ended(a: Any) -> bool:
            # the winner itself, not the table's status (which says "over" before match_won
            # is folded): the last hand's panel is then retitled as the match's end
            return isinstance(a.screen, ResultScreen) and online(app).remote.winner() is not None \
                and len(online(app).scored) == 1 and "the match!" in a.screen.title_text

        await play_until(pilot, app, ended, limit=40)
        title = str(app.screen.query_one("#dialog-title").render())
        assert "the match!" in title, title
        await pilot.press("enter")
        await until(pilot, lambda: "The match is over" in str(app.message), why="over")
        assert online(app).remote.results and app.rows  # the score sheet has the hands
        # the match's record is downloaded into the records folder, and it replays
        await until(pilot, lambda: online(app).saved is not None, why="the record saved")
        saved = online(app).saved
        assert saved is not None and saved.parent == tmp_path / "pitchcards" / "records"
        replayed = replay(read_record(saved.read_text(encoding="utf-8")))
        assert replayed.winner == online(app).remote.winner()
        assert list(replayed.side_scores()) == online(app).remote.side_scores()

    at_table(server, tmp_path, SHORT, script, seed=5)


def test_a_finished_trick_stays_until_enter_at_the_wait_pace(server: ServerProcess,
                                                             tmp_path: Path) -> None:
    async def script(pilot: Pilot[Any], app: PitchApp, ann: TableConnection) -> None:
        game = online(app).remote
        await until(pilot, lambda: app.waiting or (game.human_to_act and not app.busy),
                    why="your turn or a finished trick")
        while not app.waiting:
            await take_turn(pilot, app)
            await until(pilot, lambda: app.waiting or (game.human_to_act and not app.busy),
                        why="your turn or a finished trick")
        held = game.shown
        assert isinstance(game.events_since(held - 1)[-1], TrickWon)
        assert "Trick over" in screen_text(app) and "✓" in screen_text(app)
        await pilot.pause(0.3)
        assert app.waiting and game.shown == held  # the server goes on; the screen waits
        await pilot.press("enter")
        # the screen goes on: past the held trick, or (nothing since) it is live again
        assert game.conn is not None
        assert game.shown > held or (not app.waiting and game.shown == game.conn.seq)

    at_table(server, tmp_path, {"target": 11}, script, seed=7, pace="wait")


def test_host_shows_the_invite_sees_who_sits_down_and_starts_with_a_key(
        server: ServerProcess, tmp_path: Path) -> None:
    """--new-table: the invite on one line, the seats as people sit down, s starts (the open seat
    gets a bot of the --bots level); then a friend's chat, and their seat away and back."""
    async def go() -> None:
        settings = {**FAST, "grace": 0.3}
        seat = await host_table(server.url, GameConfig(players=3), "Hosty", "easy", settings)
        assert seat.invite_url is not None and seat.invite_url.startswith(server.url)
        app = table_app(RemoteGame(seat, GameConfig(players=3)), tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: online(app).connection == "connected", why="connected")
            assert f"Invite: {seat.invite_url}" in screen_text(app).splitlines()[0]
            assert "s starts the match" in screen_text(app)
            # the seats numbered from 1, as the browser numbers them (issue 30, finding 8)
            assert "1  You (host)" in screen_text(app) and "2  open seat" in screen_text(app)
            async with Client(server.url) as api:
                friend = await api.take_seat(seat.invite_url, "Cleo")
                await until(pilot, lambda: "Cleo" in screen_text(app), why="Cleo seated")
                cleo = await api.connect(friend)
                await until(pilot, lambda: online(app).remote.seat_kind(1) == "human",
                            why="Cleo here")
                await until(pilot, lambda: "2  Cleo · here" in screen_text(app), why="Cleo")
                await pilot.press("s")
                await until(pilot, lambda: online(app).remote.dealt, why="the deal")
                info = await api.table(friend.table)
                assert info["status"] == "playing"
                assert [(s["kind"], s["level"]) for s in info["seats"]][2] == ("bot", "easy")
                remote = online(app).remote
                assert remote.level(2) == "easy" and remote.name(1) == "Cleo"
                await cleo.say("good luck")
                await until(pilot, lambda: any(text == "Cleo says: good luck"
                                               for _, text in app.news), why="chat")
                await cleo.drop()
                await until(pilot, lambda: any(text.startswith("Cleo is away: a bot plays")
                                               for _, text in app.news), why="away")
                assert "away (bot)" in screen_text(app)
                await cleo.resume()
                await until(pilot, lambda: any(text == "Cleo is back." for _, text in app.news),
                            why="back")
                await cleo.close()
        assert online(app).remote.status == "playing"

    asyncio.run(go())


def test_the_waiting_room_calls_a_bot_seat_a_bot(server: ServerProcess,
                                                 tmp_path: Path) -> None:
    """A seat a bot plays from the start is "3  hard bot", not an open seat with a level."""
    async def go() -> None:
        seat = await host_table(server.url, GameConfig(players=4), "Hosty", "2=hard", FAST)
        app = table_app(RemoteGame(seat, GameConfig(players=4)), tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "3  hard bot" in screen_text(app), why="the bot seat")
            shown = screen_text(app)
            assert "1  You (host)" in shown and "2  open seat" in shown \
                and "4  open seat" in shown, shown
            seats = online(app).waiting_text().plain.split("Seats", 1)[1]
            assert "open · " not in seats and "  0  " not in seats, seats
            assert "Seat 2" in shown and "Seat 0" not in shown  # the score panel's too
            app.save_screenshot(str(artifact("tui-waiting-room.svg")))

    asyncio.run(go())


def test_joining_without_a_name_is_guest_then_guest_2(server: ServerProcess, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    async def go() -> None:
        async with Client(server.url) as api:
            host = await api.create_table("Ann", players=4, settings=FAST)
            assert host.invite_url is not None
            first, info = await join_table(host.invite_url, server.url)
            monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "friend"))  # another person
            second, _ = await join_table(host.invite, server.url)  # a bare code works too
            assert (first.name, second.name) == ("Guest", "Guest 2")
            assert info["status"] == "waiting" and not info["money"]

    asyncio.run(go())


def test_command_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--join", "http://127.0.0.1:9/join/x", "--new-table",
                 "http://127.0.0.1:9"]) == 2
    assert "do not go together" in capsys.readouterr().err
    assert main(["play", "--new-table", "http://127.0.0.1:9", "--bots", "easy,hard"]) == 2
    assert "SEAT=LEVEL" in capsys.readouterr().err
    assert main(["play", "--new-table", "http://127.0.0.1:9", "--bots", "genius"]) == 2
    assert "unknown bot level 'genius'" in capsys.readouterr().err
    assert main(["play", "--new-table", "http://127.0.0.1:9", "--variant", "money"]) == 2
    assert "a money game cannot be played at a server table" in capsys.readouterr().err
    # the old spelling still works, and says the new one (pitch serve's --host is an address)
    assert main(["play", "--host", "http://127.0.0.1:9", "--variant", "money"]) == 2
    err = capsys.readouterr().err
    assert "--host URL is now --new-table URL" in err and "pitch serve --host" in err
    assert "a money game cannot be played at a server table" in err
    assert main(["play", "--join", "http://127.0.0.1:9/join/abc"]) == 2
    assert "cannot reach the server" in capsys.readouterr().err

