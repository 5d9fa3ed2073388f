"""Where the analyses of tables' games are kept (issue 33): one row per (table, hands), in the
server's own database (migration ``0007``), SQLite or PostgreSQL.

The row is the job and its result at once.  ``status`` goes ``queued`` -> ``running`` ->
``done`` (or ``failed``); ``done``/``total`` count the decisions weighed so far; ``record`` is
the public record analysed (finished hands only, no seed: what the table's players may see);
``result`` the analysis as JSON once done, kept for good, so an analysis is computed once.

A process takes a queued job by a **conditional UPDATE** (``… SET status='running', owner=me
WHERE status='queued'``): on SQLite the writer lock, on PostgreSQL the row lock make exactly
one of several processes see one row changed (docs/server.md, "Analysis jobs").  A running job
whose owner stopped beating (``updated`` older than ``stale`` seconds: its process died) may be
taken again the same way.  Every function is synchronous (a database thread, or a worker
process, calls it).
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

__all__ = ["analyses", "beat", "claim", "finish", "get", "metadata", "queued_count", "release",
           "request", "set_progress"]

metadata = MetaData()

analyses = Table(
    "analyses", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("upto", Integer, primary_key=True),           # the last finished hand analysed
    Column("status", String(16), nullable=False),        # queued, running, done, failed
    Column("done", Integer, nullable=False),             # decisions weighed so far
    Column("total", Integer, nullable=False),            # decisions to weigh (0: not known yet)
    Column("worlds", Integer, nullable=False),           # the budget: sampled deals a decision
    Column("record", Text, nullable=False),              # the public record analysed
    Column("result", Text, nullable=True),               # the analysis (JSON) once done
    Column("error", Text, nullable=True),                # why it failed
    Column("owner", String(64), nullable=True),          # the process running it
    Column("requested", Float, nullable=False),
    Column("updated", Float, nullable=False),            # the owner's last beat
)
Index("analyses_status", analyses.c.status, analyses.c.requested)

def _row(engine: Engine, table_id: str, upto: int) -> dict[str, Any] | None:
    with engine.connect() as conn:
        row = conn.execute(select(analyses).where(
            analyses.c.table_id == table_id, analyses.c.upto == upto)).mappings().first()
    return None if row is None else dict(row)


def get(engine: Engine, table_id: str, upto: int) -> dict[str, Any] | None:
    """The job of (table, hands): status, progress and (done) the result, parsed; None if
    nobody asked for it."""
    row = _row(engine, table_id, upto)
    if row is None:
        return None
    row["result"] = json.loads(row["result"]) if row["result"] else None
    return row


def request(engine: Engine, table_id: str, upto: int, record: str, worlds: int
            ) -> tuple[dict[str, Any], bool]:
    """The job of (table, hands), queued now if nobody asked for it before (or it failed); and
    whether this call queued it (two processes asking at once: the primary key lets one
    insert)."""
    now = time.time()
    try:
        with engine.begin() as conn:
            conn.execute(insert(analyses).values(
                table_id=table_id, upto=upto, status="queued", done=0, total=0, worlds=worlds,
                record=record, result=None, error=None, owner=None, requested=now,
                updated=now))
        created = True
    except IntegrityError:
        created = False
        with engine.begin() as conn:  # a failed job is tried again when asked for again
            created = bool(conn.execute(update(analyses).where(
                analyses.c.table_id == table_id, analyses.c.upto == upto,
                analyses.c.status == "failed").values(
                status="queued", done=0, error=None, owner=None, requested=now,
                updated=now)).rowcount)
    got = get(engine, table_id, upto)
    assert got is not None  # (rows are never deleted)
    return got, created


def queued_count(engine: Engine) -> int:
    """Jobs waiting for a worker, in every process (the queue's bound)."""
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(analyses).where(
            analyses.c.status == "queued")).scalar_one())


def claim(engine: Engine, owner: str, limit: int, stale: float) -> list[dict[str, Any]]:
    """Take up to ``limit`` jobs for ``owner``, oldest first: queued ones, or running ones whose
    owner has not beaten for ``stale`` seconds.  Each is taken by a conditional UPDATE, so two
    processes never take the same job."""
    now = time.time()
    takeable = or_(analyses.c.status == "queued",
                   and_(analyses.c.status == "running", analyses.c.updated < now - stale))
    with engine.connect() as conn:
        keys = conn.execute(select(analyses.c.table_id, analyses.c.upto).where(takeable)
                            .order_by(analyses.c.requested).limit(limit)).all()
    taken = []
    for table_id, upto in keys:
        with engine.begin() as conn:
            moved = conn.execute(update(analyses).where(
                analyses.c.table_id == table_id, analyses.c.upto == upto, takeable).values(
                status="running", owner=owner, done=0, updated=now)).rowcount
        if moved == 1:
            row = _row(engine, table_id, upto)
            if row is not None:
                taken.append(row)
    return taken


def _mine(table_id: str, upto: int, owner: str) -> Any:
    return and_(analyses.c.table_id == table_id, analyses.c.upto == upto,
                analyses.c.status == "running", analyses.c.owner == owner)


def set_progress(engine: Engine, table_id: str, upto: int, owner: str, done: int,
                 total: int) -> bool:
    """The owner's progress (also a beat); False if the job is no longer its own."""
    with engine.begin() as conn:
        return bool(conn.execute(update(analyses).where(_mine(table_id, upto, owner)).values(
            done=done, total=total, updated=time.time())).rowcount)


def beat(engine: Engine, owner: str) -> int:
    """The owner is alive: every job it runs is beaten now (the count)."""
    with engine.begin() as conn:
        return int(conn.execute(update(analyses).where(
            analyses.c.status == "running", analyses.c.owner == owner).values(
            updated=time.time())).rowcount)


def release(engine: Engine, owner: str) -> int:
    """The owner stops (its server closes): every job it runs goes back to the queue, for any
    process to take at once (the count).  A worker still running one finds it no longer its
    own at its next progress and stops."""
    with engine.begin() as conn:
        return int(conn.execute(update(analyses).where(
            analyses.c.status == "running", analyses.c.owner == owner).values(
            status="queued", owner=None, done=0, updated=time.time())).rowcount)


def finish(engine: Engine, table_id: str, upto: int, owner: str,
           result: dict[str, Any] | None, error: str | None = None) -> bool:
    """The owner's job is done (``result``) or failed (``error``); False if it is no longer
    the owner's (another process took it over: its own result will be kept)."""
    with engine.begin() as conn:
        return bool(conn.execute(update(analyses).where(_mine(table_id, upto, owner)).values(
            status="done" if error is None else "failed",
            result=None if result is None else json.dumps(result, separators=(",", ":")),
            error=error, updated=time.time())).rowcount)
