"""One WebSocket: a bounded outgoing queue drained by its own writer task, and the client's
rate limits.  A client that does not read its messages is dropped (``too_slow``) instead of
stalling its table; it reconnects and resyncs by ``seq``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from pydantic import BaseModel
from starlette.websockets import WebSocket

from .limits import TokenBucket

__all__ = ["Connection", "Peer"]

log = logging.getLogger("pitchcards.server")

_CLOSE = object()


class Peer:
    """Someone at a table as its room sees them: a player's (``name``) or a spectator's
    (``name`` None) socket, to which the room sends frames.  A :class:`Connection` is a socket
    of this process; a remote one (``cluster.RemoteConnection``) is a socket of another process
    that shares the table through Redis."""

    def __init__(self, chat_per_minute: int) -> None:
        self.name: str | None = None
        self.table: str | None = None
        #: the socket's id between processes (a cluster's; None with one process)
        self.cid: str | None = None
        self.chats = TokenBucket(chat_per_minute / 60.0, max(1, chat_per_minute // 4))
        self.last_seen = time.monotonic()
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""

    def send(self, frame: str) -> bool:  # pragma: no cover - every peer says how
        raise NotImplementedError

    def send_model(self, message: BaseModel) -> bool:
        return self.send(message.model_dump_json())

    def close(self, code: int = 1000, reason: str = "") -> None:  # pragma: no cover
        raise NotImplementedError

    def pending(self) -> int:
        """Frames queued and not yet sent (``kill -USR1``'s dump)."""
        return 0


class Connection(Peer):
    """A client socket of this process at a table."""

    def __init__(self, ws: WebSocket, address: str, *, queue: int, rate: float, burst: int,
                 chat_per_minute: int) -> None:
        super().__init__(chat_per_minute)
        self.ws = ws
        self.address = address
        self.queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=queue)
        self.messages = TokenBucket(rate, burst)
        self.strikes = 0  #: rate-limit refusals in a row; too many closes the socket

    def send(self, frame: str) -> bool:
        """Queue a text frame; a full queue drops the client (it resyncs) and returns False."""
        if self.closed:
            return False
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.close(1013, "too_slow")
            return False
        return True

    def pending(self) -> int:
        return self.queue.qsize()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the frames already queued (or at once, if the queue is full)."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        if self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(_CLOSE)

    async def run_writer(self) -> None:
        """Send queued frames until closed; then close the socket with the code given."""
        try:
            while True:
                frame = await self.queue.get()
                if frame is _CLOSE:
                    break
                await self.ws.send_text(frame)
        except Exception as exc:  # the peer went away: the reader sees it too
            log.info("send failed: %r", exc, extra={"table": self.table, "player": self.name})
            self.closed = True
            return
        with contextlib.suppress(Exception):
            await self.ws.close(self.close_code, self.close_reason)
