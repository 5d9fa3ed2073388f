"""Where the scorekeeper's sheets are kept (``/score``, issue 16): the ``score_sheets`` table
(migration ``0002``) on the server's own database, SQLite or PostgreSQL.

A row is one sheet: its id (96 random bits, URL-safe: enough to follow it), the SHA-256 of its
edit token (:func:`~.store.hash_secret`, as for seat tokens), the sheet as JSON
(:meth:`~pitchcards.scoresheet.ScoreSheet.to_json`: its game record; everything else is
replayed from it), its ``version`` and when it was made and last changed.

Writes are optimistic: :func:`save_sheet` writes version ``n + 1`` only where the row is still
at ``n`` (``UPDATE … WHERE version = n``), so two phones editing at once, or two server
processes, never overwrite each other; the loser is told the sheet moved on.  Every function is
synchronous: the server runs them on its database thread (``Hub.db``).
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)

__all__ = ["StoredSheet", "create_sheet", "load_sheet", "save_sheet", "score_sheets",
           "sheet_version"]

metadata = MetaData()

score_sheets = Table(
    "score_sheets", metadata,
    Column("id", String(32), primary_key=True),
    Column("edit_token_hash", String(64), nullable=False),
    Column("sheet", Text, nullable=False),            # ScoreSheet.to_json()
    Column("version", Integer, nullable=False),       # 1 when made, +1 on each change
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


@dataclasses.dataclass(frozen=True, slots=True)
class StoredSheet:
    """One sheet as stored."""

    id: str
    edit_token_hash: str
    sheet: dict[str, Any]
    version: int
    created: float
    updated: float


def create_sheet(engine: Engine, sheet_id: str, token_hash: str, sheet: dict[str, Any]) -> None:
    """Store a new sheet at version 1."""
    now = time.time()
    with engine.begin() as conn:
        conn.execute(insert(score_sheets).values(
            id=sheet_id, edit_token_hash=token_hash, sheet=json.dumps(sheet), version=1,
            created=now, updated=now))


def load_sheet(engine: Engine, sheet_id: str) -> StoredSheet | None:
    with engine.connect() as conn:
        row = conn.execute(select(score_sheets).where(score_sheets.c.id == sheet_id)).first()
    if row is None:
        return None
    return StoredSheet(row.id, row.edit_token_hash, json.loads(row.sheet), row.version,
                       row.created, row.updated)


def sheet_version(engine: Engine, sheet_id: str) -> int | None:
    """The sheet's version alone (what a phone following it asks every few seconds)."""
    with engine.connect() as conn:
        found = conn.execute(select(score_sheets.c.version).where(
            score_sheets.c.id == sheet_id)).scalar()
    return None if found is None else int(found)


def save_sheet(engine: Engine, sheet_id: str, base: int, sheet: dict[str, Any]) -> bool:
    """Write the sheet as version ``base + 1`` if it is still at ``base``; False (nothing
    written) if another write got there first."""
    with engine.begin() as conn:
        moved = conn.execute(update(score_sheets).where(
            score_sheets.c.id == sheet_id, score_sheets.c.version == base).values(
            sheet=json.dumps(sheet), version=base + 1, updated=time.time()))
    return moved.rowcount == 1
