"""An address's tables, counted across the processes of a cluster (``--redis``, issue 31).

One process counts the tables in its memory (``Hub.tables_in_play``).  Behind a load
balancer one address reaches every process, so that count alone let it have
``--tables-per-address`` tables on each.  Here every table an address creates is also a
member of the address's sorted set in Redis, ``pitch:budget:{<address>}`` (and, with hard or
expert bots, ``pitch:heavy:{<address>}``), scored by when it stops counting unless renewed.
A creation checks both sets and adds to them in one script, so two processes cannot both take
an address's last slot.  The table's owner renews its tables in play at each heartbeat and
takes out those that are over or left its memory; a table whose owner died stops counting
within ``hold`` seconds (three heartbeats), as a process's own count forgets it at a restart.

Nothing in Redis is needed to rebuild a table: when Redis does not answer, a process counts
its own tables alone (as without ``--redis``), and says so in its log.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

__all__ = ["OVER_ADDRESS", "OVER_HEAVY", "SharedBudget"]

#: What :meth:`SharedBudget.reserve` answers: 0 taken, else which cap is reached.
OVER_ADDRESS, OVER_HEAVY = 1, 2

_RESERVE = """
local now, expiry = tonumber(ARGV[1]), tonumber(ARGV[2])
local cap, heavy_cap, heavy = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1'
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= cap then return 1 end
if heavy and redis.call('ZCARD', KEYS[2]) >= heavy_cap then return 2 end
redis.call('ZADD', KEYS[1], expiry, ARGV[3])
redis.call('PEXPIREAT', KEYS[1], math.floor(expiry * 1000))
if heavy then
  redis.call('ZADD', KEYS[2], expiry, ARGV[3])
  redis.call('PEXPIREAT', KEYS[2], math.floor(expiry * 1000))
end
return 0
"""


def _keys(address: str) -> tuple[str, str]:
    """The address's two sets (one hash tag: one slot of a Redis Cluster)."""
    return f"pitch:budget:{{{address}}}", f"pitch:heavy:{{{address}}}"


class SharedBudget:
    """The tables of each address in play anywhere in the cluster, in Redis."""

    def __init__(self, redis: Any, hold: float) -> None:
        self.redis = redis  #: redis.asyncio.Redis (the bus's connection)
        self.hold = hold    #: seconds a table counts after its owner last renewed it

    async def reserve(self, address: str, table_id: str, heavy: bool, cap: int,
                      heavy_cap: int) -> int:
        """Count ``table_id`` in ``address``'s budget if it has room: 0, or
        :data:`OVER_ADDRESS` / :data:`OVER_HEAVY` (nothing counted).  Raises RedisError."""
        now = time.time()
        taken = await self.redis.eval(_RESERVE, 2, *_keys(address), now, now + self.hold,
                                      table_id, cap, heavy_cap, "1" if heavy else "0")
        return int(taken)

    async def renew(self, playing: Iterable[tuple[str, str]],
                    done: Iterable[tuple[str, str]]) -> None:
        """The owner's heartbeat: its (address, table) in play count for ``hold`` seconds
        more (only those still counted: ``XX``); those over or unloaded count no more."""
        until = time.time() + self.hold
        pipe = self.redis.pipeline(transaction=False)
        for address, table_id in playing:
            for key in _keys(address):
                pipe.zadd(key, {table_id: until}, xx=True)
                pipe.pexpireat(key, int(until * 1000))  # the set outlives its members
        for address, table_id in done:
            for key in _keys(address):
                pipe.zrem(key, table_id)
        await pipe.execute()

    async def count(self, address: str) -> tuple[int, int]:
        """The address's tables counted now, and of them heavy ones."""
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        for key in _keys(address):
            pipe.zcount(key, f"({now}", "+inf")
        every, heavy = await pipe.execute()
        return int(every), int(heavy)
