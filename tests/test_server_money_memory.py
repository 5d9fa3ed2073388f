"""A money table never ends (A-R7): its room keeps in memory only what a reconnect needs — the
newest events (``replay_limit`` to twice that) and the current hand — and everything older is
in the table's log in the database (issue 31, "a room's memory bounded").  Here a long money
session is played by bots at zero delay on a hooked in-process server with a small
``replay_limit``: what the room holds stays under the bound however many hands are played,
and a reconnect (near and far behind), the record, the hand viewer and a replay of the log
still give the whole game."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.client import Client
from pitchcards.money import MoneySession
from pitchcards.notation import parse_record, write_record
from pitchcards.server.room_state import KEEP_ALL, RoomState, record_of_log
from pitchcards.table import Table
from server_helpers import FAST, app_fixture, hello, hooked_table, raw_socket, run_bots

pytestmark = pytest.mark.timeout(120)

server = app_fixture(hooked=True)

#: events a reconnect replays (the room keeps this many to twice this many)
LIMIT = 12
#: three players, every seat a bot or a stand-in (grace 0: the host never connects)
MONEY: dict[str, Any] = {"variant": "money", "players": 3,
                         "bots": {1: "random", 2: "random"},
                         "settings": {**FAST, "grace": 0, "stand_in": "random"}}


@pytest.fixture(scope="module")
def small_window(server: Any) -> Iterator[Any]:
    """This module's server keeps ``LIMIT`` events for a reconnect (1,000 by default)."""
    config = server.app.state.hub.config
    before, config.replay_limit = config.replay_limit, LIMIT
    yield server.app.state.hub
    config.replay_limit = before


def _held(room: Any) -> dict[str, int]:
    """What a room holds in memory that grows with the game."""
    table = room.state.table
    session = table.session
    return {"events": len(table._events), "deals": len(table._deals),
            "holdings": len(table._holdings), "seatings": len(table._seatings),
            "hands": len(session.hands), "results": len(session.results),
            "hand_players": len(session.hand_players), "session_events": len(session.events),
            "results_sheet": len(room.state.results), "stand_ins": len(room.state.stand_ins),
            "stand_ins_forgotten": sum(h < session.first_hand for h, _ in room.state.stand_ins)}


