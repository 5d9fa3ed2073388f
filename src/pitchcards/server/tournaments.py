"""Tournaments on the server (issue 34): ``/api/tournaments``, and the rounds that run
themselves.

A director creates a tournament (format, variant and options, rounds, boards a round, the
pause between rounds, entry open or by invite) and gets its **director secret** (random, kept
only hashed, compared in constant time, like a seat token).  Players register — a pair, or one
player — and each gets a **player secret**: the same secret opens every table they are seated
at, and ``GET /api/tournaments/{id}/me`` says where that is.  The director starts it: bots
fill the last table (and take the seats of no-shows and withdrawn entrants), and
:class:`TournamentService` creates each round's tables, dealing the round's boards
(server/room_state.py deals a tournament table's boards from its stored config, which only this
module writes).  When the last table of a round ends, the next round starts after the
director's pause; after the last round the tournament is over and its boards' results, hands
face up, are public.

State: the tournament's own events (server/tournament_store.py) plus its tables' logs; rebuilt
after a restart, when :meth:`TournamentService.open` resumes every running tournament (a
table's end that was not recorded yet is recorded then).  docs/protocol.md documents the
routes; docs/tournaments.md the formats.
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import hmac
import io
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.params import Depends
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..errors import IllegalActionError, OptionError
from ..rules import find_variant
from ..tournament import TournamentError, board_cards
from .cluster import Elsewhere
from .history import played_by_hand
from .protocol import BotLevel, CreateTable, DisplayName, TableSettings, check_display_name
from .ranked import check_ranked
from .refused import Refused
from .room_state import MAX_TARGET, table_rules
from .seats import Player
from .store import Fenced, NewTable, PlayerRow, hash_secret
from .tournament_rounds import DuplicateRounds, TablePlan
from .tournament_state import TournamentState, entrant_name, entry_size, with_bots
from .tournament_store import TournamentStore

if TYPE_CHECKING:
    from .hub import Hub
    from .room import Room

__all__ = ["TournamentService", "tournaments_router"]

log = logging.getLogger("pitchcards.server.tournaments")

Auth = Annotated[str | None, Header(description="Bearer <director or player secret>")]

#: the (id, name) of the account a request is signed in as, or None (a guest)
AccountOf = Callable[[Request, str | None], Awaitable[tuple[str, str] | None]]

#: the players a tournament registers before its start (forty tables of four): a tournament's
#: tables are made by the tournament, outside the per-address table budgets, so the tournament
#: itself is bounded (docs/tournaments.md, "Limits")
MAX_PLAYERS = 160

#: the tournaments one address may have that are not over (registering or running)
MAX_OPEN_PER_ADDRESS = 3

#: several processes (``--redis``): how often each resumes the running tournaments, seconds
ADOPT_S = 2.0

#: the host a tournament's table is started by: the tournament itself, never a stored player
_TOURNAMENT_HOST = Player(PlayerRow("tournament", None, None, None, True))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CreateTournament(_Model):
    """``POST /api/tournaments``: a director's tournament."""

    name: DisplayName = Field(description="the director's display name")
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                            max_length=60)] = "Pitch night"
    format: Literal["pairs", "individual", "progressive", "swiss"] = Field(
        "pairs", description="duplicate for fixed pairs (Mitchell), or individuals; "
                             "progressive Pitch; Swiss")
    partnership: bool = Field(True, description="individual: rotating partners (else each "
                                                "for himself, a cutthroat variant); swiss: "
                                                "fixed pairs (else cutthroat players)")
    variant: str = Field("auction-partners", max_length=40)
    odd_variant: str = Field("auction", max_length=40,
                             description="progressive tables of three and five, and Swiss "
                                         "cutthroat tables the variant does not seat: each "
                                         "for himself")
    options: dict[Annotated[str, StringConstraints(max_length=40)],
                  str | int | bool] = Field(default_factory=dict, max_length=40)
    rounds: int | None = Field(None, ge=1, le=20, description="default: the movement's all "
                                                               "(duplicate), 4 (progressive), "
                                                               "3 (Swiss)")
    boards_per_round: int = Field(2, ge=1, le=12)
    start_time: Annotated[str, StringConstraints(max_length=40)] | None = Field(
        None, description="when it starts, as the director writes it (shown to players)")
    entry: Literal["open", "invite"] = "open"
    ranked: bool = Field(False, description="every table rated at its end "
                                            "(docs/accounts.md, \"Ranked tables\"): every "
                                            "entrant a signed-in account, one player an entry")
    pause: float = Field(30.0, ge=0, le=3600, description="seconds between rounds")
    fill: BotLevel = Field("medium", description="the bots' level")
    settings: TableSettings = Field(default_factory=TableSettings)


