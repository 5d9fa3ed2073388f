"""Several ``pitch serve`` processes sharing every table (``--redis``, issue 13).

Each table's room — its engine, bots, timers and the one writer of its log — runs in the one
process that holds the table's lock (``lease.py``).  Any process accepts any client:

* **On the owner**, a socket of another process is a :class:`RemoteConnection` in the room,
  like any socket: the room welcomes it, catches it up from its own events (``Table.events``,
  cut for that seat), counts it as connected, and cuts each event for it with ``Table.cut`` as
  for a socket of its own.  Only the sending differs: its frames go through Redis, each cut
  once per message with the ids of the sockets it is for (``bus.encode_frames``).
* **Elsewhere**, the table is a :class:`Mirror`: its sockets, the table's channel subscribed,
  and every frame forwarded to exactly the sockets the owner addressed it to.  Nothing is cut
  here, and no frame goes to a socket the owner did not name.  A mirror's socket's hello,
  actions, chat and goodbye are requests to the owner.

An HTTP request about a table (``ops.py``) runs on the owner too.  A process asked about a
table nobody holds takes its lock and loads it from the database: that is also how a table
moves after its owner died (its lock went with its database session), stopped (it let its
locks go after closing its sockets with 1012) or lost its lock connection.

When Redis drops, every socket whose frames came through it is closed with 1012 and every
remote socket leaves its room: clients reconnect and resync by ``seq`` from the owner, which
the log in PostgreSQL keeps exact.  A process whose owner stopped saying it is alive
(``bus.ALIVE_TTL``) closes that table's sockets the same way.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import IllegalActionError, OptionError
from .bus import Bus, BusDown, decode_frames
from .connection import Connection, Peer
from .lease import Leases
from .ops import OPS, OpsHost
from .protocol import Act
from .room import Refused, Room

if TYPE_CHECKING:
    from .config import ServerConfig
    from .metrics import Metrics
    from .store import Store

__all__ = ["Cluster", "Elsewhere", "Mirror", "Moved", "RemoteConnection", "Unanswered"]

log = logging.getLogger("pitchcards.server")

#: How long a request to a table's owner may take before it is taken for gone (its socket
#: here is then closed with 1012, and its client reconnects).
ASK_TIMEOUT = 5.0
#: How long to look for a table's owner (its lock is held, but who holds it?) before refusing.
FIND_TIMEOUT = 8.0


class Elsewhere(Refused):
    """The table is owned by another process (``owner``)."""

    def __init__(self, owner: str) -> None:
        super().__init__("storage", "the table is on another server", 503)
        self.owner = owner


class Moved(Exception):
    """The process asked does not own the table (any more), or the request could not be
    sent: nothing was done; look for the table's owner again."""


class Unanswered(Refused):
    """A request was sent to the table's owner but no answer came (it died, or Redis did):
    it may or may not have been done, so it is not sent again."""

    def __init__(self) -> None:
        super().__init__("storage", "the table's server did not answer: look at the table "
                                    "before trying again", 503)


