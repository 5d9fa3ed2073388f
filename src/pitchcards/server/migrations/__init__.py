"""Alembic migrations of the server's database (the schema is the SQLAlchemy tables of
``server/store.py``, ``tournament_store.py``, ``account_store.py``, ``score_store.py`` and
``analysis_store.py``: :func:`schema`).

The server runs :func:`upgrade` at start; a developer who changes the schema adds a revision
with ``alembic -c src/pitchcards/server/migrations/alembic.ini revision -m "..."``, writing the
``upgrade``/``downgrade`` steps by hand (docs/server.md, "Changing the schema").
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, MetaData

__all__ = ["HERE", "alembic_config", "schema", "upgrade"]

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


def schema() -> list[MetaData]:
    """Every module's tables, as the migrations at head must make them (``env.py``'s
    ``target_metadata``, so ``alembic revision --autogenerate`` sees them all, and
    tests/test_store_migrations.py's comparison)."""
    from .. import account_store, analysis_store, score_store, store, tournament_store

    found: list[MetaData] = []
    for module in (store, tournament_store, account_store, score_store, analysis_store):
        if all(module.metadata is not seen for seen in found):  # (tournaments share store's)
            found.append(module.metadata)
    return found
