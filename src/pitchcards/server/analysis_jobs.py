"""The server's analysis jobs (issue 33): each asked-for analysis of a table's finished hands is
run once, in a bounded pool of worker **processes**, and kept in the database.

Why processes: an analysis is seconds to a minute of CPU-bound Python (the expert's sampled
deals and solver, :mod:`pitchcards.analysis`).  On a thread of the server's process it would hold
the GIL against the event loop that serves every live table; in a process of its own, at a lower
scheduling priority (``nice`` 10), it takes only a core the tables do not need.  At most
``workers`` run at once per server process; the rest wait in the ``analyses`` table.

The queue is that table (:mod:`.analysis_store`): a request inserts a ``queued`` row (the
primary key (table, hands) makes a second request, from any process, find the first's row); a
dispatcher per process takes rows by a conditional UPDATE when it has a free worker, beats for
the rows it runs, and takes over the rows of a process that stopped beating.  The worker writes
its progress and its result to the row itself, so any process answers ``GET …/analysis``.
docs/server.md, "Analysis jobs", says why this and not a job library.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from sqlalchemy import Engine

from . import analysis_store as jobs_db

__all__ = ["AnalysisJobs", "analysis_data", "run_job"]

log = logging.getLogger("pitchcards.server.analysis")

T = TypeVar("T")

#: The analysis seed the server uses: an analysis is the same for the same record and budget.
SEED = 0
#: A worker writes its progress at most this often (seconds; the last decision always).
PROGRESS_EVERY = 0.5

#: (db url, table, hands, owner, worlds, seed, most hands) -> None: what a worker runs (a
#: test's own runner may stand in for :func:`run_job`)
Runner = Callable[[str, str, int, str, int, int, int], None]


class AnalysisJobs:
    """This process's dispatcher: takes queued analyses while it has a free worker, runs them
    in its worker processes, beats for them, and wakes when one ends or is asked for."""

    def __init__(self, engine: Engine, db: Callable[..., Awaitable[Any]], db_url: str,
                 workers: int, *, most_hands: int = 100, poll: float = 2.0, stale: float = 60.0,
                 runner: Runner | None = None,
                 executor: concurrent.futures.Executor | None = None) -> None:
        if workers < 1:
            raise ValueError(f"analysis workers: {workers}; at least 1 is needed")
        self.engine = engine
        self.db = db
        self.db_url = db_url
        self.workers = workers
        self.most_hands = most_hands
        self.poll = poll
        self.stale = stale
        self.runner: Runner = runner or run_job
        self._executor = executor
        self._own_executor = executor is None
        #: this process, as the owner of the jobs it runs
        self.owner = f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.running: dict[tuple[str, int], asyncio.Future[None]] = {}
        #: jobs this process started, and the most it ran at once (what tests and /metrics read)
        self.started = 0
        self.peak = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        #: the writes of failed jobs under way (close() awaits them)
        self._finishing: set[asyncio.Future[Any]] = set()

    # ------------------------------------------------------------------ life
    async def open(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="analysis-jobs")

    async def close(self) -> None:
        # the flag as well as the cancel: Python 3.11's wait_for drops a cancel that comes
        # as the wake it waits for is set, and the loop would go on
        self._closed = True
        self.wake()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if isinstance(self._executor, concurrent.futures.ProcessPoolExecutor) \
                and self._own_executor:
            # the workers stop with the server: a job cut short would otherwise go on
            # computing (and writing) after it, and hold the interpreter's exit
            await asyncio.to_thread(_stop_workers, self._executor)
            self._executor = None
            await asyncio.gather(*self.running.values(), return_exceptions=True)
        await asyncio.gather(*self._finishing, return_exceptions=True)
        # the jobs cut short go back to the queue, so another process (or this one, started
        # again) takes them at once rather than after ``stale`` seconds
        try:
            await self.db(jobs_db.release, self.engine, self.owner)
        except Exception:  # the database away: the rows are taken over once stale
            log.exception("analysis jobs not handed back")

    def worker_pids(self) -> list[int]:
        """The process ids of this dispatcher's worker processes (none started yet: [])."""
        executor = self._executor
        if not isinstance(executor, concurrent.futures.ProcessPoolExecutor):
            return []
        return list(executor._processes or ())

    def wake(self) -> None:
        """Look for queued jobs now (one was asked for, or a worker came free)."""
        self._wake.set()

    # ------------------------------------------------------------------ the loop
    async def _loop(self) -> None:
        while not self._closed:
            try:
                await self._tick()
            except Exception:  # the database away for a moment: try again at the next poll
                log.exception("analysis dispatcher")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)
            self._wake.clear()

    async def _tick(self) -> None:
        if self.running:
            await self.db(jobs_db.beat, self.engine, self.owner)
        free = self.workers - len(self.running)
        if free <= 0:
            return
        for row in await self.db(jobs_db.claim, self.engine, self.owner, free, self.stale):
            self._start(row["table_id"], int(row["upto"]), int(row["worlds"]))

    def _start(self, table_id: str, upto: int, worlds: int) -> None:
        loop = asyncio.get_running_loop()
        key = (table_id, upto)
        future = loop.run_in_executor(self._pool(), self.runner, self.db_url, table_id, upto,
                                       self.owner, worlds, SEED, self.most_hands)
        self.running[key] = future
        self.started += 1
        self.peak = max(self.peak, len(self.running))
        future.add_done_callback(lambda f: self._ended(key, f))

    def _ended(self, key: tuple[str, int], future: asyncio.Future[None]) -> None:
        self.running.pop(key, None)
        problem = None if future.cancelled() else future.exception()
        if problem is not None:
            log.warning("analysis failed", extra={"table": key[0], "upto": key[1],
                                                  "error": repr(problem)[:300]})
            if isinstance(problem, BrokenProcessPool) and self._own_executor:
                self._executor = None  # a worker died (killed, out of memory): a new pool
            words = "a worker stopped" if isinstance(problem, BrokenProcessPool) \
                else f"{type(problem).__name__}: {problem}"
            if self._closed:  # a worker stopped by close(): handed back, not failed
                return
            task: asyncio.Future[Any] = asyncio.ensure_future(self.db(
                jobs_db.finish, self.engine, key[0], key[1], self.owner, None, words))
            # kept until it ends (the loop holds tasks only weakly), and awaited by close()
            self._finishing.add(task)
            task.add_done_callback(self._finished)
        self.wake()

    def _finished(self, task: asyncio.Future[Any]) -> None:
        self._finishing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("analysis failure not kept", extra={"error": repr(task.exception())})
        self.wake()

    def _pool(self) -> concurrent.futures.Executor:
        if self._executor is None:
            # spawn, not fork: a fork of a process with an event loop and threads may inherit
            # held locks; a spawned worker imports what it needs and nothing else
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority)
        return self._executor


