"""What a finished hand is worth to one side: match-win chance, money, or points.

* Match with a target and known scores: 1 if the hand wins the match for the side, 0 if it wins it
  for another side (bidder goes out: only a made bid ends a game), otherwise an estimate of the
  side's chance to win from the scores after the hand (:func:`win_chance`, or with
  ``win_table=True`` the odds of :mod:`.match_odds` where the rule set has them), plus
  a small point term so that equal chances still prefer more points.
* Money game: the side's score change against the table's mean change (what it is paid for,
  A-R7.3), with moon payments converted to points.
* Otherwise: the side's score change minus the best other side's (two teams: the difference).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..match import match_winner
from ..rules import RuleSet
from ..scoring import HandResult
from .softmax import softmax

if TYPE_CHECKING:
    from .match_odds import Odds

__all__ = ["Utility", "softmax", "win_chance"]

#: in a match, what a point of margin adds to a hand's value besides the chance to win (so that
#: equal chances still prefer more points)
POINT_TERM = 0.002


def win_chance(scores: Sequence[int], side: int, target: int) -> float:
    """A rough chance that ``side`` wins a race to ``target`` from ``scores`` (no one out yet).

    Each side's distance to the target is compared on a scale that shrinks as the race nears
    its end (a logistic for two sides, a softmax for more).
    """
    need = [max(target - s, 0) for s in scores]
    scale = math.sqrt(sum(need) / len(need) + 2.0)
    return softmax([-1.3 * n / scale for n in need])[side]


class Utility:
    """Callable: ``HandResult -> float`` for ``side`` (higher is better for that side)."""

    def __init__(self, rules: RuleSet, side: int, players: int,
                 scores: Sequence[int] | None = None, *, win_table: bool = False,
                 dealer: int | None = None) -> None:
        """``win_table``: value a hand that does not end the match by :mod:`.match_odds`'s table
        (where the rule set has one) instead of :func:`win_chance`; ``dealer``: the seat that
        deals the hand being valued, which tells the table who deals next (B-R2.2: the deal
        passes left), or None (the table then averages over the dealer)."""
        self.rules = rules
        self.win_table = win_table
        self.side = side
        self.players = players
        self.scores = tuple(scores) if scores is not None else None
        self.mode = ("money" if rules.money != "none"
                     else "match" if rules.target is not None and scores is not None
                     else "points")
        self._cache: dict[tuple[object, ...], float] = {}
        #: issue 14, item 3: the simulated table, where asked for and built for these rules
        self.table: Odds | None = None
        if win_table and self.mode == "match":
            from .match_odds import table_for  # imported on use: its data is large

            self.table = table_for(rules, players)
        self._per_point: float | None = None
        #: the side that deals the next hand, if known
        self.next_dealer: int | None = None
        if dealer is not None:
            seat = (dealer + 1) % players
            self.next_dealer = rules.side_of(seat)

    def __call__(self, r: HandResult) -> float:
        key = (r.deltas, r.made, r.moon, r.pitcher_side)
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = self._value(r)
        return v

    def points(self, r: HandResult) -> float:
        """The plain point margin of the side (its delta minus the best other delta)."""
        d = r.deltas
        others = [x for i, x in enumerate(d) if i != self.side]
        return float(d[self.side] - (max(others) if others else 0))

    def per_point(self) -> float:
        """What one point of the side's score is worth in this utility's units: 1 outside a
        match; in a match, the change in the side's chance to win per point from the scores
        now (half the difference between one point more and one less), plus the point term."""
        if self.mode != "match":
            return 1.0
        v = self._per_point
        if v is None:
            assert self.scores is not None  # a match has them
            up, down = list(self.scores), list(self.scores)
            up[self.side] += 1
            down[self.side] -= 1
            v = self._per_point = (self._chance(up) - self._chance(down)) / 2 + POINT_TERM
        return v

    def _chance(self, scores: Sequence[int]) -> float:
        """The side's chance to win the match from ``scores`` (no one out): the table where
        there is one, else the formula."""
        assert self.rules.target is not None
        if self.table is not None:
            return self.table.chances(scores, self.next_dealer)[self.side]
        return win_chance(scores, self.side, self.rules.target)

    def _value(self, r: HandResult) -> float:
        side = self.side
        if self.mode == "money":
            d = r.deltas
            mean = sum(d) / len(d)
            v = d[side] - mean
            if r.pitcher_side is not None and r.bid == "moon":
                pay = float(self.rules.moon_payment / self.rules.stake_per_point)
                others = len(d) - 1
                sign = 1.0 if r.made else -1.0
                if r.pitcher_side == side:
                    v += sign * pay * others
                else:
                    v -= sign * pay
            return v
        if self.mode == "match":
            assert self.scores is not None and self.rules.target is not None
            before = self.scores
            after = [b + d for b, d in zip(before, r.deltas, strict=True)]
            won = match_winner(self.rules, before, after, r)
            if won is not None:
                return 1.0 if won == side else 0.0
            return self._chance(after) + POINT_TERM * self.points(r)
        return self.points(r)
