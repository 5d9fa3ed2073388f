"""Ranked tables (issue 32, item 3; server/ranked.py): who may create and sit at one, the rules
a ranked table plays, each refusal by its reason; a leaver's and an away player's loss counted
once; the remaining side's claimed win; the rating of the end written once, a replay rating
nothing.  In process (FastAPI's TestClient) on a real SQLite file and a real PostgreSQL
database; tests/test_ranked_crash.py kills a server mid-rating."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from account_helpers import EVIL, OWN, account_token, app_client, database, other, register
from pitchcards.argtypes import TOKEN_ENV, api_token
from pitchcards.client import Client, Seat, ServerError
from pitchcards.money import MoneySession
from pitchcards.notation import read_record
from pitchcards.play_stats import Stats
from pitchcards.rules import find_variant
from pitchcards.server.account_store import accounts, rated_matches, rating_changes, ratings
from pitchcards.server.config import normalise_db_url
from pitchcards.server.ranked import MIN_MONEY_HANDS, RANKED_TURN_TIMER, money_ended
from pitchcards.server.rating_store import BOT_ACCOUNT_NAMES
from pitchcards.server.seats import Player
from pitchcards.server.store import PlayerRow, log
from pitchcards.server.testing import TestHooks
from pitchcards.tui.config import GameConfig
from pitchcards.tui.remote import host_table, join_table
from server_helpers import QUICK_LIMITS, running_app

pytestmark = pytest.mark.timeout(300)

#: Table settings with no pauses; the bots act at once
FAST = {"bot_delay": 0, "hand_pause": 0}
#: FAST, and a grace and a turn timer no slow run outlasts: for tests that do not exercise
#: them (the defaults, 60 s each, would let a stand-in play or a player forfeit "away")
UNTIMED = {**FAST, "grace": 3600, "turn_timer": 3600}


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: Any, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(f"sqlite:///{tmp_path / 'server.db'}") as made:
        yield made


def _signed_in(client: TestClient, name: str, n: int) -> TestClient:
    """A client of its own (cookie jar, address) signed in as a new account ``name``."""
    mine = other(client, f"10.0.1.{n}")
    register(mine, name)
    return mine


def _api_token(client: TestClient) -> str:
    made = client.post("/api/me/tokens", json={"label": "terminal"}, headers=OWN)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def _ranked(client: TestClient, name: str = "Ann", **table: Any) -> Any:
    body = {"name": name, "variant": "auction", "players": 4, "ranked": True,
            "settings": FAST, **table}
    return client.post("/api/tables", json=body)


def _refused(reply: Any, status: int, reason: str) -> str:
    assert reply.status_code == status, reply.text
    assert reply.json()["reason"] == reason, reply.text
    return str(reply.json()["message"])


def _ratings(url: str) -> dict[str, tuple[float, float, int]]:
    """Every account's rating in the four-point cutthroat pool, by name."""
    engine = create_engine(normalise_db_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(accounts.c.name, ratings.c.mu, ratings.c.sigma,
                                       ratings.c.matches).join(
                ratings, ratings.c.account_id == accounts.c.id)).all()
    finally:
        engine.dispose()
    return {r.name: (r.mu, r.sigma, r.matches) for r in rows}


def _places(url: str) -> dict[str, int]:
    engine = create_engine(normalise_db_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(accounts.c.name, rating_changes.c.place).join(
                accounts, accounts.c.id == rating_changes.c.account_id)).all()
            assert conn.execute(select(func.count()).select_from(rated_matches)).scalar() == 1
    finally:
        engine.dispose()
    return {r.name: r.place for r in rows}


def _wait_status(client: TestClient, table: str, status: str,
                 auth: dict[str, str]) -> dict[str, Any]:
    """The table's info once its status is ``status`` (a deadline catches a hang only) and
    the change that made it so is stored: the info is read without the room's lock, the
    record with it (the room's writer holds it until the database has the change)."""
    deadline = time.monotonic() + 60
    while True:
        info: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if info["status"] == status:
            assert client.get(f"/api/tables/{table}/record", headers=auth).status_code == 200
            return info
        assert time.monotonic() < deadline, info
        time.sleep(0.02)


# ---------------------------------------------------------------------- refusals, by reason
def test_a_guest_cannot_create_a_ranked_table(client: TestClient) -> None:
    message = _refused(_ranked(client), 401, "account_needed")
    assert "sign in" in message and "--token" in message
    assert client.get("/api/lobby").json() == []


