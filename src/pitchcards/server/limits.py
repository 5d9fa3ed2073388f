"""Rate limits and connection caps: one client, or one address, cannot crowd out the rest."""

from __future__ import annotations

import time
from collections import defaultdict

__all__ = ["AddressLimits", "TokenBucket"]


class TokenBucket:
    """``rate`` events per second on average, bursts of up to ``burst`` (the classic bucket)."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` if the bucket holds it (True), else refuse (False) and spend nothing."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


class AddressLimits:
    """Per client address: open WebSockets (a cap) and HTTP writes (a bucket per minute)."""

    def __init__(self, max_connections: int, writes_per_minute: int) -> None:
        self.max_connections = max_connections
        self.writes_per_minute = writes_per_minute
        self.connections: defaultdict[str, int] = defaultdict(int)
        self._writes: dict[str, TokenBucket] = {}

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
        bucket = self._writes.get(address)
        if bucket is None:
            if len(self._writes) > 10_000:  # forget idle addresses rather than grow forever
                self._writes.clear()
            bucket = self._writes[address] = TokenBucket(self.writes_per_minute / 60.0,
                                                         max(1, self.writes_per_minute // 4))
        return bucket.take()
