"""A dropped player's seat on the server (server/grace.py), without sockets or a database: a
room's state rebuilt from a log the test writes, a room that only records what the grace asks
of it, and a clock the test sets.  What a dropped player sees end to end is
tests/test_server_reconnect.py's."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

from pitchcards.bots import make_bot
from pitchcards.server.grace import Grace, grace_deadline, stand_in_due
from pitchcards.server.protocol import CreateTable, Deadline
from pitchcards.server.room_state import RoomState
from pitchcards.server.seats import Player
from pitchcards.server.store import PlayerRow, StoredTable

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def _state(grace: float, entries: list[dict[str, Any]], status: str = "playing") -> RoomState:
    config = CreateTable(name="Ann", variant="auction", players=4,
                         settings={"grace": grace, "stand_in": "easy"})
    row = SimpleNamespace(id="t1", config=config.model_dump_json(), seed=5, status=status,
                          listed=False, version=len(entries), rematch=None,
                          rematch_of=None)
    people = [PlayerRow(name, seat, f"hash{seat}", None, seat == 0)
              for seat, name in enumerate(NAMES)]
    return RoomState(StoredTable(row, people, entries), keep_events=100)


STARTED = [{"op": "start", "names": NAMES}, {"op": "deal"}]


class _Room:
    """What the grace uses of a room, recording what it was asked."""

    def __init__(self, state: RoomState) -> None:
        self.state = state
        self.lock = asyncio.Lock()
        self.closed = False
        self.stood_in: list[str] = []
        self.announced = 0
        self.woken = 0
        self.handed = asyncio.Event()

    async def seat_stand_in(self, player: Player) -> None:
        self.stood_in.append(player.name)
        self.handed.set()

    def announce(self) -> None:
        self.announced += 1

    def wake(self) -> None:
        self.woken += 1


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_only_a_seated_person_without_a_socket_at_a_table_in_play_goes_to_the_stand_in() -> None:
    state = _state(60, STARTED)
    bob = state.players["Bob"]
    assert stand_in_due(state, bob)
    bob.conns.add(object())  # type: ignore[arg-type]  # back: a socket is open
    assert not stand_in_due(state, bob)
    waiting = _state(60, [])  # before the start: nobody is seated in the engine yet
    assert not stand_in_due(waiting, waiting.players["Bob"])
    bot = Player(PlayerRow("Eve", 3, None, "easy", False))
    assert not stand_in_due(state, bot)
    over = _state(60, STARTED)
    over.status = "over"
    assert not stand_in_due(over, over.players["Bob"])


def test_a_grace_deadline_is_the_seats_clock_in_play_only() -> None:
    state = _state(60, STARTED)
    fact = grace_deadline(state, state.players["Cy"], 12.3456)
    assert fact == Deadline(kind="grace", name="Cy", seat=2, remaining_ms=12346,
                            total_ms=60_000, seq=state.seq)
    assert grace_deadline(state, state.players["Cy"], -3).remaining_ms == 0  # type: ignore[union-attr]
    assert grace_deadline(_state(60, []), state.players["Cy"], 5) is None  # no seat in play yet


def test_a_held_seat_counts_down_then_goes_to_the_stand_in() -> None:
    async def run() -> None:
        room = _Room(_state(0, STARTED))
        clock = _Clock()
        grace = Grace(room, clock)
        bob = room.state.players["Bob"]
        grace.hold(bob)
        assert grace.holding("Bob")
        [fact] = grace.deadlines(clock.now)
        assert (fact.kind, fact.name, fact.seat) == ("grace", "Bob", 1)
        await asyncio.wait_for(room.handed.wait(), 30)  # a grace of 0: handed over at once
        assert room.stood_in == ["Bob"] and bob.away
        assert (room.announced, room.woken) == (1, 1)
        assert not grace.holding("Bob") and grace.deadlines(clock.now) == []

    asyncio.run(run())


def test_the_deadline_counts_down_with_the_clock() -> None:
    async def run() -> None:
        room = _Room(_state(600, STARTED))
        clock = _Clock()
        grace = Grace(room, clock)
        grace.hold(room.state.players["Dee"])
        clock.now += 100.25
        [fact] = grace.deadlines(clock.now)
        assert (fact.remaining_ms, fact.total_ms, fact.seat) == (499_750, 600_000, 3)
        grace.stop()

    asyncio.run(run())


def test_a_player_back_before_the_end_keeps_the_seat_and_one_back_after_takes_it_again() -> None:
    async def run() -> None:
        room = _Room(_state(600, STARTED))
        grace = Grace(room, _Clock())
        ann = room.state.players["Ann"]
        grace.hold(ann)
        grace.back(ann)  # back within the grace: no stand-in ever
        assert not grace.holding("Ann")
        assert not await grace.expire("Ann")  # nothing held: nothing to hand over
        assert room.stood_in == [] and not ann.away

        grace.hold(ann)
        assert await grace.expire("Ann")  # the grace runs out now
        assert room.stood_in == ["Ann"] and ann.away
        table = room.state.table
        assert table is not None
        table.set_bot("Ann", make_bot("easy"))  # what the room's seat_stand_in does
        grace.back(ann)
        assert not ann.away and table.bot_at(0) is None  # her seat is played by her again

    asyncio.run(run())


def test_nothing_is_held_for_a_bot_a_connected_person_or_twice() -> None:
    async def run() -> None:
        room = _Room(_state(600, STARTED))
        clock = _Clock()
        grace = Grace(room, clock)
        grace.hold(Player(PlayerRow("Eve", 3, None, "easy", False)))
        cy = room.state.players["Cy"]
        cy.conns.add(object())  # type: ignore[arg-type]
        grace.hold(cy)
        assert grace.deadlines(clock.now) == []
        dee = room.state.players["Dee"]
        grace.hold(dee)
        clock.now += 10
        grace.hold(dee)  # already held: the first clock keeps running
        [fact] = grace.deadlines(clock.now)
        assert fact.remaining_ms == 590_000
        grace.stop()

    asyncio.run(run())


def test_a_closed_room_hands_no_seat_over() -> None:
    async def run() -> None:
        room = _Room(_state(600, STARTED))
        grace = Grace(room, _Clock())
        bob = room.state.players["Bob"]
        grace.hold(bob)
        room.closed = True
        assert not await grace.expire("Bob")
        assert room.stood_in == [] and not bob.away
        grace.hold(bob)
        grace.stop()
        assert not grace.holding("Bob") and grace.deadlines(0) == []

    asyncio.run(run())


def test_a_stand_in_that_cannot_be_seated_is_logged_not_lost(caplog: Any) -> None:
    """The room fails to seat the stand-in (its storage away): the grace's own task, which
    nobody awaits, logs why instead of ending as "Task exception was never retrieved"
    (review C3)."""
    class _Failing(_Room):
        async def seat_stand_in(self, player: Player) -> None:
            raise OSError("the database is away")

    async def run() -> None:
        room = _Failing(_state(0, STARTED))
        grace = Grace(room, _Clock())
        grace.hold(room.state.players["Bob"])
        task = grace._held["Bob"][0]
        await asyncio.wait_for(task, 30)  # (without the log: raises the OSError here)
        assert not grace.holding("Bob")

    with caplog.at_level(logging.ERROR, logger="pitchcards.server.grace"):
        asyncio.run(run())
    [record] = caplog.records
    assert record.getMessage() == "stand-in not seated" and record.player == "Bob"  # type: ignore[attr-defined]
    assert "the database is away" in caplog.text