def test_an_api_token_that_is_not_valid_is_refused_not_taken_for_a_guest(
        client: TestClient) -> None:
    reply = client.post("/api/tables", json={"name": "Ann", "ranked": True},
                        headers={"Authorization": "Bearer pat_not-a-token"})
    _refused(reply, 401, "signed_out")


def test_options_that_change_the_game_make_a_table_unranked_said_before_creating(
        client: TestClient) -> None:
    ann = _signed_in(client, "Ann", 1)
    message = _refused(_ranked(ann, options={"target": 21}), 422, "unranked_options")
    assert "target=21" in message and "auction" in message
    # the form asks first: POST /api/rules says whether the rules as chosen can be ranked
    said = client.post("/api/rules", json={"variant": "auction", "options": {"target": 21}})
    assert said.json()["ranked"] == {"allowed": False, "pool": None,
                                     "reason": "unranked_options", "message": message}
    plain = client.post("/api/rules", json={"variant": "auction"}).json()["ranked"]
    assert plain == {"allowed": True, "pool": "four-point-cutthroat", "reason": None,
                     "message": None}
    # an option at the variant's own value changes nothing: still ranked
    own = find_variant("auction").target
    assert _ranked(ann, options={"target": own}).status_code == 201


def _counted(record: str, name: str) -> dict[str, int]:
    """``name``'s statistics counted from a game record's lines, independently of the server
    (the hands they sat in, their side's deltas, the contracts they bid and made, moons)."""
    out = {"hands": 0, "points": 0, "bids": 0, "made": 0, "moons": 0}
    seat: int | None = None
    names: list[str] = []
    for line in record.splitlines():
        words = line.split("#")[0].split()
        if words[:1] == ["names"]:
            names = words[1:]
        elif words[:1] == ["hand"]:
            seat = names.index(name) if name in names else None
        elif words[:1] == ["seats"]:
            seat = words.index(name) - 1 if name in words else None
        elif words[:1] == ["result"] and seat is not None:
            # e.g. "pitcher 0, bid moon, trump D, made moon, high 0, ..., deltas +5 +0 -1"
            fields = {f.split()[0]: " ".join(f.split()[1:]) for f in
                      words[1:] and " ".join(words[1:]).split(",")}
            out["hands"] += 1
            out["points"] += int(fields["deltas"].split()[seat])  # each for themselves
            if fields.get("pitcher") == str(seat):
                out["bids"] += 1
                out["made"] += int("made" in fields)
                out["moons"] += int(fields.get("made") == "moon")
    return out


def _scored(client: TestClient, table: str) -> int:
    """The hands a table has scored (the in-process server's room: GET .../results is rate
    limited)."""
    session = client.app.state.hub.rooms[table].state.table.session  # type: ignore[attr-defined]
    return int(session.hands_dealt - (1 if session.in_hand else 0))


def _play_money(client: TestClient, table: str, auth: dict[str, str], hands: int) -> None:
    """Let a held money table's bots play (Ann's turns: her timer runs out, a stand-in plays
    them), ask to settle once ``hands`` hands are scored, and play on to the settlement."""
    deadline = time.monotonic() + 120  # a hang guard only
    settling = False
    while (run := client.post(f"/_test/tables/{table}/bots", json={"actions": 1000})
           .json())["status"] != "over":
        assert time.monotonic() < deadline, run
        if not settling and _scored(client, table) >= hands:
            settle = client.post(f"/api/tables/{table}/settle", headers=auth)  # at the break
            assert settle.status_code == 200, settle.text
            settling = True
        if run["to_act"] == 0:
            client.post(f"/_test/tables/{table}/expire")


def test_money_places_leave_out_short_sitters_and_a_shared_first_place_is_no_win() -> None:
    """``money_ended`` alone (review F2): a player with fewer than MIN_MONEY_HANDS scored
    hands is not placed; equal payouts share a place; all sharing first place rates nothing."""
    session = MoneySession(find_variant("money"), ["Ann", "Bob", "Cy"], seed=1)
    players = {n: Player(PlayerRow(n, i, None, None, i == 0, f"acct-{n}"))
               for i, n in enumerate(["Ann", "Bob", "Cy"])}
    enough, few = Stats(hands=MIN_MONEY_HANDS), Stats(hands=MIN_MONEY_HANDS - 1)
    session.payouts = {"Ann": Fraction(300), "Bob": Fraction(300), "Cy": Fraction(900)}
    ended = money_ended("t", session, players, {"Ann": enough, "Bob": enough, "Cy": enough})
    assert ended.sides == ((("acct-Cy",), 0), (("acct-Ann",), 1), (("acct-Bob",), 1))
    # Cy sat too few hands: Ann and Bob share first place among those left, nobody won
    ended = money_ended("t", session, players, {"Ann": enough, "Bob": enough, "Cy": few})
    assert ended.sides == () and ended.stats == ()


