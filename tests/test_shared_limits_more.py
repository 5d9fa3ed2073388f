"""Issue 31 with several processes (``--redis``): an address's lookups of ids that do not exist
(misses) are counted across every process, not on each — behind a load balancer one address
reaches them all, and would otherwise have each process's share of misses to probe with
(server/shared_limits.py); so are its open WebSockets, as leases each process renews, so a
killed process's sockets stop counting, and the slow bots' thoughts, the same way."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from pathlib import Path

import httpx
import pytest
import redis
import redis.asyncio as aioredis
import websockets

from cluster_helpers import redis_scene, running_cluster, spend_and_freeze
from pitchcards.client import Client
from pitchcards.events import ActionTaken
from pitchcards.server.limits import AddressLimits
from pitchcards.server.shared_limits import SharedLeases, SharedRates, SocketGate, ThoughtGate
from pitchcards.server.thinking import ThoughtSlots
from server_helpers import FAST, hello, raw_socket

pytestmark = pytest.mark.timeout(180)


def test_misses_are_counted_across_the_processes(tmp_path: Path) -> None:
    """Two processes, misses in bursts of 2 per address: one miss on each spends the address's
    bucket, so the next lookup is refused on both (each alone would still have a miss left),
    a WebSocket to a table too.  The spent bucket is frozen in Redis (cluster_helpers'
    spend_and_freeze): no stall refills it."""
    with running_cluster(tmp_path, n=2, extra=("--http-misses-per-minute", "8")) as cluster:
        first, second = (httpx.Client(base_url=url, timeout=60) for url in cluster.urls)
        buckets = redis.Redis.from_url(cluster.redis.url)
        with first, second, buckets:
            made = itertools.count()

            def miss() -> httpx.Response:  # the first process, then the second, ...
                n = next(made)
                return (first, second)[n % 2].get(f"/api/tables/no-such-table-{n}")

            spend_and_freeze(buckets, "pitch:misses:*", miss, 404)
            for server in (first, second):
                over = server.get("/api/tables/no-such-table-x")
                assert over.status_code == 429, over.text
                assert over.json()["reason"] == "rate_limited"
                page = server.get("/t/no-such-table-y")
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


#: the address the test's sockets come from, and the set their leases are in
_HERE = "127.0.0.1"
_KEY = "pitch:sockets:{127.0.0.1}"


def test_sockets_per_address_are_counted_across_the_processes(tmp_path: Path) -> None:
    """Two processes, 2 sockets per address: one socket on each reaches the cap, so a third is
    refused on both (429 too_many_connections; each alone would have room).  A close gives
    its place back.  A process killed with its socket open closes nothing: its lease stays,
    but only until its last renewal runs out, and then counts no more.  The live process's
    hard bots still think (their thoughts take leases in the same Redis)."""
    with running_cluster(tmp_path, n=2, extra=("--max-connections-per-address", "2")) \
            as cluster:
        asyncio.run(_sockets_scene(cluster.urls, cluster.redis.url, cluster.servers[0].kill9))


async def _sockets_scene(urls: list[str], redis_url: str, kill_first: object) -> None:
    redis = aioredis.Redis.from_url(redis_url)
    try:
        async with Client(urls[0]) as first, Client(urls[1]) as second:
            ann = await first.create_table("Ann", settings=FAST)
            on_first = await first.connect(ann)
            on_second = await second.connect(ann)
            assert await redis.zcard(_KEY) == 2
            for url in urls:
                with pytest.raises(websockets.InvalidStatus) as refused:
                    await raw_socket(url, ann.table, [], hello=hello(ann.token))
                assert refused.value.response.status_code == 429
                assert json.loads(refused.value.response.body)["reason"] == \
                    "too_many_connections"
            await on_second.close()  # its place is given back
            await _until(lambda: redis.zcard(_KEY), 1)
            assert await SharedLeases(redis, "sockets", 2, 60).count(_HERE) == 1
            [(member, expiry)] = await redis.zrange(_KEY, 0, -1, withscores=True)
            assert callable(kill_first)
            kill_first()  # kill -9 with its socket open: nothing takes its lease out
            await on_first.close()
            assert await redis.zrange(_KEY, 0, -1) == [member]
            assert expiry <= time.time() + 60  # three heartbeats of 20 s at most
            # once that has passed (a clock past it), it counts no more: both places are free
            later = SharedLeases(redis, "sockets", 2, 60, clock=lambda: expiry + 0.001)
            assert await later.count(_HERE) == 0
            assert await later.open(_HERE, "a") and await later.open(_HERE, "b")
            assert not await later.open(_HERE, "c")
            await later.close(_HERE, "a")
            await later.close(_HERE, "b")
            # the live process's hard bots think under leases in Redis, and play
            bob = await second.create_table("Bob", bots={1: "hard", 2: "hard", 3: "hard"},
                                            settings=FAST)
            await second.start(bob)
            async with await second.connect(bob) as table:
                await table.wait_for(lambda: table.view is not None and bool(table.view.hand))
                if table.is_my_turn():
                    await table.act("pass")
                await table.wait_for(lambda: any(isinstance(e, ActionTaken) and e.by_bot
                                                 for e in table.events))
    finally:
        await redis.aclose()


async def _until(read: object, wanted: int) -> None:
    """Wait until ``await read()`` is ``wanted`` (a hang guard, not a timing)."""
    assert callable(read)
    async with asyncio.timeout(30):
        while await read() != wanted:
            await asyncio.sleep(0.05)


def test_leases_are_renewed_while_open_and_expire_when_not(tmp_path: Path) -> None:
    redis_scene(tmp_path, _leases_scene)


async def _leases_scene(url: str) -> None:
    redis = aioredis.Redis.from_url(url)
    now = [1000.0]
    try:
        # two processes' gates, 2 sockets per address, leases held 60 s after a renewal
        alive, dead = (SocketGate(AddressLimits(2, 100),
                                  SharedLeases(redis, "sockets", 2, 60, clock=lambda: now[0]))
                       for _ in range(2))
        kept = await alive.open(_HERE)
        lost = await dead.open(_HERE)
        assert kept is not None and lost is not None
        assert await alive.open(_HERE) is None  # the other process's socket counts
        assert await alive.open("10.0.0.2") is not None  # another address does not
        now[0] += 40
        await alive.renew()  # the live process renews; the dead one never will
        now[0] += 30  # past the dead one's 60 s, within the live one's
        assert await alive.shared.count(_HERE) == 1  # type: ignore[union-attr]
        again = await alive.open(_HERE)
        assert again is not None
        assert await dead.open(_HERE) is None  # at the cap again
        await alive.close(again)
        await alive.renew()  # a closed socket is not brought back by a renewal
        assert await alive.shared.count(_HERE) == 1  # type: ignore[union-attr]
        assert alive.local.connections == {_HERE: 1, "10.0.0.2": 1}
    finally:
        await redis.aclose()


def test_without_redis_each_process_counts_its_own_sockets() -> None:
    """Redis that does not answer: the process's own count decides (logged), nobody is locked
    out and its cap still holds."""
    async def scene() -> None:
        dead = aioredis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=5)
        try:
            gate = SocketGate(AddressLimits(2, 100), SharedLeases(dead, "sockets", 2, 60))
            leases = [await gate.open(_HERE) for _ in range(3)]
            assert [lease is not None for lease in leases] == [True, True, False]
            assert leases[0] is not None
            await gate.close(leases[0])
            assert await gate.open(_HERE) is not None
            await gate.renew()  # logged, not raised
        finally:
            await dead.aclose()

    asyncio.run(scene())


class _StuckLeases(SharedLeases):
    """Redis that takes its time (``open`` waits until cancelled) or fails otherwise."""

    def __init__(self, fail: BaseException | None) -> None:
        super().__init__(None, "sockets", 2, 60)
        self.fail = fail
        self.asked = asyncio.Event()

    async def open(self, address: str, member: str) -> bool:
        self.asked.set()
        if self.fail is not None:
            raise self.fail
        await asyncio.Event().wait()  # until cancelled
        return True


def test_a_socket_whose_shared_open_is_cancelled_or_fails_is_not_counted() -> None:
    """The process counts a socket before it asks Redis; should the ask be cancelled (the
    client went, the server stops) or fail otherwise, that count is given back — else the
    address would be locked out of this process, a socket at a time."""
    async def scene() -> None:
        for fail in (None, RuntimeError("broken")):
            gate = SocketGate(AddressLimits(2, 100), _StuckLeases(fail))
            for _ in range(3):  # more than the cap: each one's count was given back
                opening = asyncio.create_task(gate.open(_HERE))
                await gate.shared.asked.wait()  # type: ignore[union-attr]
                if fail is None:
                    opening.cancel()
                with pytest.raises(asyncio.CancelledError if fail is None else RuntimeError):
                    await opening
                assert gate.local.connections.get(_HERE, 0) == 0
                gate.shared.asked.clear()  # type: ignore[union-attr]

    asyncio.run(scene())


def test_leases_expire_by_redis_clock(tmp_path: Path) -> None:
    redis_scene(tmp_path, _redis_clock_scene)


async def _redis_clock_scene(url: str) -> None:
    """Without a test's clock a lease is scored by Redis's ``TIME`` (one clock for every
    process: a process whose clock runs ahead drops nobody's live lease), and so renewed and
    counted."""
    redis = aioredis.Redis.from_url(url)
    try:
        leases = SharedLeases(redis, "sockets", 2, 60, clock=None)  # (as app.py and hub.py)
        seconds, micros = await redis.time()
        before = seconds + micros / 1e6
        assert await leases.open(_HERE, "a")
        [(_, score)] = await redis.zrange(_KEY, 0, -1, withscores=True)
        seconds, micros = await redis.time()
        after = seconds + micros / 1e6
        assert before + 60 <= score <= after + 60
        # a lease scored as already expired by Redis's clock (as a process far behind, or one
        # that died long ago, left it) counts no more and is dropped by the next open
        await redis.zadd(_KEY, {"old": before - 1})
        assert await leases.count(_HERE) == 1
        assert await leases.open(_HERE, "b")
        assert set(await redis.zrange(_KEY, 0, -1)) == {b"a", b"b"}
        await leases.renew([(_HERE, "a"), (_HERE, "gone")])  # not brought back: XX
        renewed = await redis.zscore(_KEY, "a")
        assert renewed is not None and renewed >= score
        assert set(await redis.zrange(_KEY, 0, -1)) == {b"a", b"b"}
    finally:
        await redis.aclose()


class _CountedLeases(SharedLeases):
    """Leases that say when a process has asked for one ``wanted`` times."""

    def __init__(self, *args: object, wanted: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.asked = 0
        self.wanted = wanted
        self.enough = asyncio.Event()

    async def open(self, address: str, member: str) -> bool:
        self.asked += 1
        if self.asked >= self.wanted:
            self.enough.set()
        return await super().open(address, member)


def test_thoughts_per_address_are_shared_through_redis(tmp_path: Path) -> None:
    redis_scene(tmp_path, _thoughts_scene)


async def _thoughts_scene(url: str) -> None:
    """One thought at a time per address: while one process's thought holds it, another
    process's waits (it has asked again and been refused), then thinks once it is given back;
    a thought of a process that died stops counting when its lease runs out."""
    redis = aioredis.Redis.from_url(url)
    now = [1000.0]
    key = "address:10.0.0.1"
    try:
        one = ThoughtGate(ThoughtSlots(1), SharedLeases(redis, "thoughts", 1, 10,
                                                        clock=lambda: now[0]), poll=0.01)
        waiting = _CountedLeases(redis, "thoughts", 1, 10, clock=lambda: now[0], wanted=3)
        two = ThoughtGate(ThoughtSlots(1), waiting, poll=0.01)
        entered = asyncio.Event()

        async def think_on_two() -> None:
            async with two.slot(key):
                entered.set()

        async with one.slot(key):
            task = asyncio.create_task(think_on_two())
            async with asyncio.timeout(30):  # (a hang guard)
                await waiting.enough.wait()  # refused three times while the first thinks
            assert not entered.is_set()
            async with two.slot("address:10.0.0.2"):  # another address is not held up
                pass
        async with asyncio.timeout(30):
            await task  # given back: the second thinks
        assert await redis.zcard("pitch:thoughts:{address:10.0.0.1}") == 0
        # a process dies in its thought: its lease holds the address until it runs out
        assert await SharedLeases(redis, "thoughts", 1, 10, clock=lambda: now[0]).open(
            key, "dead:0")
        waiting.asked, waiting.wanted, entered = 0, 2, asyncio.Event()
        waiting.enough.clear()
        task = asyncio.create_task(think_on_two())
        async with asyncio.timeout(30):
            await waiting.enough.wait()
        assert not entered.is_set()
        now[0] += 10.5  # its 10 s are over
        async with asyncio.timeout(30):
            await task
    finally:
        await redis.aclose()


def test_without_redis_thoughts_take_this_process_s_slots(tmp_path: Path) -> None:
    async def scene() -> None:
        dead = aioredis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=5)
        try:
            gate = ThoughtGate(ThoughtSlots(1), SharedLeases(dead, "thoughts", 1, 10))
            async with gate.slot("address:10.0.0.1"):
                assert gate.local.keys() == 1
            assert gate.local.keys() == 0
        finally:
            await dead.aclose()

    asyncio.run(scene())
