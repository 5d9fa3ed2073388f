"""Leaderboards and players' ratings as JSON (issue 32, item 4; server/ladder.py), on a real
SQLite file and a real PostgreSQL database: provisional and idle ratings left out, a player's
ratings and recent matches, a deleted account's part kept without its name, the read limit."""

from __future__ import annotations

import time
import uuid

import pytest

from account_helpers import OWN, app_client, database, other, register
from pitchcards.server import account_store as db
from pitchcards.server import rating_store

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    with database(request.param, tmp_path) as url:
        yield url


def _id(client, name: str) -> str:
    found = db.find_account(client.app.state.hub.store.engine, name.casefold())
    assert found is not None
    return found.id


def _settle(client, account_id: str, pool: str, mu: float) -> None:
    """A rating as after many matches (σ small), changed now."""
    with client.app.state.hub.store.engine.begin() as conn:
        conn.execute(db.ratings.insert().values(account_id=account_id, pool=pool, mu=mu,
                                                sigma=2.0, matches=50, updated=time.time()))


def test_a_leaderboard_lists_settled_ratings_best_first_and_says_who_is_left_out(db_url):
    with app_client(db_url) as client:
        for name in ("Ann", "Bob", "Cy"):
            register(client, name)
        ann, bob, cy = (_id(client, n) for n in ("Ann", "Bob", "Cy"))
        _settle(client, ann, "money", 30.0)
        _settle(client, bob, "money", 33.0)
        engine = client.app.state.hub.store.engine
        with engine.begin() as conn:
            bot = rating_store.bot_account(conn, "easy", "Easy bot")
        rating_store.rate_match_once(engine, f"table:{uuid.uuid4().hex}", "money",
                                     [([cy], 0), ([bot], 1)])  # Cy and the bot: provisional
        board = client.get("/api/leaderboards/money")
        assert board.status_code == 200, board.text
        data = board.json()
        assert [(p["place"], p["name"], p["rating"]) for p in data["players"]] == [
            (1, "Bob", "1980"), (2, "Ann", "1800")]
        assert "provisional" in data["left_out"] and "90 days" in data["left_out"]
        assert client.get("/api/leaderboards/four-point-partners").json()["players"] == []
        missing = client.get("/api/leaderboards/chess")
        assert missing.status_code == 404 and missing.json()["reason"] == "not_found"
        assert "four-point-partners" in missing.json()["message"]


def test_a_players_ratings_and_recent_matches_and_a_deleted_opponent(db_url):
    with app_client(db_url) as client:
        register(client, "Ann")
        bob_client = other(client, "10.0.0.2")
        register(bob_client, "Bob")
        ann, bob = _id(client, "Ann"), _id(client, "Bob")
        engine = client.app.state.hub.store.engine
        key = f"table:{uuid.uuid4().hex}"
        rating_store.rate_match_once(engine, key, "four-point-cutthroat", [([ann], 0),
                                                                           ([bob], 1)])
        page = client.get("/api/players/ANN")  # by the name's key
        assert page.status_code == 200, page.text
        data = page.json()
        assert data["name"] == "Ann" and data["bot"] is None
        rating = data["ratings"]["four-point-cutthroat"]
        assert rating["provisional"] and rating["rating"].endswith("?") and rating["matches"] == 1
        (match,) = data["recent"]
        assert match["match"] == key and match["place"] == 0 and match["change"] > 0
        assert match["before"] == "1500?"
        gone = bob_client.request("DELETE", "/api/me", json={"password": "correct horse"},
                                  headers=OWN)
        assert gone.status_code == 204
        assert client.get("/api/players/Bob").status_code == 404
        assert client.get("/api/players/Ann").json()["recent"][0]["match"] == key


def test_the_rating_reads_count_against_the_addresss_reads(db_url):
    with app_client(db_url, http_reads_per_minute=4) as client:  # bursts of 1
        assert client.get("/api/leaderboards/money").status_code == 200
        limited = client.get("/api/players/Ann")
        assert limited.status_code == 429 and limited.json()["reason"] == "rate_limited"
