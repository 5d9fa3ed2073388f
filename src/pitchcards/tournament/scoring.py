"""Matchpoints and standings: how results on the same cards become a ranking.

On one board, each entrant who held the same cards (the same direction, or the same seat) as
others is compared with each of them: 1 matchpoint for every one it outscored, ½ for every tie.
A field of ``n`` results shares ``n(n-1)/2`` matchpoints, whatever the scores; the *top* is
``n - 1``.  Standings rank by matchpoints as a percentage of the tops of the boards played.
Equal keys share a rank (1, 2, 2, 4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

__all__ = ["Standing", "matchpoints", "shared_ranks"]

K = TypeVar("K", bound=Hashable)


def matchpoints(scores: Mapping[K, Fraction | int]) -> dict[K, Fraction]:
    """Matchpoints of each entrant of one field on one board: 1 per entrant outscored, ½ a tie."""
    values = list(scores.values())
    return {who: sum((Fraction(1) if mine > other else Fraction(1, 2) if mine == other
                      else Fraction(0) for other in values), Fraction(0)) - Fraction(1, 2)
            for who, mine in scores.items()}


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    """One line of a ranking.  ``score`` is in the format's unit (matchpoints, points, wins);
    ``percent`` is the score as a percentage of the top, where the format has one; ``bot`` marks
    a seat a bot filled."""

    rank: int
    entrant: str
    score: Fraction
    percent: float | None = None
    played: int = 0
    bot: bool = False
    tiebreaks: tuple[Fraction, ...] = ()

    def text(self) -> str:
        """The line as text: ``3= Ann & Bob (bot)  54.17 %  13``."""
        pct = f" {self.percent:6.2f} %" if self.percent is not None else ""
        return f"{self.rank:>3} {self.entrant + (' (bot)' if self.bot else ''):<24}{pct} " \
               f"{float(self.score):8.2f}"


def shared_ranks(rows: Sequence[K], key: Callable[[K], Sequence[object]]) -> list[tuple[int, K]]:
    """``rows`` already sorted best first, each with its rank: rows with equal ``key`` share
    the rank of the first of them (1, 2, 2, 4)."""
    ranked: list[tuple[int, K]] = []
    for i, row in enumerate(rows):
        if ranked and key(row) == key(ranked[-1][1]):
            ranked.append((ranked[-1][0], row))
        else:
            ranked.append((i + 1, row))
    return ranked


def total(values: Iterable[Fraction]) -> Fraction:
    """The exact sum of some fractions (``sum`` of none is the int 0)."""
    return sum(values, Fraction(0))
