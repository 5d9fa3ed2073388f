"""The server's whole schema: every module's SQLAlchemy tables, as the migrations at head must
make them (``migrations/env.py``'s ``target_metadata``, so ``alembic revision --autogenerate``
sees them all, and tests/test_store_migrations.py's comparison).  A module of its own, above
the stores: the migrations package imports none of them (``Store.migrate`` imports it)."""

from __future__ import annotations

from sqlalchemy import MetaData

from . import account_store, analysis_store, score_store, store, tournament_store

__all__ = ["schema"]


def schema() -> list[MetaData]:
    """Each store module's tables, once (the tournaments' share ``store``'s metadata)."""
    found: list[MetaData] = []
    for module in (store, tournament_store, account_store, score_store, analysis_store):
        if all(module.metadata is not seen for seen in found):
            found.append(module.metadata)
    return found
