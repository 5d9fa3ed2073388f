"""Sign-in attempts counted across the processes of a cluster (``--redis``, issues 31 and 32).

:class:`~.limits.SignInLimits` counts in one process's memory.  Behind a load balancer one
address reaches every process, so with N processes a password guesser had N times the
attempts, per address and per account.  Here each bucket (``pitch:signin:addr:{<address>}``,
``pitch:signin:acct:{<key>}``) is a hash in Redis — its tokens and when they were counted — and
one script refills and takes from both buckets of an attempt at once: two processes cannot
both take an account's last attempt, and a refused attempt takes from neither (as in memory).
A bucket expires once it would be full again, so Redis keeps only addresses and names tried
lately.  The clock is the processes' (``time.time``; a test gives its own).

When Redis does not answer, a process counts attempts in its own memory (as without
``--redis``) and says so in its log: an outage of Redis never locks everyone out.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from .limits import SignInLimits

__all__ = ["SharedSignIns", "SignInGate"]

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


class SharedSignIns:
    """The sign-in buckets of every process, in Redis (same rates as :class:`SignInLimits`)."""

    def __init__(self, redis: Any, per_address_per_minute: int, per_account_per_hour: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.redis = redis  #: redis.asyncio.Redis (the bus's connection)
        self.per_address_per_minute = per_address_per_minute
        self.per_account_per_hour = per_account_per_hour
        self.clock = clock  #: seconds, the same on every process (a test sets its own)

    async def attempt(self, address: str, key: str | None) -> bool:
        """Count an attempt from ``address`` at the account named ``key`` (None: a
        registration) in every process's buckets; False, counting nothing, if either is over
        its rate.  Raises RedisError."""
        keys = [f"pitch:signin:addr:{{{address}}}"]
        args: list[Any] = [repr(self.clock()), self.per_address_per_minute / 60.0,
                           self.per_address_per_minute]
        if key is not None:
            keys.append(f"pitch:signin:acct:{{{key}}}")
            args += [self.per_account_per_hour / 3600.0, max(1, self.per_account_per_hour // 3)]
        taken = await self.redis.eval(_TAKE, len(keys), *keys, *args)
        return int(taken) == 1


class SignInGate:
    """Where sign-in attempts are counted: in Redis when the process has one (``shared``),
    else — or while Redis does not answer — in this process's memory (``local``)."""

    def __init__(self, local: SignInLimits, shared: SharedSignIns | None) -> None:
        self.local = local
        self.shared = shared
        self._outage = False  #: Redis failed last time (logged once per outage)

    async def attempt(self, address: str, key: str | None) -> bool:
        """:meth:`SignInLimits.attempt`, across the cluster when there is one."""
        if self.shared is not None:
            try:
                allowed = await self.shared.attempt(address, key)
            except (RedisError, OSError) as exc:
                if not self._outage:
                    log.warning("Redis does not answer: sign-in attempts are counted by this "
                                "process alone (%s)", exc)
                self._outage = True
            else:
                self._outage = False
                return allowed
        return self.local.attempt(address, key)

