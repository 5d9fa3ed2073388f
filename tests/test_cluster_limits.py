"""Issue 31 and issue 32 with several processes (``--redis``): sign-in attempts, HTTP writes
and heavy reads are counted across every process, not on each — behind a load balancer one
address reaches them all, and would otherwise have each process's share (server/shared_limits.py).
The buckets are checked with a clock of the test's own: no attempt comes back by chance."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from cluster_helpers import redis_scene, running_cluster
from pitchcards.server.limits import SignInLimits
from pitchcards.server.shared_limits import SharedSignIns, SignInGate

pytestmark = pytest.mark.timeout(180)


def test_sign_in_attempts_are_counted_across_the_processes(tmp_path: Path) -> None:
    """Two processes, 3 attempts a minute per address: the address's attempts on both count
    against one bucket, the right password included."""
    with running_cluster(tmp_path, n=2, extra=("--sign-ins-per-minute", "3")) as cluster:
        first, second = (httpx.Client(base_url=url, timeout=60) for url in cluster.urls)
        with first, second:
            made = first.post("/api/accounts", json={"name": "Ann", "password": "secret-one"})
            assert made.status_code == 201, made.text  # one of the address's three
            for server in (second, first):
                wrong = server.post("/api/session", json={"name": "Ann", "password": "guess"})
                assert wrong.status_code == 401, wrong.text
            for server in (second, first):  # each process alone would still have attempts
                limited = server.post("/api/session",
                                      json={"name": "Ann", "password": "secret-one"})
                assert limited.status_code == 429, limited.text
                assert limited.json()["reason"] == "rate_limited"


def test_writes_and_heavy_reads_are_counted_across_the_processes(tmp_path: Path) -> None:
    """Two processes, writes in bursts of 2 and heavy reads in bursts of 1 per address: each
    process alone would let the third write and the second read through."""
    with running_cluster(tmp_path, n=2, extra=("--http-writes-per-minute", "8",
                                                "--http-reads-per-minute", "4")) as cluster:
        first, second = (httpx.Client(base_url=url, timeout=60) for url in cluster.urls)
        with first, second:
            table = {"name": "Ann", "bots": {"1": "easy"}}
            made = [first.post("/api/tables", json=table), second.post("/api/tables", json=table)]
            assert [reply.status_code for reply in made] == [201, 201], made[1].text
            for server in (first, second):
                over = server.post("/api/tables", json=table)
                assert over.status_code == 429, over.text
                assert over.json()["reason"] == "rate_limited"
            results = f"/api/tables/{made[0].json()['table']}/results"
            assert first.get(results).status_code == 200
            again = second.get(results)
            assert again.status_code == 429 and again.json()["reason"] == "rate_limited", \
                again.text


def test_the_shared_buckets_take_atomically_and_refill(tmp_path: Path) -> None:
    redis_scene(tmp_path, _buckets_scene)


async def _buckets_scene(url: str) -> None:
    redis = aioredis.Redis.from_url(url)
    now = [1000.0]
    try:
        # two processes' views of the same buckets: 4 a minute per address, 9 an hour per
        # account (bursts of 3)
        one, two = (SharedSignIns(redis, 4, 9, clock=lambda: now[0]) for _ in range(2))
        # ten attempts at once from one address for a burst of 4: exactly four pass
        got = await asyncio.gather(*((one, two)[i % 2].attempt("10.0.0.1", None)
                                     for i in range(10)))
        assert sorted(got) == [False] * 6 + [True] * 4
        assert not await two.attempt("10.0.0.1", "ann")
        # a refused attempt takes from neither bucket: Ann's account still has its 3
        for n in range(3):
            assert await (one, two)[n % 2].attempt(f"10.0.1.{n}", "ann")
        assert not await one.attempt("10.0.1.9", "ann")  # the account's burst is spent
        assert await one.attempt("10.0.1.9", "bob")      # another name goes on
        # the address's bucket refills at 4 a minute: one attempt after 15 s, not two
        now[0] += 15.0
        assert await two.attempt("10.0.0.1", None)
        assert not await one.attempt("10.0.0.1", None)
        # a bucket lives in Redis only until it would be full again
        ttl = await redis.pttl("pitch:signin:acct:{ann}")
        assert 0 < ttl <= 3 / (9 / 3600) * 1000 + 1000
    finally:
        await redis.aclose()


def test_without_redis_the_gate_counts_in_this_process(tmp_path: Path) -> None:
    """Redis that does not answer: the process counts attempts itself (nobody locked out, the
    local limit still holds)."""
    async def scene() -> None:
        dead = aioredis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=5)
        try:
            gate = SignInGate(SignInLimits(2, 30, clock=lambda: 0.0),
                              SharedSignIns(dead, 2, 30, clock=lambda: 0.0))
            assert [await gate.attempt("10.0.0.1", "ann") for _ in range(3)] \
                == [True, True, False]
        finally:
            await dead.aclose()

    asyncio.run(scene())