def _money_table(client: TestClient, ann: TestClient) -> tuple[str, dict[str, str]]:
    """Ann's (signed in) ranked money table, seeded, started, its bots held: its id and her
    seat's auth."""
    made = ann.post("/_test/tables", json={"seed": 11, "hold_bots": True, "table": {
        "name": "Ann", "variant": "money", "players": 3, "ranked": True,
        "bots": {"1": "random", "2": "easy"},
        "settings": {**UNTIMED, "stand_in": "random"}}})
    assert made.status_code == 201, made.text
    return made.json()["table"], _start(client, made.json())


def test_a_ranked_money_table_is_rated_by_money_at_the_settlement(tmp_path: Path) -> None:
    """The money game's pool (issue 32: "ranked by money at the settlement"): a ranked money
    table is rated when it settles, each player placed by what they were paid; the statistics
    of its hands are added with the rating; the turns the turn timer's stand-in played are
    marked in its record.  A seeded table, its bots held and let act.

    First, settled after one hand (review F2): a player ahead then cannot lock in a rating —
    who sat fewer than MIN_MONEY_HANDS scored hands is left out, and with fewer than two
    players left nothing is rated (no match, no win, no statistics)."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with app_client(url, hooks=TestHooks()) as client:
        ann = _signed_in(client, "Ann", 1)
        table, auth = _money_table(client, ann)
        _play_money(client, table, auth, 0)  # settled at the first break
        _wait_status(client, table, "over", auth)
        assert _scored(client, table) == 1
        assert "money" not in client.get("/api/players/Ann").json()["ratings"]
        # then one settled after ten hands: rated
        table, auth = _money_table(client, ann)
        assert client.get(f"/api/tables/{table}").json()["ranked"] is True
        # nothing to claim at a money table: it ends at the settlement
        _refused(client.post(f"/api/tables/{table}/claim", headers=auth), 409, "cannot_claim")
        # rated only once every player sat MIN_MONEY_HANDS scored hands (review F2)
        _play_money(client, table, auth, MIN_MONEY_HANDS)
        info = _wait_status(client, table, "over", auth)
        assert info["may_claim"] is None and info["forfeits"] == []
        record = client.get(f"/api/tables/{table}/record", headers=auth).text
        engine = create_engine(normalise_db_url(url))
        try:
            with engine.connect() as conn:
                rows = conn.execute(select(accounts.c.name, rating_changes.c.place,
                                           rated_matches.c.pool).join(
                    accounts, accounts.c.id == rating_changes.c.account_id).join(
                    rated_matches, rated_matches.c.key == rating_changes.c.match_key)).all()
        finally:
            engine.dispose()
        places = {r.name: r.place for r in rows}
        assert {r.pool for r in rows} == {"money"}
        assert set(places) == {"Ann", "Random bot", "Easy bot"}
        # placed by money at the settlement: each below exactly those paid more
        read = read_record(record)
        payouts = next(e.payouts for e in read.events if e.kind == "settle")
        account = {name: BOT_ACCOUNT_NAMES[read.bots[name]] if name in read.bots else name
                   for name in payouts}
        assert {account[name]: sum(other > cents for other in payouts.values())
                for name, cents in payouts.items()} == places
        # the stand-in's turns are marked in the record, and only Ann's
        lines = record.splitlines()
        marked = [lines[i - 1] for i, line in enumerate(lines) if line.startswith("stand-in")]
        assert marked and all(m.split()[0] == "0" or m.startswith("#") for m in marked), marked
        assert all(line == "stand-in timeout" for line in lines if line.startswith("stand-in"))
        # statistics: what the record says, added once with the rating
        player = client.get("/api/players/Ann").json()
        counted = _counted(record, "Ann")
        stats = player["ratings"]["money"]["stats"]
        assert {k: stats[k] for k in counted} == counted
        assert counted["hands"] >= MIN_MONEY_HANDS
        assert stats["matches"] == 1 and player["stats"]["hands"] == counted["hands"]
    # a restart replays the log: it rates and counts nothing again
    with app_client(url) as again:
        assert again.get("/api/players/Ann").json()["ratings"]["money"]["stats"] == stats


def test_a_ranked_table_always_has_a_turn_timer(client: TestClient) -> None:
    ann = _signed_in(client, "Ann", 1)
    made = _ranked(ann).json()
    info = client.get(f"/api/tables/{made['table']}").json()
    assert info["ranked"] is True
    assert info["settings"]["turn_timer"] == RANKED_TURN_TIMER
    chosen = _ranked(ann, settings={**FAST, "turn_timer": 20}).json()
    assert client.get(f"/api/tables/{chosen['table']}").json()["settings"]["turn_timer"] == 20
    unranked = client.post("/api/tables", json={"name": "Ann"}).json()
    assert client.get(f"/api/tables/{unranked['table']}").json()["settings"][
        "turn_timer"] is None


def test_a_guest_cannot_take_a_seat_at_a_ranked_table(client: TestClient) -> None:
    ann = _signed_in(client, "Ann", 1)
    made = _ranked(ann).json()
    before = client.get(f"/api/tables/{made['table']}").json()
    guest = other(client, "10.0.2.1")
    message = _refused(guest.post(f"/api/invites/{made['invite']}/seats",
                                  json={"name": "Guest"}), 401, "account_needed")
    assert "ranked" in message
    assert client.get(f"/api/tables/{made['table']}").json()["seats"] == before["seats"]


def test_a_page_of_another_origin_cannot_seat_the_cookies_account_at_a_ranked_table(
        client: TestClient) -> None:
    """Bob's browser holds his session cookie; a page elsewhere (another origin, or no Origin
    but fetch metadata saying another site — a sibling subdomain is same-site, so SameSite=Lax
    sends the cookie) posts to the ranked table's invite or creates a ranked table: the cookie
    is not taken, so Bob is not seated (he would forfeit "away" and lose rating: review S2)."""
    ann = _signed_in(client, "Ann", 1)
    made = _ranked(ann).json()
    before = client.get(f"/api/tables/{made['table']}").json()["seats"]
    bob = _signed_in(client, "Bob", 2)
    for elsewhere in (EVIL, {"Sec-Fetch-Site": "same-site"}, {"Sec-Fetch-Site": "cross-site"}):
        seat = bob.post(f"/api/invites/{made['invite']}/seats", json={"name": "Bob"},
                        headers=elsewhere)
        _refused(seat, 401, "account_needed")
        _refused(bob.post("/api/tables", json={"name": "Bob", "ranked": True},
                          headers=elsewhere), 401, "account_needed")
    assert client.get(f"/api/tables/{made['table']}").json()["seats"] == before
    assert [t for t in client.get("/api/lobby").json() if "Bob" in json.dumps(t)] == []
    # from the server's own page the cookie seats Bob
    seat = bob.post(f"/api/invites/{made['invite']}/seats", json={"name": "Bob"},
                    headers={**OWN, "Sec-Fetch-Site": "same-origin"})
    assert seat.status_code == 201, seat.text
    assert seat.json()["name"] == "Bob"


def test_a_signed_in_player_sits_under_their_accounts_name(client: TestClient) -> None:
    ann = _signed_in(client, "Ann", 1)
    made = _ranked(ann, name="Typed").json()
    assert made["name"] == "Ann"
    bob = _signed_in(client, "Bob", 2)
    token = _api_token(bob)
    # a terminal: no cookie, the API token in the header
    terminal = other(client, "10.0.2.2")
    seat = terminal.post(f"/api/invites/{made['invite']}/seats", json={"name": "Robert"},
                         headers={"Authorization": f"Bearer {token}"})
    assert seat.status_code == 201, seat.text
    assert seat.json()["name"] == "Bob"
    # the same account cannot take a second seat (its name is at the table)
    again = terminal.post(f"/api/invites/{made['invite']}/seats", json={"name": "Bob"},
                          headers={"Authorization": f"Bearer {token}"})
    _refused(again, 409, "name_taken")
    names = [s["name"] for s in client.get(f"/api/tables/{made['table']}").json()["seats"]]
    assert names == ["Ann", "Bob", None, None]


def test_leave_and_claim_are_refused_at_an_unranked_table(client: TestClient) -> None:
    made = client.post("/api/tables", json={"name": "Ann", "settings": FAST,
                                            "bots": {"1": "random", "2": "random"}}).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    assert client.post(f"/api/tables/{made['table']}/start", headers=auth).status_code == 200
    _refused(client.post(f"/api/tables/{made['table']}/claim", headers=auth), 409, "not_ranked")
    _refused(client.post(f"/api/tables/{made['table']}/leave", headers=auth), 409,
             "join_leave_not_allowed")


# ---------------------------------------------------------------------- leaving, away, claims
def _start(client: TestClient, made: dict[str, Any]) -> dict[str, str]:
    auth = {"Authorization": f"Bearer {made['token']}"}
    started = client.post(f"/api/tables/{made['table']}/start", headers=auth)
    assert started.status_code == 200, started.text
    return auth


def test_leaving_a_ranked_match_counts_as_a_loss_exactly_once(db_url: str) -> None:
    with app_client(db_url) as client:
        ann = _signed_in(client, "Ann", 1)
        made = _ranked(ann, bots={"1": "random", "2": "random", "3": "easy"},
                       settings=UNTIMED).json()
        auth = _start(client, made)
        left = client.post(f"/api/tables/{made['table']}/leave", headers=auth)
        assert left.status_code == 200, left.text
        assert left.json()["forfeit"] is True
        # the only person left: no one is left to play on, the match ends with Ann last
        info = _wait_status(client, made["table"], "over", auth)
        assert info["forfeits"] == [{"name": "Ann", "side": 0, "why": "left"}]
        after = _ratings(db_url)
        assert after["Ann"][2] == 1 and after["Ann"][0] < 25
        # two random bots and an easy one, tied first (no points yet): each level's account
        # once; Ann fourth of the four seats
        assert after["Random bot"][2] == 1 and after["Easy bot"][2] == 1
        assert _places(db_url) == {"Random bot": 0, "Easy bot": 0, "Ann": 3}
        # leaving again, or claiming, counts nothing more
        _refused(client.post(f"/api/tables/{made['table']}/leave", headers=auth), 409,
                 "join_leave_not_allowed")
        _refused(client.post(f"/api/tables/{made['table']}/claim", headers=auth), 409,
                 "game_over")
    # a restart on the same database replays the log: it rates nothing again
    with app_client(db_url) as again:
        assert again.get(f"/api/tables/{made['table']}").json()["status"] == "over"
    assert _ratings(db_url) == after


def test_away_past_the_grace_counts_as_a_loss_exactly_once(client: TestClient,
                                                           tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    ann = _signed_in(client, "Ann", 1)
    made = _ranked(ann, bots={"1": "random", "2": "random", "3": "random"},
                   settings={**FAST, "grace": 0}).json()
    auth = _start(client, made)  # Ann has no socket open: her grace of 0 s runs out at once
    info = _wait_status(client, made["table"], "over", auth)
    assert info["forfeits"] == [{"name": "Ann", "side": 0, "why": "away"}]
    after = _ratings(url)
    assert after["Ann"][2] == 1
    _refused(client.post(f"/api/tables/{made['table']}/leave", headers=auth), 409,
             "join_leave_not_allowed")
    assert _ratings(url) == after


def test_when_every_opponent_has_left_the_remaining_side_claims_the_win(db_url: str) -> None:
    with app_client(db_url) as client:
        ann, bob, cy = (_signed_in(client, name, n) for n, name in
                        enumerate(("Ann", "Bob", "Cy"), 1))
        made = _ranked(ann, players=3, settings=UNTIMED).json()
        seats = {name: p.post(f"/api/invites/{made['invite']}/seats", json={"name": name}).json()
                 for name, p in (("Bob", bob), ("Cy", cy))}
        ann_auth = _start(client, made)
        bob_auth = {"Authorization": f"Bearer {seats['Bob']['token']}"}
        cy_auth = {"Authorization": f"Bearer {seats['Cy']['token']}"}
        table = made["table"]
        # nobody has left: nothing to claim
        message = _refused(client.post(f"/api/tables/{table}/claim", headers=ann_auth), 409,
                           "cannot_claim")
        assert "Bob" in message and "Cy" in message
        assert client.post(f"/api/tables/{table}/leave", headers=bob_auth).status_code == 200
        # leaving again counts nothing more: one forfeit a side
        assert client.post(f"/api/tables/{table}/leave", headers=bob_auth).status_code == 200
        info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "playing" and info["may_claim"] is None
        assert [f["name"] for f in info["forfeits"]] == ["Bob"]
        message = _refused(client.post(f"/api/tables/{table}/claim", headers=ann_auth), 409,
                           "cannot_claim")
        assert "Cy" in message and "Bob" not in message
        assert client.post(f"/api/tables/{table}/leave", headers=cy_auth).status_code == 200
        info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "playing" and info["may_claim"] == 0
        assert [f["name"] for f in info["forfeits"]] == ["Bob", "Cy"]
        # a side that left cannot claim; the one that stayed can
        _refused(client.post(f"/api/tables/{table}/claim", headers=bob_auth), 409,
                 "cannot_claim")
        claimed = client.post(f"/api/tables/{table}/claim", headers=ann_auth)
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["status"] == "over"
        # Ann first; of the leavers the last to leave above the first
        assert _places(db_url) == {"Ann": 0, "Cy": 1, "Bob": 2}
        after = _ratings(db_url)
        assert after["Ann"][0] > after["Cy"][0] > after["Bob"][0]
        assert after["Ann"][0] > 25 > after["Bob"][0]
        _refused(client.post(f"/api/tables/{table}/claim", headers=ann_auth), 409, "game_over")
        assert _ratings(db_url) == after


def test_no_turn_is_played_after_a_claim_ends_the_match_mid_hand(tmp_path: Path) -> None:
    """A claim (or a forfeit) ends a ranked match mid-hand, while the turn timer of the
    claimer's turn runs: the timer stops with the match, and nothing is logged after the end
    (review C1: the stand-in played the timed-out turn after the end)."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with app_client(url, hooks=TestHooks()) as client:
        ann, bob, cy = (_signed_in(client, name, n) for n, name in
                        enumerate(("Ann", "Bob", "Cy"), 1))
        made = _ranked(ann, players=3, settings={**UNTIMED, "stand_in": "random"}).json()
        seats = {name: p.post(f"/api/invites/{made['invite']}/seats", json={"name": name}).json()
                 for name, p in (("Bob", bob), ("Cy", cy))}
        ann_auth = _start(client, made)
        table = made["table"]
        for name in ("Bob", "Cy"):
            left = client.post(f"/api/tables/{table}/leave",
                               headers={"Authorization": f"Bearer {seats[name]['token']}"})
            assert left.status_code == 200, left.text
        # the stand-ins play on to Ann's turn, whose timer then runs
        settled = client.post(f"/_test/tables/{table}/bots", json={"actions": 1000}).json()
        assert settled["to_act"] == 0 and settled["status"] == "playing", settled
        claimed = client.post(f"/api/tables/{table}/claim", headers=ann_auth)
        assert claimed.status_code == 200, claimed.text
        # the time runs out: no timer was left running, so no stand-in plays Ann's turn
        assert client.post(f"/_test/tables/{table}/expire").json() == {"expired": False}
        engine = create_engine(normalise_db_url(url))
        try:
            with engine.connect() as conn:
                entries = [json.loads(e) for e in conn.execute(select(log.c.entry).where(
                    log.c.table_id == table).order_by(log.c.n)).scalars()]
        finally:
            engine.dispose()
        assert entries[-1]["op"] == "claim", entries[-3:]
        assert client.get(f"/api/tables/{table}").json()["status"] == "over"


