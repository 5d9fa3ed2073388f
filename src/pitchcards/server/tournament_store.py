"""Where the server keeps its tournaments (issue 34): each one's settings, its director's
secret (hashed) and its own events, in order.

* ``tournaments``: the settings (format, variant and options, boards a round, pause, entry),
  the secret ``seed`` its boards are dealt from (server-only, like a table's seed), the hash of
  the director's secret, the hash of the invite code (entry by invite), its status and
  ``version``, and an HMAC of its creator's address (the cap on open tournaments an address);
* ``server_secrets``: random keys the server makes once and every process reads (the key of
  that HMAC, migration 0010), never sent anywhere;
* ``tournament_events``: ``register``, ``start``, ``round``, ``result``, ``noshow``,
  ``withdraw``, ``late`` … numbered ``n`` = 1, 2, 3 with the primary key ``(tournament, n)``.
  Appending event ``n`` moves ``version`` from ``n - 1`` to ``n`` in the same transaction, as a
  table's log does (server/store.py), so a writer that lost the race writes nothing.

The tables a tournament's rounds are played at are ordinary tables (server/store.py): their
logs are the boards' play.  The state is rebuilt from these events and those logs
(server/tournament_state.py).  Every method is synchronous: the server calls them on its
database thread.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .store import Fenced, Store, metadata

__all__ = ["StoredTournament", "TournamentStore", "server_secrets", "tournament_events",
           "tournaments"]

tournaments = Table(
    "tournaments", metadata,
    Column("id", String(32), primary_key=True),
    Column("director_hash", String(64), nullable=False),   # SHA-256 of the director's secret
    Column("invite_hash", String(64), nullable=True),      # entry by invite: its code, hashed
    Column("config", Text, nullable=False),                # the settings, as JSON
    Column("seed", String(80), nullable=False),            # secret: decides every board
    Column("status", String(16), nullable=False),          # registering, running, over
    Column("version", Integer, nullable=False),            # the last event's n (0: none)
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    # an HMAC-SHA-256 of the creator's address (migrations 0008, 0010), keyed with the
    # server's secret "tournament creator": the cap on an address's open tournaments, counted
    # here so that it holds across restarts and processes
    Column("creator", String(64), nullable=True),
)
Index("tournaments_status", tournaments.c.status)
Index("tournaments_creator", tournaments.c.creator, tournaments.c.status)

tournament_events = Table(
    "tournament_events", metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"),
           primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
    Column("at", Float, nullable=False),
)

server_secrets = Table(
    "server_secrets", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(64), nullable=False),           # 32 random bytes, hex
)


class StoredTournament:
    """One tournament as stored: its row and its events."""

    def __init__(self, row: Any, entries: list[dict[str, Any]]) -> None:
        self.id: str = row.id
        self.director_hash: str = row.director_hash
        self.invite_hash: str | None = row.invite_hash
        self.config: dict[str, Any] = json.loads(row.config)
        self.seed: int = int(row.seed)
        self.status: str = row.status
        self.version: int = row.version
        self.entries = entries


class TournamentStore:
    """The tournaments' tables on the server's :class:`~pitchcards.server.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def secret(self, name: str) -> bytes:
        """The server's random key ``name``: made (32 bytes of ``secrets``) by the first
        process that asks, then the same in every process and after every restart."""
        query = select(server_secrets.c.value).where(server_secrets.c.name == name)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar()
        if found is None:
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(server_secrets).values(name=name,
                                                               value=secrets.token_hex(32)))
            except IntegrityError:  # another process made it first: theirs is the key
                pass
            with self.engine.connect() as conn:
                found = conn.execute(query).scalar_one()
        return bytes.fromhex(str(found))

    def create(self, tournament_id: str, director_hash: str, invite_hash: str | None,
               config: dict[str, Any], seed: int, creator: str | None = None,
               most: int | None = None) -> bool:
        """Store a new tournament; with ``most``, only if ``creator`` has fewer than that many
        not over (counted in the same transaction), else nothing is written (False)."""
        now = time.time()
        with self.engine.begin() as conn:
            if most is not None and self._open(conn, creator) >= most:
                return False
            conn.execute(insert(tournaments).values(
                id=tournament_id, director_hash=director_hash, invite_hash=invite_hash,
                config=json.dumps(config), seed=str(seed), status="registering", version=0,
                created=now, updated=now, creator=creator))
        return True

    def open_count(self, creator: str) -> int:
        """The tournaments ``creator`` made that are not over (registering or running)."""
        with self.engine.connect() as conn:
            return self._open(conn, creator)

    @staticmethod
    def _open(conn: Any, creator: str | None) -> int:
        if creator is None:
            return 0
        return int(conn.execute(select(func.count()).select_from(tournaments).where(
            tournaments.c.creator == creator, tournaments.c.status != "over")).scalar() or 0)

    def append(self, tournament_id: str, n: int, entry: dict[str, Any],
               status: str | None = None) -> None:
        """Event ``n`` and the version ``n - 1`` → ``n`` in one transaction; :class:`Fenced`
        (nothing written) if the version was not ``n - 1``."""
        now = time.time()
        values: dict[str, Any] = {"version": n, "updated": now}
        if status is not None:
            values["status"] = status
        with self.engine.begin() as conn:
            moved = conn.execute(update(tournaments).where(
                tournaments.c.id == tournament_id, tournaments.c.version == n - 1).values(
                **values))
            if moved.rowcount != 1:
                raise Fenced(f"tournament {tournament_id}: event {n} refused, the version moved")
            conn.execute(insert(tournament_events).values(
                tournament_id=tournament_id, n=n, at=now,
                entry=json.dumps(entry, separators=(",", ":"))))

    def load(self, tournament_id: str) -> StoredTournament | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).first()
            if row is None:
                return None
            entries = [json.loads(e[0]) for e in conn.execute(
                select(tournament_events.c.entry).where(
                    tournament_events.c.tournament_id == tournament_id).order_by(
                    tournament_events.c.n))]
        return StoredTournament(row, entries)

    def status(self, tournament_id: str) -> str | None:
        """The tournament's status (registering, running, over); None for no such one."""
        with self.engine.connect() as conn:
            found = conn.execute(select(tournaments.c.status).where(
                tournaments.c.id == tournament_id)).scalar()
        return None if found is None else str(found)

    def version(self, tournament_id: str) -> int | None:
        """The tournament's last event's ``n`` (another process may have written since this
        one loaded it); None for no such one."""
        with self.engine.connect() as conn:
            found = conn.execute(select(tournaments.c.version).where(
                tournaments.c.id == tournament_id)).scalar()
        return None if found is None else int(found)

    def running(self) -> list[str]:
        """The tournaments started and not over (the server resumes them when it starts)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournaments.c.id).where(
                tournaments.c.status == "running"))
            return [str(r[0]) for r in rows]
