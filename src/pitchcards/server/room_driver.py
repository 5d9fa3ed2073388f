"""What a table on the server does by itself: deals, bots, the turn timer and its stand-in.

A :class:`RoomDriver` is one task per room that wakes when something changed and does the next
thing nobody has to ask for — apply the money requests waiting for the break and deal, let a
bot seat act, arm the turn timer of a person's seat — until a person is to act.  It changes the
table only through the room's writer (``Room.commit``), under the room's lock.  A slow bot
(``hard``, ``expert``) and the turn timer's stand-in think outside the lock, in a worker
process (server/think_pool.py), from the view they were given, and their action is applied
only if the table is still where it was (issue 29: attaches, chat and other seats' messages
are answered meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..actions import Action
from ..bots import make_bot
from ..errors import IllegalActionError
from ..table import BotTurn, DealNext, OutsideTurn, Over, Table
from ..views import View
from .refused import Refused
from .room_state import SLOW_LEVELS
from .seats import Player

if TYPE_CHECKING:
    from ..bots.base import Bot
    from .metrics import Metrics
    from .room_state import RoomState
    from .testing import TestHooks

__all__ = ["DrivenRoom", "DriverHost", "RoomDriver", "bot_for"]

log = logging.getLogger("pitchcards.server")


class DriverHost(Protocol):
    """What a driver uses of the process that holds its room (the hub): a test server's
    hooks, the counters, and a slot to think in (``Hub.think``, issue 31)."""

    @property
    def hooks(self) -> TestHooks | None: ...

    @property
    def metrics(self) -> Metrics: ...

    async def think(self, table_id: str, bot: Bot, view: View) -> Action: ...


class DrivenRoom(Protocol):
    """What a driver uses of its room (``server.room.Room``): the table's state, the lock, the
    writer it changes the table through (``commit``), and word to the pages (``announce``)."""

    @property
    def id(self) -> str: ...

    @property
    def hub(self) -> DriverHost: ...

    @property
    def state(self) -> RoomState: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def closed(self) -> bool: ...

    async def commit(self, entry: dict[str, Any], parsed: Sequence[Action] = ()) -> str | None:
        ...

    def announce(self) -> None: ...

    def unattended(self, now: float) -> bool: ...


class RoomDriver:
    """The driver of one :class:`~pitchcards.server.room.Room` (its bots, deals, timers)."""

    def __init__(self, room: DrivenRoom) -> None:
        self.room = room
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timer_turn: OutsideTurn | None = None  #: the turn the timer runs for
        #: the turn timer running: (seat, seq it started at, when it ends: time.monotonic())
        self.turn: tuple[int, int, float] | None = None

    def stop(self) -> None:
        """The room closes: the driver and the turn timer stop."""
        for task in (self._driver, self._timer):
            if task is not None:
                task.cancel()

    def stop_timer(self) -> None:
        """The match is over (won, or a ranked match ended by forfeits or a claim mid-hand):
        no turn is timed any more, so no stand-in plays after the end."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_turn = None
        self.turn = None

    def seat_bot(self, player: Player, level: str) -> None:
        """``player``'s seat is played by a bot of ``level`` (a bot seat, or a stand-in)."""
        assert self.room.state.table is not None
        if player.name in self.room.state.table.names:
            hooks = self.room.hub.hooks  # a test server's bots play the same on every run
            seed = hooks.bot_seed(self.room.state.seed, player.name) if hooks is not None else None
            self.room.state.table.set_bot(player.name, bot_for(level, seed))

    def run(self) -> None:
        """Start the room's driver task (bots, deals, timers)."""
        if self._driver is None:
            self._driver = asyncio.create_task(self._drive())
            self._wake.set()

    def wake(self) -> None:
        """Have the driver look again at what the table does next."""
        self._wake.set()

    async def _drive(self) -> None:
        while not self.room.closed:
            await self._wake.wait()
            self._wake.clear()
            try:
                while not self.room.closed and await self._drive_once():
                    pass
            except asyncio.CancelledError:
                raise
            except Refused as exc:
                log.warning("table paused: %s", exc.message, extra={"table": self.room.id})
            except Exception:
                log.exception("table driver failed", extra={"table": self.room.id})
            if self.room.hub.hooks is not None:  # a test server: the test may take its next step
                self.room.hub.hooks.stopped(self.room.id)

    async def _drive_once(self) -> bool:
        """Do the next thing the table does by itself; False when it waits for a person.

        The Table says what happens next (``Table.next_step``, issue 28): this only schedules
        it — a pause and the break's requests before a deal, a bot's delay and thought, the
        turn timer of a person's turn — and a choice made outside the lock is applied only if
        its turn is still current (``Table.is_current``)."""
        table = self.room.state.table
        if table is None or self.room.state.status != "playing":
            return False
        if self.room.unattended(time.monotonic()):
            return False  # attach() wakes the driver
        step = table.next_step()
        if isinstance(step, Over):
            return False
        if isinstance(step, DealNext):
            if self.room.state.settings.hand_pause and table.hand is not None:
                await asyncio.sleep(self.room.state.settings.hand_pause)
            async with self.room.lock:
                if table is not self.room.state.table \
                        or not isinstance(table.next_step(), DealNext):
                    return True
                for entry in list(self.room.state.pending):  # each leaves the list once applied
                    try:
                        await self.room.commit(entry)
                    except (IllegalActionError, Refused) as exc:
                        log.warning("pending %s refused: %s", entry, exc,
                                    extra={"table": self.room.id})
                    if table is not self.room.state.table:
                        # storage failed and the room was rebuilt from its log, pending
                        # requests included: look again at the new state (clearing its list
                        # here would lose a request that was not applied)
                        return True
                self.room.state.pending.clear()
                if isinstance(table.next_step(), DealNext):  # the requests may end the game
                    await self.room.commit({"op": "deal"})
                self.room.announce()
            return True
        if isinstance(step, OutsideTurn):
            self._arm_timer(step)
            return False
        if self.room.state.settings.bot_delay:
            await asyncio.sleep(self.room.state.settings.bot_delay)
        async with self.room.lock:
            if not self._current(table, step):
                return True  # the table moved on meanwhile: look again
            hooks = self.room.hub.hooks
            if hooks is not None and not hooks.bot_may_act(self.room.id):
                return False  # a test server's bots are held until the test lets them act
            player = self.room.state.players[table.names[step.seat]]
            slow = player.level in SLOW_LEVELS or (
                player.away and self.room.state.settings.stand_in in SLOW_LEVELS)
            if not slow:  # a quick bot decides and acts in one go, under the lock
                await self._commit_bot(step.seat, step.choose())
                self.room.hub.metrics.actions.labels("bot").inc()
                return True
        # A slow bot thinks outside the lock, in a worker process, from the view it was given:
        # meanwhile the table answers attaches, chat and other seats' messages (issue 29).
        assert step.view is not None  # a server's bots decide from their seat's view
        action = await self._think(step.bot, step.view)
        async with self.room.lock:
            applied = self._current(table, step)
            if applied:  # else the position moved on (or the player came back): look again
                await self._commit_bot(step.seat, action)
        self._thought(applied)
        if applied:
            self.room.hub.metrics.actions.labels("bot").inc()
        return True

    async def _think(self, bot: Bot, view: View) -> Action:
        """``bot`` decides from ``view`` in a worker process (the view is immutable; the bot
        touches nothing of the table's), in a slot of the address that created the table
        (issue 31: ``Hub.think``, server/think_pool.py, server/thinking.py)."""
        return await self.room.hub.think(self.room.id, bot, view)

    def _thought(self, applied: bool) -> None:
        if self.room.hub.hooks is not None:  # a test server: the test may look at the outcome
            self.room.hub.hooks.thought(self.room.id, applied)

    def _current(self, table: Table, turn: BotTurn | OutsideTurn) -> bool:
        """``turn`` is still what happens next at this room's table: the room's same table,
        open, the match still playing (a ranked match may end mid-hand, by forfeits or a
        claim: nothing is played after its end), and the Table's own check (no action, deal
        or change of seat since).  Hold the lock."""
        return table is self.room.state.table and not self.room.closed \
            and self.room.state.status == "playing" and table.is_current(turn)

    async def _commit_bot(self, seat: int, action: Action, timeout: bool = False) -> None:
        entry: dict[str, Any] = {"op": "act", "seat": seat, "action": str(action), "bot": True}
        if timeout:
            entry["timeout"] = True
        elif self._person_at(seat):  # a stand-in for an absent person: marked in the log
            entry["stand_in"] = True
        await self.room.commit(entry, (action,))

    def _person_at(self, seat: int) -> bool:
        """Whether ``seat`` is a person's (whose turns a bot plays only as a stand-in)."""
        table = self.room.state.table
        player = self.room.state.players.get(table.names[seat]) if table is not None else None
        return player is not None and not player.is_bot

    def _arm_timer(self, turn: OutsideTurn) -> None:
        """The turn timer: if the seat to act has not acted in ``turn_timer`` seconds, its
        stand-in bot plays that one turn."""
        if self.room.state.settings.turn_timer is None or self.room.state.table is None:
            return
        table = self.room.state.table
        if self._timer is not None and not self._timer.done() and self._timer_turn == turn \
                and table.is_current(self._timer_turn):
            return  # this turn's timer is running and still for it
        if self._timer is not None:
            self._timer.cancel()
        self._timer_turn = turn
        delay = self.room.state.settings.turn_timer
        self.turn = (turn.seat, turn.seq, time.monotonic() + delay)
        self._timer = asyncio.create_task(self._timeout(turn, delay))
        self.room.announce()  # the clock: every page counts down the same deadline

    async def expire_turn(self) -> bool:
        """Run the turn timer out now, and return once its stand-in has played (a test
        server's hook: a test never waits on the wall clock); False if none is running."""
        turn = self._timer_turn
        if turn is None or self._timer is None or self._timer.done():
            return False
        self._timer.cancel()
        await self._timeout(turn, 0)
        return True

    async def _timeout(self, turn: OutsideTurn, delay: float) -> None:
        await asyncio.sleep(delay)
        # Once the time is up the stand-in's turn runs to its end: a new timer armed meanwhile
        # cancels only the sleep, never a commit half-way (its log write and its frames).
        await asyncio.shield(self._stand_in(turn))

    async def _stand_in(self, turn: OutsideTurn) -> None:
        """The turn timer ran out: the stand-in plays ``turn`` if it is still current."""
        async with self.room.lock:
            table = self.room.state.table
            if table is None or not self._current(table, turn):
                return
            view = table.view(turn.seat)
        # the stand-in thinks outside the lock too, and plays only if nothing moved meanwhile
        # (the seat still played from outside: is_current checks that too)
        action = await self._think(bot_for(self.room.state.settings.stand_in), view)
        async with self.room.lock:
            applied = self._current(table, turn)
            if applied:
                with contextlib.suppress(Refused, IllegalActionError):
                    # "timeout": the pages say "time ran out — a bot played for you"
                    await self._commit_bot(turn.seat, action, timeout=True)
        self._thought(applied)
        self._wake.set()


def bot_for(level: str, seed: int | None = None) -> Bot:
    """A fresh bot of ``level``; its choices are logged, so its seed (random unless given)
    need not be kept."""
    return make_bot(level, seed=random.getrandbits(64) if seed is None else seed)
