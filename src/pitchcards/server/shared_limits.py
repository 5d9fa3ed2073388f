"""Sign-in attempts, HTTP writes, heavy reads and misses (lookups of ids that do not exist)
counted across the processes of a cluster (``--redis``, issues 31 and 32).

:class:`~.limits.SignInLimits` and :class:`~.limits.AddressLimits` count in one process's
memory.  Behind a load balancer one address reaches every process, so with N processes a
password guesser had N times the attempts, per address and per account, and a stranger N times
the writes and reads.  Here each bucket (``pitch:writes:{<address>}``, ``pitch:reads:{…}``,
``pitch:misses:{…}``, ``pitch:signin:addr:{…}``, ``pitch:signin:acct:{<key>}``,
``pitch:analyses:{<address>}``: the new analyses an address asks for, issue 33) is a hash in
Redis — its tokens and when they were counted — and one script refills and takes from every
bucket of a request at once: two processes cannot both take an account's last attempt, and a
refused attempt takes from none (as in memory).  A bucket expires once it would be full
again, so Redis keeps only addresses and names seen lately.  The clock is the processes'
(``time.time``; a test gives its own).

When Redis does not answer, a process counts in its own memory (as without ``--redis``) and
says so in its log: an outage of Redis never locks everyone out.

Open WebSockets per address (``--max-connections-per-address``) are counted in Redis too, as
leases: each socket is a member of its address's sorted set ``pitch:sockets:{<address>}``,
scored by when it stops counting unless renewed.  One script drops the expired members, checks
the cap and adds the new one, so two processes cannot both take an address's last socket.  A
socket's close takes its member out; each process renews its open sockets' members every
heartbeat, so the sockets of a process that died (kill -9: it closes nothing) stop counting
within ``hold`` seconds (three heartbeats).  Leases expire by Redis's own clock (``TIME``), not
the processes'.  Each process also counts its own sockets in
memory, which alone decide while Redis does not answer.

The hard and expert bots' thoughts per address (``--thoughts-per-address``) are leases the same
way, in ``pitch:thoughts:{<key>}``: a thought takes one of this process's slots
(:class:`~.thinking.ThoughtSlots`), then waits for a lease (asking again every
``THOUGHT_POLL`` seconds), renews it while it thinks, and gives it back; a dead process's
leases run out after ``THOUGHT_HOLD`` seconds.  While Redis does not answer, the process's own
slots alone decide.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any

from redis.exceptions import RedisError

from .limits import AddressLimits, SignInLimits
from .thinking import ThoughtSlots

__all__ = [
    "AnalysisGate",
    "RateGate",
    "SharedBuckets",
    "SharedLeases",
    "SharedRates",
    "SharedSignIns",
    "SignInGate",
    "SocketGate",
    "SocketLease",
    "ThoughtGate",
]

log = logging.getLogger("pitchcards.server")

#: Seconds a thought's lease counts after its last renewal (it is renewed every third of it).
THOUGHT_HOLD = 10.0
#: Seconds between a waiting thought's asks for a lease.
THOUGHT_POLL = 0.05

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

# KEYS[1]: a bucket; ARGV: now, its rate and burst.  1 if it holds a whole token (nothing is
# taken: a miss is counted after it happened, a lookup only asks whether it may).
_HOLDS = """
local got = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens, stamp = tonumber(got[1]), tonumber(got[2])
if tokens == nil or stamp == nil then return 1 end
local now, rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if math.min(burst, tokens + math.max(0, now - stamp) * rate) >= 1 then return 1 end
return 0
"""

# Redis's own clock (seconds), unless a test gives its own time in ARGV[1] (else ""): every
# process's leases expire by one clock, so a process whose clock runs ahead cannot drop the
# live leases of the others.
_NOW = """
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) + tonumber(t[2]) / 1000000
end
"""

# KEYS[1]: an address's sockets; ARGV: now (or ""), the hold, the new lease's member, the cap.
# Expired leases (their process died or lost Redis) go first; at the cap nothing is added (0).
_OPEN = _NOW + """
local expiry = now + tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], expiry, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 1000))
return 1
"""

# KEYS[1]: an address's set; ARGV: now (or ""), the hold, a member: counted ``hold`` seconds
# more if still counted (XX: a closed one is not brought back).
_RENEW = _NOW + """
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 1000))
return 1
"""

# KEYS[1]: an address's set; ARGV: now (or ""): its live leases.
_COUNT = _NOW + """
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
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

    async def holds(self, key: str, rate: float, burst: float) -> bool:
        """Whether bucket ``key`` holds a whole token now (nothing is taken).  Raises
        RedisError."""
        held = await self.redis.eval(_HOLDS, 1, key, repr(self.clock()), rate, burst)
        return int(held) == 1


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
    """An address's HTTP writes, heavy reads and misses in every process's buckets, in Redis
    (the same rates and bursts as :class:`~.limits.AddressLimits`)."""

    def __init__(self, redis: Any, writes_per_minute: int, reads_per_minute: int,
                 misses_per_minute: int = 120, clock: Callable[[], float] = time.time) -> None:
        self.buckets = SharedBuckets(redis, clock)
        self.writes_per_minute = writes_per_minute
        self.reads_per_minute = reads_per_minute
        self.misses_per_minute = misses_per_minute

    async def write(self, address: str) -> bool:
        """:meth:`AddressLimits.write` across the processes.  Raises RedisError."""
        return await self._take("writes", address, self.writes_per_minute)

    async def read(self, address: str) -> bool:
        """:meth:`AddressLimits.read` across the processes.  Raises RedisError."""
        return await self._take("reads", address, self.reads_per_minute)

    async def may_look(self, address: str) -> bool:
        """:meth:`AddressLimits.may_look` across the processes.  Raises RedisError."""
        per_minute = self.misses_per_minute
        return await self.buckets.holds(f"pitch:misses:{{{address}}}", per_minute / 60.0,
                                         float(max(1, per_minute // 4)))

    async def missed(self, address: str) -> None:
        """:meth:`AddressLimits.missed` across the processes.  Raises RedisError."""
        await self._take("misses", address, self.misses_per_minute)

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
    """Where an address's HTTP writes, heavy reads and misses are counted: in Redis when the process
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

    async def may_look(self, address: str) -> bool:
        """:meth:`AddressLimits.may_look`, across the cluster when there is one."""
        return await self._fallback.ask(
            None if self.shared is None else self.shared.may_look(address),
            lambda: self.local.may_look(address))

    async def missed(self, address: str) -> None:
        """:meth:`AddressLimits.missed`, across the cluster when there is one."""
        def local() -> bool:
            self.local.missed(address)
            return True

        await self._fallback.ask(None if self.shared is None else self._missed(address), local)

    async def _missed(self, address: str) -> bool:
        assert self.shared is not None
        await self.shared.missed(address)
        return True


class SharedLeases:
    """Every process's open WebSockets (``kind`` "sockets") or bots' thoughts ("thoughts") per
    address, as leases in Redis (the module says how); ``hold``: seconds a lease counts after
    its process last renewed it."""

    def __init__(self, redis: Any, kind: str, cap: int, hold: float,
                 clock: Callable[[], float] | None = None) -> None:
        self.redis = redis  #: redis.asyncio.Redis (the bus's connection)
        self.kind = kind
        self.cap = cap
        self.hold = hold
        #: seconds: Redis's own clock (None), so one clock for every process; a test's own
        self.clock = clock

    def _key(self, address: str) -> str:
        return f"pitch:{self.kind}:{{{address}}}"

    def _now(self) -> str:
        return "" if self.clock is None else repr(self.clock())

    async def open(self, address: str, member: str) -> bool:
        """Count the socket ``member`` in ``address``'s set unless the address has ``cap``
        live ones (False, nothing counted).  Raises RedisError."""
        taken = await self.redis.eval(_OPEN, 1, self._key(address), self._now(),
                                      repr(self.hold), member, self.cap)
        return int(taken) == 1

    async def close(self, address: str, member: str) -> None:
        """The socket closed: it counts no more.  Raises RedisError."""
        await self.redis.zrem(self._key(address), member)

    async def renew(self, held: Iterable[tuple[str, str]]) -> None:
        """This process's open sockets ``(address, member)`` count for ``hold`` seconds more
        (only those still counted, so a closed one is not brought back).  Raises RedisError."""
        pipe = self.redis.pipeline(transaction=False)
        for address, member in held:
            pipe.eval(_RENEW, 1, self._key(address), self._now(), repr(self.hold), member)
        await pipe.execute()

    async def count(self, address: str) -> int:
        """The address's live sockets in every process (what a test or an operator reads)."""
        return int(await self.redis.eval(_COUNT, 1, self._key(address), self._now()))


class SocketLease:
    """One open WebSocket's place in its address's count (what :meth:`SocketGate.close`
    gives back)."""

    __slots__ = ("address", "member")

    def __init__(self, address: str, member: str) -> None:
        self.address = address
        self.member = member  #: its member in Redis: this process's id and a serial number


class SocketGate:
    """Where open WebSockets per address are counted: always in this process's memory
    (``local``), and in Redis as leases when the process has one — while Redis does not
    answer, the process's own count alone decides."""

    def __init__(self, local: AddressLimits, shared: SharedLeases | None) -> None:
        self.local = local
        self.shared = shared
        self._fallback = _Fallback()
        self._process = secrets.token_hex(8)  #: this process in its leases' members
        self._serial = itertools.count()
        self._held: dict[str, str] = {}  #: member → address of this process's open sockets

    async def open(self, address: str) -> SocketLease | None:
        """Count a new socket from ``address``; None (and nothing counted) over the cap."""
        if not self.local.open(address):  # this process's own are part of every process's
            return None
        lease = SocketLease(address, f"{self._process}:{next(self._serial)}")
        if self.shared is not None:
            try:
                allowed = await self._fallback.ask(self.shared.open(address, lease.member),
                                                   lambda: True)  # (counted in memory above)
            except BaseException:  # cancelled, or failed: this process's count given back
                self.local.close(address)
                raise
            if not allowed:
                self.local.close(address)
                return None
            self._held[lease.member] = address
        return lease

    async def close(self, lease: SocketLease) -> None:
        """The socket closed: it counts no more, here and in Redis."""
        self.local.close(lease.address)
        if self.shared is not None and self._held.pop(lease.member, None) is not None:
            await self._fallback.ask(self._close(lease), lambda: True)  # else it expires

    async def renew(self) -> None:
        """Renew this process's open sockets' leases (each heartbeat)."""
        if self.shared is not None and self._held:
            await self._fallback.ask(self._renew(), lambda: True)  # else they expire

    async def keep_renewed(self, every: float) -> None:
        """:meth:`renew` every ``every`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(every)
            await self.renew()

    async def _close(self, lease: SocketLease) -> bool:
        assert self.shared is not None
        await self.shared.close(lease.address, lease.member)
        return True

    async def _renew(self) -> bool:
        assert self.shared is not None
        await self.shared.renew([(address, member) for member, address in self._held.items()])
        return True


class ThoughtGate:
    """Where the slow bots' thoughts per address are counted: this process's slots
    (``local``), then, with Redis, a lease among every process's (the module says how)."""

    def __init__(self, local: ThoughtSlots, shared: SharedLeases | None,
                 poll: float = THOUGHT_POLL) -> None:
        self.local = local
        self.shared = shared
        self.poll = poll
        self._fallback = _Fallback()
        self._process = secrets.token_hex(8)  #: this process in its leases' members
        self._serial = itertools.count()

    @contextlib.asynccontextmanager
    async def slot(self, key: str) -> AsyncIterator[None]:
        """Hold one of ``key``'s slots for a thought, here and across the processes (waiting
        for one if all are taken)."""
        async with self.local.slot(key):
            shared = self.shared
            if shared is None:
                yield
                return
            member = f"{self._process}:{next(self._serial)}"
            while not await self._fallback.ask(shared.open(key, member), lambda: True):
                await asyncio.sleep(self.poll)  # another process's thoughts hold them all
            renewer = asyncio.create_task(self._keep_renewed(shared, key, member))
            try:
                yield
            finally:
                renewer.cancel()
                await self._fallback.ask(self._close(shared, key, member), lambda: True)

    async def _keep_renewed(self, shared: SharedLeases, key: str, member: str) -> None:
        while True:
            await asyncio.sleep(shared.hold / 3)
            await self._fallback.ask(self._renew(shared, key, member), lambda: True)

    @staticmethod
    async def _renew(shared: SharedLeases, key: str, member: str) -> bool:
        await shared.renew([(key, member)])
        return True

    @staticmethod
    async def _close(shared: SharedLeases, key: str, member: str) -> bool:
        await shared.close(key, member)
        return True


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

    @staticmethod
    def shape(per_hour: int) -> tuple[float, float]:
        """An address's analyses bucket: its refill (tokens a second) and burst — the same in
        Redis and in one process's memory, so ``--redis`` changes where it is counted, not how
        many (up to a third of ``per_hour`` at once, then ``per_hour`` an hour)."""
        return per_hour / 3600.0, float(max(1, per_hour // 3))

    async def take(self, address: str) -> bool:
        """One of the address's new analyses, across the cluster when there is one."""
        rate, burst = self.shape(self.per_hour)
        shared = None if self.shared is None else self.shared.take(
            [(f"pitch:analyses:{{{address}}}", rate, burst)])
        return await self._fallback.ask(shared, lambda: self.local(address))
