"""Sign-in attempts, HTTP writes and heavy reads counted across the processes of a cluster
(``--redis``, issues 31 and 32).

:class:`~.limits.SignInLimits` and :class:`~.limits.AddressLimits` count in one process's
memory.  Behind a load balancer one address reaches every process, so with N processes a
password guesser had N times the attempts, per address and per account, and a stranger N times
the writes and reads.  Here each bucket (``pitch:writes:{<address>}``, ``pitch:reads:{…}``,
``pitch:signin:addr:{…}``, ``pitch:signin:acct:{<key>}``, ``pitch:analyses:{<address>}``:
the new analyses an address asks for, issue 33) is a hash in Redis — its tokens and
when they were counted — and one script refills and takes from every bucket of a request at
once: two processes cannot both take an account's last attempt, and a refused attempt takes
from none (as in memory).  A bucket expires once it would be full again, so Redis keeps only
addresses and names seen lately.  The clock is the processes' (``time.time``; a test gives its own).

When Redis does not answer, a process counts in its own memory (as without ``--redis``) and
says so in its log: an outage of Redis never locks everyone out.  Sockets per address, misses
of unknown ids and bots' thoughts stay per process (docs/deploy.md says why).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from redis.exceptions import RedisError

from .limits import AddressLimits, SignInLimits

__all__ = ["AnalysisGate", "RateGate", "SharedBuckets", "SharedRates", "SharedSignIns",
           "SignInGate"]

log = logging.getLogger("pitchcards.server")

# KEYS: the buckets; ARGV: now, then each bucket's rate (tokens a second) and burst.
# Every bucket must hold a whole token, or nothing is taken (0); else one from each (1).
_TAKE = """
local now = tonumber(ARGV[1])
local levels = {}
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local got = redis.call('HMGET', key, 'tokens', 'stamp')
  local tokens, stamp = tonumber(got[1]), tonumber(got[2])
  if tokens == nil or stamp == nil then tokens, stamp = burst, now end
  tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
  if tokens < 1 then return 0 end
  levels[i] = tokens
end
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local left = levels[i] - 1
  redis.call('HSET', key, 'tokens', tostring(left), 'stamp', ARGV[1])
  redis.call('PEXPIRE', key, math.ceil((burst - left) / rate * 1000) + 1000)
