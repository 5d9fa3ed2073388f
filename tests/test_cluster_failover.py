"""A table's owner dies (kill -9) or stops mid-hand: another process takes the table over
from PostgreSQL, the players reconnect (to any process) and resync by seq, the match finishes,
and the log holds every acknowledged action exactly once.  Redis killed mid-hand and started
again (empty) loses nothing either: the processes resubscribe and the sockets it fed resync.
And two processes asked for the same free table at the same moment load it once between them
(the rest of that story, one writer per table, is tests/test_cluster_fencing.py)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

from cluster_helpers import Cluster, SpreadClient, play_on, running_cluster
from leak_check import SHORT
from pitchcards.client import Client, TableConnection
from server_helpers import FAST, every_event

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def _one_cluster(tmp_path_factory: Any) -> Any:
    with running_cluster(tmp_path_factory.mktemp("cluster")) as started:
        yield started


@pytest.fixture
def cluster(_one_cluster: Cluster) -> Cluster:
    """The module's cluster (issue 27: one start, not one per test), whole: a process the last
    test killed or stopped is started again first, on its port and the same database (and
    Redis, empty, on its port) — each test makes its own tables on the first process, which
    then owns them."""
    redis = _one_cluster.redis
    if redis.proc is None or redis.proc.poll() is not None:
        redis.start()
    for server in _one_cluster.servers:
        if server.proc is None or server.proc.poll() is not None:
            server.start()
    return _one_cluster


async def play_through_a_loss(cluster: Cluster, lose: Any, *, at: int = 12) -> None:
    """Three players (one socket on each process) and a bot play a match at a table the first
    process owns; ``lose()`` is done to the cluster mid-hand; the match must finish."""
    urls = cluster.urls
    rng = random.Random(7)
    async with Client(urls[0]) as http, SpreadClient(urls) as api:
        ann = await http.create_table("Ann", options=SHORT, settings=FAST, fill="random",
                                      players=4)
        seats = [ann, *[await http.take_seat(ann.invite or "", n) for n in ("Bob", "Cy")]]
        conns = [await api.connect(seat) for seat in seats]
        watcher = await api.connect(table=ann.table)
        await http.start(ann)

        def live() -> list[str]:
            return [s.url for s in cluster.alive()]

        rngs = [random.Random(rng.random()) for _ in conns]
        # play until seq `at`, then hold: the table waits mid-hand for a player to act
        await asyncio.gather(*(play_on(c, r, live, stop=lambda: conns[0].seq >= at)
                               for c, r in zip(conns, rngs, strict=True)))
        assert conns[0].view is not None and conns[0].view.phase in ("auction", "play")
        seen = {e.seq: e.to_dict() for c in conns for e in c.events}
        lost_at = time.monotonic()
        await asyncio.to_thread(lose)
        reconnects = await asyncio.gather(*(play_on(c, r, live)
                                            for c, r in zip(conns, rngs, strict=True)))
        took = time.monotonic() - lost_at
        assert all(c.over for c in conns), [c.seq for c in conns]
        assert sum(reconnects) >= 1, reconnects
        # the match is whole: each seat's events run 1..n without a gap or a repeat, the same
        # for everyone, and what was seen before the loss is still there
        final = await every_event(live()[0], ann.table, ann.token)
        for conn in conns:
            assert [e.seq for e in conn.events] == list(range(1, conn.seq + 1))
            assert [_public(e.to_dict()) for e in conn.events] == \
                [_public(e) for e in final][:conn.seq]
        for seq, event in seen.items():
            if event["type"] == "action_taken":
                assert _public(final[seq - 1]) == _public(event)
        # the log: every action told exactly once, n = 1, 2, 3 … as stored
        log = cluster.log_entries(ann.table)
        assert [n for n, _ in log] == list(range(1, len(log) + 1))
        acts = [(e["seat"], e["action"]) for _, e in log if e["op"] == "act"]
        told = [(e["seat"], e["action"]) for e in final if e["type"] == "action_taken"]
        assert acts == told
        await _watcher_caught_up(watcher, live(), final[-1]["seq"])
        for conn in conns:
            await conn.close()
        print(f"{lose.__name__}: the match was over {took:.1f} s after the loss")


def _public(event: dict[str, Any]) -> tuple[Any, ...]:
    return (event["seq"], event["type"], event.get("seat"), event.get("action"))


async def _watcher_caught_up(watcher: TableConnection, urls: list[str], last: int) -> None:
    """A spectator that was left on its process reconnects if it was closed and catches up."""
    from cluster_helpers import reconnect

    deadline = time.monotonic() + 60  # only a hang takes this long
    while watcher.seq < last and time.monotonic() < deadline:
        if watcher.closed:
            await reconnect(watcher, urls, random.Random(1))
        await asyncio.sleep(0.1)
    assert watcher.seq == last
    await watcher.close()


@pytest.mark.parametrize("how", ["kill9", "stop"])
def test_the_owner_killed_or_stopped_mid_hand_another_takes_over(cluster, how):
    """kill -9: its lock goes with its database session; stopped: it closes its sockets
    (1012) and lets its locks go.  Either way another process takes the table."""
    asyncio.run(play_through_a_loss(cluster, getattr(cluster.servers[0], how)))


def test_finding3_pending_money_changes_survive_the_owner_killed(cluster):
    """Issue 31, finding 3, across processes: during a hand at a money table the first process
    owns, Bob leaves and Dee joins through another process (both "pending"); the owner is
    killed -9; the process that takes the table over from PostgreSQL applies both at the break,
    before the next hand is dealt."""
    async def run(cluster: Cluster) -> None:
        urls = cluster.urls
        rng = random.Random(31)
        async with Client(urls[0]) as http, Client(urls[1]) as other, \
                SpreadClient(urls) as api:
            ann = await http.create_table("Ann", variant="money", players=3, settings=FAST,
                                          fill="random")
            bob = await http.take_seat(ann.invite or "", "Bob")
            conns = [await api.connect(seat) for seat in (ann, bob)]
            await http.start(ann)
            await conns[0].wait_for(lambda: conns[0].view is not None
                                    and conns[0].view.seat_to_act is not None, 30)
            assert (await other.leave(bob))["pending"] is True  # passed on to the owner
            dee = await other.take_seat(ann.invite or "", "Dee")
            assert dee.seat is None
            assert (await other.table(ann.table))["pending"] == ["leave Bob", "join Dee"]
            await asyncio.to_thread(cluster.servers[0].kill9)

            def live() -> list[str]:
                return [s.url for s in cluster.alive()]

            def dealt_twice() -> bool:
                return sum(e.type == "hand_dealt" for e in conns[0].events) >= 2

            await asyncio.gather(*(play_on(c, random.Random(rng.random()), live,
                                           stop=dealt_twice) for c in conns))
            kinds = [e.type for e in conns[0].events]
            second = [i for i, k in enumerate(kinds) if k == "hand_dealt"][1]
            assert {"player_left", "player_joined"} <= set(kinds[:second]), kinds
            async with Client(live()[0]) as alive:
                info = await alive.table(ann.table)
            assert info["pending"] == [] and "Dee" in [s["name"] for s in info["seats"]]
            assert "Bob" not in [s["name"] for s in info["seats"]]
            log = [e for _, e in cluster.log_entries(ann.table)]
            asked = [e["entry"] for e in log if e["op"] == "pending"]
            assert [e["op"] for e in asked] == ["leave", "join"]
            # applied at the break as without the kill: each once, as asked, in the order
            # asked, and then the next hand dealt
            second_deal = [i for i, e in enumerate(log) if e["op"] == "deal"][1]
            assert log[second_deal - 2:second_deal] == asked, log[-6:]
            assert [e for e in log if e["op"] in ("leave", "join")] == asked
            for conn in conns:
                await conn.close()

    asyncio.run(run(cluster))


def test_redis_restarted_mid_hand_loses_nothing(cluster):
    """Redis is killed mid-hand and started again (empty): the processes resubscribe, the
    sockets that were fed through it reconnect and resync by seq, play goes on, and nothing
    acknowledged is lost or applied twice."""
    def restart_redis() -> None:
        cluster.redis.kill()
        time.sleep(1.0)  # the loss is the scenario: Redis stays down a moment
        cluster.redis.start()

    asyncio.run(play_through_a_loss(cluster, restart_redis))


def test_two_processes_racing_for_a_table_load_it_once(cluster):
    """The first process makes a table and stops; the two others are asked for it at once."""
    async def race(urls: list[str]) -> None:
        async with Client(urls[0]) as http:
            ann = await http.create_table("Ann", settings=FAST, fill="random")
        async with httpx.AsyncClient(timeout=30) as client:
            async def loaded() -> list[int]:  # rooms the two others hold (earlier tests' too)
                return [(await client.get(f"{url}/healthz")).json()["tables"]
                        for url in urls[1:]]

            before = await loaded()
            await asyncio.to_thread(cluster.servers[0].stop)
            # the table is nobody's now; two processes are asked for it at the same moment
            for _ in range(3):
                replies = await asyncio.gather(*(client.get(f"{url}/api/tables/{ann.table}")
                                                 for url in urls[1:] for _ in range(5)))
                assert {r.status_code for r in replies} == {200}
                assert len({r.json()["table"] for r in replies}) == 1
            after = await loaded()
        # a table is loaded only when asked for, unloaded only after 600 s idle: the
        # difference is this table's
        assert sorted(a - b for a, b in zip(after, before, strict=True)) == [0, 1], \
            (before, after)

    asyncio.run(race(cluster.urls))
