"""Progressive Pitch: winners move up, partners change, the best cumulative score wins.

Tables are numbered from the head (table 0) down.  Each round is one game (or a number of
hands) at every table, stopped when the head table finishes; each player adds the points their
side (their partnership, or themselves at a table of three or five, each for himself) had when
play stopped.  Then:

* at a table of four the side with more points wins (a tie is broken by a seeded lot); at a
  table of three or five the two players with the most points win (ties by lot);
* the winners move up one table, the losers stay; the head table's winners stay and its losers
  drop to the lowest table;
* the two who stay at a table of four take seats 0 and 1 and the two who arrive seats 2 and 3,
  so partners split — except at the head table, where the winners stay partners (seats 0 and 2)
  against the arriving pair.

Every table sends two players and receives two, so the tables keep their sizes (but for six
players at two threes, which the re-seating below puts right).  Players
arriving late join at the foot and players who withdraw leave before the next round; then the
room is seated again in the same order (head table first) with the sizes for the new count
(:func:`~pitchcards.tournament.layout.progressive_sizes`), so every table stays full.  The
standings rank by cumulative score, then rounds won, then a seeded lot.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..errors import shown
from .errors import TournamentError, check_round_results
from .layout import cut, progressive_sizes
from .scoring import Standing
from .seeding import draw_key

__all__ = ["Progressive"]


class Progressive:
    """A progressive Pitch night (module doc).  ``tables`` is the current round's seating."""

    def __init__(self, players: Sequence[str], *, seed: int = 0,
                 bots: frozenset[str] = frozenset()) -> None:
        names = tuple(players)
        if not all(type(n) is str and n for n in names) or len(set(names)) != len(names):
            raise TournamentError(f"players must be distinct non-empty names, not "
                                  f"{shown(list(names))}", given=shown(list(names)),
                                  legal=("distinct names",))
        sizes = progressive_sizes(len(names))
        if type(seed) is not int:
            raise TournamentError(f"the seed must be an int, not {shown(seed)}",
                                  given=shown(seed), legal=("an int",))
        self.seed = seed
        self.bots = frozenset(bots)
        self.round = 0
        order = sorted(names, key=lambda n: draw_key(seed, "start", n))
        self.tables: tuple[tuple[str, ...], ...] = cut(order, sizes)
        self.scores: dict[str, int] = {n: 0 for n in names}
        self.wins: dict[str, int] = {n: 0 for n in names}
        self.played: dict[str, int] = {n: 0 for n in names}
        self._arrivals: list[str] = []
        self._leaving: set[str] = set()

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(n for table in self.tables for n in table)

    # ------------------------------------------------------------------ between rounds
    def arrive(self, name: str) -> None:
        """A late arrival: seated at the foot from the next round."""
        if type(name) is not str or not name or name in self.scores:
            raise TournamentError(f"a late arrival needs a new name, not {shown(name)}",
                                  given=shown(name), phase=f"round {self.round}",
                                  legal=("a name not yet in the event",))
        self.scores[name] = 0
        self.wins[name] = 0
        self.played[name] = 0
        self._arrivals.append(name)

    def withdraw(self, name: str) -> None:
        """A withdrawal: out of the room from the next round (their score stays in the
        standings).  Refused if it would leave fewer than three players."""
        if name not in self.players or name in self._leaving:
            raise TournamentError(f"{shown(name)} is not seated, so cannot withdraw",
                                  given=shown(name), phase=f"round {self.round}",
                                  legal=self.players)
        if len(self.players) + len(self._arrivals) - len(self._leaving) <= 3:
            raise TournamentError("a progressive room needs at least three players",
                                  given=shown(name), phase=f"round {self.round}",
                                  legal=("a withdrawal leaving 3 or more",))
        self._leaving.add(name)

    # ------------------------------------------------------------------ a round
    def record_round(self, results: Sequence[Sequence[int]]) -> None:
        """The points of each side at every table when play stopped, head table first: two
        numbers (seats 0 & 2, seats 1 & 3) at a table of four, one per seat otherwise.  Adds
        them to the players' scores and seats the next round."""
        phase = f"round {self.round}"
        check_round_results(results, [2 if len(t) == 4 else len(t) for t in self.tables],
                            phase)
        moving: list[tuple[list[str], list[str]]] = []
        for t, (table, points) in enumerate(zip(self.tables, results, strict=True)):
            winners, losers = self._split(t, table, points)
            for name in table:
                side = table.index(name) % 2 if len(table) == 4 else table.index(name)
                self.scores[name] += points[side]
                self.played[name] += 1
            for name in winners:
                self.wins[name] += 1
            moving.append((winners, losers))
        self.tables = self._next_tables(moving)
        self.round += 1

    def _split(self, t: int, table: tuple[str, ...],
               points: Sequence[int]) -> tuple[list[str], list[str]]:
        """The table's two winners and the rest, in seat order."""
        if len(table) == 4:
            lot = draw_key(self.seed, "table", self.round, t)
            first = 0 if (points[0], lot % 2) > (points[1], 0) else 1
            return [table[first], table[first + 2]], [table[1 - first], table[3 - first]]
        ranked = sorted(range(len(table)), key=lambda s: (
            -points[s], draw_key(self.seed, "seat", self.round, t, s)))
        best = sorted(ranked[:2])
        return ([table[s] for s in best],
                [table[s] for s in range(len(table)) if s not in best])

    def _next_tables(self, moving: list[tuple[list[str], list[str]]]
                     ) -> tuple[tuple[str, ...], ...]:
        count = len(moving)
        if count == 1:  # one table: everyone stays, the winners partners again (seats 0, 2)
            winners, losers = moving[0]
            tables = [[winners[0], losers[0], winners[1], losers[1]] if len(losers) == 2
                      else winners + losers]
        else:
            # The head's winners stay together (seats 0 and 2) against the pair arriving from
            # table 1; elsewhere the two who stay take seats 0 and 1, the two who arrive 2 and
            # 3: partners split.  The head's losers drop to the foot.
            (head, head_losers), (second, _) = moving[0], moving[1]
            tables = [[head[0], second[0], head[1], second[1]]]
            tables += [moving[t][1] + (moving[t + 1][0] if t + 1 < count else head_losers)
                       for t in range(1, count)]
        order = [n for table in tables for n in table if n not in self._leaving]
        order += self._arrivals
        self._arrivals = []
        self._leaving = set()
        return cut(order, progressive_sizes(len(order)))

    # ------------------------------------------------------------------ results
    def standings(self) -> list[Standing]:
        """Everyone who played, by cumulative score, rounds won, then a seeded lot."""
        rows = sorted(self.scores, key=lambda n: (-self.scores[n], -self.wins[n],
                                                  draw_key(self.seed, "rank", n)))
        return [Standing(rank=i + 1, entrant=n, score=Fraction(self.scores[n]),
                         played=self.played[n], bot=n in self.bots,
                         tiebreaks=(Fraction(self.wins[n]),))
                for i, n in enumerate(rows)]

