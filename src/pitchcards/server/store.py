"""Where the server keeps its tables: SQLAlchemy 2 (Core) on SQLite or PostgreSQL.

What is stored is what cannot be recomputed:

* ``tables``: each table's settings (variant, options, seats' bot levels), its secret ``seed``
  (server-only: it draws the first dealer and decides every deal), its status and
  ``version``;
* ``players``: who sits where, each seat token **hashed** (SHA-256 of 256 random bits: a
  stolen database does not give a way to act) and the host;
* ``log``: every change to the game, in order — ``start``, ``deal``, ``act`` (seat, action,
  whether a bot chose it), ``join``, ``leave``, ``settle`` — numbered ``n`` = 1, 2, 3 … with the
  primary key ``(table, n)``.  Appending entry ``n`` and moving ``tables.version`` from
  ``n - 1`` to ``n`` is one transaction, so a writer that lost the table (another process took
  it over, issue 13) cannot write: its ``UPDATE … WHERE version = n - 1`` matches nothing.
  Replaying the log from the seed rebuilds the table exactly, events and ``seq`` included;
* ``chat``.

The schema is created and upgraded by Alembic (``server/migrations``) when the server starts.
Every method is synchronous; the server calls them on a worker thread.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)

__all__ = ["AlsoInTransaction", "Append", "Fenced", "NewTable", "PlayerRow", "Store",
           "StoredTable", "hash_secret", "metadata"]

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("invite_hash", String(64), nullable=False, unique=True),
    Column("config", Text, nullable=False),          # CreateTable as JSON (less the seats)
    Column("seed", String(80), nullable=False),      # secret: decides every deal
    Column("status", String(16), nullable=False),    # waiting, playing, over
    Column("listed", Boolean, nullable=False),
    Column("version", Integer, nullable=False),      # the last log entry's n (0: none)
    Column("rematch", String(32), nullable=True),    # the table this one's rematch is at
    Column("rematch_of", String(32), nullable=True),  # the finished table this is a rematch of
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("tables_listed", tables.c.listed, tables.c.status)

players = Table(
    "players", metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("name", String(64), primary_key=True),
    Column("seat", Integer, nullable=True),          # the seat taken (money joiners: order)
    Column("token_hash", String(64), nullable=True),  # None: a bot
    Column("level", String(16), nullable=True),      # a bot seat's level
    Column("host", Boolean, nullable=False),
    Column("joined", Float, nullable=False),
    Column("account_id", String(32), nullable=True),  # a signed-in player's (migration 0004)
)

log = Table(
    "log", metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
    Column("at", Float, nullable=False),
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"),
           nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)
Index("chat_table", chat.c.table_id, chat.c.id)


#: Work to do in the transaction that stores a log entry, on its connection (a ranked match's
#: rating at its end: server/ranked.py), so that both commit or neither does.
AlsoInTransaction = Callable[[Connection], object]
#: One log entry to append: (table id, n, entry, the table's new status or None), and
#: optionally what else to do in its transaction (only if the entry is written, not fenced).
Append = tuple[str, int, dict[str, Any], str | None] | \
    tuple[str, int, dict[str, Any], str | None, AlsoInTransaction | None]

_MOVE_VERSION = update(tables).where(
    tables.c.id == bindparam("tid"), tables.c.version == bindparam("prev")).values(
    version=bindparam("n"), updated=bindparam("now"))
_MOVE_VERSION_STATUS = _MOVE_VERSION.values(status=bindparam("status"))


#: The advisory lock key migrations hold on PostgreSQL (a table's lock is another: lease.py).
_MIGRATE_LOCK = 0x7069746368  # "pitch"


class Fenced(RuntimeError):
    """The table's version moved under this writer: another writer owns the table now."""


