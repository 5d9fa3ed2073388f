"""Ranked tables (issue 32, item 3): who may play one, how a leaver loses, and the rating of
its end in the transaction that records the end.

* **What may be ranked** (:func:`unrankable`): a variant that has a rating pool
  (:func:`~.ratings.pool_of`), played by its own rules — an option that changes the game makes
  the table unranked, said before creating (``POST /api/rules`` answers ``ranked``).  The
  money game is ranked **by money at the settlement** (:func:`money_ended`): its end is the
  settlement, and every player who sat in it — those who left with their winnings too — is
  placed by what they were paid; leaving a money table is part of the game there, not a
  forfeit.  A ranked table always has a turn timer (:data:`RANKED_TURN_TIMER` if the
  host chose none); a server table has no undo and no hints.
* **Who sits** (:func:`seat_as`): every person's seat is a signed-in account's (a session or
  an API token), under the account's own name; a guest is refused with the reason.  Bots may
  fill seats: each level's bots play as that level's account (``Medium bot`` …).
* **Leaving counts as a loss, once** (:class:`Forfeits`): a player who leaves a ranked match,
  or is away past the grace, *forfeits* for their side — a ``forfeit`` log entry, one per side
  whatever else happens.  Their seat is played by a stand-in; at the end a side that forfeited
  is placed below every side that did not (the first to forfeit last).  When no side is left
  that has a person and has not forfeited, the match ends there; when the only such side has
  no opponent left but forfeiters, it may **claim the win** (a ``claim`` entry ends the match).
* **Rated once, with the end** (:func:`rating_of_end`): when a ranked match's end is appended
  (won, ended by forfeits, or claimed), the room passes the rating with it to
  ``Store.append_many``, which runs it in the same transaction; ``rate_match`` claims the
  match's key (``table:<id>``) first, so a replay, a restart or a second process rates
  nothing.  The players' statistics (hands, points, contracts bid and made, moons:
  ``play_stats``) are added in the same transaction, only when the match is rated.

Everything here but :func:`rating_of_end`'s inner function is pure (no storage, no asyncio).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from sqlalchemy import Connection, select

from ..money import MoneySession
from ..play_stats import Stats, seat_stats
from ..rules import RuleSet
from ..table import Table
from .account_store import accounts
from .protocol import CreateTable
from .rating_store import BOT_ACCOUNT_NAMES, bot_account, rate_match
from .ratings import POOLS, pool_of
from .refused import Refused
from .seats import Player
from .stat_store import add_stats
from .store import AlsoInTransaction

__all__ = ["MIN_MONEY_HANDS", "RANKED_TURN_TIMER", "EndedMatch", "Forfeits", "check_ranked",
           "rankable", "rating_of_end", "seat_as", "unrankable"]

#: A ranked table's turn timer (seconds) when its host chose none: a ranked match cannot be
#: stalled by a player who stops acting.
RANKED_TURN_TIMER = 60.0
#: The scored hands a player must sit at a ranked money table to be rated at its settlement
#: (docs/accounts.md): fewer, and one lucky hand's payout would place them (review F2).
MIN_MONEY_HANDS = 10


def unrankable(variant: str, rules: RuleSet) -> tuple[str, str] | None:
    """Why a table of ``variant`` with ``rules`` cannot be ranked — a reason code and words
    the page can show before creating — or None if it can."""
    ranked_variants = ", ".join(v for vs in POOLS.values() for v in vs)
    pool = pool_of(variant)
    if pool is None:
        return ("unranked_variant", f"{variant!r} has no rating pool; ranked variants: "
                                    f"{ranked_variants}")
    changed = rules.changes()
    if changed:
        shown = ", ".join(f"{name}={value}" for name, value in sorted(changed.items()))
        return ("unranked_options", f"a ranked table plays {variant}'s own rules (its "
                                    f"rating pool's); these options change the game: {shown}. "
                                    "Leave them out, or play unranked")
    return None


def rankable(variant: str, rules: RuleSet) -> dict[str, Any]:
    """``POST /api/rules``'s ``ranked``: whether these rules may be ranked, in which pool, and
    if not why (the new-table form shows it and disables its Ranked box)."""
    why = unrankable(variant, rules)
    return {"allowed": why is None, "pool": pool_of(variant) if why is None else None,
            "reason": why[0] if why else None, "message": why[1] if why else None}


def check_ranked(request: CreateTable, rules: RuleSet, signed_in: bool) -> CreateTable:
    """A ranked table's request, refused with its reason if it cannot be ranked (by a guest, or
    with rules that are not its pool's), else with a turn timer (:data:`RANKED_TURN_TIMER`
    when none was chosen).  An unranked request is returned as it is."""
    if not request.ranked:
        return request
    if not signed_in:
        raise Refused("account_needed", "a ranked table's seats are signed-in accounts': sign "
                                         "in (a terminal or bot: --token with an API token "
                                         "from your profile), or open an unranked table", 401)
    why = unrankable(request.variant, rules)
    if why is not None:
        raise Refused(why[0], why[1], 422)
    if request.settings.turn_timer is None:
        settings = request.settings.model_copy(update={"turn_timer": RANKED_TURN_TIMER})
        return request.model_copy(update={"settings": settings})
    return request


def seat_as(ranked: bool, name: str, account_id: str | None,
            account_name: str | None) -> str:
    """The name a person sits under: at a ranked table their account's (a guest refused, with
    the reason), elsewhere the name they typed."""
    if not ranked:
        return name
    if account_id is None or account_name is None:
        raise Refused("account_needed", "this table is ranked: every person's seat is a "
                                        "signed-in account's. Sign in (a terminal or bot: "
                                        "--token with an API token from your profile), or "
                                        "join an unranked table", 401)
    return account_name


class Forfeits:
    """The sides of a ranked match that forfeited (left, or were away past the grace), in
    order, and the side that claimed the win: rebuilt from the log's ``forfeit`` and ``claim``
    entries like the rest of the table."""

    def __init__(self) -> None:
        #: sides that forfeited, the first first
        self.sides: list[int] = []
        #: who forfeited for each of them, and why (``left``, ``away``)
        self.names: list[tuple[str, str]] = []
        #: the side that claimed the win (None: none did)
        self.claimed: int | None = None

    def apply(self, entry: dict[str, Any], table: Table, players: dict[str, Player]) -> bool:
        """Apply a ``forfeit`` or ``claim`` entry; True if the match is over with it."""
        side = table.session.side_of(table.names.index(entry["name"]))
        if entry["op"] == "claim":
            self.claimed = side
            return True
        if side not in self.sides:
            self.sides.append(side)
            self.names.append((entry["name"], entry.get("why", "left")))
        return not self.playing_sides(table, players)

    def forfeit_entry(self, table: Table, name: str, why: str) -> dict[str, Any] | None:
        """The log entry of ``name`` forfeiting (``why``: left, away), or None if their side
        has forfeited already (a loss counts once)."""
        if table.session.side_of(table.names.index(name)) in self.sides:
            return None
        return {"op": "forfeit", "name": name, "why": why}

    def playing_sides(self, table: Table, players: dict[str, Player]) -> list[int]:
        """The sides that have not forfeited and have a person (bots alone cannot claim)."""
        out: list[int] = []
        for seat, name in enumerate(table.names):
            side = table.session.side_of(seat)
            if side not in self.sides and side not in out and not players[name].is_bot:
                out.append(side)
        return out

    def may_claim(self, table: Table, players: dict[str, Player]) -> int | None:
        """The side that may claim the win now: the one side still playing whose every
        opponent side has forfeited (None: no side may)."""
        if not self.sides:
            return None
        playing = self.playing_sides(table, players)
        sides = {table.session.side_of(seat) for seat in range(len(table.names))}
        if len(playing) == 1 and sides - set(self.sides) == {playing[0]}:
            return playing[0]
        return None

    def check_claim(self, table: Table, players: dict[str, Player], name: str) -> None:
        """Refused with the reason unless ``name``'s side may claim the win now."""
        side = table.session.side_of(table.names.index(name))
        if self.may_claim(table, players) != side:
            still = [n for seat, n in enumerate(table.names)
                     if table.session.side_of(seat) != side
                     and table.session.side_of(seat) not in self.sides]
            raise Refused("cannot_claim", "the win is claimed when every opponent has left; "
                          + (f"still playing: {', '.join(still)}" if still and side not in
                             self.sides else "your side has left the match"), 409)


