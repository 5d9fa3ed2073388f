"""Test-only controls of a server: a table dealt from a seed the test chooses, bots seeded from
it, and bots that act only when the test says so.

They exist only in an app made with ``create_app(config, hooks=TestHooks())`` — the test
fixtures' in-process apps and ``tests/hooked_serve.py``.  ``pitch serve`` never passes hooks and
has no flag or setting that does, so a normally started server has none of the ``/_test`` routes
(404) and its tables' seeds stay secret (``POST /api/tables`` refuses a ``seed``); a test proves
both (tests/test_server_hooks.py).  docs/testing.md says how the tests use them.

Why: a table's deal comes from its secret seed and its bots act at once, so a test could not say
"Ann bids first" or "the match is still on when Ann comes back" — it waited for such a hand, or
played a long match and hoped (issue 27).  With a chosen seed the deals and the bots' choices
are the same on every run, and with the bots held nothing happens between a test's steps.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Protocol

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from .protocol import CreateTable, TableCreated
from .store import AlsoInTransaction, Append

#: Where a test server may kill itself while rating a ranked match (``die_when_rating``)
DIE_POINTS = ("before_commit", "after_commit")


def _die() -> None:
    """``kill -9`` of this very process: no goodbye, no rollback, no flush."""
    os.kill(os.getpid(), signal.SIGKILL)


class _Room(Protocol):
    """What the hooks use of a room (server/room.py's Room), named here so that this module
    imports neither the room nor the hub (no import circle)."""

    id: str

    @property
    def status(self) -> str: ...

    @property
    def seq(self) -> int: ...

    @property
    def table(self) -> Any: ...

    def wake(self) -> None: ...

    async def expire_turn(self) -> bool: ...

__all__ = ["BotRun", "HookedTable", "TestHooks", "ThoughtHold", "hooks_router"]

#: How long ``run_bots`` waits for the bots' actions: only a hang (a bug) takes this long.
_HANG_S = 300.0


@dataclass
class _Gate:
    """One table's bots: how many actions they may still take (None: as many as they like)."""

    allowance: int | None = 0
    #: set whenever the table's driver stops (held bots, a person's turn, the match over)
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    #: a slow bot that starts thinking waits, out of the room's lock, until ``release``
    hold_thought: bool = False
    #: set once a held bot is in its thought (it has its view; the lock is free)
    in_thought: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    #: set once a released thought was applied or dropped (``applied`` says which)
    decided: asyncio.Event = field(default_factory=asyncio.Event)
    applied: bool | None = None


class TestHooks:
    """The hooks of one test server: which tables hold their bots, and the bots' seeds."""

    __test__ = False  # not a pytest test class

    def __init__(self, *, hold_bots: bool = False, die_when_rating: str | None = None) -> None:
        #: every table's bots held from its creation (also tables loaded after a restart)
        self.hold_bots = hold_bots
        #: the process kills itself (SIGKILL, as ``kill -9``) when it rates a ranked match:
        #: ``"before_commit"`` — the match's end and its rating written, not committed;
        #: ``"after_commit"`` — committed, before anyone is told (tests/test_ranked_crash.py)
        if die_when_rating not in (None, *DIE_POINTS):
            raise ValueError(f"die_when_rating: {die_when_rating!r} is not one of "
                             f"{', '.join(DIE_POINTS)}")
        self.die_when_rating = die_when_rating
        self._gates: dict[str, _Gate] = {}

    def gate(self, table_id: str) -> _Gate:
        gate = self._gates.get(table_id)
        if gate is None:
            gate = self._gates[table_id] = _Gate(0 if self.hold_bots else None)
        return gate

    def hold(self, table_id: str, held: bool) -> None:
        self.gate(table_id).allowance = 0 if held else None

    # ------------------------------------------------------------------ the room asks
    def bot_may_act(self, table_id: str) -> bool:
        """A bot of ``table_id`` is about to act: may it?  (Takes one action's allowance.)"""
        gate = self.gate(table_id)
        if gate.allowance is None:
            return True
        if gate.allowance <= 0:
            return False
        gate.allowance -= 1
        return True

    async def thinking(self, table_id: str) -> None:
        """A slow bot of ``table_id`` has its view and is about to think (out of the lock):
        if the test holds thoughts, it waits here until the test releases it."""
        gate = self.gate(table_id)
        if gate.hold_thought:
            gate.in_thought.set()
            await gate.release.wait()

    def thought(self, table_id: str, applied: bool) -> None:
        """A slow bot's thought ended: its action was ``applied``, or dropped because the table
        had moved on meanwhile."""
        gate = self.gate(table_id)
        gate.applied = applied
        gate.decided.set()

    def dying_rating(self, also: AlsoInTransaction) -> AlsoInTransaction:
        """A ranked match's rating about to be written with its end: with
        ``die_when_rating="before_commit"`` the process dies once it is written, before the
        transaction commits."""
        if self.die_when_rating != "before_commit":
            return also

        def then_die(conn: Connection) -> object:
            done = also(conn)
            _die()
            return done
        return then_die

    def committed(self, items: Sequence[Append], results: Sequence[Exception | None]) -> None:
        """A group commit ended: with ``die_when_rating="after_commit"`` the process dies
        if it committed a ranked match's rating, before any room hears of it."""
        if self.die_when_rating == "after_commit" and any(
                len(item) > 4 and item[4] is not None and problem is None
                for item, problem in zip(items, results, strict=True)):
            _die()

    def stopped(self, table_id: str) -> None:
        """The table's driver waits (for the test, a person, or nothing: the match is over)."""
        self.gate(table_id).settled.set()

    @staticmethod
    def bot_seed(table_seed: int, name: str) -> int:
        """A bot's seed, from its table's seed and its name: the same choices on every run."""
        digest = hashlib.sha256(f"{table_seed}:{name}".encode()).digest()
        return int.from_bytes(digest[:8], "big")

    # ------------------------------------------------------------------ the test asks
    async def run_bots(self, room: _Room, actions: int) -> dict[str, Any]:
        """Let ``room``'s bots take up to ``actions`` actions, then hold them again; returns
        once they have, or once the table waits for a person (or is over) — ``acted`` says how
        many they took, ``seq`` the table's seq then, ``to_act`` whose turn it is."""
        gate = self.gate(room.id)
        gate.allowance = actions
        gate.settled.clear()
        room.wake()
        await asyncio.wait_for(gate.settled.wait(), _HANG_S)
        acted = actions - (gate.allowance or 0)
        gate.allowance = 0
        table = room.table
        return {"acted": acted, "seq": room.seq, "status": room.status,
                "to_act": table.to_act if table is not None and table.in_hand else None}


    async def hold_thought(self, room: _Room, hold: bool, bot: bool = True) -> dict[str, Any]:
        """``hold``: hold the next slow bot in its thought — with ``bot``, one bot action is
        let start; without, the one to hold is a turn timer's stand-in — and return once it
        thinks (``seq`` and ``to_act`` as it sees them).  Not ``hold``: let it finish (it acts
        if the table is where it was); the table's bots stay held."""
        gate = self.gate(room.id)
        if not hold:
            gate.hold_thought = False
            gate.release.set()
            await asyncio.wait_for(gate.decided.wait(), _HANG_S)
            return {"seq": room.seq, "thinking": False, "applied": gate.applied}
        gate.hold_thought = True
        gate.in_thought.clear()
        gate.release.clear()
        gate.decided.clear()
        if bot:
            gate.allowance = 1
            room.wake()
        await asyncio.wait_for(gate.in_thought.wait(), _HANG_S)
        gate.allowance = 0
        table = room.table
        return {"seq": room.seq, "thinking": True,
                "to_act": table.to_act if table is not None and table.in_hand else None}


class HookedTable(BaseModel):
    """``POST /_test/tables``: a table as ``POST /api/tables`` makes it, with a chosen seed."""

    model_config = ConfigDict(extra="forbid")

    table: CreateTable
    seed: int = Field(ge=0, lt=2**63, description="decides every deal (and the bots' seeds)")
    hold_bots: bool = Field(True, description="bots act only when POST .../bots says so")


class BotRun(BaseModel):
    """``POST /_test/tables/{id}/bots``: let the bots act ``actions`` times, or run free."""

    model_config = ConfigDict(extra="forbid")

    actions: int | None = Field(description="None: the bots act freely from now on")


class ThoughtHold(BaseModel):
    """``POST /_test/tables/{id}/thought``: hold the next bot in its thought, or release it."""

    model_config = ConfigDict(extra="forbid")

    hold: bool = Field(description="True: the next bot to act stops once it has its view")
    bot: bool = Field(True, description="let one bot action start (False: wait for a turn "
                                        "timer's stand-in)")


def hooks_router(room_of: Callable[[str], Awaitable[_Room]], hooks: TestHooks,
                 created: Any) -> APIRouter:
    """The ``/_test`` routes, for an app made with hooks only.  ``room_of(id)`` is a table's
    room (``Hub.room``); ``created(request, seed)`` makes a table as ``POST /api/tables`` does
    (app.py's own helper)."""
    router = APIRouter(prefix="/_test", include_in_schema=False)

    @router.post("/tables", status_code=201)
    async def hooked_table(request: HookedTable, http: Request,
                           authorization: Annotated[str | None, Header()] = None
                           ) -> TableCreated:
        made: TableCreated = await created(request.table, request.seed, http=http,
                                           authorization=authorization)
        hooks.hold(made.table, request.hold_bots)
        return made

    @router.post("/tables/{table_id}/bots")
    async def bots(table_id: str, request: BotRun) -> dict[str, Any]:
        room = await room_of(table_id)
        if request.actions is None:
            hooks.hold(table_id, False)
            room.wake()
            return {"acted": None, "seq": room.seq, "status": room.status}
        return await hooks.run_bots(room, request.actions)

    @router.post("/tables/{table_id}/expire")
    async def expire(table_id: str) -> dict[str, Any]:
        """Run the table's turn timer out now: its stand-in plays the turn, as when the time
        runs out (a test never waits on the wall clock)."""
        room = await room_of(table_id)
        return {"expired": await room.expire_turn()}

    @router.post("/tables/{table_id}/thought")
    async def thought(table_id: str, request: ThoughtHold) -> dict[str, Any]:
        return await hooks.hold_thought(await room_of(table_id), request.hold, request.bot)

    return router

