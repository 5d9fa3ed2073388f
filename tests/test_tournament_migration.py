"""Migrations 0008 (issue 34) and 0010 (review F3): ``tournaments.creator``, the hash of the
address that created a tournament, so that an address's open tournaments are counted by the
database — across a restart and every process — on a real SQLite file and a real PostgreSQL
database: a tournament stored before it counts against no address, the cap holds in the
write's own transaction, and each step goes down and up again; 0010 keys that hash with a
random secret the database keeps (the same in every process), and forgets 0008's plain hashes."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect

from account_helpers import database
from pitchcards.server.config import normalise_db_url
from pitchcards.server.migrations import alembic_config, upgrade
from pitchcards.server.store import Store, hash_secret
from pitchcards.server.tournament_store import TournamentStore
from pitchcards.server.tournaments import MAX_OPEN_PER_ADDRESS, creator_key


def _columns(store: Store) -> set[str]:
    return {c["name"] for c in inspect(store.engine).get_columns("tournaments")}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_an_addresses_open_tournaments_are_counted_by_the_database(kind, tmp_path):
    from alembic import command

    with database(kind, tmp_path) as url:
        store = Store(normalise_db_url(url))
        try:
            with store.engine.begin() as conn:
                upgrade(conn, "0007")  # the schema before the creator's column
            assert "creator" not in _columns(store)
            with store.engine.begin() as conn:  # a tournament as 0007 stored it
                conn.exec_driver_sql(
                    "INSERT INTO tournaments (id, director_hash, invite_hash, config, seed, "
                    "status, version, created, updated) VALUES ('old', 'h', NULL, "
                    "'{\"name\": \"Dora\"}', '7', 'registering', 0, 1.0, 1.0)")
            store.migrate()  # to the newest, as the server does at start
            assert "creator" in _columns(store)
            key = TournamentStore(store).secret("tournament creator")
            here, there = creator_key(key, "203.0.113.9"), creator_key(key, "198.51.100.1")
            assert "203.0.113.9" not in here  # a hash of the address, never the address
            assert TournamentStore(store).open_count(here) == 0  # the old one is no one's
            for n in range(MAX_OPEN_PER_ADDRESS):
                assert TournamentStore(store).create(f"t{n}", "h", None, {}, n, here,
                                                     MAX_OPEN_PER_ADDRESS)
            # another store on the same database (a restarted server, another process)
            other = Store(normalise_db_url(url))
            try:
                assert TournamentStore(other).open_count(here) == MAX_OPEN_PER_ADDRESS
                assert not TournamentStore(other).create("no", "h", None, {}, 9, here,
                                                         MAX_OPEN_PER_ADDRESS)
                assert TournamentStore(other).load("no") is None  # refused: nothing written
                assert TournamentStore(other).create("yes", "h", None, {}, 9, there,
                                                     MAX_OPEN_PER_ADDRESS)
                TournamentStore(other).append("t0", 1, {"op": "over"}, "over")
                assert TournamentStore(other).open_count(here) == MAX_OPEN_PER_ADDRESS - 1
            finally:
                other.close()
            with store.engine.begin() as conn:  # down a step and up again
                command.downgrade(alembic_config(conn), "0007")
            assert "creator" not in _columns(store)
            store.migrate()
            assert "creator" in _columns(store)
            assert TournamentStore(store).open_count(here) == 0  # a downgrade forgets them
            assert TournamentStore(store).load("t1") is not None
        finally:
            store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_creators_address_is_keyed_with_a_secret_the_database_keeps(kind, tmp_path):
    from alembic import command

    with database(kind, tmp_path) as url:
        store = Store(normalise_db_url(url))
        try:
            with store.engine.begin() as conn:
                upgrade(conn, "0009")  # creators as plain SHA-256s of the address
                conn.exec_driver_sql(
                    "INSERT INTO tournaments (id, director_hash, invite_hash, config, seed, "
                    "status, version, created, updated, creator) VALUES ('old', 'h', NULL, "
                    "'{}', '7', 'registering', 0, 1.0, 1.0, 'f00d')")
            store.migrate()
            assert TournamentStore(store).load("old") is not None
            assert TournamentStore(store).open_count("f00d") == 0  # the plain hash forgotten
            key = TournamentStore(store).secret("tournament creator")
            assert len(key) == 32
            other = Store(normalise_db_url(url))  # another process: the same key
            try:
                assert TournamentStore(other).secret("tournament creator") == key
            finally:
                other.close()
            here = creator_key(key, "203.0.113.9")
            # not the unsalted hash anyone can reverse by trying every IPv4 address
            assert here != hash_secret("tournament creator 203.0.113.9")
            assert here != creator_key(bytes(32), "203.0.113.9")
            with store.engine.begin() as conn:  # down a step and up again
                command.downgrade(alembic_config(conn), "0009")
            assert "server_secrets" not in inspect(store.engine).get_table_names()
            store.migrate()
            assert TournamentStore(store).secret("tournament creator") != key  # a new one
        finally:
            store.close()
