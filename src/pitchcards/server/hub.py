"""The server's rooms: created, loaded from the database on first use, kept, closed.

The database is called on a worker thread (SQLAlchemy's sync API; one thread for SQLite, whose
writes are serial anyway, a few for PostgreSQL), so a slow disk never stops the event loop.

With ``--redis`` the process is one of several sharing the tables (``cluster.py``): a room is
loaded only after taking the table's lock, and a table another process holds is served
through it (:meth:`Hub.on_owner`, :meth:`Hub.attach`).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from redis.exceptions import RedisError

from .budget import OVER_ADDRESS, SharedBudget
from .cluster import Cluster, Elsewhere, Mirror, Moved
from .config import ServerConfig
from .connection import Connection, Peer
from .metrics import Metrics
from .ops import OPS
from .protocol import CreateTable, Ping, TableInfo
from .ranked import check_ranked
from .room import Player, Refused, Room, bot_heavy, table_rules
from .room_storage import HubStorage
from .shared_limits import THOUGHT_HOLD, SharedLeases, ThoughtGate
from .store import AlsoInTransaction, Append, PlayerRow, Store, hash_secret
from .think_pool import ThinkPool
from .thinking import ThoughtSlots
from .tournament_store import TournamentStore

if TYPE_CHECKING:
    from ..actions import Action
    from ..bots.base import Bot
    from ..views import View
    from .testing import TestHooks

__all__ = ["Hub", "new_token"]

log = logging.getLogger("pitchcards.server")
T = TypeVar("T")


def new_token() -> str:
    """A seat token: 256 random bits, URL-safe (stored only as its SHA-256)."""
    return secrets.token_urlsafe(32)


class _Loading:
    """The lock that makes one lookup of a table load it, and how many lookups wait on it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class Hub:
    """Every room of this process, the store they write to, and the sockets' heartbeat."""

    def __init__(self, config: ServerConfig, store: Store | None = None,
                 hooks: TestHooks | None = None) -> None:
        self.config = config
        #: a test server's controls (server/testing.py); None in every server ``pitch serve``
        #: starts
        self.hooks = hooks
        self.store = store if store is not None else Store(config.sqlalchemy_url)
        self.metrics = Metrics()
        #: what a room stores its table through (room_storage.TableStorage)
        self.storage = HubStorage(self.store, self.db, self.append)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, _Loading] = {}
        #: who created each table of this process (its budget: :meth:`tables_in_play`)
        self._creators: dict[str, str] = {}
        #: the slow bots' thoughts, at most ``thoughts_per_address`` at once per creator
        self.thoughts = ThoughtSlots(config.thoughts_per_address)
        #: where they think: worker processes (``think_processes``; 0: threads of this one)
        self.think_pool = ThinkPool(config.think_processes)
        self._pool = ThreadPoolExecutor(max_workers=1 if self.store.is_sqlite else 4,
                                        thread_name_prefix="pitch-db")
        self._heartbeat: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._appends: list[tuple[Append, asyncio.Future[None]]] = []
        self._append_ready = asyncio.Event()
        #: the other processes sharing the tables (``--redis``), or None: this one alone
        self.cluster = Cluster(self, config.redis_url) if config.redis_url else None
        #: every process's tables per address, in Redis (a cluster's; server/budget.py)
        self.budget = SharedBudget(self.cluster.bus.redis, 3 * config.heartbeat) \
            if self.cluster is not None else None
        #: the thoughts' slots with, in a cluster, every process's (server/shared_limits.py)
        self.thought_gate = ThoughtGate(self.thoughts, SharedLeases(
            self.cluster.bus.redis, "thoughts", config.thoughts_per_address, THOUGHT_HOLD)
            if self.cluster is not None else None)
        #: (creator, table) that left this process's count since the last heartbeat
        self._released: list[tuple[str, str]] = []
        #: told the id of every table of this process whose game ends (the tournaments)
        self.over_listeners: list[Callable[[str], None]] = []

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store method on the database thread (a slow one is logged)."""
        queued = time.perf_counter()
        started: list[float] = []

        def timed() -> T:
            started.append(time.perf_counter())
            return fn(*args)

        result = await asyncio.get_running_loop().run_in_executor(self._pool, timed)
        done = time.perf_counter()
        if done - queued > 1.0:
            log.warning("slow database call", extra={
                "call": getattr(fn, "__name__", str(fn)), "queued_s": round(started[0] - queued, 3),
                "ran_s": round(done - started[0], 3)})
        return result

    async def append(self, table_id: str, n: int, entry: dict[str, Any],
                     status: str | None = None, also: AlsoInTransaction | None = None) -> None:
        """Append a table's log entry n (``Store.append``), in the next group commit: every
        entry that queued up while the last batch was written goes in one transaction
        (``also``: more to do in it, a ranked match's rating)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if also is not None and self.hooks is not None:
            also = self.hooks.dying_rating(also)  # a test server may die in the middle
        self._appends.append(((table_id, n, entry, status, also), done))
        self._append_ready.set()
        await done

    async def _write(self) -> None:
        """The log writer: batches of queued entries, one transaction each."""
        while True:
            await self._append_ready.wait()
            self._append_ready.clear()
            while self._appends:
                batch, self._appends = self._appends[:500], self._appends[500:]
                try:
                    results: list[Exception | None] = list(
                        await self.db(self.store.append_many, [item for item, _ in batch]))
                except Exception as exc:  # the whole transaction failed: every room reloads
                    results = [exc] * len(batch)
                if self.hooks is not None:  # a test server may die right after the commit
                    self.hooks.committed([item for item, _ in batch], results)
                for (_, done), problem in zip(batch, results, strict=True):
                    if done.done():
                        continue
                    if problem is None:
                        done.set_result(None)
                    else:
                        done.set_exception(problem)

    async def open(self) -> None:
        await self.db(self.store.migrate)
        if self.cluster is not None:
            await self.cluster.open()
        self._heartbeat = asyncio.create_task(self._beat())
        self._writer = asyncio.create_task(self._write())
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            # kill -USR1 <pid>: every task's stack in the log, for a server that seems stuck
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self._dump)

    async def close(self) -> None:
        for task in (self._heartbeat, self._writer):
            if task is not None:
                task.cancel()
        for room in self.rooms.values():
            room.close(1012, "server restarting: reconnect")
        if self.cluster is not None:  # the closes go out, then the locks: a handover
            await self.cluster.close()
        await asyncio.sleep(0)
        self._pool.shutdown(wait=True)
        await self.think_pool.close()
        self.store.close()

    # ------------------------------------------------------------------ rooms
    async def room(self, table_id: str) -> Room:
        """The room of ``table_id``, loaded from the database if this process has not got it.
        A miss keeps nothing: no lock outlives the lookups waiting on it (issue 31, finding 2)."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if len(table_id) > 32:  # no id is this long: refused before anything is kept
            raise Refused("not_found", f"no table {table_id[:40]!r}", 404)
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = _Loading()
        loading.users += 1
        try:
            async with loading.lock:
                room = self.rooms.get(table_id)
                if room is None:
                    room = await self._load(table_id)
        finally:
            loading.users -= 1
            if loading.users == 0 and self._loading.get(table_id) is loading:
                del self._loading[table_id]
        return room

    async def _load(self, table_id: str) -> Room:
        """Load ``table_id`` from the database into a new room (hold its loading lock)."""
        if self.cluster is not None:
            owner = await self.cluster.claim(table_id)
            if owner is not None:
                raise Elsewhere(owner)
        stored = await self.db(self.store.load, table_id)
        if stored is None:
            if self.cluster is not None:
                self.cluster.release(table_id)
            raise Refused("not_found", f"no table {table_id[:40]!r}", 404)
        # The log's replay walks the table's whole history: on a worker thread, so a long
        # table loaded after a restart does not stop the event loop (issue 31, finding 7).
        room = await asyncio.to_thread(Room, self, stored)
        self.rooms[table_id] = room
        self.metrics.tables.set(len(self.rooms))
        room.run()
        if room.status == "playing":  # after a restart: hold the seats, then bots
            for player in room.players.values():
                room.hold_seat(player)
        return room

    async def think(self, table_id: str, bot: Bot, view: View) -> Action:
        """A slow bot of ``table_id`` decides from ``view`` in a worker process
        (``server/think_pool.py``: no search holds this process's GIL), in one of the slots
        of the address that created the table (``server/thinking.py``; with Redis, across
        every process: ``server/shared_limits.py``): one stranger's tables take turns for one
        worker instead of taking every worker from the other tables."""
        async with self.thought_gate.slot(self.thought_key(table_id)):
            if self.hooks is not None:  # a test server may hold the bot in its thought
                await self.hooks.thinking(table_id)
            return await self.think_pool.choose(bot, view)

    def thought_key(self, table_id: str) -> str:
        """Whose budget a table's bots think in: its creator's address, or (a creator this
        process does not know: loaded after a restart, or a test's table) the table's own."""
        creator = self._creators.get(table_id)
        return f"address:{creator}" if creator is not None else f"table:{table_id}"

    def tables_in_play(self, address: str | None = None, heavy: bool = False) -> int:
        """Tables in memory and not over: all of them, or those ``address`` created here
        (``heavy``: only those whose bots think long, :func:`room.bot_heavy`)."""
        return sum(1 for table_id, room in self.rooms.items()
                   if room.status != "over"
                   and (address is None or self._creators.get(table_id) == address)
                   and (not heavy or bot_heavy(room.config)))

    def _check_budget(self, request: CreateTable, address: str | None) -> None:
        """A stranger's budget: ``tables_per_address`` tables in play from one address, of
        them ``heavy_tables_per_address`` with hard or expert bots, ``max_tables`` in all
        (issue 31, finding 1)."""
        if self.tables_in_play() >= self.config.max_tables:
            raise Refused("too_many_tables", f"this server has {self.config.max_tables} tables "
                                             "in play, its most: try again later", 503)
        if address is None:
            return
        if self.tables_in_play(address) >= self.config.tables_per_address:
            raise self._over_budget(heavy=False)
        if bot_heavy(request) and \
                self.tables_in_play(address, heavy=True) >= self.config.heavy_tables_per_address:
            raise self._over_budget(heavy=True)

    def _over_budget(self, heavy: bool) -> Refused:
        if not heavy:
            return Refused("too_many_tables", f"your address has {self.config.tables_per_address}"
                                              " tables in play, its most: finish one first", 429)
        return Refused("too_many_tables", f"your address has "
                                          f"{self.config.heavy_tables_per_address} tables in "
                                          "play with hard or expert bots (or stand-ins), its "
                                          "most: finish one, or choose easier bots", 429)

    async def _reserve(self, request: CreateTable, address: str, table_id: str) -> None:
        """In a cluster, count the new table in its address's budget across every process
        (``server/budget.py``); over it, refused as :meth:`_check_budget` refuses.  Redis not
        answering: this process's own count (checked already) is all that holds."""
        if self.budget is None:
            return
        try:
            over = await self.budget.reserve(address, table_id, bot_heavy(request),
                                             self.config.tables_per_address,
                                             self.config.heavy_tables_per_address)
        except (RedisError, OSError) as exc:
            log.warning("tables per address counted by this process alone: %s", exc)
            return
        if over:
            raise self._over_budget(heavy=over != OVER_ADDRESS)

    async def create(self, request: CreateTable, token: str,
                     seed: int | None = None, address: str | None = None,
                     account: tuple[str, str] | None = None) -> tuple[Room, str, int]:
        """A new table with its host seated; returns the room, the invite code and the
        host's seat.  Its seed is secret and random (``seed``: a test server's choice);
        ``address``: the creator's, whose budget it counts in; ``account``: the host's
        (id, name) if signed in (a ranked table's host must be: server/ranked.py)."""
        self._check_budget(request, address)
        rules, size = table_rules(request)  # the engine checks variant, options and size
        request = check_ranked(request, rules, account is not None)
        if request.ranked and account is not None:
            request = request.model_copy(update={"name": account[1]})
        if request.seat >= size:
            raise Refused("no_such_seat", f"seat {request.seat}: a table of {size} has seats "
                                          f"0..{size - 1}", 422)
        for seat in request.bots:
            if not 0 <= seat < size or seat == request.seat:
                raise Refused("no_such_seat", f"bots: seat {seat} is not a free seat of a table "
                                              f"of {size} (the host sits at {request.seat})", 422)
        table_id = secrets.token_urlsafe(12)
        if address is not None:
            await self._reserve(request, address, table_id)
        table_id, invite = await self._new_table(request, [PlayerRow(
            request.name, request.seat, hash_secret(token), None, True,
            account[0] if account is not None else None)], seed, table_id)
        if address is not None:
            self._creators[table_id] = address
        return await self.room(table_id), invite, request.seat

    async def _new_table(self, request: CreateTable, seats: list[PlayerRow],
                         seed: int | None = None, table_id: str | None = None,
                         rematch_of: str | None = None) -> tuple[str, str]:
        """Store a new table (``table_id``: a new one's id chosen already; ``rematch_of``: the
        finished table it is the rematch of); its id and invite code (the invite is kept only
        hashed)."""
        if table_id is None:
            table_id = secrets.token_urlsafe(12)
        invite = secrets.token_urlsafe(24)
        if seed is None:
            seed = secrets.randbits(63)
        await self.db(self.store.create_table, table_id, hash_secret(invite),
                      request.model_dump(mode="json"), seed, request.listed, seats, rematch_of)
        log.info("table created", extra={"table": table_id, "variant": request.variant})
        return table_id, invite

    async def rematch_table(self, request: CreateTable, seats: list[PlayerRow],
                            rematch_of: str) -> str:
        """The rematch of finished table ``rematch_of``: same settings and seats, a new seed,
        a link back; started."""
        table_id, _ = await self._new_table(request, seats, rematch_of=rematch_of)
        room = await self.room(table_id)
        host = next((p for p in room.players.values() if p.host), None)
        if host is not None:
            await room.start(host)
        return table_id

    async def tournament_over(self, tournament_id: str) -> bool:
        """Whether the tournament ``tournament_id`` is over (its tables' boards are then
        public: server/ops.py ``analysis_source``)."""
        return await self.db(TournamentStore(self.store).status, tournament_id) == "over"

    def table_over(self, table_id: str) -> None:
        """A room's game ended (its status became ``over``): tell the listeners."""
        for listener in self.over_listeners:
            listener(table_id)

    async def by_invite(self, invite: str) -> Room:
        return await self.room(await self.find_invite(invite))

    async def find_invite(self, invite: str) -> str:
        """The id of the table ``invite`` is for."""
        table_id = await self.db(self.store.find_invite, hash_secret(invite)) \
            if len(invite) <= 100 else None
        if table_id is None:
            raise Refused("not_found", "no table has that invite (check the link)", 404)
        return table_id

    async def _route(self, table_id: str, here: Callable[[Room], Awaitable[T]],
                     there: Callable[[str], Awaitable[T]]) -> T:
        """``here(room)`` if this process holds the table (or takes it, nobody else holding
        it), else ``there(owner)``; a table that moved while asked is looked for again."""
        for _ in range(5):
            try:
                room = await self.room(table_id)
            except Elsewhere as away:
                try:
                    return await there(away.owner)
                except Moved:
                    await asyncio.sleep(0.2)
                    continue
            return await here(room)
        raise Refused("storage", "the table is moving between servers: try again", 503)

    async def on_owner(self, table_id: str, op: str, **args: Any) -> Any:
        """Run the request ``op`` (``ops.OPS``) on the table's room, here or on the process
        that owns it; its JSON-able result, or its refusal raised."""
        async def here(room: Room) -> Any:
            return await OPS[op](self, room, **args)

        async def there(owner: str) -> Any:
            assert self.cluster is not None
            return await self.cluster.ask(owner, table_id, op, args)

        return await self._route(table_id, here, there)

    async def info(self, table_id: str) -> TableInfo:
        return TableInfo.model_validate(await self.on_owner(table_id, "info"))

    async def attach(self, conn: Connection, table_id: str, token: str | None,
                     last_seq: int | None) -> Room | Mirror:
        """A socket said hello: welcome it at its table, here or through the table's owner
        (``bad_token``, ``not_found`` refused before anything is sent)."""
        token_hash = hash_secret(token) if token else None

        async def here(room: Room) -> Room | Mirror:
            player = room.player_by_hash(token_hash) if token_hash else None
            if token_hash and player is None:
                raise Refused("bad_token", "that token is not a seat of this table", 401)
            try:
                await room.attach(conn, player, last_seq)
            except BaseException:  # cut short (the socket's task cancelled): not left seated
                await room.detach(conn)
                raise
            return room

        async def there(owner: str) -> Room | Mirror:
            assert self.cluster is not None
            return await self.cluster.attach(conn, table_id, owner, token_hash, last_seq)

        return await self._route(table_id, here, there)

    def lost(self, room: Room) -> None:
        """A room's write was fenced: another process owns its table now (a cluster forgets
        the room, and the table is loaded afresh wherever it is next asked for)."""
        if self.cluster is None:
            return
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self._forget_creator(room.id)
            self.metrics.tables.set(len(self.rooms))
        self.cluster.forget_room(room.id)
        self.cluster.release(room.id)

    async def player(self, table_id: str, token: str | None) -> tuple[Room, Player]:
        """The room and the player a bearer token belongs to (``bad_token`` if none)."""
        room = await self.room(table_id)
        player = room.player_by_token(token) if token else None
        if player is None:
            raise Refused("bad_token", "that token is not a seat of this table", 401)
        return room, player

    # ------------------------------------------------------------------ heartbeat
    async def _beat(self) -> None:
        """Ping every socket each ``heartbeat`` seconds; close one silent for three."""
        n = 0
        while True:
            await asyncio.sleep(self.config.heartbeat)
            n += 1
            now = time.monotonic()
            self.sweep(n, now)
            self.unload_idle(now)
            await self._renew_budget()

    def _forget_creator(self, table_id: str) -> None:
        """The table leaves this process's count of its creator's tables (and, in a
        cluster, the shared one at the next heartbeat)."""
        creator = self._creators.pop(table_id, None)
        if creator is not None and self.budget is not None:
            self._released.append((creator, table_id))

    async def _renew_budget(self) -> None:
        """In a cluster: this process's tables in play go on counting in their creators'
        budgets; those over or gone from memory stop (``server/budget.py``)."""
        if self.budget is None:
            return
        playing, done = [], self._released
        self._released = []
        for table_id, creator in self._creators.items():
            room = self.rooms.get(table_id)
            if room is not None and room.status != "over":
                playing.append((creator, table_id))
            else:
                done.append((creator, table_id))
        try:
            await self.budget.renew(playing, done)
        except (RedisError, OSError) as exc:  # they expire by themselves meanwhile
            log.warning("tables per address not renewed in Redis: %s", exc)

    def sweep(self, n: int, now: float) -> None:
        """The heartbeat's ping ``n`` to every socket: one silent for three heartbeats is
        closed, and one closed that long ago and still here (its close not taken: it reads
        nothing) has its connection cut (issue 31, finding 6)."""
        frame = Ping(id=n).model_dump_json()
        for conn in self.sockets():
            if not conn.welcomed:  # still being attached (through the table's owner)
                continue
            if now - conn.last_seen <= 3 * self.config.heartbeat:
                conn.send(frame)
            elif conn.closed:
                conn.abort()
            else:
                conn.close(1001, "no heartbeat")

    def sockets(self) -> list[Connection]:
        """This process's own sockets (another process's, in a room here, are its to ping)."""
        out = [conn for room in list(self.rooms.values()) for conn in room.connections()
               if isinstance(conn, Connection)]
        if self.cluster is not None:
            out += self.cluster.connections()
        return out

    def unload_idle(self, now: float) -> list[str]:
        """Drop from memory the rooms nobody is connected to that wait for their start, are
        over, or are paused with nobody connected (``unattended_pause``), idle for
        ``room_idle`` seconds; everything they hold is in the database, and :meth:`room` loads
        them again when asked.  (A table in play with someone connected keeps its room; one
        with a money change pending too, until it is applied.)"""
        gone = [room for room in self.rooms.values()
                if (room.status in ("waiting", "over")
                    or (room.unattended(now) and not room.pending))
                and not room.connections()
                and not room.lock.locked() and now - room.idle_since > self.config.room_idle]
        for room in gone:
            room.close()
            del self.rooms[room.id]
            self._forget_creator(room.id)
            if self.cluster is not None:
                self.cluster.release(room.id)
        if gone:
            self.metrics.tables.set(len(self.rooms))
        return [room.id for room in gone]

    def count(self, conn: Peer, delta: int) -> None:
        role = "player" if conn.name is not None else "spectator"
        self.metrics.connections.labels(role).inc(delta)

    def _dump(self) -> None:
        """Every room's state and every task's stack, in the log (``kill -USR1``)."""
        out = io.StringIO()
        for room in self.rooms.values():
            table = room.table
            print(f"room {room.id} status={room.status} version={room.version} "
                  f"seq={table.seq if table else 0} sent={room.sent} position={room.position} "
                  f"locked={room.lock.locked()} to_act={table.to_act if table else None}",
                  file=out)
            for conn in room.connections():
                print(f"  conn {conn.name} closed={conn.closed} queued={conn.pending()}",
                      file=out)
        for task in asyncio.all_tasks():
            task.print_stack(limit=12, file=out)
        log.warning("state:\n%s", out.getvalue())