class Register(_Model):
    """``POST /api/tournaments/{id}/entries``: a pair's two names, or one player's."""

    names: list[Annotated[str, StringConstraints(max_length=60)]] = Field(min_length=1,
                                                                          max_length=2)
    invite: Annotated[str, StringConstraints(max_length=100)] | None = None


class Named(_Model):
    """The director names a player (no-show) or an entrant (withdrawal)."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=60)]


class TournamentService:
    """Every tournament this process runs: their states, and the rounds' tables."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = TournamentStore(hub.store)
        self.states: dict[str, TournamentState] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: the round tables known to be stored (a round's event names its tables before they
        #: are made: :meth:`me` points a player at one only once it can be opened)
        self._made_tables: set[str] = set()
        #: the (tournament, round) whose next round this process is opening
        self._advancing: set[tuple[str, int]] = set()
        #: the round tables this process has run (made or resumed: their stand-ins seated)
        self._running: set[str] = set()
        #: the key of :func:`creator_key` (the database's, read once)
        self._creator_secret: bytes | None = None
        hub.over_listeners.append(self._table_over)

    async def open(self) -> None:
        """Resume every running tournament (after a restart: its round goes on).  One of
        several processes (``--redis``): and again every :data:`ADOPT_S` seconds, so the
        tables of a process that died are taken over and its rounds go on."""
        await self._resume_all()
        if self.hub.cluster is not None:
            self._spawn(self._adopt())

    async def _resume_all(self, orphans_only: bool = False) -> None:
        """Resume every running tournament; ``orphans_only``: only those with a table of the
        round that no live process holds (or no round open), which this process takes."""
        for tid in await self.hub.db(self.store.running):
            try:
                async with self._lock(tid):
                    state = await self.state(tid)
                    if state.status == "running" and (
                            not orphans_only or await self._orphaned(state)):
                        await self._resume(state)
            except Exception:
                log.exception("tournament not resumed", extra={"tournament": tid})

    async def _here(self, table_id: str) -> Room | None:
        """A round table's room if this process holds it or can take it now; None if another
        live process holds it, or its holder is not known yet (just died: its lock not yet
        free) — that process acts on it, or a later resume here does (several processes)."""
        try:
            return await self.hub.room(table_id)
        except Elsewhere:
            return None
        except Refused as exc:
            if exc.reason == "storage" and self.hub.cluster is not None:
                return None
            raise

    async def _orphaned(self, state: TournamentState) -> bool:
        """Whether the current round has a table to take over (this process claims it, its
        holder being dead), or the round is done or not open yet (its next step was not
        written: a process died between the two)."""
        round_ = state.current_round
        if round_ is None or state.round_done(round_):
            return True
        for t, table_id in enumerate(state.round_tables[round_]):
            if (table_id in self._running and table_id in self.hub.rooms) \
                    or state.started().is_recorded(round_, t):
                continue
            if await self._here(table_id) is None:
                continue
            # here, but not run by this tournament here yet (claimed now, its process gone;
            # or loaded by a player's socket): resumed, its no-shows' stand-ins seated
            return True
        return False

    async def _adopt(self) -> None:
        """Several processes: each resumes every running tournament now and then.  A table
        another live process holds answers :class:`Elsewhere` and is left to it; one whose
        process died is claimed (its lock went with that process's session) and runs here;
        the tournament's events are fenced on their version, so two processes never write
        the same step twice (docs/tournaments.md, "Several processes")."""
        while True:
            await asyncio.sleep(ADOPT_S)
            await self._resume_all(orphans_only=True)

    async def close(self) -> None:
        """Stop the rounds' timers and record writes, and wait until they have stopped: the
        hub (its database thread) closes after this, never under one of them."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for ended in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(ended, Exception):
                log.error("tournament task failed", exc_info=ended)

    def _lock(self, tid: str) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def state(self, tid: str, fresh: bool = True) -> TournamentState:
        """The tournament as this process knows it.  Several processes (``--redis``): first
        reloaded if another process stored an event since (one small query; ``fresh=False``
        skips it where the state is only read once more).  Writes hold the lock and are
        fenced on the version besides (:meth:`_append`)."""
        found = self.states.get(tid)
        if found is not None and fresh and self.hub.cluster is not None \
                and await self.hub.db(self.store.version, tid) != found.version:
            self.states.pop(tid, None)
            found = None
        if found is not None:
            return found
        stored = await self.hub.db(self.store.load, tid) if len(tid) <= 32 else None
        if stored is None:
            raise Refused("not_found", f"no tournament {tid[:40]!r}", 404)
        found = self.states.setdefault(tid, TournamentState(stored))
        return found

    async def _append(self, state: TournamentState, entry: dict[str, Any],
                      status: str | None = None) -> None:
        """Apply ``entry`` and store it; a refused write reloads the state (nothing
        changed)."""
        n = state.version + 1
        try:
            state.apply(entry)
            await self.hub.db(self.store.append, state.id, n, entry, status)
        except Fenced:  # another process wrote first (several processes): nothing kept
            self.states.pop(state.id, None)
            raise Refused("storage", "another server changed the tournament at that moment: "
                                     "nothing was done, try again", 503) from None
        except Exception:
            self.states.pop(state.id, None)
            raise
        state.version = n

    # ------------------------------------------------------------------ the director
    async def create(self, request: CreateTournament, address: str = "unknown"
                     ) -> dict[str, Any]:
        _check_variants(request)
        tid = secrets.token_urlsafe(12)
        secret = secrets.token_urlsafe(32)
        invite = secrets.token_urlsafe(24) if request.entry == "invite" else None
        if self._creator_secret is None:
            self._creator_secret = await self.hub.db(self.store.secret, "tournament creator")
        # counted in the database with the write: across restarts and every process
        if not await self.hub.db(self.store.create, tid, hash_secret(secret),
                                 hash_secret(invite) if invite else None,
                                 request.model_dump(mode="json"), secrets.randbits(63),
                                 creator_key(self._creator_secret, address),
                                 MAX_OPEN_PER_ADDRESS):
            raise Refused("too_many_tournaments", f"your address has {MAX_OPEN_PER_ADDRESS} "
                          "tournaments that are not over (its most): finish one first", 429)
        url = f"{self.hub.config.url}/api/tournaments/{tid}"
        return {"tournament": tid, "director_token": secret, "url": url, "invite": invite}

    def check_director(self, state: TournamentState, token_hash: str | None) -> None:
        if token_hash is None or not hmac.compare_digest(state.director_hash, token_hash):
            raise Refused("not_director", "only the tournament's director may do that", 403)

    async def register(self, tid: str, request: Register,
                       account: tuple[str, str] | None = None) -> dict[str, Any]:
        """An entry: a pair's two names or one player's.  ``account`` (id, name): the caller
        is signed in, and the entry's first player is that account — under its name, its seats
        the account's — once a tournament."""
        state = await self.state(tid)
        async with self._lock(tid):
            if state.invite_hash is not None and not hmac.compare_digest(
                    state.invite_hash, hash_secret(request.invite or "")):
                raise Refused("bad_token", "this tournament's entry is by invite: that is not "
                                           "its invite code", 403)
            if state.config.get("ranked") and account is None:
                raise Refused("account_needed", "this tournament is ranked: every entrant is "
                              "a signed-in account. Sign in (a terminal: --token with an API "
                              "token from your profile), or enter an unranked one", 401)
            want = entry_size(state.config)
            if len(request.names) != want:
                raise Refused("bad_tournament", f"a {state.format} tournament registers "
                                                f"{want} name{'s' * (want > 1)} an entry, not "
                                                f"{len(request.names)}", 422)
            try:
                names = [check_display_name(n) for n in request.names]
            except ValueError as exc:
                raise Refused("bad_name", str(exc), 422) from None
            accounts: dict[str, str] = {}
            if account is not None:
                if account[0] in state.accounts.values():
                    raise Refused("bad_name", f"your account ({account[1]!r}) is registered in "
                                              "this tournament already", 409)
                names[0] = account[1]  # the entry's first player is the account, by its name
                accounts = {account[1]: account[0]}
            clash = state.taken(names) or (names[0] if len(set(map(str.casefold, names)))
                                           < len(names) else None)
            if clash is not None:
                raise Refused("bad_name", f"{clash!r} is registered already", 409)
            tokens = [secrets.token_urlsafe(32) for _ in names]
            hashes = [hash_secret(t) for t in tokens]
            if state.status == "registering":
                players = sum(len(names) for names in state.holders.values())
                if players + len(names) > MAX_PLAYERS:
                    raise Refused("tournament_full", f"the tournament has {players} players "
                                  f"registered, and takes at most {MAX_PLAYERS} (forty "
                                  "tables)", 409)
                await self._append(state, {"op": "register", "names": names,
                                           "tokens": hashes, "accounts": accounts})
                late_from = None
            elif state.status == "running":
                late_from = await self._late(state, names, hashes, accounts)
            else:
                raise Refused("bad_tournament", "the tournament is over", 409)
            return {"entrant": entrant_name(names), "tokens": dict(zip(names, tokens,
                                                                       strict=True)),
                    "from_round": late_from}

    async def _late(self, state: TournamentState, names: list[str], hashes: list[str],
                    accounts: dict[str, str]) -> int:
        """A late entry takes the seats of a bot entrant from the next round on (duplicate),
        or is seated by the format from its next seating (progressive, Swiss)."""
        event = state.started()
        current = state.current_round or 0
        if current + 1 >= event.rounds or (not state.duplicate
                                           and event.joins_at() >= event.rounds):
            raise Refused("bad_tournament", "the last round is seated: no late entry now",
                          409)
        if not state.duplicate:
            await self._append(state, {"op": "enter", "names": names, "tokens": hashes,
                                       "accounts": accounts})
            return state.joined[entrant_name(names)]
        free = [b for b in sorted(state.bots) if b not in state.late_from
                and b not in state.withdrawn]
        if not free:
            raise Refused("bad_tournament", "every entrant's seat is taken: a late entry "
                                            "takes a bot's, and there is none", 409)
        await self._append(state, {"op": "late", "entrant": free[0], "names": names,
                                   "tokens": hashes, "from_round": current + 1,
                                   "accounts": accounts})
        return current + 1

    async def start(self, tid: str, token_hash: str | None) -> None:
        state = await self.state(tid)
        self.check_director(state, token_hash)
        async with self._lock(tid):
            if state.status != "registering":
                raise Refused("started", "the tournament has already started")
            entrants, bots = with_bots(state, list(state.holders))
            try:
                await self._append(state, {"op": "start", "entrants": entrants, "bots": bots},
                                   "running")
            except TournamentError as exc:
                raise Refused("bad_tournament", str(exc), 422) from None
            await self._open_round(state, 0)

    async def noshow(self, tid: str, token_hash: str | None, name: str) -> None:
        """A bot plays ``name``'s seat: now (their table's stand-in takes over) and in
        every later round."""
        state = await self.state(tid)
        self.check_director(state, token_hash)
        async with self._lock(tid):
            if name not in state.tokens:
                raise Refused("bad_tournament", f"{name[:40]!r} is not a registered player", 404)
            await self._append(state, {"op": "noshow", "name": name})
            await self._stand_in(state, [name])

    async def withdraw(self, tid: str, token_hash: str | None, entrant: str) -> None:
        """The entrant withdraws: bots play its seats from now; it leaves the standings'
        ranking (listed last)."""
        state = await self.state(tid)
        self.check_director(state, token_hash)
        async with self._lock(tid):
            if entrant not in state.holders or state.event is None \
                    or entrant not in state.event.entrants:
                raise Refused("bad_tournament", f"{entrant[:40]!r} is not an entrant of the "
                                                "started tournament", 404)
            await self._append(state, {"op": "withdraw", "entrant": entrant})
            await self._stand_in(state, state.late_names.get(entrant, state.holders[entrant]))

    async def _stand_in(self, state: TournamentState, names: list[str]) -> None:
        """The current round's tables: a bot plays these players' seats at once."""
        round_ = state.current_round
        if round_ is None:
            return
        for table_id in state.round_tables[round_]:
            room = await self._here(table_id)
            if room is None:  # its process stands them in when it resumes the tournament
                continue
            async with room.lock:
                for name in names:
                    player = room.state.players.get(name)
                    if player is None or room.state.status != "playing":
                        continue
                    await room.grace.stand_in_now(player)
                room.announce()
            room.wake()

    # ------------------------------------------------------------------ the rounds
    async def _open_round(self, state: TournamentState, round_: int) -> None:
        """Create ``round_``'s tables (their ids first in the events, then the tables)."""
        event = state.started()
        tables = [secrets.token_urlsafe(12) for _ in range(event.table_count(round_))]
        await self._append(state, {"op": "round", "round": round_, "tables": tables})
        await self._make_tables(state, round_)

    async def _make_tables(self, state: TournamentState, round_: int) -> None:
        """Every table of ``round_`` stored, started and running (idempotent: after a
        restart, a table already made is loaded, one already over is recorded)."""
        director = CreateTournament.model_validate(state.config)
        plays = list(zip(state.plans_of(round_), state.round_tables[round_], strict=True))
        # one transaction for the round's tables (those not stored before a restart)
        await self.hub.db(self.hub.store.create_missing_tables, [
            NewTable(table_id, hash_secret(secrets.token_urlsafe(24)),
                     _table_config(director, state, play), secrets.randbits(63),
                     state.seats_of(play, str(state.config["fill"])))
            for play, table_id in plays])

        async def run(table_id: str) -> str | None:
            """Load and start one table (all at once: their first deals share the group
            commit); the id of one that is over already.  Another live process's table is
            left to it."""
            room = await self._here(table_id)
            if room is None:
                return None
            self._running.add(table_id)
            if room.status == "waiting":
                await room.start(_TOURNAMENT_HOST)
            return table_id if room.status == "over" else None

        for over in await asyncio.gather(*(run(table_id) for _, table_id in plays)):
            if over is not None:
                await self._record(state, over)

    async def _resume(self, state: TournamentState) -> None:
        round_ = state.current_round
        if round_ is None:
            await self._open_round(state, 0)
            return
        await self._make_tables(state, round_)
        await self._stop_round(state, round_)  # the head finished before the restart
        # a table rebuilt from its log seats people again: the no-shows and the withdrawn
        # marked during this round get their stand-ins back
        await self._stand_in(state, [*state.noshows, *(
            name for entrant in state.withdrawn
            for name in state.late_names.get(entrant, state.holders[entrant]))])
        if state.round_done(round_) and state.status == "running":
            self._advance(state.id, round_)

    def _table_over(self, table_id: str) -> None:
        """A room's game ended: if it is a tournament's table, record its boards."""
        room = self.hub.rooms.get(table_id)
        tid = room.state.tournament if room is not None else None
        if tid is not None:
            self._spawn(self._record_later(tid, table_id))

    async def _record_later(self, tid: str, table_id: str) -> None:
        async with self._lock(tid):
            await self._record(await self.state(tid), table_id)

    async def _record(self, state: TournamentState, table_id: str) -> None:
        """Record a finished table's boards; the round's last starts the next (hold the
        lock)."""
        where = state.table_of.get(table_id)
        if where is None:
            return
        round_, table = where
        if state.started().is_recorded(round_, table):
            return
        room = await self._here(table_id)
        if room is None:  # its process records it
            return
        session = room.state.table.session if room.state.table is not None else None
        if session is None or room.status != "over":
            return
        deltas = [list(hand.result.deltas) for hand in session.hands
                  if hand.result is not None]
        await self._append(state, {"op": "result", "round": round_, "table": table,
                                   "deltas": deltas})
        if table == 0:
            await self._stop_round(state, round_)
        if state.round_done(round_):
            self._advance(state.id, round_)

    def _advance(self, tid: str, done: int) -> None:
        """Open the round after ``done`` (after the pause), once in this process."""
        if (tid, done) not in self._advancing:
            self._advancing.add((tid, done))
            self._spawn(self._next_round(tid, done))

    async def _stop_round(self, state: TournamentState, round_: int) -> None:
        """Progressive: "all tables stop when the head table finishes a round"
        (docs/tournaments.md): once table 0 is recorded, every other table of the round still
        playing deals no further hand (the hand in play is its last; a table between hands
        ends at once).  Idempotent: the ``stop`` is in each table's log (hold the lock)."""
        event = state.started()
        if not event.stops_at_head or not event.is_recorded(round_, 0):
            return
        for t, table_id in enumerate(state.round_tables[round_]):
            if t == 0 or event.is_recorded(round_, t):
                continue
            room = await self._here(table_id)
            if room is None:  # its process stops it when it resumes the tournament
                continue
            async with room.lock:
                if room.status == "playing" and not room.state.stopped:
                    await room.commit({"op": "stop"})
            room.wake()

    async def _next_round(self, tid: str, done: int) -> None:
        """After the director's pause, the next round (or the end).  Several processes: the
        one whose write lands first opens it; the others find it open (or are fenced)."""
        try:
            state = await self.state(tid)
            if done + 1 < state.started().rounds:
                await asyncio.sleep(float(state.config["pause"]))
            async with self._lock(tid):
                state = await self.state(tid)
                if state.current_round != done or state.status != "running":
                    return
                if done + 1 < state.started().rounds:
                    await self._open_round(state, done + 1)
                else:
                    await self._append(state, {"op": "over"}, "over")
        finally:
            self._advancing.discard((tid, done))

    # ------------------------------------------------------------------ reading
    async def info(self, tid: str) -> dict[str, Any]:
        state = await self.state(tid)
        config = state.config
        round_ = state.current_round
        tables: list[dict[str, Any]] = []
        if round_ is not None:
            for play, table_id in zip(state.plans_of(round_), state.round_tables[round_],
                                      strict=True):
                tables.append({"table": play.table, "id": table_id,
                               "seats": [state.holder(play.seats[s], s, round_)
                                         for s in range(play.size)],
                               "entrants": list(play.seats)})
        event = state.event
        return {"tournament": tid, "title": config["title"], "director": config["name"],
                "format": state.format, "variant": config["variant"],
                "options": config["options"], "boards_per_round": config["boards_per_round"],
                "rounds": event.rounds if event is not None else config["rounds"],
                "start_time": config["start_time"], "entry": config["entry"],
                "ranked": bool(config.get("ranked")),
                "pause": config["pause"], "status": state.status,
                "entrants": list(event.entrants) if event is not None else list(state.holders),
                "bots": sorted(state.bots), "withdrawn": sorted(state.withdrawn),
                "round": round_, "tables": tables,
                "byes": list(event.byes(round_)) if event is not None and round_ is not None
                else [],
                "standings": standings_rows(state), "columns": _COLUMNS[state.format],
                "names_per_entry": entry_size(config)}

    async def me(self, tid: str, token_hash: str | None,
                 account: tuple[str, str] | None = None) -> dict[str, Any]:
        """Where the player of this secret (or of this signed-in account, if it registered)
        sits now."""
        state = await self.state(tid)
        name = next((n for n, h in state.tokens.items() if token_hash is not None
                     and hmac.compare_digest(h, token_hash)), None)
        if name is None and account is not None:
            name = next((n for n, a in state.accounts.items() if a == account[0]), None)
        if name is None:
            raise Refused("bad_token", "that is not a player secret of this tournament (nor "
                                       "an account registered in it)", 401)
        seating = state.seating(name)
        where: dict[str, Any] = {"name": name, "status": state.status,
                                 "round": state.current_round, "table": None,
                                 "table_id": None, "seat": None, "url": None, "bot": False,
                                 "bye": _on_bye(state, name)}
        if seating is not None and state.status == "running" \
                and await self._made(seating.table_id):
            where.update(round=seating.round, table=seating.table, table_id=seating.table_id,
                         seat=seating.seat, bot=seating.bot,
                         url=f"{self.hub.config.url}/t/{seating.table_id}")
        return where

    async def _made(self, table_id: str | None) -> bool:
        """Whether a round's table is stored yet (the round's event names it first, and a
        restart may fall between the two): until then a player is told to wait, never sent to
        a table that answers "no table"."""
        if table_id is None:
            return False
        if table_id in self._made_tables:
            return True
        if await self.hub.db(self.hub.store.load, table_id) is None:
            return False
        self._made_tables.add(table_id)
        return True

    async def boards(self, tid: str) -> list[dict[str, Any]]:
        """Every board, and each table's result on it, once the tournament is over (before,
        someone may not have played a board yet): of its hands only the cards that were
        played — a card never played (a discard, a hand thrown in) is never public (issue 31,
        finding 9)."""
        state = await self.state(tid)
        if state.status != "over":
            raise Refused("bad_tournament", "a tournament's boards are shown once it is over "
                                            "(until then someone has not played them)", 409)
        if not state.duplicate:
            return await self._hands_played(state)
        event = state.started()
        assert isinstance(event, DuplicateRounds)
        rules, _ = table_rules(_table_request(CreateTournament.model_validate(state.config),
                                              "x"))
        played = {(r, t): await self._played(table_id)
                  for r, ids in state.round_tables.items() for t, table_id in enumerate(ids)}
        out: list[dict[str, Any]] = []
        for board in event.event.boards:
            round_ = (board.number - 1) // event.event.boards_per_round
            points = event.event.matchpoints(board.number)
            number = (board.number - 1) % event.event.boards_per_round + 1  # its hand there
            tables = []
            anywhere = 0
            for t in range(event.event.tables):
                play = event.event.play(board.number, t)
                scores = event.event.scores(board.number, t)
                shown = played.get((round_, t), {}).get(number, 0)
                anywhere |= shown
                tables.append({"table": t, "seats": [state.holder(play.seats[s], s, round_)
                                                     for s in range(4)],
                               "entrants": list(play.seats),
                               "hands": board_cards(rules, board, shown=shown),
                               "scores": [str(x) for x in scores] if scores else None,
                               "matchpoints": {e: str(points[e]) for e in set(play.seats)
                                               if e in points}})
            out.append({"board": board.number, "round": round_, "dealer": board.dealer,
                        "hands": board_cards(rules, board, shown=anywhere), "tables": tables})
        return out

    async def _played(self, table_id: str) -> dict[int, int]:
        """A finished round table's hands, by number -> the cards played in each (a mask),
        from its public record (as ``GET /api/tables/{id}/hands`` shows a stranger)."""
        room = await self.hub.room(table_id)
        return played_by_hand(await room.record())

    async def _hands_played(self, state: TournamentState) -> list[dict[str, Any]]:
        """A progressive or Swiss tournament's hands, table by table (once it is over): each
        table dealt its own, so a table's hands are its own; only their played cards."""
        director = CreateTournament.model_validate(state.config)
        event = state.started()
        out: list[dict[str, Any]] = []
        for round_ in sorted(state.round_tables):
            ids = state.round_tables[round_]
            for play in event.plans(round_):
                rules, _ = table_rules(_table_request(director, "x", play.size))
                played = await self._played(ids[play.table])
                out.append({"round": round_, "table": play.table, "entrants": list(play.seats),
                            "seats": [state.holder(play.seats[s], s, round_)
                                      for s in range(play.size)],
                            "hands": [{"hand": b.number, "dealer": b.dealer,
                                       "hands": board_cards(rules, b, play.size,
                                                            played.get(i, 0))}
                                      for i, b in enumerate(play.boards, start=1)]})
        return out

    async def table_record(self, tid: str, token_hash: str | None, round_: int,
                           table: int) -> str:
        """The director's look at any table's record (a dispute), once every table of its
        round has played the round's boards: a director may also be an entrant, and a
        finished table's record shows a slower table's boards (docs/tournaments.md, "Hidden
        boards")."""
        state = await self.state(tid)
        self.check_director(state, token_hash)
        tables = state.round_tables.get(round_)
        if tables is None or not 0 <= table < len(tables):
            raise Refused("bad_tournament", f"no table {table} in round {round_}", 404)
        if not state.round_done(round_):
            raise Refused("round_on", f"round {round_} is still being played: its tables' "
                                      "records are shown once every table has played its "
                                      "boards", 409)
        room = await self.hub.room(tables[table])
        async with room.lock:  # written on a worker thread: it walks every hand (ops.record)
            return await asyncio.to_thread(room.state.record)


def creator_key(key: bytes, address: str) -> str:
    """What the store keeps of a creator's address: an HMAC-SHA-256 of it with the server's
    random key (``TournamentStore.secret``), never the address — a plain hash of an IPv4
    address is reversed by trying all 2^32 (review F3)."""
    return hmac.new(key, address.encode("utf-8"), hashlib.sha256).hexdigest()


def _on_bye(state: TournamentState, name: str) -> bool:
    """Whether ``name``'s entrant sits the current round out (a Swiss bye)."""
    round_ = state.current_round
    if state.event is None or round_ is None:
        return False
    byes = state.event.byes(round_)
    return any(name in state.holders.get(entrant, ()) for entrant in byes)


def standings_rows(state: TournamentState) -> list[dict[str, Any]]:
    return [{"rank": s.rank, "entrant": s.entrant, "shown": state.display(s.entrant),
             "percent": round(s.percent or 0.0, 2) if state.duplicate else None,
             "matchpoints": str(s.score),
             "boards": s.played, "bot": s.bot and s.entrant not in state.late_from,
             "withdrawn": s.entrant in state.withdrawn}
            for s in state.standings()]


#: what a standings line's ``matchpoints`` (its score) and ``boards`` (what it played) count,
#: by format, for the pages' column heads
_COLUMNS = {"pairs": {"score": "Matchpoints", "played": "Boards"},
            "individual": {"score": "Matchpoints", "played": "Boards"},
            "progressive": {"score": "Points", "played": "Rounds"},
            "swiss": {"score": "Score", "played": "Rounds"}}


def standings_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "entrant", "percent", "matchpoints", "boards", "bot", "withdrawn"])
    for row in rows:
        writer.writerow([row["rank"], _cell(row["shown"]), row["percent"], row["matchpoints"],
                         row["boards"], row["bot"], row["withdrawn"]])
    return out.getvalue()


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def _table_config(director: CreateTournament, state: TournamentState,
                  play: TablePlan) -> dict[str, Any]:
    """A round table's stored settings: the tables' request for its size, the tournament's
    id and the boards it deals (which only this module writes)."""
    boards = [[b.number, b.dealer, b.seed] for b in play.boards]
    request = _table_request(director, str(state.config["name"]), play.size)
    return {**request.model_dump(mode="json"), "tournament": state.id, "boards": boards}