def hash_secret(secret: str) -> str:
    """SHA-256 hex of a token or invite code (secrets of 256 random bits need no salt)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclasses.dataclass(frozen=True)
class NewTable:
    """A table to store, waiting, with its players (:meth:`Store.create_missing_tables`)."""

    table_id: str
    invite_hash: str
    config: dict[str, Any]
    seed: int
    people: Sequence[PlayerRow]


def _insert_table(conn: Connection, table_id: str, invite_hash: str, config: dict[str, Any],
                  seed: int, listed: bool, people: Sequence[PlayerRow],
                  rematch_of: str | None = None) -> None:
    now = time.time()
    conn.execute(insert(tables).values(
        id=table_id, invite_hash=invite_hash, config=json.dumps(config), seed=str(seed),
        status="waiting", listed=listed, version=0, rematch=None,
        rematch_of=rematch_of, created=now, updated=now))
    for p in people:
        conn.execute(insert(players).values(
            table_id=table_id, name=p.name, seat=p.seat, token_hash=p.token_hash,
            level=p.level, host=p.host, joined=now, account_id=p.account_id))


class PlayerRow:
    __slots__ = ("account_id", "host", "level", "name", "seat", "token_hash")

    def __init__(self, name: str, seat: int | None, token_hash: str | None, level: str | None,
                 host: bool, account_id: str | None = None) -> None:
        self.name = name
        self.seat = seat
        self.token_hash = token_hash
        self.level = level
        self.host = host
        #: the account a signed-in player took the seat as (None: a guest, or a bot)
        self.account_id = account_id


class StoredTable:
    """One table as stored: its row, its players and its log."""

    def __init__(self, row: Any, people: list[PlayerRow], entries: list[dict[str, Any]]) -> None:
        self.id: str = row.id
        self.config: dict[str, Any] = json.loads(row.config)
        self.seed: int = int(row.seed)
        self.status: str = row.status
        self.listed: bool = bool(row.listed)
        self.version: int = row.version
        self.rematch: str | None = row.rematch
        self.rematch_of: str | None = row.rematch_of
        self.players = people
        self.entries = entries


class Store:
    """The database: open it (creating or upgrading the schema), then read and append."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            path = url.split("///", 1)[1] if "///" in url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False,
                                                                   "timeout": 10})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision.  On PostgreSQL the
        migration holds a lock of its own for its transaction, so several processes started
        at once (``--redis``) migrate one after the other instead of racing."""
        from .migrations import upgrade

        with self.engine.begin() as conn:
            if not self.is_sqlite:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATE_LOCK})
            upgrade(conn)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # ------------------------------------------------------------------ tables and players
    def create_table(self, table_id: str, invite_hash: str, config: dict[str, Any], seed: int,
                     listed: bool, people: Sequence[PlayerRow],
                     rematch_of: str | None = None) -> None:
        """Store a new table, waiting, with its first players (``rematch_of``: the finished
        table it is the rematch of)."""
        with self._tx() as conn:
            _insert_table(conn, table_id, invite_hash, config, seed, listed, people, rematch_of)

    def create_missing_tables(self, new: Sequence[NewTable]) -> None:
        """Store those of ``new`` not stored yet, all in one transaction (a tournament's
        round: one commit for its tables, not one each)."""
        with self._tx() as conn:
            stored = set(conn.execute(select(tables.c.id).where(
                tables.c.id.in_([t.table_id for t in new]))).scalars())
            for t in new:
                if t.table_id not in stored:
                    _insert_table(conn, t.table_id, t.invite_hash, t.config, t.seed, False,
                                  t.people)

    def add_player(self, table_id: str, person: PlayerRow) -> None:
        with self._tx() as conn:
            conn.execute(insert(players).values(
                table_id=table_id, name=person.name, seat=person.seat,
                token_hash=person.token_hash, level=person.level, host=person.host,
                joined=time.time(), account_id=person.account_id))

    def set_status(self, table_id: str, status: str, rematch: str | None = None) -> None:
        values: dict[str, Any] = {"status": status, "updated": time.time()}
        if rematch is not None:
            values["rematch"] = rematch
        with self._tx() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(**values))

    def find_invite(self, invite_hash: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(tables.c.id).where(
                tables.c.invite_hash == invite_hash)).scalar()
        return None if found is None else str(found)

    def lobby(self, limit: int = 100) -> list[str]:
        """Listed tables not over, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables.c.id).where(
                tables.c.listed.is_(True), tables.c.status != "over").order_by(
                tables.c.created.desc()).limit(limit))
            return [str(r[0]) for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if row is None:
                return None
            people = [PlayerRow(p.name, p.seat, p.token_hash, p.level, bool(p.host),
                                p.account_id)
                      for p in conn.execute(select(players).where(
                          players.c.table_id == table_id).order_by(players.c.joined,
                                                                   players.c.seat))]
            entries = [json.loads(e[0]) for e in conn.execute(
                select(log.c.entry).where(log.c.table_id == table_id).order_by(log.c.n))]
        return StoredTable(row, people, entries)

    # ------------------------------------------------------------------ the log
    def append(self, table_id: str, n: int, entry: dict[str, Any],
               status: str | None = None) -> None:
        """Entry ``n`` of the table's log, and its version ``n - 1`` → ``n``, in one
        transaction; :class:`Fenced` if the version was not ``n - 1`` (nothing written)."""
        problem = self.append_many([(table_id, n, entry, status)])[0]
        if problem is not None:
            raise problem

    def append_many(self, items: Sequence[Append]) -> list[Fenced | None]:
        """Several tables' next log entries in one transaction (group commit: the server
        writes whatever queued up while the last batch was being written).  Each entry is
        fenced on its own — the table's version must be ``n - 1`` — and a fenced one is
        left out (its :class:`Fenced` in the result) without holding up the others.  An
        item's fifth part, if any, runs on the transaction's connection when its entry is
        written (a ranked match's rating: it commits with the match's end, or neither does)."""
        now = time.time()
        results: list[Fenced | None] = []
        rows: list[dict[str, Any]] = []
        with self._tx() as conn:
            for item in items:
                table_id, n, entry, status = item[:4]
                params = {"tid": table_id, "prev": n - 1, "n": n, "now": now}
                if status is None:
                    moved = conn.execute(_MOVE_VERSION, params)
                else:
                    moved = conn.execute(_MOVE_VERSION_STATUS, {**params, "status": status})
                if moved.rowcount != 1:
                    results.append(Fenced(f"table {table_id}: log entry {n} refused, the "
                                          "version moved"))
                    continue
                results.append(None)
                also = item[4] if len(item) > 4 else None
                if also is not None:
                    also(conn)
                rows.append({"table_id": table_id, "n": n, "at": now,
                             "entry": json.dumps(entry, separators=(",", ":"))})
            if rows:
                conn.execute(insert(log), rows)
        return results

    # ------------------------------------------------------------------ chat
    def add_chat(self, table_id: str, name: str, text: str, at: float) -> None:
        with self._tx() as conn:
            conn.execute(insert(chat).values(table_id=table_id, name=name, text=text, at=at))

    def recent_chat(self, table_id: str, limit: int = 50) -> list[tuple[str, str, float]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(chat.c.name, chat.c.text, chat.c.at).where(
                chat.c.table_id == table_id).order_by(chat.c.id.desc()).limit(limit)).all()
        return [(r[0], r[1], r[2]) for r in reversed(rows)]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer), a busy timeout instead of 'database is locked',
    fsync at checkpoints only (a power cut may lose the last moments, a crash of the process
    loses nothing), and foreign keys on."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