end
return 1
"""


class SharedBuckets:
    """Token buckets in Redis, shared by every process: :meth:`take` takes one token from each
    of several buckets, or from none."""

    def __init__(self, redis: Any, clock: Callable[[], float] = time.time) -> None:
        self.redis = redis  #: redis.asyncio.Redis (the bus's connection)
        self.clock = clock  #: seconds, the same on every process (a test sets its own)

    async def take(self, buckets: Sequence[tuple[str, float, float]]) -> bool:
        """One token from each ``(key, rate per second, burst)`` if every one holds a whole
        token (True), else none (False).  Raises RedisError."""
        args: list[Any] = [repr(self.clock())]
        for _, rate, burst in buckets:
            args += [rate, burst]
        taken = await self.redis.eval(_TAKE, len(buckets), *(key for key, _, _ in buckets),
                                      *args)
        return int(taken) == 1


class SharedSignIns:
    """The sign-in buckets of every process, in Redis (same rates as :class:`SignInLimits`)."""

    def __init__(self, redis: Any, per_address_per_minute: int, per_account_per_hour: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.buckets = SharedBuckets(redis, clock)
        self.per_address_per_minute = per_address_per_minute
        self.per_account_per_hour = per_account_per_hour

    async def attempt(self, address: str, key: str | None) -> bool:
        """Count an attempt from ``address`` at the account named ``key`` (None: a
        registration) in every process's buckets; False, counting nothing, if either is over
        its rate.  Raises RedisError."""
        buckets = [(f"pitch:signin:addr:{{{address}}}", self.per_address_per_minute / 60.0,
                    float(self.per_address_per_minute))]
        if key is not None:
            buckets.append((f"pitch:signin:acct:{{{key}}}", self.per_account_per_hour / 3600.0,
                            float(max(1, self.per_account_per_hour // 3))))
        return await self.buckets.take(buckets)


class SharedRates:
    """An address's HTTP writes and heavy reads in every process's buckets, in Redis (the
    same rates and bursts as :class:`~.limits.AddressLimits`)."""

    def __init__(self, redis: Any, writes_per_minute: int, reads_per_minute: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.buckets = SharedBuckets(redis, clock)
        self.writes_per_minute = writes_per_minute
        self.reads_per_minute = reads_per_minute

    async def write(self, address: str) -> bool:
        """:meth:`AddressLimits.write` across the processes.  Raises RedisError."""
        return await self._take("writes", address, self.writes_per_minute)

    async def read(self, address: str) -> bool:
        """:meth:`AddressLimits.read` across the processes.  Raises RedisError."""
        return await self._take("reads", address, self.reads_per_minute)

    async def _take(self, what: str, address: str, per_minute: int) -> bool:
        return await self.buckets.take([(f"pitch:{what}:{{{address}}}", per_minute / 60.0,
                                         float(max(1, per_minute // 4)))])


class _Fallback:
    """Asks Redis, or — while it does not answer — this process's own count (logged once an
    outage): an outage of Redis never locks everyone out, nor lifts the limits."""

    def __init__(self) -> None:
        self._outage = False

    async def ask(self, shared: Awaitable[bool] | None, local: Callable[[], bool]) -> bool:
        if shared is not None:
            try:
                allowed = await shared
            except (RedisError, OSError) as exc:
                if not self._outage:
                    log.warning("Redis does not answer: limits are counted by this process "
                                "alone (%s)", exc)
                self._outage = True
            else:
                self._outage = False
                return allowed
        return local()


class SignInGate:
    """Where sign-in attempts are counted: in Redis when the process has one (``shared``),
    else — or while Redis does not answer — in this process's memory (``local``)."""

    def __init__(self, local: SignInLimits, shared: SharedSignIns | None) -> None:
        self.local = local
        self.shared = shared
        self._fallback = _Fallback()

    async def attempt(self, address: str, key: str | None) -> bool:
        """:meth:`SignInLimits.attempt`, across the cluster when there is one."""
        return await self._fallback.ask(
            None if self.shared is None else self.shared.attempt(address, key),
            lambda: self.local.attempt(address, key))


class RateGate:
    """Where an address's HTTP writes and heavy reads are counted: in Redis when the process
    has one, else (or while Redis does not answer) in ``local``."""

    def __init__(self, local: AddressLimits, shared: SharedRates | None) -> None:
        self.local = local
        self.shared = shared
        self._fallback = _Fallback()

    async def write(self, address: str) -> bool:
        """:meth:`AddressLimits.write`, across the cluster when there is one."""
        return await self._fallback.ask(
            None if self.shared is None else self.shared.write(address),
            lambda: self.local.write(address))

    async def read(self, address: str) -> bool:
        """:meth:`AddressLimits.read`, across the cluster when there is one."""
        return await self._fallback.ask(
            None if self.shared is None else self.shared.read(address),
            lambda: self.local.read(address))


class AnalysisGate:
    """The new analyses an address may ask for (``per_hour``, in bursts of up to a third of
    it; issue 33): in Redis when the process has one, so that N processes do not give an
    address N times the analyses, else (or while Redis does not answer) ``local``."""

    def __init__(self, per_hour: int, local: Callable[[str], bool],
                 shared: SharedBuckets | None) -> None:
        self.per_hour = per_hour
        self.local = local
        self.shared = shared
        self._fallback = _Fallback()

    async def take(self, address: str) -> bool:
        """One of the address's new analyses, across the cluster when there is one."""
        shared = None if self.shared is None else self.shared.take(
            [(f"pitch:analyses:{{{address}}}", self.per_hour / 3600.0,
              float(max(1, self.per_hour // 3)))])
        return await self._fallback.ask(shared, lambda: self.local(address))
