"""A dropped player's seat on the server: held for the table's grace period, then played by a
stand-in bot until they come back (docs/protocol.md, "Presence").

:class:`Grace` is one room's grace clocks, by player name.  The room tells it three things — a
person has no socket open (:meth:`Grace.hold`), a person is back (:meth:`Grace.back`), the room
closes (:meth:`Grace.stop`) — and asks it one: the grace clocks running now, as the deadline
facts the pages count down (:meth:`Grace.deadlines`).  When a clock runs out it hands the seat
to the stand-in under the room's lock (:meth:`Grace.expire`).  What is decided is pure
(:func:`stand_in_due`, :func:`grace_deadline`) and tested without sockets or an event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from .protocol import Deadline

if TYPE_CHECKING:
    from .room_state import RoomState
    from .seats import Player

__all__ = ["Grace", "GraceRoom", "grace_deadline", "stand_in_due"]

log = logging.getLogger("pitchcards.server.grace")


class GraceRoom(Protocol):
    """What the grace uses of its room (``server.room.Room``): the table's state, the lock,
    a way to seat a bot (``seat_stand_in``), and word to the pages (``announce``) and the
    driver (``wake``)."""

    @property
    def state(self) -> RoomState: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def closed(self) -> bool: ...

    async def seat_stand_in(self, player: Player) -> None: ...

    def announce(self) -> None: ...

    def wake(self) -> None: ...


def stand_in_due(state: RoomState, player: Player) -> bool:
    """Whether ``player``'s seat goes to the stand-in when their grace runs out: a person still
    without a socket, seated in the engine's seating, at a table in play (a money joiner before
    the break has no seat yet, a leaver none any more; a finished table plays no more)."""
    return (not player.is_bot and not player.conns and state.table is not None
            and state.status == "playing" and player.name in state.table.names)


def grace_deadline(state: RoomState, player: Player, left: float) -> Deadline | None:
    """The deadline fact of ``player``'s grace with ``left`` seconds to run, or None when
    their seat is not in play (a leaver's, a joiner's before the break, any seat before the
    start or after the end): only a seat in play waits."""
    seat = state.seat_now(player)
    if seat is None or state.status != "playing":
        return None
    return Deadline.running("grace", player.name, seat, left, state.settings.grace, state.seq)


class Grace:
    """The grace clocks of one room's people (by name, so a rebuilt room's new
    :class:`~.seats.Player` objects keep their clocks)."""

    __slots__ = ("_clock", "_held", "room")

    def __init__(self, room: GraceRoom, clock: Callable[[], float] = time.monotonic) -> None:
        self.room = room
        self._clock = clock
        #: name -> (the task that hands the seat over, when it does: ``clock()``)
        self._held: dict[str, tuple[asyncio.Task[None], float]] = {}

    def holding(self, name: str) -> bool:
        """Whether ``name``'s seat is held now (their grace is running)."""
        return name in self._held

    def hold(self, player: Player) -> None:
        """A person with no socket open: their seat waits the grace period, then a stand-in
        plays it (until they come back).  A bot, a person with a socket, or a seat already
        held starts nothing."""
        if player.is_bot or player.conns or player.name in self._held:
            return
        seconds = self.room.state.settings.grace
        task = asyncio.create_task(self._run(player.name, seconds))
        self._held[player.name] = (task, self._clock() + seconds)

    def back(self, player: Player) -> None:
        """``player`` has a socket again: their grace stops, and if a stand-in had their seat
        they take it back."""
        held = self._held.pop(player.name, None)
        if held is not None:
            held[0].cancel()
        table = self.room.state.table
        if player.away and table is not None:
            player.away = False
            if player.name in table.names:
                table.set_bot(player.name, None)

    async def stand_in_now(self, player: Player) -> None:
        """A stand-in plays ``player``'s seat at once, their grace (if running) stopped — a
        tournament director's no-show or withdrawal.  Call under the room's lock."""
        held = self._held.pop(player.name, None)
        if held is not None:
            held[0].cancel()
        player.away = True
        await self.room.seat_stand_in(player)

    def deadlines(self, now: float) -> list[Deadline]:
        """Each held seat's grace deadline (``now``: ``clock()``), in play only."""
        out: list[Deadline] = []
        for name, (_task, until) in self._held.items():
            player = self.room.state.players.get(name)
            fact = grace_deadline(self.room.state, player, until - now) \
                if player is not None else None
            if fact is not None:
                out.append(fact)
        return out

    def stop(self) -> None:
        """The room closes: every grace clock stops (nobody is handed to a stand-in)."""
        for task, _until in self._held.values():
            task.cancel()
        self._held.clear()

    async def _run(self, name: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            await self.expire(name)
        except Exception:  # (nobody awaits this task: said here, or it is lost)
            log.exception("stand-in not seated", extra={"player": name})

    async def expire(self, name: str) -> bool:
        """``name``'s grace has run out: under the room's lock, their seat goes to the
        stand-in if still due (:func:`stand_in_due`); True if it went."""
        async with self.room.lock:
            held = self._held.pop(name, None)
            if held is None:  # they came back (or the room closed) meanwhile
                return False
            if held[0] is not asyncio.current_task():  # run out early (a test server's hook)
                held[0].cancel()
            player = self.room.state.players.get(name)
            if self.room.closed or player is None or not stand_in_due(self.room.state, player):
                return False
            player.away = True
            await self.room.seat_stand_in(player)
            self.room.announce()
        self.room.wake()
        return True