def _sizes(request: CreateTournament) -> dict[int, int]:
    """Each table size the format seats -> the sides a table of it has (2: two
    partnerships; else each for himself)."""
    if request.format == "progressive":
        return {3: 3, 4: 2, 5: 5}
    if request.format == "swiss":
        return {4: 2} if request.partnership else {3: 3, 4: 4}
    return {4: 2 if request.format == "pairs" or request.partnership else 4}


def _check_variants(request: CreateTournament) -> None:
    """Every table the format may seat has rules that play it as the format scores it (and,
    ranked, that a rating pool rates)."""
    if request.ranked and entry_size(request.model_dump()) != 1:
        raise Refused("bad_tournament", "a ranked tournament's entrants are all signed-in "
                      "accounts, one player an entry: a pair registers its partner as a "
                      "guest, so a pairs event is not ranked (individual, progressive or a "
                      "cutthroat Swiss may be)", 422)
    for size, sides in _sizes(request).items():
        table = _table_request(request, "x", size)
        rules, _ = table_rules(table)
        if rules.side_count(size) != sides:
            want = "partnerships" if sides == 2 else "each for himself"
            raise Refused("bad_tournament", f"variant {table.variant!r} with these options "
                          f"is not played {want} at a table of {size}: a {request.format} "
                          "event needs one that is (variant, odd_variant)", 422)


