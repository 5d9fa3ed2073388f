"""Slow bots think in worker processes (issue 31, finding 1: server/think_pool.py): the decision
is made in another process, the bot ends as if it had decided here (its generator moved on the
same, so a seeded bot chooses the same sequence), and a worker killed mid-thought is replaced
and the thought asked again."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from helpers import random_positions, rules
from pitchcards.actions import Action
from pitchcards.bots import RandomBot
from pitchcards.server.think_pool import ATTEMPTS, ThinkPool
from pitchcards.views import View, view_of


class WhereBot(RandomBot):
    """A random bot that notes which process made its last decision."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decided_in: int | None = None

    def choose(self, view: View) -> Action:
        self.decided_in = os.getpid()
        return super().choose(view)


class DyingBot(RandomBot):
    """A random bot whose process is killed (SIGKILL) while it thinks, the first ``deaths``
    times (counted in files under ``marks``, which every worker sees)."""

    def __init__(self, marks: Path, deaths: int) -> None:
        super().__init__(7)
        self.marks = marks
        self.deaths = deaths

    def choose(self, view: View) -> Action:
        died = len(list(self.marks.iterdir()))
        if died < self.deaths:
            (self.marks / f"death-{died}").write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(view)


def views(seed: int = 3) -> list[View]:
    """The views of the seat to act at every position of one random hand."""
    return [view_of(h, h.seat_to_act) for h in random_positions(rules("auction"), 4, seed)
            if h.seat_to_act is not None]


def test_a_bot_thinks_in_a_worker_process_and_chooses_as_it_would_here() -> None:
    here, there = WhereBot(11), WhereBot(11)
    positions = views()
    pool = ThinkPool(1)

    async def run() -> list[Action]:
        try:
            return [await pool.choose(there, view) for view in positions]
        finally:
            await pool.close()

    chosen = asyncio.run(run())
    assert chosen == [here.choose(view) for view in positions]
    # the generator crossed back: the next draw is the same as the bot's that stayed here
    assert there.rng.getstate() == here.rng.getstate()
    assert there.decided_in is not None and there.decided_in != os.getpid()


def test_no_processes_think_on_a_thread_of_this_process() -> None:
    bot = WhereBot(5)
    view = views()[0]
    pool = ThinkPool(0)
    assert asyncio.run(pool.choose(bot, view)) in view.legal_actions
    assert bot.decided_in == os.getpid()


def test_a_killed_worker_is_replaced_and_the_thought_asked_again(tmp_path: Path) -> None:
    bot, view = DyingBot(tmp_path, deaths=1), views()[0]
    pool = ThinkPool(1)

    async def run() -> Action:
        try:
            return await pool.choose(bot, view)
        finally:
            await pool.close()

    action = asyncio.run(run())
    assert action in view.legal_actions
    assert pool.replaced == 1
    assert [p.name for p in tmp_path.iterdir()] == ["death-0"]


def test_a_thought_that_kills_every_worker_fails_after_its_attempts(tmp_path: Path) -> None:
    bot, view = DyingBot(tmp_path, deaths=ATTEMPTS), views()[0]
    pool = ThinkPool(1)

    async def run() -> None:
        try:
            await pool.choose(bot, view)
        finally:
            await pool.close()

    with pytest.raises(BrokenProcessPool):
        asyncio.run(run())
    assert len(list(tmp_path.iterdir())) == ATTEMPTS
    assert pool.replaced == ATTEMPTS - 1


def test_a_closed_pool_thinks_no_more() -> None:
    pool = ThinkPool(1)
    asyncio.run(pool.close())
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(pool.choose(WhereBot(1), views()[0]))


def test_a_negative_number_of_processes_is_refused() -> None:
    with pytest.raises(ValueError, match="think processes: -1"):
        ThinkPool(-1)
