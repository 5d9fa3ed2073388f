"""How many seats each table gets, and bots to fill the seats nobody took.

Pitch tables here are of four; when a count of players is not a multiple of four, the lowest
tables take three (or, in progressive Pitch, five) so that nobody sits out.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import shown
from .errors import TournamentError

__all__ = ["bot_names", "cut", "fill_with_bots", "progressive_sizes", "swiss_sizes"]


def progressive_sizes(players: int) -> tuple[int, ...]:
    """Table sizes, head table first, for a progressive night of ``players`` (at least 3).

    Tables of four; the remainder is absorbed at the foot: one left over makes the lowest table
    a five, two make the two lowest tables threes, three add a table of three.
    """
    if type(players) is not int or players < 3:
        raise TournamentError(f"a progressive round needs at least 3 players, not {shown(players)}",
                              given=shown(players), legal=("3 or more players",))
    fours, extra = divmod(players, 4)
    if extra == 0:
        return (4,) * fours
    if extra == 1:
        return (4,) * (fours - 1) + (5,)
    if extra == 2:
        return (4,) * (fours - 1) + (3, 3)
    return (4,) * fours + (3,)


def swiss_sizes(players: int) -> tuple[tuple[int, ...], int]:
    """Cutthroat Swiss: table sizes (fours, threes at the foot) and how many sit out on a bye.

    Only five players cannot be seated at threes and fours: one of them has a bye.
    """
    if type(players) is not int or players < 3:
        raise TournamentError(f"a cutthroat Swiss round needs at least 3 players, not "
                              f"{shown(players)}", given=shown(players),
                              legal=("3 or more players",))
    if players == 5:
        return (4,), 1
    fours, extra = divmod(players, 4)
    threes = (0, 3, 2, 1)[extra]
    return (4,) * (fours - (3 * threes - extra) // 4) + (3,) * threes, 0


def bot_names(count: int, taken: Sequence[str], prefix: str = "bot") -> tuple[str, ...]:
    """``count`` names for bots (``bot 1``, ``bot 2``, ...) that no entrant already has."""
    names: list[str] = []
    number = 0
    while len(names) < count:
        number += 1
        name = f"{prefix} {number}"
        if name not in taken:
            names.append(name)
    return tuple(names)


def fill_with_bots(entrants: Sequence[str], multiple: int,
                   prefix: str = "bot") -> tuple[tuple[str, ...], frozenset[str]]:
    """The entrants plus as many bots as fill the last table (``multiple``: seats, or pairs,
    per table), and the bots' names, to mark them in the standings."""
    if type(multiple) is not int or multiple < 1:
        raise TournamentError(f"entrants per table must be a positive int, not {shown(multiple)}",
                              given=shown(multiple), legal=("1, 2, 4, ...",))
    missing = -len(entrants) % multiple
    bots = bot_names(missing, entrants, prefix)
    return (*entrants, *bots), frozenset(bots)


def cut(order: Sequence[str], sizes: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """``order`` seated at tables of ``sizes``: the first ``sizes[0]`` at table 0, and so on."""
    tables: list[tuple[str, ...]] = []
    start = 0
    for size in sizes:
        tables.append(tuple(order[start:start + size]))
        start += size
    return tuple(tables)
