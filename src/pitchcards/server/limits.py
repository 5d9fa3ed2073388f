"""Rate limits and connection caps: one client, or one address, cannot crowd out the rest."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable

__all__ = ["AddressLimits", "SignInLimits", "TokenBucket"]


class TokenBucket:
    """``rate`` events per second on average, bursts of up to ``burst`` (the classic bucket)."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock  #: seconds, monotonic (a test's own clock: no refill by chance)
        self.tokens = float(burst)
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` if the bucket holds it (True), else refuse (False) and spend nothing."""
        self._refill()
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def holds(self, cost: float = 1.0) -> bool:
        """Whether ``cost`` could be spent now (nothing is spent)."""
        self._refill()
        return self.tokens >= cost


class AddressLimits:
    """Per client address: open WebSockets (a cap), HTTP writes, heavy reads (a table's
    results, record, hands) and lookups of tables that do not exist (a bucket per minute each)."""

    def __init__(self, max_connections: int, writes_per_minute: int,
                 reads_per_minute: int = 120, misses_per_minute: int = 120,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_connections = max_connections
        self.writes_per_minute = writes_per_minute
        self.reads_per_minute = reads_per_minute
        self.misses_per_minute = misses_per_minute
        #: the buckets' clock (a test sets its own, so no token comes back by chance)
        self.clock = clock
        self.connections: defaultdict[str, int] = defaultdict(int)
        self._writes: dict[str, TokenBucket] = {}
        self._reads: dict[str, TokenBucket] = {}
        self._misses: dict[str, TokenBucket] = {}

    def open(self, address: str) -> bool:
        """Count a new socket from ``address``; False (and not counted) over the cap."""
        if self.connections[address] >= self.max_connections:
            return False
        self.connections[address] += 1
        return True

    def close(self, address: str) -> None:
        left = self.connections[address] - 1
        if left > 0:
            self.connections[address] = left
        else:
            self.connections.pop(address, None)

    def write(self, address: str) -> bool:
        """An HTTP request that changes something; False when ``address`` is over its rate."""
        return self._bucket(self._writes, address, self.writes_per_minute).take()

    def read(self, address: str) -> bool:
        """A read that costs work in proportion to a table's history (results, record,
        hands); False when ``address`` is over its rate."""
        return self._bucket(self._reads, address, self.reads_per_minute).take()

    def may_look(self, address: str) -> bool:
        """May ``address`` look a table up?  Not while its misses have spent its bucket: then
        it is refused before any work (issue 31, finding 2)."""
        bucket = self._misses.get(address)
        return bucket is None or bucket.holds()

    def missed(self, address: str) -> None:
        """``address`` asked for a table (or an invite) that does not exist."""
        self._bucket(self._misses, address, self.misses_per_minute).take()

    def _bucket(self, buckets: dict[str, TokenBucket], address: str,
                per_minute: int) -> TokenBucket:
        bucket = buckets.get(address)
        if bucket is None:
            if len(buckets) > 10_000:  # forget idle addresses rather than grow forever
                buckets.clear()
            bucket = buckets[address] = TokenBucket(per_minute / 60.0, max(1, per_minute // 4),
                                                    clock=lambda: self.clock())
        return bucket


class SignInLimits:
    """Sign-in attempts (issue 32): per client address and per account name, every attempt
    counted whether it succeeds, names an account that does not exist, or gives a wrong
    password — so guessing one account's password from many addresses, or many accounts'
    from one address, is slow, and an attempt at a name that has no account is limited exactly
    as one at a name that has.  The name is counted by its lookalike-aware key
    (:func:`~.names.name_key`).  A registration costs its address one attempt too (it hashes
    a password as a sign-in does).  Per process: with ``--redis`` each process keeps its own."""

    def __init__(self, per_address_per_minute: int, per_account_per_hour: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_address_per_minute = per_address_per_minute
        self.per_account_per_hour = per_account_per_hour
        #: the buckets' clock (a test sets its own, so no attempt comes back by chance)
        self.clock = clock
        self._addresses: dict[str, TokenBucket] = {}
        self._accounts: dict[str, TokenBucket] = {}

    def attempt(self, address: str, key: str | None) -> bool:
        """Count an attempt from ``address`` at the account named ``key`` (None: a
        registration); False, counting nothing, if either is over its rate."""
        by_address = self._bucket(self._addresses, address, self.per_address_per_minute / 60.0,
                                  self.per_address_per_minute)
        by_account = None if key is None else self._bucket(
            self._accounts, key, self.per_account_per_hour / 3600.0,
            max(1, self.per_account_per_hour // 3))
        if not by_address.holds() or (by_account is not None and not by_account.holds()):
            return False
        by_address.take()
        if by_account is not None:
            by_account.take()
        return True

    def _bucket(self, buckets: dict[str, TokenBucket], key: str, rate: float,
                burst: int) -> TokenBucket:
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) >= SIGN_IN_KEYS:
                _forget_the_fullest(buckets)
            bucket = buckets[key] = TokenBucket(rate, burst, clock=lambda: self.clock())
        return bucket


#: How many addresses (and, apart, account names) the sign-in limits remember at once.
SIGN_IN_KEYS = 10_000


def _forget_the_fullest(buckets: dict[str, TokenBucket]) -> None:
    """Make room by forgetting the tenth of the buckets that hold the most tokens: a full one is
    a fresh one, so forgetting it forgives nothing, and the nearest to full forgive the least.
    Never all of them: a stranger who tries 10,000 made-up names must not wipe the count of the
    account they are guessing at (it is the emptiest, so it is kept)."""
    for bucket in buckets.values():
        bucket.holds()  # refill to now, so the tokens compare at one moment
    fullest = sorted(buckets, key=lambda k: buckets[k].tokens, reverse=True)
    for key in fullest[:max(1, len(buckets) // 10)]:
        del buckets[key]
