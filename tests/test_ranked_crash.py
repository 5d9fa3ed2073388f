"""A ranked match's rating survives ``kill -9`` mid-update, on SQLite and on PostgreSQL
(issue 32: "ratings equal after a kill -9 mid-update").

The server is a test server (tests/hooked_serve.py) that kills itself with SIGKILL as it rates
the match (``--die-when-rating``): ``before_commit`` — the match's last log entry and its
rating written in the transaction, not committed; ``after_commit`` — committed, before the
room or anyone hears of it.  Restarted on the same database, the match goes on (or is over),
and once it ends the ratings are exactly those of rating its end once: OpenSkill's numbers for
the final places, one rated match, one change per player.  A terminal client takes the seat
with its account's API token (``Client(api_token=…)``, as ``pitch play --join --token``).
With two processes on PostgreSQL and Redis, the owner dies rating the match and the other
takes the table over, finishes it and rates it — once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, func, select

from cluster_helpers import RedisProcess
from pitchcards.client import Client, Seat, ServerError, TableConnection, table_request
from pitchcards.server.account_store import accounts, rated_matches, rating_changes, ratings
from pitchcards.server.config import normalise_db_url
from pitchcards.server.ratings import Rating, Side, rate
from server_helpers import (
    FAST,
    QUICK_LIMITS,
    ServerProcess,
    database_url,
    postgres_database,
    run_bots,
)

pytestmark = pytest.mark.timeout(300)

#: Ann plays a 3-player auction (cutthroat) against an easy and a medium bot
BOTS = {1: "easy", 2: "medium"}
PLAYERS = {0: "Ann", 1: "Easy bot", 2: "Medium bot"}
#: The seed of a match that ends in three hands when Ann plays as ``_play`` does (seed 5 took
#: 24 hands, 9 took nine): the kill and the restart are the point, not a long match.
SHORT_MATCH = 21


def _token(url: str) -> str:
    """Register Ann and make her an API token (as the profile page does)."""
    with httpx.Client(base_url=url) as http:
        made = http.post("/api/accounts", json={"name": "Ann", "password": "correct horse"},
                         headers={"Origin": url})
        assert made.status_code == 201, made.text
        token = http.post("/api/me/tokens", json={"label": "terminal"},
                          headers={"Origin": url})
        assert token.status_code == 201, token.text
        return str(token.json()["token"])


async def _table(api: Client, token: str, seed: int) -> Seat:
    body = table_request("Ann", variant="auction", players=3, bots=BOTS, ranked=True,
                         settings={**FAST, "turn_timer": 3600})
    reply = await api.http.post("/_test/tables", json={"table": body, "seed": seed,
                                                       "hold_bots": True},
                                headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 201, reply.text
    data = reply.json()
    assert data["name"] == "Ann"
    return Seat(api.server, data["table"], data["token"], data["name"], data["seat"],
                data["invite"], data["invite_url"])


async def _play(api: Client, conn: TableConnection) -> None:
    """The bots' turns, then Ann's (an action chosen by the position alone, so a turn played
    again after a restart is played the same), until the match is over."""
    while True:
        ran = await run_bots(api, conn.table)
        await conn.wait_for(lambda: conn.seq >= ran["seq"], 30)  # noqa: B023
        if ran["status"] != "playing":
            return
        assert conn.view is not None and conn.is_my_turn(), ran
        legal = sorted(str(a) for a in conn.view.legal_actions)
        await conn.act(legal[conn.seq % len(legal)])


_GONE = (ServerError, httpx.HTTPError, OSError, websockets.WebSocketException,
         TimeoutError)


async def _until_it_dies(server: ServerProcess, api: Client, seat: Seat) -> None:
    """Play until the server kills itself rating the match."""
    conn = await api.connect(seat)
    try:
        await _play(api, conn)
    except _GONE:
        pass
    finally:
        await conn.drop()
    assert server.proc is not None
    code = await asyncio.to_thread(server.proc.wait, 60)
    assert code == -9, server.output()[-2000:]


def _expected(final: dict[str, Any]) -> dict[str, tuple[float, float, int]]:
    """OpenSkill's ratings for the final places (every player new): the winner first, the
    others by score."""
    winner, scores = final["winner"], final["scores"]

    def key(seat: int) -> tuple[bool, int]:
        return seat != winner, -scores[seat]

    order = sorted(range(3), key=key)
    place: dict[int, int] = {}
    for i, seat in enumerate(order):  # ties (other than the winner) share a place
        place[seat] = place[order[i - 1]] if i and key(order[i - 1]) == key(seat) else i
    rated = rate([Side((Rating(),), place[s]) for s in range(3)])
    return {PLAYERS[s]: (rated[s][0].mu, rated[s][0].sigma, 1) for s in range(3)}


def _stored(url: str) -> tuple[dict[str, tuple[float, float, int]], int, int]:
    engine = create_engine(normalise_db_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(accounts.c.name, ratings.c.mu, ratings.c.sigma,
                                       ratings.c.matches).join(
                ratings, ratings.c.account_id == accounts.c.id)).all()
            matches = conn.execute(select(func.count()).select_from(rated_matches)).scalar()
            changes = conn.execute(select(func.count()).select_from(rating_changes)).scalar()
    finally:
        engine.dispose()
    return {r.name: (r.mu, r.sigma, r.matches) for r in rows}, int(matches or 0), \
        int(changes or 0)


async def _crash_while_rating(tmp_path: Path, db: str, point: str) -> None:
    with database_url(tmp_path, db) as url:
        dying = ServerProcess(url, workdir=tmp_path, hooked=True,
                              extra=(*QUICK_LIMITS, "--hold-bots", "--die-when-rating", point))
        dying.start()
        try:
            token = _token(dying.url)
            async with Client(dying.url, api_token=token) as api:
                seat = await _table(api, token, seed=SHORT_MATCH)
                await api.start(seat)
                await _until_it_dies(dying, api, seat)
        finally:
            dying.stop()
        # killed mid-update: restarted on the same database, the match ends (again, or for
        # the first time) and is rated once
        server = ServerProcess(url, port=dying.port, workdir=tmp_path, hooked=True,
                               extra=(*QUICK_LIMITS, "--hold-bots")).start()
        try:
            async with Client(server.url, api_token=token) as api:
                async with await api.connect(seat) as conn:
                    await _play(api, conn)
                    info = await api.table(seat.table)
                    assert info["status"] == "over"
                results = await api.http.get(f"/api/tables/{seat.table}/results")
                final = next(e for e in results.json() if e["type"] == "match_won")
        finally:
            server.stop()
        stored, matches, changes = _stored(url)
        assert (matches, changes) == (1, 3)
        assert stored == _expected(final)


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
@pytest.mark.parametrize("point", ["before_commit", "after_commit"])
def test_ratings_are_the_same_after_a_kill_9_mid_update(tmp_path: Path, db: str,
                                                        point: str) -> None:
    asyncio.run(_crash_while_rating(tmp_path, db, point))



async def _owner_dies_rating(tmp_path: Path) -> None:
    with postgres_database() as url:
        redis = RedisProcess(tmp_path).start()
        shared = ("--redis", redis.url, *QUICK_LIMITS, "--hold-bots")
        owner = ServerProcess(url, workdir=tmp_path, hooked=True,
                              extra=(*shared, "--die-when-rating", "before_commit"))
        second = ServerProcess(url, workdir=tmp_path, hooked=True, extra=shared)
        try:
            owner.start()
            second.start()
            token = _token(owner.url)
            async with Client(owner.url, api_token=token) as api:  # the first process owns it
                seat = await _table(api, token, seed=SHORT_MATCH)
                await api.start(seat)
                await _until_it_dies(owner, api, seat)
            # the second process takes the table over from the database, the match ends there
            async with Client(second.url, api_token=token) as api:
                deadline = asyncio.get_running_loop().time() + 120
                while True:  # until the dead owner's lock has lapsed (a hang: the deadline)
                    try:
                        conn = await api.connect(seat)
                        break
                    except _GONE:
                        assert asyncio.get_running_loop().time() < deadline
                        await asyncio.sleep(0.2)
                async with conn:
                    await _play(api, conn)
                results = await api.http.get(f"/api/tables/{seat.table}/results")
                final = next(e for e in results.json() if e["type"] == "match_won")
        finally:
            second.stop()
            owner.stop()
            redis.kill()
        stored, matches, changes = _stored(url)
        assert (matches, changes) == (1, 3)
        assert stored == _expected(final)


def test_a_second_process_finishes_and_rates_once_a_match_whose_owner_died_rating_it(
        tmp_path: Path) -> None:
    asyncio.run(_owner_dies_rating(tmp_path))
