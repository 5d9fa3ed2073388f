"""Messages between ``pitch serve`` processes, through Redis (issue 13).

Redis carries messages only; nothing in it is needed to rebuild a table (PostgreSQL holds the
log, and the table locks, ``lease.py``).  What crosses it:

* **A table's frames**, from its owner to the processes with sockets at it, on the sharded
  channel ``pitch:t:{<table>}`` (``SPUBLISH``; the table id is the hash tag, so a Redis
  Cluster may spread tables over shards).  One message carries every frame the owner queued
  for the table's remote sockets since the last one, each frame once with the ids of the
  sockets it goes to: the owner cut it (``Table.cut``) for exactly those.  All of a table's
  frames travel on this one channel from one publisher, so they arrive in the order sent.
* **Requests** (a remote socket's hello, action, chat and goodbye; the HTTP writes and reads)
  to the owner's inbox ``pitch:p:<process>``, and their **replies** to the asker's inbox.
* **Who is alive**: ``pitch:alive:<process>`` (a key that expires 3 s after its owner stops
  renewing it) and **who owns a table**: ``pitch:owner:{<table>}`` (a hint; the lock decides).

Every publish goes through one writer task and one pipeline per round, so messages leave in
the order they were queued and a busy second costs a few round trips, not one per frame.
When the connection to Redis drops, the bus says so (``Handler.down``): the cluster closes the
sockets whose frames came through Redis (their clients reconnect and resync by ``seq``) and,
once Redis answers again, subscribes again and says so (``Handler.up``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Awaitable, Iterable
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

__all__ = ["ALIVE_TTL", "Bus", "Handler", "decode_frames", "encode_frames", "table_channel"]

log = logging.getLogger("pitchcards.server")

#: Seconds a process is taken for alive after its last sign (renewed every second).
ALIVE_TTL = 3.0


def table_channel(table_id: str) -> str:
    return f"pitch:t:{{{table_id}}}"


def inbox(proc: str) -> str:
    return f"pitch:p:{proc}"


def _alive_key(proc: str) -> str:
    return f"pitch:alive:{proc}"


def _owner_key(table_id: str) -> str:
    return f"pitch:owner:{{{table_id}}}"


#: A queued item for a remote socket: (socket id, the frame or a close's reason, close code
#: or 0 for a frame).
Item = tuple[str, str, int]


def encode_frames(items: Iterable[Item]) -> bytes:
    """Frames for remote sockets as one message: a JSON header ``[[bytes, [ids], code], …]``,
    a newline, then the frames' bytes one after the other.  A frame sent to several sockets
    (the same object: a public event, a table update) is in it once; each socket's frames stay
    in the order they were queued."""
    groups: list[tuple[str, list[str], int]] = []
    latest: dict[int, int] = {}       # id(frame) -> its newest group
    last_of: dict[str, int] = {}      # socket id -> the group of its last frame
    for conn_id, text, code in items:
        at = latest.get(id(text)) if code == 0 else None
        if at is not None and at >= last_of.get(conn_id, -1) and conn_id not in groups[at][1]:
            groups[at][1].append(conn_id)
        else:
            at = len(groups)
            groups.append((text, [conn_id], code))
            if code == 0:
                latest[id(text)] = at
        last_of[conn_id] = at
    bodies = [text.encode() for text, _, _ in groups]
    header = json.dumps([[len(b), ids, code] for b, (_, ids, code) in zip(bodies, groups,
                                                                          strict=True)],
                        separators=(",", ":")).encode()
    return header + b"\n" + b"".join(bodies)


def decode_frames(data: bytes) -> list[tuple[bytes, list[str], int]]:
    """:func:`encode_frames` backwards: ``[(frame's bytes, socket ids, close code or 0)]``
    (a frame is decoded only by the process with a socket it is for)."""
    head, _, body = data.partition(b"\n")
    out: list[tuple[bytes, list[str], int]] = []
    at = 0
    for size, ids, code in json.loads(head):
        out.append((body[at:at + size], ids, code))
        at += size
    return out


class Handler(Protocol):
    """What the bus tells the cluster."""

    def table_frames(self, table_id: str, data: bytes) -> None: ...
    def request(self, message: dict[str, Any]) -> None: ...
    def down(self) -> None: ...
    def up(self) -> Awaitable[None]: ...


class BusDown(RedisError):
    """Redis does not answer now."""


class Bus:
    """This process's connection to Redis: publish in order, subscribe, ask and answer."""

    def __init__(self, url: str, me: str, handler: Handler) -> None:
        self.url = url
        self.me = me
        self.handler = handler
        # no silent retries: a drop must be seen, so the sockets it touched resync
        self.redis = aioredis.Redis.from_url(url, retry=Retry(NoBackoff(), 0),
                                             socket_connect_timeout=2, socket_timeout=5,
                                             health_check_interval=0)
        self.is_up = False
        self.tables: set[str] = set()    #: the table channels this process listens on
        self._pubsub: Any = None
        self._frames: dict[str, list[Item]] = {}
        self._messages: list[tuple[str, bytes]] = []
        self._ready = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        await self._connect()
        self._tasks = [asyncio.create_task(self._reader()), asyncio.create_task(self._writer()),
                       asyncio.create_task(self._alive())]

    async def _connect(self) -> None:
        """Ping, subscribe to the inbox (and any table channels), say we are alive."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(inbox(self.me))
            for table_id in self.tables:
                await pubsub.ssubscribe(table_channel(table_id))
            await self.redis.set(_alive_key(self.me), "1", px=int(ALIVE_TTL * 1000))
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        self._pubsub = pubsub
        self.is_up = True

    async def close(self) -> None:
        self._closing = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.drain(), 5)
        with contextlib.suppress(Exception):
            await self.redis.delete(_alive_key(self.me))
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def _lost(self, exc: BaseException) -> None:
        if not self.is_up:
            return
        log.error("lost Redis: %s", exc)
        self.is_up = False
        self._frames.clear()   # lost with the connection: their sockets are closed (down)
        self._messages.clear()
        self._idle.set()
        for future in self._replies.values():
            if not future.done():
                future.set_exception(BusDown("Redis went away"))
        self._replies.clear()
        self.handler.down()

    async def _reader(self) -> None:
        """Read the subscriptions; on a drop, tell the cluster, then reconnect."""
        while not self._closing:
            if not self.is_up:
                try:
                    await self._connect()
                except (RedisError, OSError) as exc:
                    log.debug("Redis still away: %s", exc)
                    await asyncio.sleep(0.5)
                    continue
                log.warning("Redis is back")
                await self.handler.up()
            try:  # blocks until a message comes (cheaper than polling); a drop raises
                message = await self._pubsub.get_message(timeout=None)
            except (RedisError, OSError) as exc:
                self._lost(exc)
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()
                continue
            if message is None:
                continue
            try:
                self._dispatch(message)
            except Exception:
                log.exception("a bad message from Redis")

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        channel = message["channel"].decode()
        data: bytes = message["data"]
        if kind == "smessage":
            self.handler.table_frames(channel[len("pitch:t:{"):-1], data)
        elif kind == "message":
            body = json.loads(data)
            if "re" in body:
                future = self._replies.pop(body["re"], None)
                if future is not None and not future.done():
                    future.set_result(body)
            else:
                self.handler.request(body)

    async def _alive(self) -> None:
        while not self._closing:
            await asyncio.sleep(ALIVE_TTL / 3)
            if self.is_up:
                with contextlib.suppress(RedisError, OSError):
                    await self.redis.set(_alive_key(self.me), "1", px=int(ALIVE_TTL * 1000))

    # ------------------------------------------------------------------ publishing
    def send(self, table_id: str, conn_id: str, frame: str, close: int = 0) -> None:
        """Queue a frame (or, with ``close``, a close code and its reason) for a remote
        socket at ``table_id``; sent with the table's next message."""
        if not self.is_up:
            return
        self._frames.setdefault(table_id, []).append((conn_id, frame, close))
        self._wake()

    def post(self, proc: str, body: dict[str, Any]) -> None:
        """Queue a message to a process's inbox."""
        if not self.is_up:
            return
        self._messages.append((inbox(proc), json.dumps(body, separators=(",", ":")).encode()))
        self._wake()

    def _wake(self) -> None:
        self._idle.clear()
        self._ready.set()

    async def _writer(self) -> None:
        """Publish what was queued, in order: each round one pipeline, one message per table
        (its frames in one) and then the inbox messages."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            frames, self._frames = self._frames, {}
            messages, self._messages = self._messages, []
            if frames or messages:
                try:
                    pipe = self.redis.pipeline(transaction=False)
                    for table_id, items in frames.items():
                        pipe.execute_command("SPUBLISH", table_channel(table_id),
                                             encode_frames(items))
                    for channel, data in messages:
                        pipe.publish(channel, data)
                    await pipe.execute()
                except (RedisError, OSError) as exc:
                    log.warning("publishing to Redis failed: %s", exc)
            if not self._frames and not self._messages:
                self._idle.set()

    async def drain(self) -> None:
        """Wait until everything queued has been published."""
        await self._idle.wait()

    # ------------------------------------------------------------------ asking
    async def ask(self, proc: str, body: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a request to ``proc`` and wait for its reply (:class:`BusDown` if Redis is
        away, ``TimeoutError`` if ``proc`` does not answer)."""
        if not self.is_up:
            raise BusDown("Redis is away")
        rid = f"{self.me}.{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = future
        self.post(proc, {**body, "id": rid, "from": self.me})
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._replies.pop(rid, None)

    def answer(self, request: dict[str, Any], reply: dict[str, Any]) -> None:
        if "id" in request:
            self.post(str(request["from"]), {**reply, "re": request["id"]})

    # ------------------------------------------------------------------ table channels
    async def listen(self, table_id: str) -> None:
        """Subscribe to a table's frames (before asking its owner for anything)."""
        if table_id in self.tables:
            return
        self.tables.add(table_id)
        if not self.is_up:
            raise BusDown("Redis is away")
        await self._pubsub.ssubscribe(table_channel(table_id))

    async def unlisten(self, table_id: str) -> None:
        if table_id not in self.tables:
            return
        self.tables.discard(table_id)
        if self.is_up:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.sunsubscribe(table_channel(table_id))

    # ------------------------------------------------------------------ keys
    async def alive(self, procs: Iterable[str]) -> set[str]:
        """Which of ``procs`` are alive (all of them, if Redis cannot say)."""
        procs = list(procs)
        if not procs:
            return set()
        try:
            found = await self.redis.mget([_alive_key(p) for p in procs])
        except (RedisError, OSError):
            return set(procs)
        return {p for p, v in zip(procs, found, strict=True) if v is not None}

    async def owner(self, table_id: str) -> str | None:
        """The process the table's owner said it was (a hint: check it is alive)."""
        with contextlib.suppress(RedisError, OSError):
            found = await self.redis.get(_owner_key(table_id))
            return None if found is None else str(found.decode() if isinstance(found, bytes)
                                                      else found)
        return None

    async def claim(self, table_ids: Iterable[str]) -> None:
        """Say this process owns these tables (after taking their locks)."""
        with contextlib.suppress(RedisError, OSError):
            pipe = self.redis.pipeline(transaction=False)
            for table_id in table_ids:
                pipe.set(_owner_key(table_id), self.me)
            await pipe.execute()
