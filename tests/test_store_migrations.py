"""The schema's newest migration on a database made by the one before, on a real SQLite file and
a real PostgreSQL database: 0005 gives ``tables`` the rematch's link back (``rematch_of``);
a table stored before it keeps everything and is no one's rematch, and the step goes down and up
again.  (Every migration from nothing runs in each server test that opens a new database.)"""

from __future__ import annotations

import pytest
from sqlalchemy import inspect

from account_helpers import database
from pitchcards.server.config import normalise_db_url
from pitchcards.server.migrations import alembic_config, upgrade
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