def _table_request(request: CreateTournament, host: str, size: int = 4) -> CreateTable:
    """The settings of a tournament's tables of ``size``, played to the boards' end (the
    target set out of reach: a table ends after its last board, server/room_state.py).  The
    director's variant and options where that variant seats ``size``, else the odd-table
    variant (progressive threes and fives, Swiss cutthroat threes)."""
    try:
        options = dict(request.options)
        variant = request.variant
        low, high = find_variant(variant).player_range
        if not low <= size <= high:
            variant, options = request.odd_variant, {}
        table = CreateTable(name="Director", variant=variant, players=size,
                            options=options, fill=request.fill, settings=request.settings,
                            ranked=request.ranked)
        rules, _ = table_rules(table)
    except (OptionError, IllegalActionError, ValueError) as exc:
        raise Refused("bad_setup", str(exc), 422) from None
    # a ranked tournament's tables are ranked tables (server/ranked.py): a variant a pool
    # rates, by its own rules, with a turn timer; their seats are the entrants' accounts
    table = check_ranked(table, rules, signed_in=True)
    if rules.money != "none":
        raise Refused("bad_setup", "a tournament's tables play for points, not money", 422)
    if rules.target is not None:
        options["target"] = MAX_TARGET
    return table.model_copy(update={"options": options, "name": host})


