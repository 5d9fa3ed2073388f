"""Migration 0009 (players' statistics per pool, issue 32) on a real SQLite file and a real
PostgreSQL database: a database made by 0008 gains ``player_stats`` empty (no match is counted
twice or made up), its ratings untouched; the step goes down and up again."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import func, inspect, select

from account_helpers import database
from pitchcards.server.account_store import player_stats, ratings
from pitchcards.server.config import normalise_db_url
from pitchcards.server.migrations import alembic_config, upgrade
from pitchcards.server.store import Store


def _tables(store: Store) -> set[str]:
    return set(inspect(store.engine).get_table_names())


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_player_stats_come_empty_and_go_down_and_up_again(kind, tmp_path):
    with database(kind, tmp_path) as url:
        store = Store(normalise_db_url(url))
        try:
            with store.engine.begin() as conn:
                upgrade(conn, "0008")  # the schema before the statistics
                conn.exec_driver_sql(
                    "INSERT INTO accounts (id, name, name_key, password_hash, bot_level, "
                    "created) VALUES ('a1', 'Ann', 'ann', 'x', NULL, 1.0)")
                conn.exec_driver_sql(
                    "INSERT INTO ratings (account_id, pool, mu, sigma, matches, updated) "
                    "VALUES ('a1', 'money', 26.5, 7.0, 3, 1.0)")
            assert "player_stats" not in _tables(store)
            store.migrate()  # to the newest, as the server does at start
            with store.engine.connect() as conn:
                assert conn.execute(select(func.count()).select_from(player_stats)).scalar() \
                    == 0
                assert conn.execute(select(ratings.c.matches)).scalar() == 3
            with store.engine.begin() as conn:  # down a step and up again
                command.downgrade(alembic_config(conn), "0008")
            assert "player_stats" not in _tables(store)
            store.migrate()
            assert "player_stats" in _tables(store)
        finally:
            store.close()
