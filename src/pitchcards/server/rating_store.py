"""Ratings in the database (issue 32, item 2): a match is rated **once**, inside the
transaction the caller records its end in.

:func:`rate_match` takes the caller's connection: the table's ``over`` log entry and the rating
commit together or not at all, so a crash between them cannot lose the rating or rate twice.
Its first write claims the match's **idempotency key** (``rated_matches.key``, e.g.
``table:<id>``) with an insert that does nothing on conflict; if the key was claimed before —
a replay after a restart, or a second process finishing the same match — nothing is rated
(None).  On PostgreSQL a second process's claim waits for the first's transaction and then
finds the key taken; the players' rating rows are locked (``FOR UPDATE``, in account order)
before they are read, so two matches sharing a player at once cannot lose an update.  On
SQLite the claim takes the database's write lock, which serialises the rest.

The tables are defined in :mod:`.account_store` (migration ``0003``).  Every function is
synchronous: the server runs them on its database thread (``Hub.db``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Engine, Table, and_, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .account_store import accounts, rated_matches, rating_changes, ratings
from .names import name_key
from .protocol import BOT_LEVELS
from .ratings import POOLS, Rating, Side, rate

__all__ = ["BOT_ACCOUNT_NAMES", "Change", "Played", "Standing", "bot_account", "leaderboard",
           "place_of", "rate_match", "rate_match_once", "ratings_of", "recent_matches",
           "wins_of"]


#: The bots' accounts' names, one per level (issue 32: a ladder from day one); no person may
#: register these (server/accounts.py).
BOT_ACCOUNT_NAMES = {level: f"{level.title()} bot" for level in BOT_LEVELS}


@dataclasses.dataclass(frozen=True, slots=True)
class Change:
    """One player's rating before and after a rated match."""

    account_id: str
    side: int
    place: int
    before: Rating
    after: Rating


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    """An account's rating in a pool."""

    account_id: str
    name: str
    rating: Rating
    matches: int
    updated: float
    bot_level: str | None


def _insert_once(conn: Connection, table: Table, **values: Any) -> bool:
    """Insert the row unless its key is there already (True: inserted).  Never an error that
    would spoil the caller's transaction (PostgreSQL aborts a transaction at any error)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    # (RETURNING, not rowcount: psycopg reports no row count for such an insert)
    first_key = next(iter(table.primary_key.columns))
    return conn.execute(dialect.insert(table).values(**values).on_conflict_do_nothing()
                        .returning(first_key)).first() is not None


def bot_account(conn: Connection, level: str, name: str) -> str:
    """The id of the bots' account of ``level`` (named ``name``), made if it is not there."""
    _insert_once(conn, accounts, id=f"bot-{level}"[:32], name=name, name_key=name_key(name),
                 password_hash=None, bot_level=level, created=time.time())
    found = conn.execute(select(accounts.c.id).where(accounts.c.bot_level == level)).scalar()
    if found is None:  # pragma: no cover - a person holds the bot's name (never let through)
        raise RuntimeError(f"the {level} bots' account could not be made: {name!r} is taken")
    return str(found)


def rate_match(conn: Connection, key: str, pool: str,
               sides: Sequence[tuple[Sequence[str], int]]) -> list[Change] | None:
    """Rate the match ``key`` of ``pool`` on ``conn`` (the caller's transaction): ``sides``
    are (account ids, place), place 0 first, ties sharing one.  None if ``key`` was rated
    before (nothing changes); ValueError for an unknown pool, fewer than two sides, a side
    with no one, or an account on two sides (nothing changes)."""
    if pool not in POOLS:
        raise ValueError(f"rate_match: no pool {pool!r}; pools are {', '.join(POOLS)}")
    ids = [a for accounts_, _ in sides for a in accounts_]
    if len(sides) < 2 or any(not a for a, _ in sides) or len(set(ids)) != len(ids):
        raise ValueError(f"rate_match {key!r}: at least two sides of distinct accounts, not "
                         f"{[list(a) for a, _ in sides]}")
    now = time.time()
    if not _insert_once(conn, rated_matches, key=key, pool=pool, at=now):
        return None
    for account_id in sorted(ids):  # a row for each newcomer, then all locked in one order
        _insert_once(conn, ratings, account_id=account_id, pool=pool, mu=Rating().mu,
                     sigma=Rating().sigma, matches=0, updated=now)
    rows = conn.execute(select(ratings).where(
        ratings.c.pool == pool, ratings.c.account_id.in_(ids)).order_by(
        ratings.c.account_id).with_for_update()).all()
    current = {r.account_id: Rating(r.mu, r.sigma) for r in rows}
    rated = rate([Side(tuple(current[a] for a in accounts_), place)
                  for accounts_, place in sides])
    changes: list[Change] = []
    for number, ((accounts_, place), after) in enumerate(zip(sides, rated, strict=True)):
        for account_id, new in zip(accounts_, after, strict=True):
            changes.append(Change(account_id, number, place, current[account_id], new))
            conn.execute(update(ratings).where(
                ratings.c.account_id == account_id, ratings.c.pool == pool).values(
                mu=new.mu, sigma=new.sigma, matches=ratings.c.matches + 1, updated=now))
    conn.execute(rating_changes.insert(), [
        {"match_key": key, "account_id": c.account_id, "side": c.side, "place": c.place,
         "mu_before": c.before.mu, "sigma_before": c.before.sigma, "mu_after": c.after.mu,
         "sigma_after": c.after.sigma} for c in changes])
    return changes