def test_a_long_money_session_holds_a_bounded_window(server: Any, small_window: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    hub = small_window
    replays: list[int] = []

    def counted(stored: Any) -> str:
        replays.append(len(stored.entries))
        return record_of_log(stored)

    monkeypatch.setattr("pitchcards.server.room.record_of_log", counted)

    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=31, **MONEY)
            await api.start(ann)
            async with await api.connect(table=ann.table) as watcher:  # someone is there
                room = hub.rooms[ann.table]
                peaks: list[dict[str, int]] = []
                for _ in range(3):
                    ran = await run_bots(api, ann.table, 120)
                    assert ran["status"] == "playing" and ran["acted"] == 120, ran
                    peaks.append(_held(room))
                await watcher.wait_for(lambda: watcher.seq >= ran["seq"], 30)
                session = room.state.table.session
                assert session.first_hand > 10  # many hands played, and forgotten
                # the bound, the same at every point: twice the window of events, the hands
                # they reach back to (a hand is more than 20 events here), one seating
                for held in peaks:
                    assert held["events"] <= 2 * LIMIT
                    assert held["deals"] <= 2 and held["holdings"] <= 2 * LIMIT
                    assert held["hands"] <= 2 and held["results"] <= held["hands"]
                    assert held["hand_players"] == held["hands"]
                    assert held["session_events"] <= held["hands"]
                    assert held["seatings"] == 1
                    # the stand-in's marks of hands in memory only (review F7)
                    assert held["stand_ins_forgotten"] == 0 and held["stand_ins"] <= 2 * LIMIT
                # a reconnect a little behind replays the events it missed
                near = ran["seq"] - LIMIT // 2
                got = await raw_socket(server.url, ann.table, [], hello=hello(None, near),
                                       until=lambda r: len(r.of_type("event")) >= LIMIT // 2)
                assert [m["event"]["seq"] for m in got.of_type("event")] \
                    == list(range(near + 1, ran["seq"] + 1))
                # one far behind (its events are only in the database) gets a fresh view
                far = await raw_socket(server.url, ann.table, [], hello=hello(None, 1),
                                       until=lambda r: bool(r.of_type("snapshot")))
                snap = far.of_type("snapshot")
                assert snap and snap[0]["seq"] == ran["seq"] and not far.errors
                # the socket that was there all along resumes where it was
                await watcher.drop()
                await run_bots(api, ann.table, 10)
                await watcher.resume()
                assert not watcher.errors
                # the record is written from the log: every finished hand, from the first
                record = await api.record(ann)
                replayed = pc.replay(parse_record(record))
                assert isinstance(replayed, MoneySession)
                finished = session.hands_dealt - (1 if session.in_hand else 0)
                assert replayed.hands_dealt == finished > 10
                assert replayed.scores == session.scores and replayed.stars == session.stars
                assert replayed.ledger == session.ledger
                # the hand viewer shows every finished hand, the first one too
                reply = await api.http.get(f"/api/tables/{ann.table}/hands",
                                           headers={"Authorization": f"Bearer {ann.token}"})
                assert reply.status_code == 200
                hands = reply.json()
                assert [h["number"] for h in hands["hands"]] == list(range(1, finished + 1))
                # written from the log once while nothing changed, however often it is asked
                # for (paging /hands, review F8)
                assert len(replays) == 1 and await api.record(ann) == record
                assert len(replays) == 1
                # after a restart (the log replayed into a new room) the same, still bounded
                stored = await hub.storage.load(ann.table)
                again = await asyncio.to_thread(RoomState, stored, LIMIT)
                assert again.table is not None and again.table.seq == room.state.table.seq
                assert again.table.session.scores == session.scores
                assert len(again.table._events) <= 2 * LIMIT
                assert len(again.table.session.hands) <= 2
                assert await asyncio.to_thread(record_of_log, stored) == record
                # each player's statistics, counted as the hands were scored: every hand
                # they sat, the forgotten ones too (review F6), and the same after a restart
                whole = await asyncio.to_thread(RoomState, stored, KEEP_ALL)
                assert room.state.money_stats == whole.money_stats == again.money_stats
                assert room.state.money_stats["Ann"].hands == finished

    asyncio.run(run())


def _play(session: MoneySession, hands: int) -> None:
    """Random bots (seeded: the same moves for the same session) play to ``hands`` hands."""
    table = Table(session, {s: make_bot("random", seed=s) for s in range(3)})
    while session.hands_dealt < hands or session.in_hand:
        if session.in_hand:
            table.step()
        else:
            table.deal()


def test_forget_hands_keeps_the_score_the_ledger_and_the_next_deals() -> None:
    whole, trimmed = (MoneySession(pc.find_variant("money"), ["Ann", "Bob", "Cy"], seed=5)
                      for _ in range(2))
    _play(whole, 6)
    _play(trimmed, 6)
    trimmed.forget_hands(1)
    assert trimmed.first_hand == 5 and len(trimmed.hands) == len(trimmed.results) == 1
    assert trimmed.scores == whole.scores
    _play(whole, 12)
    _play(trimmed, 12)
    # the deals go on from the seed by the hand's number, kept in memory or not
    assert [h.dealt for h in trimmed.hands] == [h.dealt for h in whole.hands[5:]]
    assert trimmed.scores == whole.scores and trimmed.ledger == whole.ledger
    with pytest.raises(ValueError, match="forgotten"):
        write_record(trimmed)
    with pytest.raises(ValueError, match="keep"):
        trimmed.forget_hands(-1)
