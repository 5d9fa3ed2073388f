"""Slow bots think in worker processes, so the event loop's process never runs a search
(issue 31, finding 1).

Why: a hard or expert bot searches for up to a second a decision.  On a thread of the server's
process that search holds Python's GIL, and the event loop — every other table's messages —
waits for it each time it wants the GIL back: one stranger's expert tables put another table's
p99 at hundreds of milliseconds.  In a process of its own a search shares no lock with the loop;
the operating system shares the cores.

What crosses: the bot (its level, budget and random generator: a few KB) and the seat's view
(immutable); what comes back: the action and the bot as it ended, whose state is copied into
the table's bot — so a bot whose choices depend on its generator's state (a test server's
seeded bots) chooses exactly as it did on a thread.  A worker that dies (killed, out of
memory) breaks the pool: the pool is replaced and the thought is asked again, up to
:data:`ATTEMPTS` times.  ``processes=0`` thinks on a thread of this process, as before.

Quick bots (random, easy, medium, heuristic) never come here: they decide in microseconds,
less than sending a view to another process costs (docs/server.md, "Under attack").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
from concurrent.futures.process import BrokenProcessPool

from ..actions import Action
from ..bots.base import Bot
from ..views import View

__all__ = ["ATTEMPTS", "ThinkPool"]

log = logging.getLogger("pitchcards.server")

#: times one thought is asked of a fresh pool after a worker died under it
ATTEMPTS = 3
#: how much lower a worker's scheduling priority is than the server's (``nice``): on a busy
#: machine the loop that answers every table gets the core first, a bot thinks a little slower
WORKER_NICENESS = 5


def _worker_started() -> None:
    """A worker ignores Ctrl+C (the server's shutdown ends it) and yields to the loop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # a platform without nice: the same priority
        os.nice(WORKER_NICENESS)


def _choose(bot: Bot, view: View) -> tuple[Action, Bot]:
    """In a worker: the bot's decision, and the bot as the decision left it."""
    return bot.choose(view), bot


class ThinkPool:
    """Runs bots' decisions in at most ``processes`` worker processes (started on the first
    thought, replaced if one dies), or on threads of this process if ``processes`` is 0."""

    def __init__(self, processes: int) -> None:
        if processes < 0:
            raise ValueError(f"think processes: {processes}; 0 (threads) or more is needed")
        self.processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False
        #: pools replaced after a worker died (the server's log says each)
        self.replaced = 0

    def _current(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the bots' process pool is closed: the server is stopping")
        if self._pool is None:
            # forkserver: a worker is forked from a clean process, not from this one with its
            # threads, sockets and database connections; that process imports the bots once
            # (each worker starts with them, sharing their pages) and not the program's
            # __main__ (a script that starts a server need not guard it)
            context: multiprocessing.context.BaseContext
            if "forkserver" in multiprocessing.get_all_start_methods():
                forkserver = multiprocessing.get_context("forkserver")
                forkserver.set_forkserver_preload(["pitchcards.bots"])
                context = forkserver
            else:  # (Windows) a fresh interpreter for each worker
                context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=_worker_started)
        return self._pool

    async def choose(self, bot: Bot, view: View) -> Action:
        """``bot``'s decision from ``view``, made in a worker; ``bot`` ends as if it had
        decided here (its generator advanced the same)."""
        if self.processes == 0:
            return await asyncio.to_thread(bot.choose, view)
        for attempt in range(1, ATTEMPTS + 1):
            pool = self._current()
            try:
                action, after = await asyncio.wrap_future(pool.submit(_choose, bot, view))
            except BrokenProcessPool:
                if attempt == ATTEMPTS:
                    raise
                self._replace(pool)
                continue
            vars(bot).update(vars(after))  # its generator (and any other state) moved on
            return action
        raise AssertionError("unreachable")  # pragma: no cover

    def _replace(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        """A worker of ``broken`` died: a fresh pool for the thoughts from now on (several
        thoughts fail together; the first one replaces it)."""
        if self._pool is broken:
            log.warning("a bot's worker process died; starting a fresh pool")
            self._pool = None
            self.replaced += 1
            broken.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """No more thoughts; the workers end after the one they are in (off the loop)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