def test_a_stand_ins_thought_ending_after_a_claim_is_dropped(tmp_path: Path) -> None:
    """Ann's turn timer runs out and her stand-in thinks (held there by the test server's
    hooks, out of the room's lock); meanwhile Ann claims the win: the thought that ends after
    the match is dropped, not logged after the end (review C1)."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    hooks = TestHooks()
    with app_client(url, hooks=hooks) as client:
        ann, bob, cy = (_signed_in(client, name, n) for n, name in
                        enumerate(("Ann", "Bob", "Cy"), 1))
        made = _ranked(ann, players=3, settings={**UNTIMED, "stand_in": "random"}).json()
        seats = {name: p.post(f"/api/invites/{made['invite']}/seats", json={"name": name}).json()
                 for name, p in (("Bob", bob), ("Cy", cy))}
        ann_auth = _start(client, made)
        table = made["table"]
        for name in ("Bob", "Cy"):
            left = client.post(f"/api/tables/{table}/leave",
                               headers={"Authorization": f"Bearer {seats[name]['token']}"})
            assert left.status_code == 200, left.text
        settled = client.post(f"/_test/tables/{table}/bots", json={"actions": 1000}).json()
        assert settled["to_act"] == 0 and settled["status"] == "playing", settled
        with ThreadPoolExecutor(2) as pool:
            held = pool.submit(client.post, f"/_test/tables/{table}/thought",
                               json={"hold": True, "bot": False})
            deadline = time.monotonic() + 60  # only a hang takes this long
            while not hooks.gate(table).hold_thought:  # the hold is set: run the timer out
                assert time.monotonic() < deadline
                time.sleep(0.01)
            expired = pool.submit(client.post, f"/_test/tables/{table}/expire")
            thinking = held.result(timeout=120).json()
            assert thinking["thinking"] and thinking["to_act"] == 0, thinking
            claimed = client.post(f"/api/tables/{table}/claim", headers=ann_auth)
            assert claimed.status_code == 200, claimed.text
            released = client.post(f"/_test/tables/{table}/thought",
                                   json={"hold": False}).json()
            assert released["applied"] is False, released
            assert expired.result(timeout=120).json() == {"expired": True}
        engine = create_engine(normalise_db_url(url))
        try:
            with engine.connect() as conn:
                entries = [json.loads(e) for e in conn.execute(select(log.c.entry).where(
                    log.c.table_id == table).order_by(log.c.n)).scalars()]
        finally:
            engine.dispose()
        assert entries[-1]["op"] == "claim", entries[-3:]


def test_a_partner_leaving_is_their_sides_loss_once(client: TestClient, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    ann, bob = _signed_in(client, "Ann", 1), _signed_in(client, "Bob", 2)
    made = _ranked(ann, variant="auction-partners", bots={"1": "random", "3": "random"},
                   settings=UNTIMED).json()
    seat = bob.post(f"/api/invites/{made['invite']}/seats", json={"name": "Bob", "seat": 2})
    assert seat.status_code == 201, seat.text
    ann_auth = _start(client, made)
    bob_auth = {"Authorization": f"Bearer {seat.json()['token']}"}
    assert client.post(f"/api/tables/{made['table']}/leave", headers=bob_auth).status_code == 200
    # Ann's side (her and Bob) has forfeited; bots alone remain: the match ends
    info = _wait_status(client, made["table"], "over", ann_auth)
    assert info["forfeits"] == [{"name": "Bob", "side": 0, "why": "left"}]
    _refused(client.post(f"/api/tables/{made['table']}/leave", headers=ann_auth), 409,
             "join_leave_not_allowed")
    assert _places(url) == {"Random bot": 0, "Ann": 1, "Bob": 1}
    assert {n: r[2] for n, r in _ratings(url).items()} == {"Ann": 1, "Bob": 1, "Random bot": 1}


# ---------------------------------------------------------------------- terminals and bots
def test_play_join_and_pitch_bot_take_a_ranked_seat_with_token(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal opens a ranked table (``pitch play --new-table --ranked --token``'s
    ``host_table``), another joins it (``pitch play --join --token``'s join) and a bot
    (``pitch bot --join --token``, a real process) sits down, each as their account; both
    people leave, the bot's account plays the match out against their stand-ins and is placed
    first."""
    with running_app(tmp_path, extra=QUICK_LIMITS) as server:
        url = server.url
        tokens = {name: account_token(url, name) for name in ("Ann", "Bob", "Cy")}
        # `pitch play --new-table URL --ranked` with no token: the server's reason, no table
        from pitchcards.cli import main
        monkeypatch.delenv(TOKEN_ENV, raising=False)
        assert main(["play", "--new-table", url, "--ranked"]) == 2
        said_first = capsys.readouterr().err
        assert "sign in" in said_first and "--token" in said_first
        assert main(["play", "--join", "abc", "--ranked", "--token", tokens["Ann"]]) == 2
        assert "--ranked goes with --new-table" in capsys.readouterr().err

        async def seat_people() -> tuple[Seat, Seat, dict[str, Any]]:
            monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "ann"))  # Ann's terminal
            ann = await host_table(url, GameConfig(variant="auction", players=3), "Typed",
                                   None, {**FAST, "stand_in": "easy"}, ranked=True,
                                   api_token=tokens["Ann"])
            assert ann.name == "Ann"  # the account's name, whatever was typed
            monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "bob"))  # Bob's
            bob, info = await join_table(ann.invite_url or "", url, None, None, tokens["Bob"])
            return ann, bob, info

        ann, bob, info = asyncio.run(seat_people())
        assert (bob.name, info["ranked"]) == ("Bob", True)
        # a guest's terminal is refused, with the reason
        with pytest.raises(ServerError) as refused:
            asyncio.run(join_table(ann.invite_url or "", url, "Guest", None, None))
        assert refused.value.reason == "account_needed"
        env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}
        said = tmp_path / "bot.out"
        with open(said, "w", encoding="utf-8") as out:
            bot = subprocess.Popen(
                [sys.executable, "-m", "pitchcards.cli", "bot", "--join",
                 ann.invite_url or "", "--level", "easy", "--token", tokens["Cy"]],
                stdout=out, stderr=subprocess.STDOUT, env=env, text=True)
        try:
            async def play() -> dict[str, Any]:
                async with Client(url) as api:
                    deadline = time.monotonic() + 60
                    while len([s for s in (await api.table(ann.table))["seats"]
                               if s["name"]]) < 3:  # the bot process sits down
                        assert time.monotonic() < deadline and bot.poll() is None
                        await asyncio.sleep(0.05)
                    await api.start(ann)
                    await api.leave(ann)
                    await api.leave(bob)
                    deadline = time.monotonic() + 240
                    while (info := await api.table(ann.table))["status"] != "over":
                        assert time.monotonic() < deadline, (info, said.read_text())
                        await asyncio.sleep(0.1)
                    return info

            info = asyncio.run(play())
            bot.wait(60)
        finally:
            if bot.poll() is None:
                bot.kill()
        out = said.read_text()
        assert bot.returncode == 0, out
        assert "seated as Cy" in out and "game over" in out
        assert [s["name"] for s in info["seats"]] == ["Ann", "Bob", "Cy"]
        assert [f["name"] for f in info["forfeits"]] == ["Ann", "Bob"]
        assert _places(server.args.db) == {"Cy": 0, "Bob": 1, "Ann": 2}
        # the stand-ins' turns are marked in the log; Cy's own (its bot program's) are a
        # person's
        engine = create_engine(normalise_db_url(server.args.db))
        try:
            with engine.connect() as conn:
                acts = [json.loads(e) for e in conn.execute(select(log.c.entry).where(
                    log.c.table_id == ann.table)).scalars()]
        finally:
            engine.dispose()
        acts = [e for e in acts if e["op"] == "act"]
        assert acts and all(e.get("stand_in") is True for e in acts if e["seat"] in (0, 1)
                            and not e.get("timeout"))
        assert all(not e["bot"] and "stand_in" not in e for e in acts if e["seat"] == 2)
        # and in the game record: each stand-in's action marked, a person's never
        record = httpx.get(f"{url}/api/tables/{ann.table}/record",
                           headers={"Authorization": f"Bearer {ann.token}"}).text
        lines = [line for line in record.splitlines() if not line.startswith("#")]
        marked = [lines[i - 1].split()[0] for i, line in enumerate(lines)
                  if line.startswith("stand-in")]
        assert marked and set(marked) <= {"0", "1"}
        assert read_record(record).hands  # it still reads and replays
        # Cy's statistics on their profile: what the record says, counted once
        stats = httpx.get(f"{url}/api/players/Cy").json()["ratings"]["four-point-cutthroat"][
            "stats"]
        counted = _counted(record, "Cy")
        assert {k: stats[k] for k in counted} == counted and counted["hands"] >= 1
        assert (stats["matches"], stats["wins"]) == (1, 1)


def test_pitch_play_and_pitch_bot_parse_token_from_the_flag_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pitchcards.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["play", "--join", "abc", "--token", "pat_x"])
    assert api_token(args) == "pat_x"
    monkeypatch.setenv(TOKEN_ENV, "pat_env")
    assert api_token(parser.parse_args(["play", "--join", "abc"])) == "pat_env"
    assert api_token(parser.parse_args(["bot", "--join", "abc"])) == "pat_env"
    assert api_token(parser.parse_args(["bot", "--join", "abc", "--token", "pat_y"])) == "pat_y"
