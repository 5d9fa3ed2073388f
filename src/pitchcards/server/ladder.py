"""Leaderboards and players' ratings as JSON (issue 32, item 4, the API half)::

    GET /api/leaderboards/{pool}     the pool's top players -> Leaderboard
    GET /api/players/{name}          an account's ratings (each with its place on the pool's
                                     leaderboard and its wins), its rating history per pool,
                                     its recent rated matches and its statistics -> Player

Both are public (a rating is for everyone to see) and count as heavy reads of the address
(``--http-reads-per-minute``).  A leaderboard leaves out provisional ratings (σ above
:data:`~.ratings.PROVISIONAL_SIGMA`) and ratings unchanged for :data:`IDLE_DAYS`, and says so
in its answer.  The pages that show them are ``/leaderboards/{pool}`` and ``/players/{name}``
(server/account_pages.py).
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from ..play_stats import Stats
from . import account_store, rating_store, stat_store
from .hub import Hub
from .names import name_key
from .protocol import check_display_name
from .ratings import POOL_WORDS, POOLS, PROVISIONAL_SIGMA, Rating, number, shown
from .room import Refused

__all__ = ["HISTORY", "IDLE_DAYS", "LEFT_OUT", "Leaderboard", "Player", "ladder_router"]

#: a rating unchanged this long leaves the leaderboard (it comes back with the next match)
IDLE_DAYS = 90
#: players on a leaderboard, and recent matches on a player's page
TOP = 100
RECENT = 20
#: rated matches a player's rating-history chart shows (the last ones, every pool together)
HISTORY = 200


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class RatingInfo(_Out):
    rating: str = Field(description="the number shown: round(60 × μ), '?' while provisional")
    mu: float
    sigma: float
    provisional: bool
    matches: int


class PlayStats(_Out):
    """A player's statistics from their rated matches (docs/accounts.md, "Statistics")."""

    matches: int = Field(description="rated matches")
    wins: int = Field(description="rated matches won (first place, alone or shared)")
    hands: int = Field(description="scored hands of those matches")
    points: int = Field(description="their side's score change, over those hands")
    points_per_hand: float | None = Field(description="points / hands; null before a hand")
    bids: int = Field(description="contracts they bid (hands they were the pitcher)")
    made: int = Field(description="of those, contracts made")
    moons: int = Field(description="moons (or smudges) they bid and made")


def _play_stats(matches: int, wins: int, counted: Stats) -> PlayStats:
    return PlayStats(matches=matches, wins=wins, hands=counted.hands, points=counted.points,
                     points_per_hand=counted.points_per_hand, bids=counted.bids,
                     made=counted.made, moons=counted.moons)


class PoolRating(RatingInfo):
    """A player's rating in a pool, as their page shows it."""

    wins: int = Field(description="rated matches won (first place, alone or shared)")
    place: int | None = Field(description="the place on the pool's leaderboard, however far "
                                          "down; null when the leaderboard leaves it out")
    unlisted: str | None = Field(description="why the leaderboard leaves it out, in words")
    stats: PlayStats = Field(description="the statistics of the rated matches of this pool")


class Ranked(RatingInfo):
    place: int
    name: str
    bot: str | None = Field(description="a bots' account: its level")


class Leaderboard(_Out):
    pool: str
    players: list[Ranked]
    left_out: str = Field(description="who is not listed, in words")
    pools: dict[str, str] = Field(description="every pool, in words")


class MatchInfo(_Out):
    match: str
    table: str | None = Field(description="the table the match was played at (its record and "
                                          "hands), when the match key names one")
    pool: str
    at: float
    place: int = Field(description="0: first")
    before: str
    after: str
    change: int = Field(description="the number shown, after less before")


class Point(_Out):
    """A rating-history chart's point: the rating after a rated match."""

    at: float
    rating: int = Field(description="the number shown, round(60 × μ), without its mark")
    provisional: bool


class Player(_Out):
    name: str
    bot: str | None
    created: float
    ratings: dict[str, PoolRating]
    history: dict[str, list[Point]] = Field(
        description=f"per pool, the rating after each of the last {HISTORY} rated matches "
                    "(every pool together), oldest first")
    recent: list[MatchInfo]
    stats: PlayStats = Field(description="the statistics of every rated match, every pool "
                                         "together")
    pools: dict[str, str] = Field(description="every pool, in words")


