"""A table on the server: the coordinator of its layers, and the one writer that changes it.

The layers (docs/design.md, "The server"): what the table is, rebuilt from its log, is
:class:`~pitchcards.server.room_state.RoomState` (pure); who sits there is
:mod:`~pitchcards.server.seats`, and a dropped player's seat is held by
:class:`~pitchcards.server.grace.Grace`; what it does by itself (deals, bots, the turn timer) is
:class:`~pitchcards.server.room_driver.RoomDriver`; it stores through
:class:`~pitchcards.server.room_storage.TableStorage`.  The room holds the lock, the sockets
and the players' requests.

Every change goes the same way, under the room's lock (one writer per table):

1. the engine applies it (an illegal action raises and nothing changes);
2. it is appended to the table's log in the database, in the transaction that bumps the
   table's version (``Store.append``);
3. only then are its events sent, each connection getting ``Table.cut(event, who)`` — the
   engine's one place that decides what a seat may see.

If the database refuses, the room is rebuilt from the database (the engine state goes back to
what is stored) and the client is told ``storage``: nothing acknowledged is ever lost, nothing
unacknowledged is ever shown.  A room is rebuilt the same way after a restart: the log replays
from the table's secret seed to the same state and the same event ``seq``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Protocol

from ..actions import Action
from ..errors import IllegalActionError, InvalidActionError
from ..explain import illegal_text
from ..table import Table
from ..views import rules_to_dict
from .config import ServerConfig
from .connection import Peer
from .frames import EventFrames, event_frame
from .grace import Grace
from .names import name_key
from .protocol import (
    Act,
    ChatMessage,
    CreateTable,
    Deadline,
    Forfeit,
    Payments,
    PaymentsPreview,
    RematchMessage,
    SeatInfo,
    Snapshot,
    TableInfo,
    TableMessage,
    Welcome,
    You,
)
from .ranked import ended_match, rating_of_end, seat_as
from .refused import Refused
from .room_driver import DriverHost, RoomDriver
from .room_state import RoomState, bot_heavy, parse_act, record_of_log, table_rules
from .room_storage import TableStorage
from .seats import BOT_NAMES, Player, player_by_hash, player_by_token
from .store import Fenced, PlayerRow, StoredTable

__all__ = ["BOT_NAMES", "Player", "Refused", "Room", "RoomHost", "bot_heavy", "table_rules"]

log = logging.getLogger("pitchcards.server")


class RoomHost(DriverHost, Protocol):
    """What a room uses of the process that holds it (the hub): its settings, storage for its
    table through :class:`TableStorage` (never the store itself), word that the table was lost
    to another process, and what its driver uses (:class:`~.room_driver.DriverHost`: a test
    server's hooks, the counters, a slot to think in)."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def storage(self) -> TableStorage: ...

    def lost(self, room: Room) -> None: ...

    def table_over(self, table_id: str) -> None:
        """The table's game ended (a tournament records its boards)."""


class Room:
    """One table: build it with :meth:`load` (from the database), then drive it."""

    def __init__(self, hub: RoomHost, stored: StoredTable) -> None:
        self.hub = hub
        self.id = stored.id
        self.lock = asyncio.Lock()
        self.spectators: set[Peer] = set()
        self.closed = False
        #: what the table does by itself: deals, bots, the turn timer
        self.driver = RoomDriver(self)
        #: a dropped player's seat held for the grace period, then a stand-in's
        self.grace = Grace(self)
        #: when something last happened here (a change, a socket came or went): idle rooms
        #: leave memory (Hub.unload_idle)
        self.idle_since = time.monotonic()
        #: since when nobody has been connected (None: someone is).  A table loaded from the
        #: database (after a restart, or unloaded) waits for someone before it plays again.
        self.alone_since: float | None = time.monotonic() - hub.config.unattended_pause
        #: the record last written from the log (a room that forgot hands), with the log's
        #: length it was written at: paging /hands replays the log once per change (review F8)
        self._log_record: tuple[int, str] | None = None
        self._rebuild(stored)

    # ------------------------------------------------------------------ state from the log
    def _rebuild(self, stored: StoredTable) -> None:
        """(Re)make the room's state from what is stored: settings, players, the log
        (room_state.RoomState replays it); a rebuild keeps the players' sockets."""
        old = getattr(self, "state", None)
        self.state = RoomState(stored, self.hub.config.replay_limit,
                               old.players if old is not None else None)
        #: the first event of the last change: a client that has seen it has seen the position
        #: the next action is decided on (the rest of that change, a trick won or a hand scored,
        #: follows from it)
        self.position = self.state.seq
        self.sent = self.state.seq
        if self.state.table is not None:
            for player in self.state.players.values():
                if player.level is not None:
                    self.driver.seat_bot(player, player.level)
                elif player.away:
                    self.driver.seat_bot(player, self.state.settings.stand_in)

    # ------------------------------------------------------------------ what the table is
    # (read by the hub, the app and the tests; room_state.RoomState holds it)
    @property
    def table(self) -> Table | None:
        return self.state.table

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def players(self) -> dict[str, Player]:
        return self.state.players

    @property
    def config(self) -> CreateTable:
        return self.state.config

    @property
    def listed(self) -> bool:
        return self.state.listed

    @property
    def pending(self) -> list[dict[str, Any]]:
        return self.state.pending

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def results(self) -> deque[dict[str, Any]]:
        return self.state.results

    @property
    def seq(self) -> int:
        """The table's event seq now (0 before the start)."""
        return self.state.seq

    def payments(self) -> Payments | None:
        """Who paid whom as players left, and once settled the fewest payments left."""
        return self.state.payments()

    def preview(self, player: Player) -> PaymentsPreview:
        """What ``player`` leaving, or the table settling, would pay now (nothing changes)."""
        return self.state.preview(player)

    def player_by_token(self, token: str) -> Player | None:
        """The player whose token this is; every stored hash is compared in constant time."""
        return player_by_token(self.state.players.values(), token)

    def player_by_hash(self, digest: str) -> Player | None:
        """The player whose token hashes to ``digest`` (a request another process passed on
        carries the hash, never the token)."""
        return player_by_hash(self.state.players.values(), digest)

    # ------------------------------------------------------------------ the one writer
    async def commit(self, entry: dict[str, Any], parsed: Sequence[Action] = ()) -> str | None:
        """Apply, store, then send: the only way the game changes.  Hold the lock.
        ``parsed``: an act's actions, parsed once by its caller."""
        first = self.state.table.seq + 1 if self.state.table is not None else 1
        status = self.state.status
        done = self.state.apply(entry, parsed)
        if done is not None:
            entry = {**entry, "action": done}
        n = self.state.version + 1
        # a ranked match's end is rated in the transaction that stores it (server/ranked.py)
        also = rating_of_end(ended_match(self.id, self.state.rules.name, self.state.table,
                                         self.state.players, self.state.forfeits,
                                         self.state.money_stats)) \
            if self.state.config.ranked and self.state.table is not None \
            and self.state.status == "over" != status else None
        try:
            await self.hub.storage.append(self.id, n, entry,
                              self.state.status if entry["op"] in ("start", "settle") or
                              self.state.status == "over" else None, also)
        except Fenced:
            log.error("table lost", extra={"table": self.id, "n": n})
            self.close(1012, "table moved to another server")
            self.hub.lost(self)
            raise Refused("storage", "this server no longer holds the table: reconnect",
                          503) from None
        except Exception:
            log.exception("storing failed", extra={"table": self.id, "n": n})
            await self._reload()
            raise Refused("storage", "the server could not store that; nothing changed, try "
                                     "again", 503) from None
        self.state.version = n
        self.idle_since = time.monotonic()
        if self.state.table is not None and self.state.table.seq >= first:
            self.position = first
        if entry["op"] == "join":  # a joiner who has no socket open gets the grace too
            self.grace.hold(self.state.players[entry["name"]])
        self._flush()
        if self.state.status != status:  # the match was won or the money settled: say so
            self.announce()
            if self.state.status == "over":  # a tournament records its table's boards
                self.driver.stop_timer()  # and no turn is timed after the end
                self.hub.table_over(self.id)
        return done

    async def _reload(self) -> None:
        stored = await self.hub.storage.load(self.id)
        if stored is not None:
            self._rebuild(stored)

    def _flush(self) -> None:
        """Send the new events, each connection its own cut (Table.cut decides)."""
        table = self.state.table
        if table is None or not self.state.new:
            return
        new = self.state.new[:]
        self.state.new.clear()  # the same list: the Table's subscription appends to it
        conns = self.connections()
        for event in new:
            # one cut and one frame per name (spectators: None), the view's public part
            # encoded once for all of them (frames.EventFrames)
            frames = EventFrames(event, event.seq in self.state.timed_out)
            sent: dict[str | None, str] = {}
            for conn in conns:
                frame = sent.get(conn.name)
                if frame is None:
                    frame = sent[conn.name] = frames.frame(table.cut(event, conn.name))
                conn.send(frame)
        self.sent = table.seq
        self.state.forget()
        self.driver.wake()

    def connections(self) -> list[Peer]:
        out = list(self.spectators)
        for player in self.state.players.values():
            out.extend(player.conns)
        return out

    def info(self) -> TableInfo:
        seats: list[SeatInfo] = []
        table = self.state.table
        if table is None:
            by_seat = {p.seat: p for p in self.state.players.values()}
            for seat in range(self.state.size):
                p = by_seat.get(seat)
                seats.append(self._seat_info(seat, p) if p is not None else
                             SeatInfo(seat=seat, name=None,
                                      kind="bot" if seat in self.state.config.bots else "open",
                                      level=self.state.config.bots.get(seat)))
        else:
            for seat, name in enumerate(table.names):
                seats.append(self._seat_info(seat, self.state.players[name]).model_copy(
                    update={"side": table.session.side_of(seat)}))
        pending = [f"{e['op']} {e.get('name', '')}".strip() for e in self.state.pending]
        return TableInfo(table=self.id, variant=self.state.rules.name,
                         rules=rules_to_dict(self.state.rules, resolved=True),
                         status=self.state.status,
                         listed=self.state.listed, money=self.state.money, seats=seats,
                         settings=self.state.settings, seq=table.seq if table is not None else 0,
                         spectators=len(self.spectators), pending=pending,
                         rematch=self.state.rematch_id, rematch_of=self.state.rematch_of,
                         payments=self.state.payments(),
                         deadlines=self.deadlines(), **self._ranked_info())

    def _ranked_info(self) -> dict[str, Any]:
        """A ranked table's part of its info: the flag, the forfeits, who may claim the win."""
        if not self.state.config.ranked:
            return {}
        table, forfeits = self.state.table, self.state.forfeits
        return {"ranked": True,
                "forfeits": [Forfeit(name=name, side=side, why=why) for (name, why), side
                             in zip(forfeits.names, forfeits.sides, strict=True)],
                "may_claim": forfeits.may_claim(table, self.state.players)
                if table is not None and self.state.status == "playing" else None}

    def deadlines(self) -> list[Deadline]:
        """The clocks running now, as time left (relative: a client's clock may be off): the
        turn timer of the seat to act, and each dropped player's grace."""
        now = time.monotonic()
        table = self.state.table
        out: list[Deadline] = []
        turn = self.driver.turn
        if turn is not None and table is not None and table.in_hand:
            seat, seq, until = turn
            if table.seq == seq and table.to_act == seat:
                out.append(Deadline.running("turn", table.names[seat], seat, until - now,
                                            self.state.settings.turn_timer or 0, seq))
        out.extend(self.grace.deadlines(now))
        return out

    def _seat_info(self, seat: int, p: Player) -> SeatInfo:
        return SeatInfo(seat=seat, name=p.name, kind="bot" if p.is_bot else "human",
                        level=p.level if p.is_bot else (self.state.settings.stand_in if p.away
                                                        else None),
                        connected=bool(p.conns) or p.is_bot, away=p.away, host=p.host)

    def announce(self) -> None:
        frame = TableMessage(table=self.info()).model_dump_json()
        for conn in self.connections():
            conn.send(frame)

    # ------------------------------------------------------------------ sockets
    async def attach(self, conn: Peer, player: Player | None,
                     last_seq: int | None) -> None:
        """A socket says hello: welcome it, catch it up, and give a returning player their
        seat back."""
        if player is None and self.state.tournament is not None:
            # a tournament's table has no spectators: a watcher could see a board before
            # playing it at their own table (issue 34, hidden boards)
            raise Refused("tournament_table", "a tournament's table is watched by nobody: "
                                              "only its seated players connect", 403)
        async with self.lock:
            self.idle_since = time.monotonic()
            self.alone_since = None  # someone is here: a paused table plays on
            conn.name = player.name if player is not None else None
            conn.table = self.id
            returned = False
            if player is None:
                self.spectators.add(conn)
            else:
                returned = not player.conns
                player.conns.add(conn)
                self.grace.back(player)  # their seat is theirs again (from a stand-in too)
            table = self.state.table
            seq = table.seq if table is not None else 0
            you = You(role="player" if player else "spectator",
                      seat=self.state.seat_now(player), name=conn.name,
                      host=bool(player and player.host))
            conn.send_model(Welcome(table=self.info(), you=you, seq=seq))
            conn.welcomed = True
            if table is not None:
                self._catch_up(conn, last_seq)
            for name, text, at in await self.hub.storage.recent_chat(self.id, 20):
                conn.send_model(ChatMessage(name=name, text=text, at=at))
            if returned or player is None:
                self.announce()
        self.driver.wake()

    def _catch_up(self, conn: Peer, last_seq: int | None) -> None:
        table = self.state.table
        assert table is not None
        behind = table.seq - last_seq if last_seq is not None else None
        if behind is not None and 0 <= behind <= self.hub.config.replay_limit:
            try:
                events = table.events(conn.name, after=last_seq)  # type: ignore[arg-type]
            except IllegalActionError:  # a money joiner not dealt in yet: the public events
                events = table.events(None, after=last_seq)  # type: ignore[arg-type]
            for event in events:
                conn.send(event_frame(event, event.seq in self.state.timed_out))
        else:
            seat = self.state.seat_now(self.state.players.get(conn.name or ""))
            snap = table.snapshot(seat if conn.name is not None else None)
            conn.send_model(Snapshot(seq=snap["seq"], view=snap["view"]))

    async def detach(self, conn: Peer) -> None:
        # The socket leaves at once, before the lock: a socket task cancelled while it waits
        # for the lock is not left a spectator (or a player's connection) for ever.
        self.spectators.discard(conn)
        player = self.state.players.get(conn.name) if conn.name is not None else None
        was_seated = player is not None and conn in player.conns
        if player is not None:
            player.conns.discard(conn)
        if not self.connections() and self.alone_since is None:
            self.alone_since = time.monotonic()
        async with self.lock:
            self.idle_since = time.monotonic()
            if player is not None and was_seated and self.state.status == "playing" \
                    and not self.closed:
                self.grace.hold(player)
            if not self.closed:
                self.announce()

    def unattended(self, now: float) -> bool:
        """Nobody has been connected for ``unattended_pause`` seconds: the table does not
        play (its bots and stand-ins wait) until someone connects (issue 31, finding 1)."""
        if self.state.tournament is not None:  # a tournament's round goes on regardless
            return False
        return self.alone_since is not None and \
            now - self.alone_since >= self.hub.config.unattended_pause

    def hold_seat(self, player: Player) -> None:
        """A person with no socket open: their seat waits the grace period, then a stand-in
        plays it (until they come back; server/grace.py)."""
        self.grace.hold(player)

    async def seat_stand_in(self, player: Player) -> None:
        """The table's stand-in bot plays ``player``'s seat (their grace ran out, under the
        room's lock: server/grace.py); at a ranked table, away past the grace is a loss for
        their side (issue 32)."""
        self.driver.seat_bot(player, self.state.settings.stand_in)
        # money: ranked by payouts; a ranked tournament's table plays its boards to the end, no
        # forfeit ends it (the director's no-show and withdrawal stand for it; docs/tournaments.md)
        if self.state.config.ranked and not self.state.money and self.state.tournament is None:
            await self._forfeit(player, "away")

    # ------------------------------------------------------------------ players' requests
    async def act(self, conn: Peer, msg: Act) -> None:
        start = time.perf_counter()
        async with self.lock:
            table = self.state.table
            if conn.name is None:
                raise Refused("spectator", "a spectator cannot act")
            if table is None:
                raise Refused("not_started", "the host has not started the match yet")
            if self.state.status == "over":  # (a ranked match ended by forfeits or a claim)
                raise Refused("game_over", "this table's match is over")
            if not self.position <= msg.seq <= table.seq:
                raise Refused("stale", f"{msg.action!r} was decided at seq {msg.seq}, but the "
                                       f"table has moved on to seq {table.seq}: look again",
                              legal=self.state.legal_for(conn.name))
            names = table.names
            if conn.name not in names:
                raise Refused("not_seated", f"{conn.name} is not seated now")
            try:
                actions = parse_act(msg)
            except InvalidActionError as exc:
                raise Refused("bad_message", str(exc),
                              legal=self.state.legal_for(conn.name)) from None
            seat = names.index(conn.name)
            entry: dict[str, Any] = {"op": "act", "seat": seat, "bot": False}
            if msg.cards is None:
                entry["action"] = str(actions[0])
            else:  # one log entry for the whole discard (T4)
                entry["actions"] = [str(action) for action in actions]
            try:
                await self.commit(entry, actions)
            except IllegalActionError as exc:
                raise Refused(exc.reason, str(exc), legal=self.state.legal_for(conn.name),
                              words=illegal_text(exc, table.view(seat))) from None
        self.hub.metrics.actions.labels("player").inc()
        self.hub.metrics.action_latency.observe(time.perf_counter() - start)

    async def chat(self, conn: Peer, text: str) -> None:
        if conn.name is None:
            raise Refused("spectator", "spectators watch; only players chat")
        player = self.state.players.get(conn.name)
        if player is not None:
            self.state.check_seated(player, "chat")
        text = " ".join(text.split())
        limit = self.hub.config.chat_length
        if not text:
            return
        if len(text) > limit:
            raise Refused("chat_too_long", f"chat messages are at most {limit} characters, "
                                           f"not {len(text)}")
        if not conn.chats.take():
            raise Refused("rate_limited", "too many chat messages: wait a little")
        at = time.time()
        await self.hub.storage.add_chat(self.id, conn.name, text, at)
        frame = ChatMessage(name=conn.name, text=text, at=at).model_dump_json()
        for other in self.connections():
            other.send(frame)

    async def take_seat(self, name: str, seat: int | None, token_hash: str,
                        account_id: str | None = None, account_name: str | None = None
                        ) -> tuple[int | None, str]:
        """A guest sits down (before the start), or joins a money table (at the next break);
        a signed-in player as their account (``account_id``; a ranked table's seats are all
        accounts', under their names: server/ranked.py).  Returns the seat and the name."""
        async with self.lock:
            name = seat_as(self.state.config.ranked, name, account_id, account_name)
            key = name_key(name)  # lookalikes are one name (issue 31, finding 11)
            same = next((p.name for p in self.state.players.values() if name_key(p.name) == key),
                        None)
            if same is not None:
                raise Refused("name_taken", f"{name!r} is already at this table: pick another "
                                            "name" if same == name else
                              f"{name!r} looks like {same!r}, already at this table (names "
                              "are compared without case, width or lookalike letters): pick "
                              "another name")
            if self.state.status == "over":
                raise Refused("game_over", "this table's game is over")
            if self.state.status == "playing":
                if not self.state.money:
                    raise Refused("started", "the match has started; ask the host for a "
                                             "rematch to play")
                seated = len(self.state.table.names) if self.state.table else 0
                if seated + sum(e["op"] == "join" for e in self.state.pending) >= 8:
                    raise Refused("table_full", "a money table seats at most 8 (C3)")
                row = PlayerRow(name, None, token_hash, None, False, account_id)
                await self.hub.storage.add_player(self.id, row)
                self.state.players[name] = Player(row)
                await self._between_hands({"op": "join", "name": name})
                return self.state.seat_now(self.state.players[name]), name
            taken = {p.seat for p in self.state.players.values()}
            free = [s for s in range(self.state.size)
                    if s not in taken and s not in self.state.config.bots]
            if seat is None:
                if not free:
                    raise Refused("table_full", "every seat is taken")
                seat = free[0]
            elif seat >= self.state.size:
                raise Refused("no_such_seat", f"seat {seat}: this table's seats are "
                                              f"0..{self.state.size - 1}")
            elif seat not in free:
                raise Refused("seat_taken", f"seat {seat} is taken; free seats: "
                                            f"{', '.join(map(str, free)) or 'none'}")
            row = PlayerRow(name, seat, token_hash, None, False, account_id)
            await self.hub.storage.add_player(self.id, row)
            self.state.players[name] = Player(row)
            self.announce()
            return seat, name

    async def start(self, player: Player) -> None:
        """The host starts: bots take the empty seats, the first hand is dealt."""
        async with self.lock:
            if not player.host:
                raise Refused("not_host", "only the host starts the match", 403)
            if self.state.status != "waiting":
                raise Refused("started", "the match has already started")
            by_seat = {p.seat: p for p in self.state.players.values()}
            names: list[str] = []
            taken = {name_key(p.name) for p in self.state.players.values()}
            spare = (n for n in BOT_NAMES if name_key(n) not in taken)
            new_bots: list[PlayerRow] = []
            for seat in range(self.state.size):
                p = by_seat.get(seat)
                if p is None:
                    level = self.state.config.bots.get(seat, self.state.config.fill)
                    row = PlayerRow(next(spare), seat, None, level, False)
                    new_bots.append(row)
                    names.append(row.name)
                else:
                    names.append(p.name)
            for row in new_bots:
                await self.hub.storage.add_player(self.id, row)
                self.state.players[row.name] = Player(row)
            try:
                await self.commit({"op": "start", "names": names})
            except IllegalActionError as exc:
                raise Refused(exc.reason, str(exc)) from None
            if self.alone_since is not None:  # started with nobody connected: it plays
                self.alone_since = time.monotonic()  # unattended_pause seconds, then waits
            for p in self.state.players.values():
                if p.level is not None:
                    self.driver.seat_bot(p, p.level)
                else:
                    self.grace.hold(p)
            self.announce()
        self.driver.wake()

    async def leave(self, player: Player) -> Fraction | None:
        """A money player leaves: now if between hands (the payout), else at the next break.
        A ranked match's player leaves at once: a loss for their side, a stand-in plays on
        (a ranked money table's leave is a money leave: its payout places them)."""
        async with self.lock:
            if self.state.config.ranked and not self.state.money \
                    and self.state.status == "playing" and self.state.tournament is None:
                self.state.check_seated(player, "leave")
                player.away = True
                self.driver.seat_bot(player, self.state.settings.stand_in)
                await self._forfeit(player, "left")
                self.announce()
                self.driver.wake()
                return None
            if not self.state.money or self.state.table is None:
                raise Refused("join_leave_not_allowed", "only a started money table lets players "
                                                        "leave with a payout")
            self.state.check_seated(player, "leave")
            await self._between_hands({"op": "leave", "name": player.name})
            paid = self.state.table.session.payouts
            return paid.get(player.name)

    async def settle(self, player: Player) -> None:
        async with self.lock:
            if not self.state.money or self.state.table is None:
                raise Refused("join_leave_not_allowed", "only a started money table settles")
            self.state.check_seated(player, "settle the table")
            await self._between_hands({"op": "settle"})

    async def _between_hands(self, entry: dict[str, Any]) -> None:
        """Apply ``entry`` now if no hand is in play, else queue it for the next break."""
        assert self.state.table is not None
        if self.state.table.in_hand:
            await self.commit({"op": "pending", "entry": entry})  # stored before "pending"
            self.announce()
            return
        try:
            await self.commit(entry)
        except IllegalActionError as exc:
            raise Refused(exc.reason, str(exc)) from None
        self.announce()

    async def _forfeit(self, player: Player, why: str) -> None:
        """A ranked match's player forfeits (left, or away past the grace): their side's loss,
        logged once per side (server/ranked.py).  Hold the lock."""
        assert self.state.table is not None
        entry = self.state.forfeits.forfeit_entry(self.state.table, player.name, why)
        if entry is not None:
            await self.commit(entry)

    async def claim(self, player: Player) -> None:
        """A ranked match's remaining side claims the win: every opponent has left."""
        async with self.lock:
            if not self.state.config.ranked:
                raise Refused("not_ranked", "only a ranked match's win is claimed", 409)
            if self.state.money:
                raise Refused("cannot_claim", "a ranked money table has no win to claim: it "
                                              "is ranked by money at the settlement (settle up, "
                                              "or leave with your winnings)", 409)
            if self.state.status != "playing" or self.state.table is None:
                raise Refused("game_over" if self.state.status == "over" else "not_started",
                              f"the match is {self.state.status}: there is no win to claim", 409)
            self.state.check_seated(player, "claim the win")
            self.state.forfeits.check_claim(self.state.table, self.state.players, player.name)
            await self.commit({"op": "claim", "name": player.name})

    async def record(self) -> str:
        """The game so far as the table's players may see it: finished hands, no seed.

        Written on a worker thread (it walks every hand, issue 31 finding 7): from memory,
        or, once a long money table forgot its older hands, from the log in the database
        (replayed without the room's lock: the stored log is a committed prefix), kept until
        the log grows."""
        async with self.lock:
            if not self.state.forgot_hands:
                return await asyncio.to_thread(self.state.record)
            cached, version = self._log_record, self.state.version
        if cached is not None and cached[0] == version:  # nothing logged since: the same
            return cached[1]
        stored = await self.hub.storage.load(self.id)
        if stored is None:  # pragma: no cover - a loaded table is in the database
            raise Refused("not_found", f"no table {self.id[:40]!r}", 404)
        text = await asyncio.to_thread(record_of_log, stored)
        self._log_record = (len(stored.entries), text)
        return text

    # ------------------------------------------------------------------ the driver
    def run(self) -> None:
        """Start the room's driver task (bots, deals, timers: room_driver.RoomDriver)."""
        self.driver.run()

    def wake(self) -> None:
        """Have the driver look again at what the table does next."""
        self.driver.wake()

    async def expire_turn(self) -> bool:
        """Run the turn timer out now, and return once its stand-in has played (a test
        server's hook: a test never waits on the wall clock); False if none is running."""
        return await self.driver.expire_turn()

    def close(self, code: int = 1001, reason: str = "server shutting down") -> None:
        self.closed = True
        self.driver.stop()
        self.grace.stop()
        for conn in self.connections():
            conn.close(code, reason)

    # ------------------------------------------------------------------ rematch
    async def rematch(self, player: Player, create: Callable[..., Any]) -> str:
        async with self.lock:
            if not player.host:
                raise Refused("not_host", "only the host asks for a rematch", 403)
            self.state.check_seated(player, "ask for a rematch")
            if self.state.status != "over":
                raise Refused("started", "a rematch follows a finished game")
            if self.state.rematch_id is not None:
                return self.state.rematch_id
            names = self.state.table.names if self.state.table is not None else ()
            seats = [PlayerRow(name, seat, self.state.players[name].token_hash,
                               self.state.players[name].level, self.state.players[name].host,
                               self.state.players[name].account_id)
                     for seat, name in enumerate(names)]
            new_id: str = await create(self.state.config, seats, self.id)
            self.state.rematch_id = new_id
            await self.hub.storage.set_status(self.id, "over", new_id)
            frame = RematchMessage(table=new_id).model_dump_json()
            for conn in self.connections():
                conn.send(frame)
            self.announce()
            return new_id

