"""Players' statistics per rating pool (issue 32, item 4): the scored hands of their ranked
matches (``play_stats.Stats``: hands, points, contracts bid and made, moons), added in the
transaction that rates each match — so a match counts once, exactly when it is rated, and a
replay or a second process that finds the match rated adds nothing (server/ranked.py).
Matches and wins are the ratings' own (:mod:`.rating_store`).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection, Engine, select, update

from ..play_stats import Stats
from .account_store import player_stats
from .rating_store import _insert_once

__all__ = ["COUNTED", "add_stats", "stats_of"]

#: the columns kept (Stats's hand counts; matches and wins come from the ratings)
COUNTED = ("hands", "points", "bids", "made", "moons")


def add_stats(conn: Connection, pool: str, added: Mapping[str, Stats]) -> None:
    """Add each account's ``added`` hands to its totals in ``pool``, on ``conn`` (the
    transaction rating the match: its rows of ``ratings`` are locked, so two matches of one
    account at once add in turn)."""
    for account_id, stats in sorted(added.items()):
        values = {name: getattr(stats, name) for name in COUNTED}
        _insert_once(conn, player_stats, account_id=account_id, pool=pool,
                     **{name: 0 for name in COUNTED})
        conn.execute(update(player_stats).where(
            player_stats.c.account_id == account_id, player_stats.c.pool == pool).values(
            **{name: player_stats.c[name] + value for name, value in values.items()}))


def stats_of(engine: Engine, account_id: str) -> dict[str, Stats]:
    """The account's totals per pool (only pools it has played a rated hand in or been
    rated in since statistics were kept)."""
    with engine.connect() as conn:
        rows = conn.execute(select(player_stats).where(
            player_stats.c.account_id == account_id)).all()
    return {str(r.pool): Stats(**{name: int(getattr(r, name)) for name in COUNTED})
            for r in rows}
