"""Alembic migrations of the server's database (the schema is the SQLAlchemy tables of
``server/store.py``, ``tournament_store.py``, ``account_store.py``, ``score_store.py`` and
``analysis_store.py``: ``server.schema``).

The server runs :func:`upgrade` at start; a developer who changes the schema adds a revision
with ``alembic -c src/pitchcards/server/migrations/alembic.ini revision -m "..."``, writing the
``upgrade``/``downgrade`` steps by hand (docs/server.md, "Changing the schema").
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection

__all__ = ["HERE", "alembic_config", "upgrade"]

HERE = Path(__file__).parent


def alembic_config(conn: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def upgrade(conn: Connection, revision: str = "head") -> None:
    """Bring the database on ``conn`` to ``revision`` (default: the newest)."""
    command.upgrade(alembic_config(conn), revision)
