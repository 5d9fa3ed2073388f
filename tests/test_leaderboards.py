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


def test_a_players_place_wins_history_and_tables_for_the_profile_page(db_url):
    """What the profile and the leaderboard's "your place" read (docs/protocol.md): the place
    however far down the board, or why it is left out; the wins; the chart's points oldest
    first; each match's table."""
    with app_client(db_url) as client:
        names = ["Ann", "Bob", "Cy", "Dee"]
        for n, name in enumerate(names):
            register(other(client, f"10.0.1.{n}"), name)
        ann, bob, cy, dee = (_id(client, n) for n in names)
        _settle(client, cy, "money", 40.0)   # above Ann
        _settle(client, dee, "money", 35.0)  # above Ann
        _settle(client, ann, "money", 30.0)
        _settle(client, bob, "money", 30.0)  # Ann's μ: the account id breaks the tie
        engine = client.app.state.hub.store.engine
        with engine.begin() as conn:  # an idle rating: on no board, said why
            conn.execute(db.ratings.update().where(db.ratings.c.account_id == dee).values(
                updated=time.time() - 91 * 86400))
        tables = [uuid.uuid4().hex[:12] for _ in range(3)]
        for table, ann_first in zip(tables, (True, False, True), strict=True):
            rating_store.rate_match_once(engine, f"table:{table}", "four-point-cutthroat",
                                         [([ann], 0 if ann_first else 1),
                                          ([bob], 1 if ann_first else 0)])
        rating_store.rate_match_once(engine, "tournament:x", "ten-point-partners",
                                     [([ann, bob], 1), ([cy, dee], 0)])
        data = client.get("/api/players/Ann").json()
        board = [p["name"] for p in client.get("/api/leaderboards/money").json()["players"]]
        money = data["ratings"]["money"]
        assert money["place"] == board.index("Ann") + 1 == (2 if ann > bob else 3)
        assert money["unlisted"] is None and money["wins"] == 0
        assert client.get("/api/players/Dee").json()["ratings"]["money"]["place"] is None
        assert "idle" in client.get("/api/players/Dee").json()["ratings"]["money"]["unlisted"]
        cutthroat = data["ratings"]["four-point-cutthroat"]
        assert cutthroat["wins"] == 2 and cutthroat["matches"] == 3
        assert cutthroat["place"] is None and "provisional" in cutthroat["unlisted"]
        assert data["ratings"]["ten-point-partners"]["wins"] == 0
        points = data["history"]["four-point-cutthroat"]
        recent = [m for m in data["recent"] if m["pool"] == "four-point-cutthroat"][::-1]
        assert [p["rating"] for p in points] == [int(m["after"].rstrip("?")) for m in recent]
        assert points[0]["rating"] > 1500  # won, lost, won
        assert points[1]["rating"] < points[0]["rating"] and points[2]["rating"] > \
            points[1]["rating"]
        assert all(p["provisional"] for p in points)
        assert [m["table"] for m in data["recent"]] == [None, *tables[::-1]]
        assert data["pools"]["money"] == "The money game"
        assert set(data["pools"]) == set(client.get("/api/leaderboards/money").json()["pools"])
