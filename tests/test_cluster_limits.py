"""Issue 31 and issue 32 with several processes (``--redis``): sign-in attempts, HTTP writes
and heavy reads are counted across every process, not on each — behind a load balancer one
address reaches them all, and would otherwise have each process's share (server/shared_limits.py).

No refused request comes back by chance: the processes' buckets refill on the real clock
(``time.time``), so the module's cluster has bursts of one, and once a test has spent a bucket
on one process it freezes that bucket in Redis (its stamp in the far future: the script's
``max(0, now - stamp)`` refills nothing, and the bucket no longer expires).  The spent token
is the process's own doing; only the refill is stopped.  The buckets themselves are checked
with a clock of the test's own."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
import redis.asyncio as aioredis

from cluster_helpers import Cluster, redis_scene, running_cluster, spend_and_freeze
from pitchcards.server.limits import SignInLimits
from pitchcards.server.shared_limits import SharedSignIns, SignInGate

pytestmark = pytest.mark.timeout(180)

# Bursts of one (an address's burst is a quarter of a minute's writes or reads, at least one;
# its sign-in burst is a minute's attempts): one request spends a bucket.
ONE_EACH = ("--sign-ins-per-minute", "1", "--http-writes-per-minute", "1",
            "--http-reads-per-minute", "1")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with running_cluster(tmp_path_factory.mktemp("limits"), n=2, extra=ONE_EACH) as running:
        yield running


@pytest.fixture
def buckets(cluster: Cluster) -> Iterator[redis.Redis]:
    """The cluster's Redis with no rate bucket in it (each test starts with full buckets)."""
    client = redis.Redis.from_url(cluster.redis.url)
    with client:
        for pattern in ("pitch:signin:*", "pitch:writes:*", "pitch:reads:*", "pitch:misses:*"):
            for key in client.scan_iter(match=pattern):
                client.delete(key)
        yield client


def assert_limited(reply: httpx.Response) -> None:
    assert reply.status_code == 429, reply.text
    assert reply.json()["reason"] == "rate_limited"


def test_sign_in_attempts_are_counted_across_the_processes(cluster: Cluster,
                                                           buckets: redis.Redis) -> None:
    """One attempt a minute per address: the registration on the first process spends the
    address's attempts on both, the right password's included."""
    first, second = (httpx.Client(base_url=url, timeout=60) for url in cluster.urls)
    with first, second:
        names: list[str] = []

        def register() -> httpx.Response:  # a new name should it be made again
            names.append(f"Ann{len(names)}")
            return first.post("/api/accounts",
                              json={"name": names[-1], "password": "secret-one"})

        spend_and_freeze(buckets, "pitch:signin:addr:*", register, 201)
        for server in (second, first):  # the second alone would still have its attempt
            assert_limited(server.post("/api/session",
                                       json={"name": names[-1], "password": "secret-one"}))


def test_writes_and_heavy_reads_are_counted_across_the_processes(cluster: Cluster,
                                                                 buckets: redis.Redis) -> None:
    """Writes and heavy reads in bursts of one per address: a write and a read on the first
    process spend them on the second, which alone would let its first of each through."""
    first, second = (httpx.Client(base_url=url, timeout=60) for url in cluster.urls)
    with first, second:
        table = {"name": "Ann", "bots": {"1": "easy"}}
        made: list[httpx.Response] = []

        def make() -> httpx.Response:
            made.append(first.post("/api/tables", json=table))
            return made[-1]

        spend_and_freeze(buckets, "pitch:writes:*", make, 201)
        for server in (second, first):
            assert_limited(server.post("/api/tables", json=table))
        results = f"/api/tables/{made[-1].json()['table']}/results"
        spend_and_freeze(buckets, "pitch:reads:*", lambda: first.get(results), 200)
        for server in (second, first):
            assert_limited(server.get(results))


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