@dataclasses.dataclass(frozen=True, slots=True)
class EndedMatch:
    """A ranked match's end to rate: its key, its pool and its sides, best first — each a
    list of players (an account id, or ``("bot", level)``) and its place."""

    key: str
    pool: str
    sides: tuple[tuple[tuple[str | tuple[str, str], ...], int], ...]
    #: each player's scored hands in the match (their first seat's, a level's bots too)
    stats: tuple[tuple[str | tuple[str, str], Stats], ...] = ()


def _who(player: Player) -> str | tuple[str, str] | None:
    """Whom a seat's player is rated as: a level's bots account, a person's account, or no
    one (a guest: never at a ranked table)."""
    if player.level is not None:
        return ("bot", player.level)
    return player.account_id


def money_ended(table_id: str, session: MoneySession, players: dict[str, Player],
                hands: Mapping[str, Stats]) -> EndedMatch:
    """A ranked money table's end, the settlement: every player who sat in it for at least
    :data:`MIN_MONEY_HANDS` scored hands placed by what they were paid (at the settlement, or
    when they left), the most first, equal payouts sharing a place — "ranked by money at the
    settlement" (issue 32).  ``hands``: each player's statistics, counted as the hands were
    scored (RoomState.money_stats: the session forgets its older hands).  A player who sat
    fewer hands is left out (one hand's payout is noise, review F2); if every player left
    shares one place, nobody won and nothing is rated (no sides)."""
    kept: list[tuple[str | tuple[str, str], Fraction]] = []
    stats: dict[str | tuple[str, str], Stats] = {}
    for name, cents in sorted(session.payouts.items(), key=lambda item: -item[1]):
        who = _who(players[name])
        sat = hands.get(name, Stats())
        if who is None or sat.hands < MIN_MONEY_HANDS:
            continue
        kept.append((who, cents))
        stats.setdefault(who, sat)
    sides = tuple(((who,), next(i for i, (_, other) in enumerate(kept) if other == cents))
                  for who, cents in kept)
    if len({place for _, place in sides}) < 2:  # a shared first place among all: no winner
        return EndedMatch(f"table:{table_id}", "money", (), ())
    return EndedMatch(f"table:{table_id}", "money", sides, tuple(stats.items()))


