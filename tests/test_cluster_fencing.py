"""One writer per table, whatever races: the fencing version refuses a second writer's entry
(tested on the store itself) and only one process at a time holds a table's lock.  Two
processes asked for the same free table at the same moment load it once between them: that
test runs on the cluster of tests/test_cluster_failover.py (issue 27: one cluster start)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from pitchcards.server.config import normalise_db_url
from pitchcards.server.lease import Leases
from pitchcards.server.store import Fenced, Store
from server_helpers import postgres_database

pytestmark = pytest.mark.timeout(120)


def test_two_writers_racing_for_an_entry_exactly_one_writes():
    with postgres_database() as url:
        first, second = Store(normalise_db_url(url)), Store(normalise_db_url(url))
        try:
            first.migrate()
            first.create_table("t1", "invite", {"name": "Ann"}, 7, False, [])
            for n in range(1, 21):  # both load version n - 1 and append entry n at once
                with ThreadPoolExecutor(2) as pool:
                    results = list(pool.map(
                        lambda store, who, n=n: store.append_many(
                            [("t1", n, {"op": "deal", "by": who}, None)])[0],
                        [first, second], ["first", "second"]))
                assert sorted(r is None for r in results) == [False, True], results
                assert any(isinstance(r, Fenced) for r in results)
            stored = first.load("t1")
            assert stored is not None and stored.version == 20
            assert len(stored.entries) == 20
            # a writer that fell behind (it lost the table) cannot write over the log
            with pytest.raises(Fenced):
                second.append("t1", 20, {"op": "deal"})
            with pytest.raises(Fenced):
                second.append("t1", 5, {"op": "deal"})
            assert first.load("t1").version == 20  # type: ignore[union-attr]
        finally:
            first.close()
            second.close()


async def _locks(url: str) -> None:
    lost: list[str] = []
    one = Leases(normalise_db_url(url), lambda: lost.append("one"))
    two = Leases(normalise_db_url(url), lambda: lost.append("two"))
    await one.open()
    await two.open()
    try:
        got = await asyncio.gather(one.try_acquire("t1"), two.try_acquire("t1"))
        assert sorted(got) == [False, True]
        holder, other = (one, two) if got[0] else (two, one)
        assert await holder.try_acquire("t1")      # held: taken once, not twice
        assert not await other.try_acquire("t1")
        unlock = holder.release("t1")
        assert unlock is not None and holder.release("t1") is None
        await unlock
        assert await other.try_acquire("t1")
        # the holder's connection dies (its process was killed): the lock is free at once
        assert not await holder.try_acquire("t1")
        await other.close()
        deadline = time.monotonic() + 60  # only a hang takes this long
        while not await holder.try_acquire("t1"):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert lost == []
    finally:
        await one.close()
        await two.close()


def test_one_process_at_a_time_holds_a_table():
    with postgres_database() as url:
        asyncio.run(_locks(url))
