"""The migrations on a real SQLite file and a real PostgreSQL database: at head they make
exactly the tables the server's modules define (every table, column, type, index and foreign
key of ``server.schema.schema()``), and 0005 (the rematch's link back, ``rematch_of``) on a
database made by 0004: a table stored before it keeps everything and is no one's rematch, and
the step goes down and up again.  (Every migration from nothing runs in each server test that
opens a new database.)"""

from __future__ import annotations

import pytest
from sqlalchemy import inspect

from account_helpers import database
from pitchcards.server.config import normalise_db_url
from pitchcards.server.migrations import alembic_config, upgrade
from pitchcards.server.schema import schema
from pitchcards.server.store import PlayerRow, Store


def _columns(store: Store) -> set[str]:
    return {c["name"] for c in inspect(store.engine).get_columns("tables")}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_table_stored_before_the_link_back_is_no_ones_rematch(kind, tmp_path):
    from alembic import command

    with database(kind, tmp_path) as url:
        store = Store(normalise_db_url(url))
        try:
            with store.engine.begin() as conn:
                upgrade(conn, "0004")  # the schema before the rematch's link back
            assert "rematch_of" not in _columns(store)
            with store.engine.begin() as conn:  # a table as 0004 stored it
                conn.exec_driver_sql(
                    "INSERT INTO tables (id, invite_hash, config, seed, status, listed, version, "
                    "rematch, created, updated) VALUES ('old', 'h', '{\"name\": \"Ann\"}', '7', "
                    "'over', false, 0, 'new', 1.0, 1.0)")
            store.migrate()  # to the newest, as the server does at start
            assert "rematch_of" in _columns(store)
            old = store.load("old")
            assert old is not None and (old.status, old.rematch, old.rematch_of) == \
                ("over", "new", None)
            store.create_table("new", "h2", {"name": "Ann"}, 8, False,
                               [PlayerRow("Ann", 0, "x" * 64, None, True)], rematch_of="old")
            again = store.load("new")
            assert again is not None and again.rematch_of == "old"
            with store.engine.begin() as conn:  # down a step and up again
                command.downgrade(alembic_config(conn), "0004")
            assert "rematch_of" not in _columns(store)
            store.migrate()
            assert "rematch_of" in _columns(store)
            kept = store.load("new")
            assert kept is not None and kept.rematch_of is None  # a downgrade forgets the link
        finally:
            store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_migrations_at_head_make_exactly_the_modules_tables(kind, tmp_path):
    """No drift between the hand-written migrations and the SQLAlchemy tables the code reads
    and writes (review C6): the same tables with the same columns, and nothing autogenerate
    would change; and ``schema()`` (env.py's ``target_metadata``) holds every module's tables."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from pitchcards.server import account_store, analysis_store, score_store, tournament_store
    from pitchcards.server import store as base

    wanted = {name: table for metadata in schema() for name, table in metadata.tables.items()}
    for module in (base, tournament_store, account_store, score_store, analysis_store):
        assert set(module.metadata.tables) <= set(wanted), module.__name__
    with database(kind, tmp_path) as url:
        store = Store(normalise_db_url(url))
        try:
            store.migrate()
            seen = inspect(store.engine)
            assert set(seen.get_table_names()) - {"alembic_version"} == set(wanted)
            for name, table in wanted.items():
                assert {c["name"] for c in seen.get_columns(name)} == set(table.columns.keys()), \
                    name
            with store.engine.connect() as conn:
                context = MigrationContext.configure(conn, opts={"compare_type": True})
                assert compare_metadata(context, schema()) == []
        finally:
            store.close()
