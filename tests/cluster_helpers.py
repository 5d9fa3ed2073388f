"""Several ``pitch serve`` processes sharing tables (issue 13), for the cluster tests: a Redis
of the test's own on a free port (never the machine's on 6379), a PostgreSQL database made for
the test, and three servers on free ports of 127.0.0.1 started with ``--redis``."""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis

from pitchcards.client import Client, Seat, TableConnection
from server_helpers import QUICK_LIMITS, ServerProcess, free_port, postgres_database


class RedisProcess:
    """``redis-server`` on a free port, nothing saved: the test may kill and restart it."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisProcess:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # only a hang takes this long
        while time.monotonic() < deadline:
            try:
                out = subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                                     capture_output=True, timeout=2, check=False)
                if out.stdout.strip() == b"PONG":
                    return self
            except subprocess.TimeoutExpired:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Cluster:
    """Three (or ``n``) servers on one PostgreSQL database and one Redis."""

    def __init__(self, servers: list[ServerProcess], redis: RedisProcess, db_url: str) -> None:
        self.servers = servers
        self.redis = redis
        self.db_url = db_url

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    def alive(self) -> list[ServerProcess]:
        return [s for s in self.servers if s.proc is not None and s.proc.poll() is None]

    def log_entries(self, table: str) -> list[tuple[int, dict[str, Any]]]:
        """The table's log as stored: (n, entry) in order."""
        import json

        with psycopg.connect(self.db_url) as conn:
            rows = conn.execute("SELECT n, entry FROM log WHERE table_id = %s ORDER BY n",
                                (table,)).fetchall()
        return [(int(n), json.loads(entry)) for n, entry in rows]

    def seeds(self) -> list[str]:
        with psycopg.connect(self.db_url) as conn:
            return [str(r[0]) for r in conn.execute("SELECT seed FROM tables").fetchall()]

    def output(self) -> str:
        return "\n".join(f"--- {s.url}\n{s.output()[-3000:]}" for s in self.servers)


def redis_scene(tmp_path: Path, scene: Callable[[str], Awaitable[None]]) -> None:
    """Run ``scene(url)`` against a Redis of the test's own, killed afterwards."""
    redis_server = RedisProcess(tmp_path).start()
    try:
        asyncio.run(scene(redis_server.url))
    finally:
        redis_server.kill()


@contextlib.contextmanager
def running_cluster(tmp_path: Path, n: int = 3,
                    extra: tuple[str, ...] = ()) -> Iterator[Cluster]:
    """``n`` servers sharing a new PostgreSQL database through a Redis of the test's own
    (``extra``: more flags for each, after the tests' quick limits)."""
    with contextlib.ExitStack() as stack:
        db_url = stack.enter_context(postgres_database())
        redis = RedisProcess(tmp_path).start()
        stack.callback(redis.kill)
        servers = []
        for _ in range(n):  # one at a time: the first runs the migrations
            server = ServerProcess(db_url, workdir=tmp_path,
                                   extra=("--redis", redis.url, *QUICK_LIMITS, *extra))
            stack.callback(server.stop)
            servers.append(server.start())
        yield Cluster(servers, redis, db_url)


class SpreadClient(Client):
    """A client whose sockets go to the servers in turn (its HTTP to the first)."""

    def __init__(self, servers: Sequence[str], **options: Any) -> None:
        super().__init__(servers[0], **options)
        self.servers = list(servers)
        self._next = 0

    async def connect(self, seat: Seat | None = None, *, table: str | None = None,
                      **options: Any) -> TableConnection:
        server = self.servers[self._next % len(self.servers)]
        self._next += 1
        conn = TableConnection(server, seat.table if seat else str(table),
                               seat.token if seat else None, **options)
        await conn.open()
        return conn


def ws_url(server: str, table: str) -> str:
    return server.replace("http://", "ws://", 1) + f"/ws/{table}"


async def reconnect(conn: TableConnection, servers: Sequence[str], rng: random.Random,
                    timeout: float = 30.0) -> str:
    """Reconnect ``conn`` to one of ``servers`` (trying them in a random order until one
    takes it), resyncing by its last seq; the server it got."""
    deadline = time.monotonic() + timeout
    while True:
        for server in rng.sample(list(servers), len(servers)):
            conn.url = ws_url(server, conn.table)
            try:
                await conn.resume()
                return server
            except Exception:
                if time.monotonic() > deadline:
                    raise
        await asyncio.sleep(0.3)


async def play_on(conn: TableConnection, rng: random.Random, servers: Any,
                  stop: Any = lambda: False) -> int:
    """Play random legal actions for ``conn``'s seat until the game ends or ``stop()``,
    reconnecting (to any server ``servers()`` lists) whenever its socket closes; how many times
    it reconnected."""
    from pitchcards.client import ServerError

    reconnects = 0
    while not conn.over and not stop():
        if conn.closed:
            await reconnect(conn, servers(), rng)
            reconnects += 1
            continue
        with contextlib.suppress(TimeoutError):
            await conn.wait_for(lambda: conn.is_my_turn() or conn.over or conn.closed
                                or stop(), 5)
        if conn.closed or not conn.is_my_turn() or stop():
            continue
        assert conn.view is not None
        with contextlib.suppress(ServerError):  # closed under it, or stale: look again
            await conn.act(str(rng.choice(conn.view.legal_actions)), timeout=30)
    return reconnects


FAR_FUTURE = str(10**15)  # seconds since 1970: no process's clock reaches it
# A bucket's stamp in the far future: the scripts' ``max(0, now - stamp)`` refills nothing,
# and it no longer expires.
_FREEZE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'stamp', ARGV[1])
redis.call('PERSIST', KEYS[1])
return 1
"""


def spend_and_freeze(buckets: redis.Redis, pattern: str,
                     request: Callable[[], httpx.Response], status: int) -> None:
    """``request()`` (answered ``status``) takes a token of the bucket ``pattern`` names, and
    that bucket is frozen; again until it holds less than a whole token (a bucket of burst
    ``b``: ``b`` requests, no refill between them).  Should the bucket have expired before
    it was frozen (a stall as long as its refill), it was full again and the request is
    made again."""
    while True:
        reply = request()
        assert reply.status_code == status, reply.text
        keys = list(buckets.scan_iter(match=pattern))
        assert len(keys) <= 1, keys  # one address: 127.0.0.1
        if keys and buckets.eval(_FREEZE, 1, keys[0], FAR_FUTURE) == 1:
            tokens = buckets.hget(keys[0], "tokens")
            assert tokens is not None
            if float(tokens) < 1:
                return
