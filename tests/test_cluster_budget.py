"""Issue 31 with several processes (``--redis``): an address's tables in play are counted
across every process, not on each — behind a load balancer one address reaches them all
(server/budget.py).  Two processes on one Redis and PostgreSQL; every client here is
127.0.0.1, one address."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from cluster_helpers import redis_scene, running_cluster
from pitchcards.server.budget import OVER_ADDRESS, OVER_HEAVY, SharedBudget

pytestmark = pytest.mark.timeout(180)

EXPERT = {"name": "Ann", "bots": {"1": "expert"}}
EASY = {"name": "Ann", "bots": {"1": "easy"}}


def test_an_addresss_tables_are_counted_across_the_processes(tmp_path):
    with running_cluster(tmp_path, n=2, extra=("--tables-per-address", "3",
                                                "--heavy-tables-per-address", "1")) as cluster:
        first, second = (httpx.Client(base_url=url, timeout=60) for url in cluster.urls)
        with first, second:
            def make(server: httpx.Client, table: dict[str, Any]) -> httpx.Response:
                return server.post("/api/tables", json=table)

            assert make(first, EXPERT).status_code == 201
            refused = make(second, EXPERT)  # the address's one heavy table is on the first
            assert refused.status_code == 429, refused.text
            assert refused.json()["reason"] == "too_many_tables"
            assert "hard or expert" in refused.json()["message"]
            assert make(second, EASY).status_code == 201
            assert make(first, EASY).status_code == 201  # 3: the address's whole budget
            for server in (second, first):
                over = make(server, EASY)
                assert over.status_code == 429, over.text
                assert "3 tables in play" in over.json()["message"]


def test_the_shared_budget_reserves_atomically_renews_and_forgets(tmp_path: Path):
    redis_scene(tmp_path, _budget_scene)


async def _budget_scene(url: str) -> None:
    redis = aioredis.Redis.from_url(url)
    try:
        budget = SharedBudget(redis, hold=600.0)
        # ten creations at once for a cap of 3: exactly three are counted
        got = await asyncio.gather(*(budget.reserve("10.0.0.1", f"t{i}", False, 3, 1)
                                     for i in range(10)))
        assert sorted(got) == [0] * 3 + [OVER_ADDRESS] * 7
        won = [f"t{i}" for i, answer in enumerate(got) if answer == 0]
        assert await budget.count("10.0.0.1") == (3, 0)
        assert await budget.count("10.0.0.2") == (0, 0)  # another address: untouched
        assert await budget.reserve("10.0.0.2", "h1", True, 3, 1) == 0
        assert await budget.reserve("10.0.0.2", "h2", True, 3, 1) == OVER_HEAVY
        assert await budget.reserve("10.0.0.2", "e1", False, 3, 1) == 0
        assert await budget.count("10.0.0.2") == (2, 1)
        # renewed: still counted; over or unloaded: counted no more; an unknown one is not added
        await budget.renew([("10.0.0.1", won[0]), ("10.0.0.1", "never")],
                           [("10.0.0.1", won[1]), ("10.0.0.2", "h1")])
        assert await budget.count("10.0.0.1") == (2, 0)
        assert await budget.count("10.0.0.2") == (1, 0)
        assert await budget.reserve("10.0.0.2", "h3", True, 3, 1) == 0  # h1's slot is free
        # a renewal keeps the address's set itself alive, not only its members
        brief = SharedBudget(redis, hold=5.0)
        assert await brief.reserve("10.0.0.3", "b1", True, 3, 1) == 0
        await budget.renew([("10.0.0.3", "b1")], [])
        for key in ("pitch:budget:{10.0.0.3}", "pitch:heavy:{10.0.0.3}"):
            assert await redis.pttl(key) > 100_000
        # an owner that stops renewing (it died): its tables stop counting once held out
        short = SharedBudget(redis, hold=-1.0)  # already past: as if its hold ran out
        await short.renew([("10.0.0.1", won[0]), ("10.0.0.1", won[2])], [])
        assert await budget.count("10.0.0.1") == (0, 0)
        assert await budget.reserve("10.0.0.1", "t9", False, 3, 1) == 0
    finally:
        await redis.aclose()
