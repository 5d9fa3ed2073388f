"""Duplicate movements: who sits where, round by round.

The engine deals every board from its seed, so no board has to travel: in round ``r`` every
table plays the same boards, and a movement only says who meets whom and who holds which
cards.  Two movements, for 2 to 10 tables of four:

``mitchell(tables, rounds)`` — fixed pairs.  Pairs ``0 .. n-1`` are *home* pairs, each staying
at its table (pair ``t`` at table ``t``); pairs ``n .. 2n-1`` are *visitors* and move up one
table a round (visitor ``n + e`` sits at table ``(e + r) mod n`` in round ``r``), so in up to
``n`` rounds every visitor meets every home pair once and nobody meets anyone twice.  The
*arrow switch* turns pairs round: at table ``t`` in round ``r`` the home pair holds the
north-south cards (seats 0 and 2) when ``r`` is even, the east-west cards (seats 1 and 3) when
``r`` is odd, the other way round at the upper half of the tables (``2t >= n``) once there are
four tables or more.  So every home pair alternates direction, every visitor has held both
directions by its third round (both at once with two or three tables, where the whole room
switches together), and from four tables on each board's north-south field mixes home pairs
and visitors, so the event has one field and one winner, not two.

``individual(tables, rounds)`` — each for himself, or partners rotating (individual duplicate):
the ``4n`` players start at table ``p // 4``, seat ``p % 4``; the player who started in seat
``s`` of table ``t`` sits in seat ``(s + r) mod 4`` of table ``(t + s r) mod n`` in round ``r``.
Everyone holds every seat in four rounds (so in partnerships everyone partners a new player as
the seats turn), and two players who started in seats ``s`` and ``s'`` meet in the rounds with
``(s - s') r = t' - t (mod n)``: at most once in ``n`` rounds when ``n`` is 5 or 7 (no common
factor with 1, 2 or 3), at most ``gcd(s - s', n)`` times otherwise; a perfect schedule for
every size is the social golfer problem, which has no solution for several of them.
"""

from __future__ import annotations

import dataclasses

from ..errors import shown
from .errors import TournamentError

__all__ = ["MAX_TABLES", "MIN_TABLES", "Sitting", "individual", "mitchell"]

MIN_TABLES, MAX_TABLES = 2, 10


@dataclasses.dataclass(frozen=True, slots=True)
class Sitting:
    """One table in one round: ``seats[i]`` is the entrant (a pair's or a player's index) in
    seat ``i``; for pairs a pair holds seats 0 and 2 (north-south) or 1 and 3 (east-west)."""

    round: int
    table: int
    seats: tuple[int, int, int, int]


def _check(tables: object, rounds: object, most: int, what: str) -> tuple[int, int]:
    if type(tables) is not int or not MIN_TABLES <= tables <= MAX_TABLES:
        raise TournamentError(
            f"a {what} movement is for {MIN_TABLES}-{MAX_TABLES} tables, not {shown(tables)}",
            given=shown(tables), legal=(f"{MIN_TABLES}..{MAX_TABLES} tables",))
    if rounds is None:
        return tables, most
    if type(rounds) is not int or not 1 <= rounds <= most:
        raise TournamentError(
            f"a {what} movement of {tables} tables has 1-{most} rounds, not {shown(rounds)}",
            given=shown(rounds), legal=(f"1..{most} rounds",))
    return tables, rounds


def home_holds_north_south(tables: int, table: int, round_: int) -> bool:
    """The arrow switch: does the home pair hold seats 0 and 2 at ``table`` in ``round_``?"""
    upper = tables >= 4 and 2 * table >= tables
    return (round_ % 2 == 0) != upper


def mitchell(tables: int, rounds: int | None = None) -> tuple[Sitting, ...]:
    """The Mitchell movement with the arrow switch for ``2 * tables`` fixed pairs (module doc);
    ``rounds`` defaults to (and is at most) ``tables``."""
    n, count = _check(tables, rounds, tables, "Mitchell")
    out: list[Sitting] = []
    for r in range(count):
        for t in range(n):
            home, visitor = t, n + (t - r) % n
            ns, ew = (home, visitor) if home_holds_north_south(n, t, r) else (visitor, home)
            out.append(Sitting(round=r, table=t, seats=(ns, ew, ns, ew)))
    return tuple(out)


def individual(tables: int, rounds: int | None = None) -> tuple[Sitting, ...]:
    """The individual movement for ``4 * tables`` players (module doc); ``rounds`` defaults to
    (and is at most) ``tables``."""
    n, count = _check(tables, rounds, tables, "individual")
    out: list[Sitting] = []
    for r in range(count):
        seats = [[0] * 4 for _ in range(n)]
        for player in range(4 * n):
            t, s = divmod(player, 4)
            seats[(t + s * r) % n][(s + r) % 4] = player
        out.extend(Sitting(round=r, table=t, seats=(row[0], row[1], row[2], row[3]))
                   for t, row in enumerate(seats))
    return tuple(out)
