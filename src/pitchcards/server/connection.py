"""One WebSocket: a bounded outgoing queue drained by its own writer task, and the client's
rate limits.  A client that does not read its messages is dropped (``too_slow``) instead of
stalling its table; it reconnects and resyncs by ``seq``.  A frame the socket has not taken
within ``send_timeout`` seconds cuts the TCP connection (a close handshake would wait on the
same client), which ends the socket's reader too (issue 31, finding 6)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
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
        #: its welcome was sent (a socket still waiting for it is not pinged: the welcome is
        #: its first frame)
        self.welcomed = False
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
                 chat_per_minute: int, send_timeout: float = 10.0,
                 on_drop: Callable[[], None] | None = None) -> None:
        super().__init__(chat_per_minute)
        self.ws = ws
        self.address = address
        self.queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=queue)
        self.messages = TokenBucket(rate, burst)
        self.strikes = 0  #: rate-limit refusals in a row; too many closes the socket
        self.send_timeout = send_timeout
        #: called once when the client is dropped for not reading (the metric counts it)
        self.on_drop = on_drop
        self.dropped = False
        self.aborted = False
        self.writer: asyncio.Task[None] | None = None

    def send(self, frame: str) -> bool:
        """Queue a text frame; a full queue drops the client (it resyncs) and returns False."""
        if self.closed:
            return False
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self._dropped()
            self.close(1013, "too_slow")
            return False
        return True

    def _dropped(self) -> None:
        """This client did not read: counted once, however it shows (full queue, timeout)."""
        if not self.dropped:
            self.dropped = True
            if self.on_drop is not None:
                self.on_drop()

    def abort(self) -> None:
        """Cut the TCP connection now, with no close handshake (the client reads nothing):
        the writer's pending send fails and the reader sees the disconnect."""
        self.closed = True
        if self.aborted:
            return
        self.aborted = True
        transport = _transport(self.ws)
        if transport is not None:
            transport.abort()  # the writer's send fails with the connection
        elif self.writer is not None and self.writer is not asyncio.current_task():
            self.writer.cancel()  # no transport (a test client): stop the writer itself

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
        """Send queued frames until closed; then close the socket with the code given.  A
        send (or the close) not taken within ``send_timeout`` cuts the connection."""
        try:
            while True:
                frame = await self.queue.get()
                if frame is _CLOSE:
                    break
                await asyncio.wait_for(self.ws.send_text(frame), self.send_timeout)
            await asyncio.wait_for(self.ws.close(self.close_code, self.close_reason),
                                   self.send_timeout)
        except TimeoutError:
            log.info("slow client cut", extra={"table": self.table, "player": self.name})
            self._dropped()
            self.abort()
        except asyncio.CancelledError:
            self.closed = True
            raise
        except Exception as exc:  # the peer went away: the reader sees it too
            log.info("send failed: %r", exc, extra={"table": self.table, "player": self.name})
            self.closed = True

    def start_writer(self) -> asyncio.Task[None]:
        self.writer = asyncio.create_task(self.run_writer())
        return self.writer


#: The scope key under which :class:`KeepTransport` leaves a WebSocket's TCP transport.
TRANSPORT = "pitchcards.transport"


class KeepTransport:
    """ASGI middleware, outermost: keeps a WebSocket's TCP transport in its scope, so that a
    client that reads nothing can be cut (:meth:`Connection.abort`).  uvicorn's ``send`` is
    a method of its protocol object, which holds the transport; the middlewares inside wrap
    ``send`` in functions of their own."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if isinstance(transport, asyncio.Transport):
                scope[TRANSPORT] = transport
        await self.app(scope, receive, send)


def _transport(ws: WebSocket) -> asyncio.Transport | None:
    """The TCP transport under ``ws`` (None under a test client, which has none)."""
    transport = ws.scope.get(TRANSPORT)
    return transport if isinstance(transport, asyncio.Transport) else None
