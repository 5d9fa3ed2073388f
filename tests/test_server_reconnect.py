"""Dropped sockets, stale tabs, stale actions, absent players and the turn timer, over real
sockets against a real ``pitch serve``: the missing events come back with no gap and no
duplicate, a client too far behind gets a snapshot, an action decided on an old position is
refused with ``stale`` and changes nothing, a dropped player's seat goes to a stand-in bot after
the grace period and back to them when they return, and the turn timer plays one turn.

The server is a test server (tests/hooked_serve.py): each table is dealt from a seed chosen here
and its bots act only when a test lets them (``run_bots``), so nothing moves between a test's
steps and every run plays the same cards."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from pitchcards.client import Client, Seat, TableConnection
from pitchcards.events import ActionTaken
from server_helpers import (
    FAST,
    app_fixture,
    every_event,
    hello,
    hooked_table,
    play_held,
    raw_socket,
    run_bots,
)

pytestmark = pytest.mark.timeout(120)

server = app_fixture(hooked=True)

#: Ann (a person) at seat 0 and three quick bots.
SOLO: dict[str, Any] = {"bots": {1: "random", 2: "random", 3: "random"}}


def _seqs(events: list[Any]) -> list[int]:
    return [e.seq for e in events]


def _unbroken(conn: TableConnection) -> bool:
    """The events received since the first (after the welcome's snapshot): each seq once,
    in order, up to the last."""
    first = conn.events[0].seq if conn.events else conn.seq + 1
    return _seqs(conn.events) == list(range(first, conn.seq + 1))


def _turn_taken_after(spectator: TableConnection, seq: int, seat: int,
                      by_bot: bool) -> ActionTaken | None:
    return next((e for e in spectator.events if isinstance(e, ActionTaken) and e.seq > seq
                 and e.seat == seat and e.by_bot is by_bot), None)


def _seat_info(conn: TableConnection, seat: int) -> dict[str, Any]:
    info: dict[str, Any] = conn.info["seats"][seat]
    return info


async def _solo_table(api: Client, seed: int, **settings: Any) -> Seat:
    """Ann's table dealt from ``seed``, started, its bots held (a match to 7)."""
    ann = await hooked_table(api, "Ann", seed=seed, settings={**FAST, **settings}, **SOLO)
    await api.start(ann)
    return ann


def test_a_dropped_socket_gets_the_missing_events_no_gap_no_duplicate(server):
    async def run() -> None:
        rng = random.Random(5)
        async with Client(server.url) as api:
            ann = await _solo_table(api, 101)
            async with await api.connect(ann) as table, \
                    await api.connect(table=ann.table) as watcher:
                # play into the match, then lose the socket right after an action of ours
                # that a bot answers (not one after which we act again, as a trick's winner)
                await play_held(api, table, rng, until=lambda: len(table.events) > 30)
                while True:
                    assert table.is_my_turn() and table.view is not None
                    await table.act(str(rng.choice(table.view.legal_actions)))
                    if table.view.seat_to_act not in (0, None):
                        break
                    await play_held(api, table, rng)
                await table.drop()
                assert table.closed
                gone_at = table.seq
                # the bots go on without us until it is our turn again (the seat is held)
                went_on = await run_bots(api, ann.table)
                assert went_on["acted"] > 0 and went_on["to_act"] == 0, went_on
                await watcher.wait_for(lambda: watcher.seq >= went_on["seq"], 30)
                assert watcher.seq > gone_at
                await table.resume()
                await table.wait_for(lambda: table.seq == watcher.seq, 30)
                # every event once, in order, and the same as a full replay from seq 0
                assert _unbroken(table)
                assert gone_at + 1 in _seqs(table.events)
                full = await every_event(server.url, ann.table, ann.token)
                assert [e.to_dict() for e in table.events] == full[table.events[0].seq - 1:]
                assert not table.errors
                later = table.seq + 10
                await play_held(api, table, rng, until=lambda: table.seq > later)
                assert table.seq > later and _unbroken(table)

    asyncio.run(run())


def test_a_socket_lost_before_the_first_event_gets_every_event_after_it(server):
    """Welcomed at seq 0 (the table not started), dropped, back after the start: the client
    asks for the events after 0 and holds the whole match from event 1 (it used to send no
    seq at 0, got a snapshot, and its events began mid-hand: test_cluster_failover failed so
    once under load)."""
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await hooked_table(api, "Ann", seed=101, settings=FAST, **SOLO)
            async with await api.connect(ann) as table:
                assert table.seq == 0 and not table.events
                await table.drop()
                await api.start(ann)
                went_on = await run_bots(api, ann.table)
                assert went_on["seq"] > 0, went_on
                await table.resume()
                await table.wait_for(lambda: table.seq >= went_on["seq"], 30)
                assert _seqs(table.events) == list(range(1, table.seq + 1))
                full = await every_event(server.url, ann.table, ann.token)
                assert [e.to_dict() for e in table.events] == full[:table.seq]
                assert not table.errors

    asyncio.run(run())


def test_a_stale_tab_with_a_seq_the_server_cannot_replay_resyncs_with_a_snapshot(server):
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await _solo_table(api, 102)
            async with await api.connect(ann) as table:
                ran = await play_held(api, table, random.Random(1))
                assert table.is_my_turn(), ran
                seq = table.seq
                # a tab that claims events this table has not got (another server's, a
                # cleared database's): no replay is possible, it is sent a snapshot
                tab = TableConnection(server.url, ann.table, ann.token)
                tab.seq = seq + 50
                await tab.open()
                async with tab:
                    await tab.wait_for(lambda: tab.seq == seq and tab.view is not None, 30)
                    assert tab.view == table.view
                    assert not tab.events and not tab.errors
                    # and it plays on from there: its next events follow the snapshot
                    assert table.view is not None
                    await tab.act(str(table.view.legal_actions[0]))
                    # the bots take their turns until Ann's next one: both sockets get there
                    went_on = await run_bots(api, ann.table)
                    await table.wait_for(lambda: table.seq >= went_on["seq"], 30)
                    await tab.wait_for(lambda: tab.seq >= went_on["seq"], 30)
                    assert table.seq == tab.seq == went_on["seq"] > seq
                    assert tab.events and tab.events[0].seq == seq + 1
                    assert tab.view == table.view

    asyncio.run(run())


def test_an_action_on_an_old_position_is_refused_stale_and_changes_nothing(server):
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await _solo_table(api, 103)
            async with await api.connect(ann) as table:
                await play_held(api, table, random.Random(3), until=lambda: table.seq > 12)
                assert table.is_my_turn() and table.view is not None
                legal = [str(a) for a in table.view.legal_actions]
                before = await api.table(ann.table)
                for old in (0, table.seq - 8, table.seq + 1, table.seq + 1000):
                    refused = len(table.errors)
                    await table.send({"type": "act", "action": legal[0], "seq": old})
                    await table.wait_for(lambda: len(table.errors) > refused, 10)  # noqa: B023
                    error = table.errors[-1]
                    assert error["reason"] == "stale", error
                    assert error["seq"] == before["seq"]
                    assert error["legal"] == legal  # what to decide on instead
                assert await api.table(ann.table) == before
                assert table.seq == before["seq"]
                await table.act(legal[0])  # at the position now: taken
                assert table.seq > before["seq"]
                taken = next(e for e in table.events if isinstance(e, ActionTaken)
                             and e.seq > before["seq"])
                assert (taken.seat, taken.action, taken.by_bot) == (0, legal[0], False)

    asyncio.run(run())


def test_a_dropped_player_is_played_by_a_bot_after_the_grace_and_gets_the_seat_back(server):
    async def run() -> None:
        rng = random.Random(8)
        async with Client(server.url) as api:
            ann = await _solo_table(api, 104, grace=0.5, stand_in="random")
            async with await api.connect(ann) as table, \
                    await api.connect(table=ann.table) as watcher:
                await play_held(api, table, rng)
                assert table.is_my_turn()
                assert not _seat_info(watcher, 0)["away"]
                await table.drop()
                gone_at = table.seq
                # after the grace: the seat is marked away and a stand-in plays it — the
                # table's next action is Ann's turn, taken by her stand-in
                await watcher.wait_for(lambda: _seat_info(watcher, 0)["away"], 30)
                assert _seat_info(watcher, 0)["level"] == "random"
                stood_in = await run_bots(api, ann.table, 1)
                assert stood_in["acted"] == 1
                await watcher.wait_for(lambda: watcher.seq >= stood_in["seq"], 30)
                taken = _turn_taken_after(watcher, gone_at, 0, True)
                assert taken is not None and taken.seq == gone_at + 1
                # back with the token: the seat is ours again, and so is our turn
                await table.resume()
                assert not _seat_info(table, 0)["away"] and table.you["seat"] == 0
                await watcher.wait_for(lambda: not _seat_info(watcher, 0)["away"], 30)
                # the events missed come after the welcome: back_at is where the table was
                # when Ann came back, not the last event her socket had read by then
                await table.wait_for(lambda: table.seq >= table.welcome_seq, 30)
                back_at = table.seq
                went_on = await run_bots(api, ann.table)
                assert went_on["to_act"] == 0 and went_on["status"] == "playing", went_on
                await table.wait_for(lambda: table.seq >= went_on["seq"], 30)
                assert table.is_my_turn() and table.view is not None
                await table.act(str(rng.choice(table.view.legal_actions)))
                assert _turn_taken_after(table, back_at, 0, False) is not None
                assert _turn_taken_after(table, back_at, 0, True) is None
                assert _unbroken(table)

    asyncio.run(run())


def test_the_turn_timer_lets_the_stand_in_play_that_one_turn(server):
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await _solo_table(api, 105, turn_timer=1.0, stand_in="random")
            async with await api.connect(ann) as table:
                await play_held(api, table, random.Random(4))
                assert table.is_my_turn()
                waited_at = table.seq
                # Ann does nothing: when the timer runs out, the stand-in plays her turn
                await table.wait_for(
                    lambda: _turn_taken_after(table, waited_at, 0, True) is not None, 30)
                assert not _seat_info(table, 0)["away"]  # only that one turn
                # her next turn is hers: the table's driver stops there and waits for her
                # (a seat a bot plays would not stop it); the bots are held, so it is the
                # position the timer left
                went_on = await run_bots(api, ann.table)
                assert went_on["to_act"] == 0 and went_on["status"] == "playing", went_on
                await table.wait_for(lambda: table.seq >= went_on["seq"], 30)
                assert table.is_my_turn()
                assert not _seat_info(table, 0)["away"]

    asyncio.run(run())


def test_the_turn_timer_runs_again_for_a_player_back_before_the_stand_in_moved(server):
    """Ann's turn, with a turn timer; she drops, the grace ends and a stand-in takes her seat
    (held: it does not move), and she comes back at the same position.  Her turn's timer runs
    for her again: when it runs out the stand-in plays that one turn, marked timed out.  (The
    driver kept the old timer because the turn looked the same — seat and seq — though it was
    no longer current, so the turn had no timer: review of issue 28's driver.)"""
    async def run() -> None:
        rng = random.Random(8)
        async with Client(server.url) as api:
            ann = await _solo_table(api, 104, grace=0.5, stand_in="random", turn_timer=600)
            async with await api.connect(ann) as table, \
                    await api.connect(table=ann.table) as watcher:
                await play_held(api, table, rng)
                assert table.is_my_turn()
                await table.drop()
                at = table.seq
                await watcher.wait_for(lambda: _seat_info(watcher, 0)["away"], 30)
                await table.resume()
                await watcher.wait_for(lambda: not _seat_info(watcher, 0)["away"], 30)
                settled = await run_bots(api, ann.table, 0)  # the driver has looked again
                assert settled["seq"] == at and settled["to_act"] == 0  # nobody moved
                expired = await api.http.post(f"/_test/tables/{ann.table}/expire")
                assert expired.json() == {"expired": True}
                await watcher.wait_for(
                    lambda: _turn_taken_after(watcher, at, 0, True) is not None, 30)
                taken = _turn_taken_after(watcher, at, 0, True)
                assert taken is not None and taken.seq == at + 1
                assert not _seat_info(watcher, 0)["away"]

    asyncio.run(run())


def test_a_stale_action_by_a_client_that_never_saw_an_event_is_refused(server):
    """A raw client acting with seq 0 before seeing anything: ``stale``, the table unchanged."""
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await _solo_table(api, 106)
            async with await api.connect(ann) as table:
                await play_held(api, table, random.Random(6))
                assert table.is_my_turn() and table.view is not None
                reply = await raw_socket(
                    server.url, ann.table,
                    [json.dumps({"type": "act", "action": str(table.view.legal_actions[0]),
                                 "seq": 0})],
                    hello=hello(ann.token), until=lambda r: bool(r.errors), quiet=5)
                assert reply.errors == ["stale"]
                assert (await api.table(ann.table))["seq"] == table.seq
                assert table.is_my_turn()

    asyncio.run(run())


def test_a_tab_too_far_behind_gets_a_snapshot_not_the_events(server):
    """A client more events behind than the server replays (1000) is sent its view now
    instead."""
    async def run() -> None:
        async with Client(server.url) as api:
            ann = await _solo_table(api, 107, grace=0, stand_in="random")  # nobody at the keys
            async with await api.connect(table=ann.table) as watcher:
                await watcher.wait_for(lambda: _seat_info(watcher, 0)["away"], 30)
            seq = 0
            while seq <= 1010:
                went_on = await run_bots(api, ann.table, 2000)
                assert went_on["status"] == "playing" and went_on["acted"] > 0, went_on
                seq = went_on["seq"]
            tab = TableConnection(server.url, ann.table, ann.token)
            tab.seq = 1  # asleep since the first event
            await tab.open()
            async with tab:
                await tab.wait_for(lambda: tab.view is not None, 30)
                assert tab.welcome_seq == seq > 1010
                assert tab.seq == tab.welcome_seq
                assert not tab.events  # no replay
                assert tab.view is not None and tab.view.seat == 0
                assert len(tab.view.hand) == tab.view.hand_sizes[0]  # its own cards

    asyncio.run(run())
