"""Leaderboards and players' ratings as JSON (issue 32, item 4, the API half)::

    GET /api/leaderboards/{pool}     the pool's top players -> Leaderboard
    GET /api/players/{name}          an account's ratings and recent rated matches -> Player

Both are public (a rating is for everyone to see) and count as heavy reads of the address
(``--http-reads-per-minute``).  A leaderboard leaves out provisional ratings (σ above
:data:`~.ratings.PROVISIONAL_SIGMA`) and ratings unchanged for :data:`IDLE_DAYS`, and says so
in its answer.  The pages that show them (and a profile's chart) are to come.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from . import account_store, rating_store
from .hub import Hub
from .names import name_key
from .protocol import check_display_name
from .ratings import POOLS, PROVISIONAL_SIGMA, Rating, shown
from .room import Refused

__all__ = ["IDLE_DAYS", "Leaderboard", "Player", "ladder_router"]

#: a rating unchanged this long leaves the leaderboard (it comes back with the next match)
IDLE_DAYS = 90
#: players on a leaderboard, and recent matches on a player's page
TOP = 100
RECENT = 20


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class RatingInfo(_Out):
    rating: str = Field(description="the number shown: round(60 × μ), '?' while provisional")
    mu: float
    sigma: float
    provisional: bool
    matches: int


class Ranked(RatingInfo):
    place: int
    name: str
    bot: str | None = Field(description="a bots' account: its level")


class Leaderboard(_Out):
    pool: str
    players: list[Ranked]
    left_out: str = Field(description="who is not listed, in words")


class MatchInfo(_Out):
    match: str
    pool: str
    at: float
    place: int = Field(description="0: first")
    before: str
    after: str
    change: int = Field(description="the number shown, after less before")


class Player(_Out):
    name: str
    bot: str | None
    created: float
    ratings: dict[str, RatingInfo]
    recent: list[MatchInfo]


def _info(rating: Rating, matches: int) -> dict[str, Any]:
    return {"rating": shown(rating), "mu": rating.mu, "sigma": rating.sigma,
            "provisional": rating.sigma > PROVISIONAL_SIGMA, "matches": matches}


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
                           time.time() - IDLE_DAYS * 86400)
        return Leaderboard(pool=pool, players=[
            Ranked(place=n, name=s.name, bot=s.bot_level, **_info(s.rating, s.matches))
            for n, s in enumerate(top, 1)],
            left_out=f"provisional ratings (σ above {PROVISIONAL_SIGMA:g}) and ratings "
                     f"unchanged for {IDLE_DAYS} days")

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
        played = await hub.db(rating_store.recent_matches, engine, account.id, RECENT)
        return Player(name=account.name, bot=account.bot_level, created=account.created,
                      ratings={pool: RatingInfo(**_info(s.rating, s.matches))
                               for pool, s in standings.items()},
                      recent=[MatchInfo(match=p.key, pool=p.pool, at=p.at, place=p.change.place,
                                        before=shown(p.change.before),
                                        after=shown(p.change.after),
                                        change=round(60 * p.change.after.mu)
                                        - round(60 * p.change.before.mu)) for p in played])

    return router
