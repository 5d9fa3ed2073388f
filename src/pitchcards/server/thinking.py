"""Bots' thoughts share a budget per address: the hard and expert bots of every table one
address created think at most ``thoughts_per_address`` at a time (issue 31, finding 1).

Why: such a bot thinks for seconds on a worker thread that holds Python's GIL; the event loop
(every other table's messages) waits for the GIL behind each thinking thread.  Capping the
tables per address still let one stranger run four experts at once, and another table's p99
went to seconds.  With one thought at a time per address, a stranger's tables take turns on one
thread — they play slower, the rest of the server does not (docs/server.md, "Under attack").
A table whose creator this process does not know (loaded from the database after a restart)
is its own key: it thinks alone, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

__all__ = ["ThoughtSlots"]


class _Slot:
    """One key's semaphore, and how many thoughts hold it or wait for it."""

    __slots__ = ("semaphore", "users")

    def __init__(self, size: int) -> None:
        self.semaphore = asyncio.Semaphore(size)
        self.users = 0


class ThoughtSlots:
    """At most ``per_key`` thoughts at once for each key (a creator's address); a key with no
    thought running or waiting keeps nothing in memory."""

    def __init__(self, per_key: int) -> None:
        if per_key < 1:
            raise ValueError(f"thoughts per address: {per_key}; at least 1 is needed")
        self.per_key = per_key
        self._slots: dict[str, _Slot] = {}

    @contextlib.asynccontextmanager
    async def slot(self, key: str) -> AsyncIterator[None]:
        """Hold one of ``key``'s slots for a thought (waiting for one if all are taken)."""
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot(self.per_key)
        slot.users += 1
        try:
            async with slot.semaphore:
                yield
        finally:
            slot.users -= 1
            if slot.users == 0 and self._slots.get(key) is slot:
                del self._slots[key]

    def waiting(self, key: str) -> int:
        """Thoughts of ``key`` that wait for a slot (not counting those thinking)."""
        slot = self._slots.get(key)
        if slot is None:
            return 0
        return max(0, slot.users - self.per_key)

    def keys(self) -> int:
        """Keys with a thought running or waiting (what this keeps in memory)."""
        return len(self._slots)