def tournaments_router(hub: Hub, service: TournamentService, writes: Depends,
                       lookups: Depends, bearer: Callable[[str | None], str | None],
                       account_of: AccountOf) -> APIRouter:
    """The ``/api/tournaments`` routes (docs/protocol.md, "Tournaments").  ``account_of``:
    the account a request is signed in as (an API token, or the session cookie from this
    server's own pages), as the table routes read it."""
    router = APIRouter(prefix="/api/tournaments")

    @router.post("", status_code=201, dependencies=[writes])
    async def create(request: CreateTournament, http: Request) -> dict[str, Any]:
        return await service.create(request, http.client.host if http.client else "unknown")

    @router.get("/{tid}", dependencies=[lookups])
    async def info(tid: str) -> dict[str, Any]:
        return await service.info(tid)

    @router.post("/{tid}/entries", status_code=201, dependencies=[writes, lookups])
    async def register(tid: str, request: Register, http: Request,
                       authorization: Auth = None) -> dict[str, Any]:
        return await service.register(tid, request, await account_of(http, authorization))

    @router.post("/{tid}/start", dependencies=[writes, lookups])
    async def start(tid: str, authorization: Auth = None) -> dict[str, Any]:
        await service.start(tid, bearer(authorization))
        return await service.info(tid)

    @router.post("/{tid}/noshow", dependencies=[writes, lookups])
    async def noshow(tid: str, request: Named, authorization: Auth = None) -> dict[str, Any]:
        await service.noshow(tid, bearer(authorization), request.name)
        return await service.info(tid)

    @router.post("/{tid}/withdraw", dependencies=[writes, lookups])
    async def withdraw(tid: str, request: Named, authorization: Auth = None
                       ) -> dict[str, Any]:
        await service.withdraw(tid, bearer(authorization), request.name)
        return await service.info(tid)

    @router.get("/{tid}/me", dependencies=[lookups])
    async def me(tid: str, http: Request, authorization: Auth = None) -> dict[str, Any]:
        return await service.me(tid, bearer(authorization),
                                await account_of(http, authorization))

    @router.get("/{tid}/standings", dependencies=[lookups])
    async def standings(tid: str) -> list[dict[str, Any]]:
        return standings_rows(await service.state(tid))

    @router.get("/{tid}/standings.csv", response_class=PlainTextResponse,
                dependencies=[lookups])
    async def standings_file(tid: str) -> PlainTextResponse:
        text = standings_csv(standings_rows(await service.state(tid)))
        return PlainTextResponse(text, media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="standings-{tid}.csv"'})

    @router.get("/{tid}/boards", dependencies=[lookups])
    async def boards(tid: str) -> list[dict[str, Any]]:
        return await service.boards(tid)

    @router.get("/{tid}/rounds/{round_}/tables/{table}/record",
                response_class=PlainTextResponse, dependencies=[lookups])
    async def record(tid: str, round_: int, table: int, request: Request,
                     authorization: Auth = None) -> str:
        return await service.table_record(tid, bearer(authorization), round_, table)

    return router
