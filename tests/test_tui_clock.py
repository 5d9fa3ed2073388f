"""The terminal's clock at a server table (issue 30, finding 1) and a rejoining player's history
(finding 7): ``pitch play --join`` shows whoever must act and their time left from the server's
``TableInfo.deadlines``, warns in your last seconds, and says "Time ran out — a bot played for
you." when the server marks a stand-in's move ``timed_out``; a player back by a snapshot has the
table's hand number, score sheet and winner.

No wall clock decides anything: the turn timer and the grace are ten minutes, the test moves the
game's own time source (``RemoteGame.clock``) to see the last seconds and zero, and the test
server's hook ``POST /_test/tables/{id}/expire`` runs the turn timer out when the test says so;
the bots (and a stand-in for an absent player) are held and let act by ``/_test/…/bots``.
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from pitchcards.client import Client
from pitchcards.events import HandScored, MatchWon
from pitchcards.tui.app import PitchApp
from pitchcards.tui.game import win_sentence
from pitchcards.tui.history import history_text
from pitchcards.tui.remote import RemoteGame, join_table, table_config
from pitchcards.tui.screens import ResultScreen
from server_helpers import ServerProcess, hooked_table, play_held, run_bots, server_fixture
from test_tui_remote import artifact, online, table_app, until

pytestmark = pytest.mark.timeout(300)

server = server_fixture(hooked=True)

SEED = 1_000_000_000_000_003
#: Long clocks: only the test's hook runs the turn timer out, only the test's clock counts.
CLOCKS = {"bot_delay": 0, "hand_pause": 0, "turn_timer": 600, "grace": 600}


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def top(app: PitchApp) -> str:
    """The top bar as shown."""
    return str(app.query_one("#top", Static).render())


def test_the_countdown_the_warning_and_time_ran_out(server: ServerProcess,
                                                    tmp_path: Path) -> None:
    """Ann (who never connects), Bea in the terminal, a held bot: Ann's grace and her turn's
    clock show on Bea's top bar; the turn the server plays for Ann is said as hers; Bea's own
    clock counts down on the game's clock, warns (message and bell) in its last seconds, shows
    zero, and when the server's timer runs out the screen says a bot played for her."""
    async def go() -> None:
        async with Client(server.url) as api:
            host = await hooked_table(api, "Ann", seed=SEED, variant="auction", players=3,
                                      bots={2: "easy"}, settings=CLOCKS)
            assert host.invite_url is not None
            seat, info = await join_table(host.invite_url, server.url, "Bea")
            game = RemoteGame(seat, table_config(info), info, invite_url=host.invite_url)
            now = [5000.0]
            game.clock = lambda: now[0]  # the clocks count on the test's time
            app = table_app(game, tmp_path)
            bells: list[int] = []
            app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: online(app).connection == "connected",
                            why="connected")
                await api.start(host)
                await until(pilot, lambda: game.dealt, why="the deal")
                # Ann has not come: her seat waits out its grace, and the bar says how long
                # (the time left is the server's when it sent the table: a second may be gone)
                await until(pilot, lambda: re.search(r"Ann offline: a bot plays in "
                                                     r"(10:00|9:\d\d)", top(app)) is not None,
                            why=f"Ann's grace on the bar: {top(app)!r}")
                timed_out_ann = False
                while True:
                    to_act = (await run_bots(api, host.table))["to_act"]
                    assert to_act in (0, 1), to_act
                    if to_act == 1:
                        break
                    await until(pilot, lambda: re.search(r"Ann: (10:00|9:\d\d) to act",
                                                         top(app)) is not None,
                                why=f"Ann's turn clock: {top(app)!r}")
                    reply = await api.http.post(f"/_test/tables/{host.table}/expire")
                    assert reply.json()["expired"] is True
                    await until(pilot, lambda: str(app.message).startswith(
                        "Time ran out for Ann — a bot played for them."),
                        why=f"Ann's timeout said: {app.message!r}")
                    timed_out_ann = True
                assert timed_out_ann, "the seed gives Ann the first turn"
                # Bea's turn: her clock, from the server's time left
                await until(pilot, lambda: game.human_to_act and re.search(
                    r"Your turn: (10:00|9:\d\d) left", top(app)) is not None,
                    why=f"your clock: {top(app)!r}")
                assert not bells
                told = next(d for d in game.info["deadlines"]
                            if d["kind"] == "turn" and d["seat"] == game.human_seat)
                # the game's clock moves to 4.5 s before the server's deadline; the server's
                # timer does not move
                now[0] += told["remaining_ms"] / 1000 - 4.5
                await until(pilot, lambda: "Your turn: 0:05 left" in top(app),
                            why=f"the last seconds: {top(app)!r}")
                await until(pilot, lambda: str(app.message) == (
                    "5 seconds left to act: then a bot plays for you."), why="the warning")
                assert bells == [1]
                now[0] += 30
                await until(pilot, lambda: "Your turn: 0:00 left" in top(app),
                            why=f"zero: {top(app)!r}")
                assert bells == [1]  # warned once
                assert game.human_to_act  # the server decides when the time is up, not us
                reply = await api.http.post(f"/_test/tables/{host.table}/expire")
                assert reply.json()["expired"] is True
                await until(pilot, lambda: str(app.message).startswith(
                    "Time ran out — a bot played for you. You: "),
                    why=f"your timeout said: {app.message!r}")
                assert any(text.startswith("Time ran out — a bot played for you.")
                           for _, text in app.news)  # kept in the log
                assert "Your turn" not in top(app)  # that clock ended with the move
                app.save_screenshot(str(artifact("tui-clock-timed-out.svg")))

    asyncio.run(go())