def rate_match_once(engine: Engine, key: str, pool: str,
                    sides: Sequence[tuple[Sequence[str], int]]) -> list[Change] | None:
    """:func:`rate_match` in a transaction of its own."""
    with engine.begin() as conn:
        return rate_match(conn, key, pool, sides)


def ratings_of(engine: Engine, account_id: str) -> dict[str, Standing]:
    """An account's rating in each pool it has played in."""
    with engine.connect() as conn:
        rows = conn.execute(select(ratings, accounts.c.name, accounts.c.bot_level).join(
            accounts, accounts.c.id == ratings.c.account_id).where(
            ratings.c.account_id == account_id)).all()
    return {r.pool: _standing(r) for r in rows}


def leaderboard(engine: Engine, pool: str, limit: int, settled_sigma: float,
                active_since: float) -> list[Standing]:
    """The pool's best ``limit`` ratings by μ, leaving out provisional ones (σ above
    ``settled_sigma``) and those not changed since ``active_since``."""
    with engine.connect() as conn:
        # (the index ratings (pool, mu, account_id), backwards)
        rows = conn.execute(select(ratings, accounts.c.name, accounts.c.bot_level).join(
            accounts, accounts.c.id == ratings.c.account_id).where(
            _listed(pool, settled_sigma, active_since)).order_by(
            ratings.c.mu.desc(), ratings.c.account_id.desc()).limit(limit)).all()
    return [_standing(r) for r in rows]


def _listed(pool: str, settled_sigma: float, active_since: float) -> Any:
    """The ratings a leaderboard of ``pool`` lists (:func:`leaderboard`'s filter)."""
    return and_(ratings.c.pool == pool, ratings.c.sigma <= settled_sigma,
                ratings.c.updated >= active_since)


def place_of(engine: Engine, standing: Standing, pool: str, settled_sigma: float,
             active_since: float) -> int | None:
    """Where ``standing`` (an account's rating in ``pool``) stands on the pool's leaderboard,
    in :func:`leaderboard`'s order (1: first), counted however far down it is; None if the
    leaderboard leaves it out (provisional, or idle)."""
    if standing.rating.sigma > settled_sigma or standing.updated < active_since:
        return None
    mu = standing.rating.mu
    with engine.connect() as conn:
        above = conn.execute(select(func.count()).select_from(ratings).where(
            _listed(pool, settled_sigma, active_since), or_(
                ratings.c.mu > mu, and_(ratings.c.mu == mu,
                                        ratings.c.account_id > standing.account_id))
        )).scalar_one()
    return int(above) + 1


def wins_of(engine: Engine, account_id: str) -> dict[str, int]:
    """The account's rated matches won (first place, alone or shared) per pool."""
    with engine.connect() as conn:
        rows = conn.execute(select(rated_matches.c.pool, func.count()).select_from(
            rating_changes.join(rated_matches,
                                rated_matches.c.key == rating_changes.c.match_key)).where(
            rating_changes.c.account_id == account_id, rating_changes.c.place == 0).group_by(
            rated_matches.c.pool)).all()
    return {str(pool): int(count) for pool, count in rows}


@dataclasses.dataclass(frozen=True, slots=True)
class Played:
    """A rated match as one of its players sees it."""

    key: str
    pool: str
    at: float
    change: Change


def recent_matches(engine: Engine, account_id: str, limit: int) -> list[Played]:
    """The account's last ``limit`` rated matches, newest first."""
    with engine.connect() as conn:
        rows = conn.execute(select(rating_changes, rated_matches.c.pool, rated_matches.c.at).join(
            rated_matches, rated_matches.c.key == rating_changes.c.match_key).where(
            rating_changes.c.account_id == account_id).order_by(
            rating_changes.c.id.desc()).limit(limit)).all()
    return [Played(r.match_key, r.pool, r.at, Change(
        account_id, r.side, r.place, Rating(r.mu_before, r.sigma_before),
        Rating(r.mu_after, r.sigma_after))) for r in rows]


def _standing(row: Any) -> Standing:
    return Standing(row.account_id, row.name, Rating(row.mu, row.sigma), row.matches,
                    row.updated, row.bot_level)
