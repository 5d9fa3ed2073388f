"""Issue 33 with several processes (``--redis``): the new analyses an address may ask for are
counted across every process, not on each — behind a load balancer one address reaches them
all, and would otherwise have each process's share (server/shared_limits.py,
``AnalysisGate``).  The buckets are checked with a clock of the test's own where time matters:
no request comes back by chance."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from cluster_helpers import redis_scene, running_cluster
from leak_check import SHORT
from pitchcards.client import Client, Seat
from pitchcards.events import HandScored
from pitchcards.server.analysis_routes import _PerAddress
from pitchcards.server.shared_limits import AnalysisGate, SharedBuckets
from server_helpers import FAST, play_randomly

pytestmark = pytest.mark.timeout(240)


async def _a_finished_hand(url: str) -> Seat:
    """Ann and three random bots on ``url``, played until a hand is finished (a player may
    have the finished hands analysed while the match goes on)."""
    async with Client(url) as api:
        ann = await api.create_table("Ann", bots={1: "random", 2: "random", 3: "random"},
                                     settings=FAST, options=SHORT)
        await api.start(ann)
        async with await api.connect(ann) as table:
            await play_randomly(table, random.Random(1), stop=lambda: any(
                isinstance(e, HandScored) for e in table.events))
            await table.wait_for(lambda: any(isinstance(e, HandScored)
                                             for e in table.events), 60)
        return ann


def test_new_analyses_are_counted_across_the_processes(tmp_path: Path) -> None:
    """Two processes, 3 new analyses an hour per address (bursts of 1): the address's first
    on one process spends the burst on both; asking again for the job already made is free."""
    async def scene(urls: list[str]) -> None:
        first = await _a_finished_hand(urls[0])
        second = await _a_finished_hand(urls[1])
        async with Client(urls[0]) as one, Client(urls[1]) as two:
            def ask(api: Client, seat: Seat) -> Awaitable[httpx.Response]:
                return api.http.post(f"/api/tables/{seat.table}/analysis",
                                     headers={"Authorization": f"Bearer {seat.token}"})

            made = await ask(one, first)
            assert made.status_code == 200, made.text
            refused = await ask(two, second)  # alone, the second process had its own burst
            assert refused.status_code == 429, refused.text
            assert refused.json()["reason"] == "rate_limited"
            assert "analyses" in refused.json()["message"]
            again = await ask(two, first)  # the same job, found in the shared database
            assert again.status_code == 200, again.text

    with running_cluster(tmp_path, n=2, extra=("--analyses-per-hour", "3",
                                                "--analysis-budget", "2")) as cluster:
        asyncio.run(scene(cluster.urls))


def test_the_analysis_buckets_are_one_for_every_process(tmp_path: Path) -> None:
    redis_scene(tmp_path, _buckets_scene)


async def _buckets_scene(url: str) -> None:
    redis = aioredis.Redis.from_url(url)
    now = [1000.0]
    try:
        # two processes' gates, 6 an hour per address (bursts of 2); neither counts locally
        one, two = (AnalysisGate(6, lambda _a: pytest.fail("counted locally"),
                                 SharedBuckets(redis, clock=lambda: now[0]))
                    for _ in range(2))
        got = await asyncio.gather(*((one, two)[i % 2].take("10.0.0.1") for i in range(6)))
        assert sorted(got) == [False] * 4 + [True] * 2
        assert await one.take("10.0.0.2")  # another address has its own
        now[0] += 600.0  # 6 an hour: one more after ten minutes, not two
        assert await two.take("10.0.0.1")
        assert not await one.take("10.0.0.1")
    finally:
        await redis.aclose()


def test_the_analysis_bucket_is_the_same_with_and_without_redis(tmp_path: Path) -> None:
    """``--analyses-per-hour`` means one thing whether counted in Redis or in one process's
    memory: the same burst (a third of it) and the same refill, at the same times."""
    redis_scene(tmp_path, _same_shape_scene)


async def _same_shape_scene(url: str) -> None:
    redis = aioredis.Redis.from_url(url)
    now = [1000.0]
    try:
        for per_hour in (1, 6, 7, 30):
            address = f"10.0.0.{per_hour}"
            alone = _PerAddress(per_hour, clock=lambda: now[0])
            shared = AnalysisGate(per_hour, lambda _a: pytest.fail("counted locally"),
                                  SharedBuckets(redis, clock=lambda: now[0]))
            seen: list[tuple[bool, bool]] = []
            for step in (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 600.0, 0.0,
                         3599.0, 0.0, 0.0):
                now[0] += step
                seen.append((alone.take(address), await shared.take(address)))
            assert all(a == b for a, b in seen), (per_hour, seen)
            assert sum(a for a, _ in seen[:11]) == max(1, per_hour // 3)
    finally:
        await redis.aclose()


def test_without_redis_the_analysis_gate_counts_in_this_process() -> None:
    """Redis that does not answer: the process counts the address's analyses itself."""
    async def scene() -> None:
        dead = aioredis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=5)
        left = [2]

        def local(_address: str) -> bool:
            left[0] -= 1
            return left[0] >= 0

        try:
            gate = AnalysisGate(6, local, SharedBuckets(dead, clock=lambda: 0.0))
            assert [await gate.take("10.0.0.1") for _ in range(3)] == [True, True, False]
        finally:
            await dead.aclose()

    asyncio.run(scene())
