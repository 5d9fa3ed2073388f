"""Issue 31 with several processes (``--redis``): an address's lookups of ids that do not exist
(misses) are counted across every process, not on each — behind a load balancer one address
reaches them all, and would otherwise have each process's share of misses to probe with
(server/shared_limits.py).  Sockets per address and bots' thoughts stay per process
(docs/deploy.md says why)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from cluster_helpers import redis_scene, running_cluster
from pitchcards.server.shared_limits import SharedRates

pytestmark = pytest.mark.timeout(180)


def test_misses_are_counted_across_the_processes(tmp_path: Path) -> None:
    """Two processes, misses in bursts of 2 per address: one miss on each spends the address's
    bucket, so the next lookup is refused on both (each alone would still have a miss left),
    a WebSocket to a table too."""
    with running_cluster(tmp_path, n=2, extra=("--http-misses-per-minute", "8")) as cluster:
        first, second = (httpx.Client(base_url=url, timeout=60) for url in cluster.urls)
        with first, second:
            assert first.get("/api/tables/no-such-table-1").status_code == 404
            assert second.get("/api/tables/no-such-table-2").status_code == 404
            for server in (first, second):
                over = server.get("/api/tables/no-such-table-3")
                assert over.status_code == 429, over.text
                assert over.json()["reason"] == "rate_limited"
                page = server.get("/t/no-such-table-4")
                assert page.status_code == 429, page.text


def test_a_lookup_takes_nothing_and_a_miss_takes_one(tmp_path: Path) -> None:
    redis_scene(tmp_path, _misses_scene)


async def _misses_scene(url: str) -> None:
    redis = aioredis.Redis.from_url(url)
    now = [1000.0]
    try:
        # two processes' views of one address's misses: 8 a minute, bursts of 2
        one, two = (SharedRates(redis, 100, 100, 8, clock=lambda: now[0]) for _ in range(2))
        for _ in range(5):  # asking takes nothing
            assert await one.may_look("10.0.0.1") and await two.may_look("10.0.0.1")
        await one.missed("10.0.0.1")
        assert await two.may_look("10.0.0.1")
        await asyncio.gather(two.missed("10.0.0.1"), one.missed("10.0.0.1"))
        assert not await one.may_look("10.0.0.1") and not await two.may_look("10.0.0.1")
        assert await one.may_look("10.0.0.2")  # another address is not counted with it
        now[0] += 7.5  # 8 a minute: one miss back after 7.5 s
        assert await two.may_look("10.0.0.1")
    finally:
        await redis.aclose()
