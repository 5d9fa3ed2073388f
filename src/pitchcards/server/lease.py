"""Who owns a table: a PostgreSQL advisory lock, held on one connection of the process.

Each table's engine runs in one process at a time (issue 13).  That process holds the table's
session-level advisory lock (``pg_try_advisory_lock``) on a connection of its own, kept open
for as long as it owns anything.  Why a lock in PostgreSQL rather than a lease in Redis:

* **It dies with its holder.**  A process killed with -9 closes its socket, the server ends
  that session and every lock it held is free at once — no TTL to wait out.  A machine that
  vanishes is noticed by TCP keepalives (set below to ~8 s).
* **It lives where the data lives.**  Ownership and the log sit in the same database, so a
  Redis that restarts or loses its memory changes no owner: Redis only carries messages.
* **No renewals.**  A lease in Redis must be renewed by its owner (100,000 tables: tens of
  thousands of writes a second, and a GC pause longer than the TTL hands a live table to
  another process).  A lock costs nothing while held.

A lock is not what keeps the log safe: the fencing version is (``Store.append_many``).  If a
process loses its lock connection it drops every room it holds (``on_lost``), and until it
notices, its writes are refused because the new owner's moved the version on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable

import psycopg

__all__ = ["Leases", "libpq_url", "lock_key"]

log = logging.getLogger("pitchcards.server")

#: How often the lock connection is checked (a lost one loses every table at once).
CHECK_EVERY = 1.0


def lock_key(table_id: str) -> int:
    """The table's advisory lock key: 64 bits of SHA-256 of its id (two tables sharing a key
    would only share an owner)."""
    return int.from_bytes(hashlib.sha256(b"pitch:" + table_id.encode()).digest()[:8], "big",
                          signed=True)


def libpq_url(sqlalchemy_url: str) -> str:
    """``postgresql+psycopg://…`` (SQLAlchemy's) as libpq takes it."""
    scheme, rest = sqlalchemy_url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgres") else sqlalchemy_url


class Leases:
    """This process's table locks, on a connection of their own."""

    def __init__(self, url: str, on_lost: Callable[[], None]) -> None:
        self.url = libpq_url(url)
        self.on_lost = on_lost
        self.held: set[str] = set()
        self._conn: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._closing = False

    async def open(self) -> None:
        self._conn = await self._connect()
        self._watch = asyncio.create_task(self._watcher())

    async def _connect(self) -> psycopg.AsyncConnection[tuple[object, ...]]:
        # keepalives on both ends: a machine that vanished frees its locks in seconds
        return await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=5, application_name="pitch-leases",
            keepalives=1, keepalives_idle=5, keepalives_interval=1, keepalives_count=3,
            options="-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=1 "
                    "-c tcp_keepalives_count=3")

    async def try_acquire(self, table_id: str) -> bool:
        """Take the table's lock if nobody holds it (True), else leave it (False)."""
        if table_id in self.held:  # the lock is re-entrant: never take it twice
            return True
        conn = self._conn
        if conn is None or conn.closed:
            return False
        cur = await conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),))
        row = await cur.fetchone()
        if row is not None and row[0] is True:
            self.held.add(table_id)
            return True
        return False

    def release(self, table_id: str) -> Awaitable[None] | None:
        """Let the table go: it is no longer held from now on (a claim that comes before the
        unlock takes the lock again, counted twice, so the unlock leaves it held); the
        unlock itself is the awaitable returned (None if the table was not held)."""
        if table_id not in self.held:
            return None
        self.held.discard(table_id)
        return self._unlock(table_id)

    async def _unlock(self, table_id: str) -> None:
        conn = self._conn
        if conn is not None and not conn.closed:
            with contextlib.suppress(psycopg.Error):
                await conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))

    async def _watcher(self) -> None:
        """Check the lock connection every second; if it is gone, so are the locks: tell the
        hub (it drops every room) and connect again."""
        while not self._closing:
            await asyncio.sleep(CHECK_EVERY)
            conn = self._conn
            try:
                if conn is None or conn.closed:
                    raise psycopg.OperationalError("no lock connection")
                await asyncio.wait_for(conn.execute("SELECT 1"), 5)
                continue
            except (psycopg.Error, OSError, TimeoutError) as exc:
                if self._closing:
                    return
                log.error("lost the table locks: %s", exc)
            self.held.clear()
            self.on_lost()
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
            self._conn = None
            with contextlib.suppress(psycopg.Error, OSError):
                self._conn = await self._connect()

    async def close(self) -> None:
        """Let every table go (closing the connection frees its locks)."""
        self._closing = True
        if self._watch is not None:
            self._watch.cancel()
        self.held.clear()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