class RemoteConnection(Peer):
    """A socket of another process, as the owner's room sees it: frames go through Redis."""

    def __init__(self, cluster: Cluster, table_id: str, cid: str, proc: str) -> None:
        super().__init__(cluster.hub.config.chat_per_minute)
        self.bus = cluster.bus
        self.table = self.table_id = table_id
        self.cid = self.remote_id = cid
        self.proc = proc

    def send(self, frame: str) -> bool:
        if self.closed:
            return False
        self.bus.send(self.table_id, self.remote_id, frame)
        return True

    def close(self, code: int = 1000, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        self.bus.send(self.table_id, self.remote_id, reason, close=code)


class Mirror:
    """A table another process owns, as this one serves it: its sockets here, fed by the
    table's channel; what they say goes to the owner."""

    def __init__(self, cluster: Cluster, table_id: str, owner: str) -> None:
        self.cluster = cluster
        self.id = table_id
        self.owner = owner
        self.conns: dict[str, Connection] = {}
        self.seq = 0           #: the table's seq as last heard from the owner
        self.table = None      #: (a Room's engine table; a mirror has none)
        self.closed = False

    def connections(self) -> list[Connection]:
        return list(self.conns.values())

    async def _ask(self, op: str, conn: Connection, **args: Any) -> dict[str, Any]:
        try:
            reply = await self.cluster.ask(self.owner, self.id, op, {"conn": conn.cid, **args})
        except (Moved, Unanswered):  # its sockets reconnect, and see by seq what was done
            self.close(1012, "table moved to another server: reconnect")
            raise Refused("storage", "the table moved to another server: reconnect",
                          503) from None
        if isinstance(reply, dict) and "seq" in reply:
            self.seq = max(self.seq, int(reply["seq"]))
        return reply if isinstance(reply, dict) else {}

    async def act(self, conn: Peer, msg: Act) -> None:
        assert isinstance(conn, Connection)
        await self._ask("act", conn, action=msg.action, seq=msg.seq)

    async def chat(self, conn: Peer, text: str) -> None:
        assert isinstance(conn, Connection)
        await self._ask("chat", conn, text=text)

    async def detach(self, conn: Peer) -> None:
        if conn.cid is None or self.conns.pop(conn.cid, None) is None:
            return
        self.cluster.bus.post(self.owner, {"op": "detach", "table": self.id,
                                           "args": {"conn": conn.cid}})
        if not self.conns:
            await self.cluster.drop_mirror(self)

    def close(self, code: int, reason: str) -> None:
        """Close every socket here (they reconnect and resync); the mirror is done."""
        self.closed = True
        for conn in list(self.conns.values()):
            conn.close(code, reason)
        self.cluster.forget_mirror(self)


class ClusterHost(OpsHost, Protocol):
    """What a cluster uses of the process it is part of (the hub): its settings, its store's
    address (for the table locks), its rooms, its counters, and what the operations it runs
    for other processes use (:class:`~pitchcards.server.ops.OpsHost`)."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def store(self) -> Store: ...

    @property
    def metrics(self) -> Metrics: ...

    @property
    def rooms(self) -> dict[str, Room]: ...


class Cluster:
    """This process's part in a cluster: its table locks, its Redis bus, the remote sockets in
    its rooms and its mirrors of other processes' tables."""

    def __init__(self, hub: ClusterHost, redis_url: str) -> None:
        self.hub = hub
        self.me = secrets.token_hex(4)
        self.bus = Bus(redis_url, self.me, self)
        self.leases = Leases(hub.store.url, self._locks_lost)
        self.proxies: dict[str, RemoteConnection] = {}
        self.mirrors: dict[str, Mirror] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await self.leases.open()
        await self.bus.start()
        self._sweeper = asyncio.create_task(self._sweep())
        log.info("in a cluster", extra={"process": self.me})

    async def close(self) -> None:
        """After the rooms closed their sockets (1012): send those closes, let the locks go."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for mirror in list(self.mirrors.values()):
            mirror.close(1012, "server restarting: reconnect")
        await self.bus.close()
        await self.leases.close()

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ ownership
    async def claim(self, table_id: str) -> str | None:
        """Take the table's lock (None: it is ours now), or find the live process that holds
        it (its id).  A lock held by a process that just died is free within moments."""
        deadline = time.monotonic() + FIND_TIMEOUT
        while True:
            if await self.leases.try_acquire(table_id):
                await self.bus.claim([table_id])
                mirror = self.mirrors.get(table_id)
                if mirror is not None:  # its owner is gone: its sockets come to us
                    mirror.close(1012, "table moved to this server: reconnect")
                return None
            owner = await self.bus.owner(table_id)
            if owner is not None and owner != self.me and await self.bus.alive([owner]):
                return owner
            if time.monotonic() > deadline:
                raise Refused("storage", "the table's server does not answer: try again in a "
                                         "moment", 503)
            await asyncio.sleep(0.2)

    def release(self, table_id: str) -> None:
        unlock = self.leases.release(table_id)
        if unlock is not None:
            self._spawn(unlock)

    def _locks_lost(self) -> None:
        """The lock connection died, and every lock with it: drop every room (its sockets
        reconnect, to whichever process then takes the table)."""
        for room in list(self.hub.rooms.values()):
            room.close(1012, "server lost the table: reconnect")
            self.forget_room(room.id)
        self.hub.rooms.clear()
        self.hub.metrics.tables.set(0)

    # ------------------------------------------------------------------ asking the owner
    async def ask(self, owner: str, table_id: str, op: str, args: dict[str, Any]) -> Any:
        """Run ``op`` on the table's owner; its result, or its refusal raised here."""
        if not self.bus.is_up:
            raise Moved
        try:
            reply = await self.bus.ask(owner, {"op": op, "table": table_id, "args": args},
                                       ASK_TIMEOUT)
        except (BusDown, TimeoutError):
            raise Unanswered from None
        if reply.get("moved"):
            raise Moved
        refused = reply.get("refused")
        if refused is not None:
            raise Refused(refused["reason"], refused["message"], refused.get("status", 409),
                          legal=refused.get("legal"), words=refused.get("words"))
        return reply.get("ok")

    async def attach(self, conn: Connection, table_id: str, owner: str,
                     token_hash: str | None, last_seq: int | None) -> Mirror:
        """A hello here for a table ``owner`` holds: listen to its channel first, then ask
        the owner to welcome the socket (its welcome and catch-up come on the channel, after
        which nothing can be missed)."""
        mirror = self.mirrors.get(table_id)
        if mirror is not None and mirror.owner != owner:  # the table moved: its sockets too
            mirror.close(1012, "table moved to another server: reconnect")
            mirror = None
        if mirror is None or mirror.closed:
            mirror = self.mirrors[table_id] = Mirror(self, table_id, owner)
        try:
            await self.bus.listen(table_id)
        except BusDown:
            raise Moved from None
        conn.cid = f"{self.me}.{next(self._ids)}"
        mirror.conns[conn.cid] = conn
        try:
            reply = await self.ask(owner, table_id, "attach", {
                "conn": conn.cid, "proc": self.me, "token_hash": token_hash,
                "last_seq": last_seq})
        except BaseException:
            mirror.conns.pop(conn.cid, None)
            # the owner may have welcomed it after all: it must not count the seat as taken
            self.bus.post(owner, {"op": "detach", "table": table_id, "args": {"conn": conn.cid}})
            if not mirror.conns:
                await self.drop_mirror(mirror)
            raise
        mirror.seq = max(mirror.seq, int(reply["seq"]))
        return mirror

    def forget_mirror(self, mirror: Mirror) -> None:
        if self.mirrors.get(mirror.id) is mirror:
            del self.mirrors[mirror.id]

    async def drop_mirror(self, mirror: Mirror) -> None:
        """A mirror with no sockets left: stop listening to its table."""
        self.forget_mirror(mirror)
        if mirror.id not in self.mirrors:
            await self.bus.unlisten(mirror.id)

    # ------------------------------------------------------------------ the bus's news
    def table_frames(self, table_id: str, data: bytes) -> None:
        """A table's frames from its owner: each to the sockets here it names, and no other."""
        mirror = self.mirrors.get(table_id)
        if mirror is None:
            return
        for body, ids, code in decode_frames(data):
            text: str | None = None
            for cid in ids:
                conn = mirror.conns.get(cid)
                if conn is None:
                    continue
                if text is None:
                    text = body.decode()
                if code:
                    conn.close(code, text)
                else:
                    conn.send(text)
                    conn.welcomed = True  # (the owner's first frame to it is its welcome)

    def request(self, message: dict[str, Any]) -> None:
        self._spawn(self._serve(message))

    async def _serve(self, message: dict[str, Any]) -> None:
        """A request from another process, for a table of ours."""
        op, table_id, args = message.get("op"), message.get("table"), message.get("args", {})
        room = self.hub.rooms.get(str(table_id))
        if room is None or room.closed or room.id not in self.leases.held:
            if op != "detach":
                self.bus.answer(message, {"moved": True})
            return
        try:
            local = self._ops.get(str(op))
            if local is not None:
                result = await local(room, **args)
            else:
                result = await OPS[str(op)](self.hub, room, **args)
        except Moved:
            self.bus.answer(message, {"moved": True})
            return
        except Refused as exc:
            self.bus.answer(message, {"refused": {
                "reason": exc.reason, "message": exc.message, "status": exc.status,
                "legal": exc.legal, "words": exc.words}})
            return
        except (IllegalActionError, OptionError) as exc:
            reason = exc.reason if isinstance(exc, IllegalActionError) else "bad_setup"
            self.bus.answer(message, {"refused": {"reason": reason, "message": str(exc),
                                                  "status": 422}})
            return
        except Exception:
            log.exception("a request from another server failed", extra={"table": table_id})
            self.bus.answer(message, {"refused": {"reason": "storage", "status": 503,
                                                  "message": "the server failed: try again"}})
            return
        self.bus.answer(message, {"ok": result})

    @property
    def _ops(self) -> dict[str, Callable[..., Awaitable[Any]]]:
        return {"attach": self._attach, "act": self._act, "chat": self._chat,
                "detach": self._detach}

    async def _attach(self, room: Room, conn: str, proc: str, token_hash: str | None,
                      last_seq: int | None) -> dict[str, Any]:
        player = room.player_by_hash(token_hash) if token_hash else None
        if token_hash and player is None:
            raise Refused("bad_token", "that token is not a seat of this table", 401)
        proxy = RemoteConnection(self, room.id, conn, proc)
        self.proxies[conn] = proxy
        await room.attach(proxy, player, last_seq)
        return {"seq": room.seq}

    def _proxy(self, room: Room, conn: str) -> RemoteConnection:
        proxy = self.proxies.get(conn)
        if proxy is None or proxy.table != room.id or proxy.closed:
            raise Moved
        return proxy

    async def _act(self, room: Room, conn: str, action: str, seq: int) -> dict[str, Any]:
        proxy = self._proxy(room, conn)
        try:
            await room.act(proxy, Act(type="act", action=action, seq=seq))
        except Refused as exc:  # told on the table's channel, in order with its events
            self.hub.metrics.refusals.labels(exc.reason).inc()
            proxy.send_model(exc.to_message(room.seq))
        return {"seq": room.seq}

    async def _chat(self, room: Room, conn: str, text: str) -> dict[str, Any]:
        proxy = self._proxy(room, conn)
        try:
            await room.chat(proxy, text)
        except Refused as exc:
            self.hub.metrics.refusals.labels(exc.reason).inc()
            proxy.send_model(exc.to_message(room.seq))
        return {"seq": room.seq}

    async def _detach(self, room: Room, conn: str) -> None:
        proxy = self.proxies.pop(conn, None)
        if proxy is not None:
            proxy.closed = True
            await room.detach(proxy)

    def forget_room(self, table_id: str) -> None:
        """A room of ours closed: its remote sockets were told (1012) and are gone."""
        self._drop_proxies([cid for cid, p in self.proxies.items() if p.table == table_id])

    def down(self) -> None:
        """Redis went away: frames to and from other processes may have been lost.  Close
        the sockets fed through it (they resync by seq) and let the remote sockets go."""
        for mirror in list(self.mirrors.values()):
            mirror.close(1012, "lost touch with the table's server: reconnect")
        self.bus.tables.clear()
        self._drop_proxies(list(self.proxies))

    def _drop_proxies(self, cids: list[str]) -> None:
        for cid in cids:
            proxy = self.proxies.pop(cid, None)
            if proxy is None:
                continue
            proxy.closed = True
            room = self.hub.rooms.get(proxy.table or "")
            if room is not None:
                self._spawn(room.detach(proxy))

    async def up(self) -> None:
        """Redis is back (empty, perhaps): say again which tables are ours."""
        await self.bus.claim(list(self.hub.rooms))

    async def _sweep(self) -> None:
        """Every second: a mirror whose owner stopped being alive closes its sockets (they
        reconnect and the table is taken over); remote sockets of a dead process leave."""
        while True:
            await asyncio.sleep(1.0)
            try:
                procs = {m.owner for m in self.mirrors.values()}
                procs |= {p.proc for p in self.proxies.values()}
                procs.discard(self.me)
                alive = await self.bus.alive(procs)
                for mirror in list(self.mirrors.values()):
                    if mirror.owner != self.me and mirror.owner not in alive:
                        mirror.close(1012, "the table's server is gone: reconnect")
                self._drop_proxies([cid for cid, p in self.proxies.items()
                                    if p.proc not in alive])
            except Exception:
                log.exception("cluster sweep failed")

    def connections(self) -> list[Connection]:
        """The sockets of this process at tables other processes own."""
        return [conn for mirror in self.mirrors.values() for conn in mirror.conns.values()]