def _stop_workers(executor: concurrent.futures.ProcessPoolExecutor) -> None:
    """End ``executor``'s worker processes now (a running analysis is cut short) and wait until
    each has ended and is reaped.  (``terminate_workers`` is Python 3.14's; before it, the
    pool's own table of processes is the only handle on them.)"""
    processes = list((executor._processes or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    executor.shutdown(wait=True, cancel_futures=True)


def _lower_priority() -> None:
    """A worker yields the CPU to the server's own process (the live tables) when they
    compete for a core."""
    with contextlib.suppress(OSError):
        os.nice(10)


# ---------------------------------------------------------------------- in the worker process
_engines: dict[str, Engine] = {}


def _engine(db_url: str) -> Engine:
    engine = _engines.get(db_url)
    if engine is None:
        from .store import Store

        engine = _engines[db_url] = Store(db_url).engine  # (SQLite: WAL, a busy timeout)
    return engine


class _Lost(Exception):
    """The job is no longer this worker's (another process took it over)."""


def run_job(db_url: str, table_id: str, upto: int, owner: str, worlds: int, seed: int,
            most_hands: int) -> None:
    """Analyse the job's record (its newest ``most_hands`` hands: a long money session's) at
    ``worlds`` sampled deals a decision, writing the progress and then the result (or why it
    failed) to its row.  Runs in a worker process."""
    from ..analysis import AnalysisBudget, analyse_record
    from ..notation import read_record

    engine = _engine(db_url)
    row = jobs_db.get(engine, table_id, upto)
    if row is None or row["owner"] != owner:
        return
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            if not jobs_db.set_progress(engine, table_id, upto, owner, done, total):
                raise _Lost

    try:
        record = read_record(row["record"])
        newest = [h.number for h in record.hands][-most_hands:]
        analysis = analyse_record(record, AnalysisBudget(worlds=worlds, bid_worlds=worlds),
                                  seed, hands=newest, progress=progress)
        result = analysis_data(analysis.to_dict(), record)
    except _Lost:
        return
    except Exception as exc:  # a record the analysis refuses: said, and kept as failed
        jobs_db.finish(engine, table_id, upto, owner, None, f"{type(exc).__name__}: {exc}")
        return
    jobs_db.finish(engine, table_id, upto, owner, result)


def analysis_data(data: dict[str, Any], record: Any) -> dict[str, Any]:
    """The analysis as the browser shows it: ``pitch analyze --json``'s data, each hand with
    its chart (every decision's side and the chosen candidate's value: that side's expected net
    score change for the hand, as the deciding player saw it) and each player's loss in it."""
    rules = record.rules
    by_hand: dict[int, list[dict[str, Any]]] = {}
    for d in data["decisions"]:
        by_hand.setdefault(d["hand"], []).append(d)
    for info in data["hands"]:
        mine = by_hand.get(info["hand"], [])
        info["chart"] = [{"index": d["index"], "seat": d["seat"],
                          "side": rules.side_of(d["seat"]),
                          "expected": next(c["value"] for c in d["candidates"]
                                           if c["action"] == d["action"])}
                         for d in mine if d["method"] != "forced"]
        losses: dict[str, float] = {}
        for d in mine:
            losses[d["player"]] = round(losses.get(d["player"], 0.0) + d["loss"], 4)
        info["losses"] = losses
        info["labels"] = sum(d["label"] is not None for d in mine)
    return data