def _active_since() -> float:
    """Ratings changed before this are idle (left off the leaderboards)."""
    return time.time() - IDLE_DAYS * 86400


def _info(rating: Rating, matches: int) -> dict[str, Any]:
    return {"rating": shown(rating), "mu": rating.mu, "sigma": rating.sigma,
            "provisional": rating.sigma > PROVISIONAL_SIGMA, "matches": matches}


#: who a leaderboard leaves out, in words
LEFT_OUT = (f"provisional ratings (σ above {PROVISIONAL_SIGMA:g}) and ratings unchanged for "
            f"{IDLE_DAYS} days")


def _unlisted(rating: Rating) -> str:
    """Why a rating the leaderboard leaves out is not on it."""
    if rating.sigma > PROVISIONAL_SIGMA:
        return "it is provisional (not yet settled)"
    return f"it is idle (no rated match for {IDLE_DAYS} days)"


def _table_of(match_key: str) -> str | None:
    """The table a rated match's key names (``table:<id>``: rating_store's keys)."""
    kind, _, table = match_key.partition(":")
    return table if kind == "table" and table else None


def ladder_router(hub: Hub, reads: Any) -> APIRouter:
    """The routes; ``reads``: the dependency that counts a heavy read of the address."""
    router = APIRouter(dependencies=[reads])
    engine = hub.store.engine

    @router.get("/api/leaderboards/{pool}", tags=["ratings"])
    async def leaderboard(pool: str) -> Leaderboard:
        if pool not in POOLS:
            raise Refused("not_found", f"no pool {pool[:40]!r}; pools are "
                                       f"{', '.join(POOLS)}", 404)
        top = await hub.db(rating_store.leaderboard, engine, pool, TOP, PROVISIONAL_SIGMA,
                           _active_since())
        return Leaderboard(pool=pool, players=[
            Ranked(place=n, name=s.name, bot=s.bot_level, **_info(s.rating, s.matches))
            for n, s in enumerate(top, 1)],
            left_out=LEFT_OUT, pools=POOL_WORDS)

    @router.get("/api/players/{name}", tags=["ratings"])
    async def player(name: str) -> Player:
        try:  # only a display name can be an account's (nothing else reaches the database)
            key = name_key(check_display_name(name))
        except ValueError:
            key = None
        account = None if key is None else await hub.db(account_store.find_account, engine,
                                                        key)
        if account is None:
            raise Refused("not_found", "no account has that name", 404)
        standings = await hub.db(rating_store.ratings_of, engine, account.id)
        wins = await hub.db(rating_store.wins_of, engine, account.id)
        counted = await hub.db(stat_store.stats_of, engine, account.id)
        per_pool = {pool: _play_stats(s.matches, wins.get(pool, 0),
                                      counted.get(pool, Stats()))
                    for pool, s in standings.items()}
        total = Stats(**{name: sum(getattr(c, name) for c in counted.values())
                         for name in stat_store.COUNTED})
        since = _active_since()
        places = {pool: await hub.db(rating_store.place_of, engine, s, pool, PROVISIONAL_SIGMA,
                                     since) for pool, s in standings.items()}
        charted = await hub.db(rating_store.recent_matches, engine, account.id, HISTORY)
        played = charted[:RECENT]  # (newest first)
        history: dict[str, list[Point]] = {}
        for p in reversed(charted):
            history.setdefault(p.pool, []).append(Point(
                at=p.at, rating=number(p.change.after),
                provisional=p.change.after.sigma > PROVISIONAL_SIGMA))
        return Player(name=account.name, bot=account.bot_level, created=account.created,
                      ratings={pool: PoolRating(**_info(s.rating, s.matches),
                                              wins=wins.get(pool, 0), place=places[pool],
                                              unlisted=None if places[pool] is not None
                                              else _unlisted(s.rating),
                                              stats=per_pool[pool])
                               for pool, s in standings.items()},
                      history=history, pools=POOL_WORDS,
                      stats=_play_stats(sum(s.matches for s in standings.values()),
                                        sum(wins.values()), total),
                      recent=[MatchInfo(match=p.key, table=_table_of(p.key), pool=p.pool,
                                        at=p.at, place=p.change.place,
                                        before=shown(p.change.before),
                                        after=shown(p.change.after),
                                        change=number(p.change.after)
                                        - number(p.change.before)) for p in played])

    return router