def ended_match(table_id: str, variant: str, table: Table, players: dict[str, Player],
                forfeits: Forfeits, money_hands: Mapping[str, Stats]) -> EndedMatch:
    """Who placed where at a ranked match's end: the winner first (or the side that claimed
    the win), then the others by their score (ties share a place), then the sides that
    forfeited, the last to forfeit first.  A money table: :func:`money_ended` (with
    ``money_hands``, its players' statistics)."""
    session = table.session
    if session.rules.money != "none":  # a money table's session (RoomState.money_session)
        return money_ended(table_id, cast(MoneySession, session), players, money_hands)
    count = len({session.side_of(s) for s in range(len(table.names))})
    scores = session.side_scores()
    staying = [s for s in range(count) if s not in forfeits.sides]
    first = forfeits.claimed if forfeits.claimed is not None else session.winner

    def rank(side: int) -> tuple[int, int]:
        return (0 if side == first else 1, -scores[side])

    staying.sort(key=rank)
    places: dict[int, int] = {}
    for i, side in enumerate(staying):
        before = staying[i - 1] if i else None
        places[side] = places[before] if before is not None and \
            rank(before) == rank(side) else i
    for i, side in enumerate(reversed(forfeits.sides)):
        places[side] = len(staying) + i
    sides = []
    stats: dict[str | tuple[str, str], Stats] = {}
    for side in sorted(places, key=lambda s: places[s]):
        who: list[str | tuple[str, str]] = []
        for seat, name in enumerate(table.names):
            found = _who(players[name])
            if session.side_of(seat) != side or found is None:
                continue
            who.append(found)
            # an account counts one seat (a level's bots: the first)
            stats.setdefault(found, seat_stats(session, seat))
        sides.append((tuple(who), places[side]))
    pool = pool_of(variant)
    assert pool is not None  # a ranked table's variant has a pool (check_ranked)
    return EndedMatch(f"table:{table_id}", pool, tuple(sides), tuple(stats.items()))


def rating_of_end(ended: EndedMatch) -> AlsoInTransaction:
    """What rates ``ended`` on the connection of the transaction that stores its end.

    Each level's bots are that level's account (made on first use); an account deleted since
    its seat was taken is left out; one account plays once in a match, at its best place (a
    table of three medium bots has one ``Medium bot`` to rate).  Fewer than two sides left: no
    rating.  ``rate_match`` claims the key first: a second write of the end rates nothing."""
    def rate_it(conn: Connection) -> object:
        account_of: dict[str | tuple[str, str], str] = {
            p: bot_account(conn, p[1], BOT_ACCOUNT_NAMES[p[1]]) if isinstance(p, tuple) else p
            for who, _ in ended.sides for p in who}
        resolved = [([account_of[p] for p in who], place) for who, place in ended.sides]
        wanted = {a for ids, _ in resolved for a in ids}
        there = set(conn.execute(select(accounts.c.id).where(accounts.c.id.in_(wanted))).scalars())
        seen: set[str] = set()
        sides: list[tuple[Sequence[str], int]] = []
        for ids, place in resolved:
            kept = []
            for account_id in ids:
                if account_id in there and account_id not in seen:
                    seen.add(account_id)
                    kept.append(account_id)
            if kept:
                sides.append((kept, place))
        if len(sides) < 2:
            return None
        changes = rate_match(conn, ended.key, ended.pool, sides)
        if changes is not None:  # rated now, so counted now: once, with the rating
            add_stats(conn, ended.pool, {account_of[p]: counted for p, counted in ended.stats
                                         if account_of[p] in seen})
        return changes
    return rate_it