def test_a_player_back_by_snapshot_has_the_tables_history(server: ServerProcess,
                                                          tmp_path: Path) -> None:
    """Bea plays two hands over the client, then comes back in the terminal (a fresh socket:
    a snapshot, no events before it): its top bar says the table's hand, its score sheet has
    the table's hands and scores, and a match won before it came shows the winner."""
    async def go() -> None:
        async with Client(server.url) as api:
            host = await hooked_table(api, "Ann", seed=SEED, variant="auction", players=3,
                                      bots={2: "easy"},
                                      settings={"bot_delay": 0, "hand_pause": 0, "grace": 0})
            assert host.invite_url is not None
            first, _ = await join_table(host.invite_url, server.url, "Bea")
            await api.start(host)
            async with await api.connect(first) as bea:  # Ann's seat: a held stand-in
                def scored() -> int:
                    return sum(isinstance(e, HandScored) for e in bea.events)

                await play_held(api, bea, random.Random(4),
                                until=lambda: scored() >= 2 and bea.view is not None
                                and bea.view.phase == "auction")
                assert not bea.over, "the seed's match is not over in two hands"
            seat, info = await join_table(host.invite_url, server.url)  # your seat again
            assert seat.token == first.token
            game = RemoteGame(seat, table_config(info), info, invite_url=host.invite_url)
            app = table_app(game, tmp_path)
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: game.dealt and len(app.rows) >= 2,
                            why="the history fetched")
                assert game.conn is not None and not any(
                    isinstance(e, HandScored) for e in game.conn.events), \
                    "the socket came back by a snapshot"
                table = [e for e in await api.results(host.table) if isinstance(e, HandScored)]
                assert game.hand_number == len(table) + 1 == 3
                assert "hand 3" in top(app) or "· hand 3" in top(app), top(app)
                assert [(r.number, r.scores) for r in app.rows] == [
                    (e.hand + 1, e.scores) for e in table]
                assert game.side_scores() == list(table[-1].scores)
                await pilot.press("g")
                await until(pilot, lambda: len(app.screen_stack) > 1, why="the score sheet")
                shown = history_text(game, app.rows).plain
                assert "No hand has been scored yet" not in shown
                app.save_screenshot(str(artifact("tui-rejoin-score-sheet.svg")))
                await pilot.press("escape")
            await _rejoin_after_the_end(api, host, tmp_path)

    asyncio.run(go())


async def _rejoin_after_the_end(api: Client, host: Any, tmp_path: Path) -> None:
    """The bots finish the match (Bea's seat is away: a stand-in plays it); Bea comes back
    and the screen names the winner."""
    await run_bots(api, host.table, actions=None)
    async with await api.connect(table=host.table) as watch:
        await watch.wait_for(lambda: watch.over, 120)
    seat, info = await join_table(host.invite_url, api.server)
    game = RemoteGame(seat, table_config(info), info, invite_url=host.invite_url)
    app = table_app(game, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: game.winner() is not None, why="the winner known")
        won = next(e for e in await api.results(host.table) if isinstance(e, MatchWon))
        assert game.winner() == won.winner and game.over
        assert len(app.rows) == sum(isinstance(e, HandScored)
                                    for e in await api.results(host.table))
        assert not isinstance(app.screen, ResultScreen)  # old hands are not news
        await until(pilot, lambda: win_sentence(game, won.winner) in str(app.message),
                    why=f"the winner said: {app.message!r}")
