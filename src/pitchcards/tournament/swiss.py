"""Swiss: a fixed number of rounds, each entrant meeting others of about its own score.

For fixed pairs (``table_size=2``: two pairs a table) or players each for himself
(``table_size=4``: cutthroat tables of four, threes absorbing the rest, see
:func:`~pitchcards.tournament.layout.swiss_sizes`).

*Scoring.*  At a table of ``k`` entrants each scores 1 per entrant it outscored and ½ per tie,
divided by ``k - 1`` (a win is 1, a tie ½, a loss 0 between two pairs); its *point difference*
is its points less the others' average.  A bye scores 1 and no point difference.

*Ranking* (and tie-breaks, in order): score; Buchholz (the sum of the current scores of every
opponent met, byes not counted); point difference; a seeded lot.

*Pairing* (Monrad with backtracking): entrants in ranking order (round 1: the lot); the bye, if
the count needs one, goes to the lowest-ranked of those with the fewest byes, so nobody has a
second bye while someone has none; then the highest-ranked unseated entrant is seated with the
next-highest who have met neither it nor each other (at a table of four, or of three
when that is the only way), backtracking to the next choice whenever
the rest cannot be seated without a repeat.  The search is complete, so no pairing repeats
while a fresh pairing exists (for the chosen bye; every candidate with the fewest byes is tried,
lowest-ranked first); when none exists, or the search passes ``SEARCH_LIMIT`` steps in all, the
round is seated top-down as in plain Monrad, repeats allowed.

No library: the Python Swiss pairers are for chess — ``caissify-pairings`` (FIDE Dutch system,
Berger round-robin, a casual engine) and ``swissdutch`` (alpha, unmaintained since 2015) pair two
players a game, with colours to balance and ratings to seed; Pitch needs pairs *or* tables of
three and four, no colours, and byes and tie-breaks of its own: about a hundred lines here
(docs/tournaments.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from ..errors import shown
from .errors import TournamentError, check_round_results
from .layout import cut, swiss_sizes
from .scoring import Standing, matchpoints, shared_ranks, total
from .seeding import draw_key

__all__ = ["SEARCH_LIMIT", "Swiss", "SwissRound"]

#: The most steps the repeat-free search of one round takes (over every bye candidate) before
#: the round is seated plainly.
SEARCH_LIMIT = 200_000


class SwissRound:
    """One round's seating: the tables (entrant names, best-ranked first) and the byes."""

    __slots__ = ("byes", "number", "tables")

    def __init__(self, number: int, tables: tuple[tuple[str, ...], ...],
                 byes: tuple[str, ...]) -> None:
        self.number = number
        self.tables = tables
        self.byes = byes

    def __repr__(self) -> str:
        return f"SwissRound({self.number}, tables={self.tables}, byes={self.byes})"


class Swiss:
    """A Swiss event (module doc).  ``pair()`` seats the next round, ``record(results)``
    enters its points, ``standings()`` ranks."""

    def __init__(self, entrants: Sequence[str], *, rounds: int, table_size: int = 2,
                 seed: int = 0, bots: frozenset[str] = frozenset()) -> None:
        names = tuple(entrants)
        if table_size not in (2, 4):
            raise TournamentError(f"table_size is 2 (pairs) or 4 (cutthroat), not "
                                  f"{shown(table_size)}", given=shown(table_size),
                                  legal=("2", "4"))
        least = 2 if table_size == 2 else 3
        if (not all(type(n) is str and n for n in names) or len(set(names)) != len(names)
                or len(names) < least):
            raise TournamentError(f"a Swiss needs {least} or more distinct names, not "
                                  f"{shown(list(names))}", given=shown(list(names)),
                                  legal=(f"{least}+ distinct names",))
        if type(rounds) is not int or rounds < 1:
            raise TournamentError(f"rounds must be a positive int, not {shown(rounds)}",
                                  given=shown(rounds), legal=("1, 2, 3, ...",))
        self.rounds = rounds
        self.table_size = table_size
        self.seed = seed
        self.bots = frozenset(bots)
        self.active: list[str] = list(names)
        self.score: dict[str, Fraction] = {n: Fraction(0) for n in names}
        self.difference: dict[str, Fraction] = {n: Fraction(0) for n in names}
        self.met: dict[str, set[str]] = {n: set() for n in names}
        self.byes: dict[str, int] = {n: 0 for n in names}
        self.history: list[SwissRound] = []
        self._pending: SwissRound | None = None

    @property
    def round(self) -> int:
        """The rounds recorded so far."""
        return len(self.history)

    @property
    def finished(self) -> bool:
        return self.round >= self.rounds

    # ------------------------------------------------------------------ entrants
    def enter(self, name: str) -> None:
        """A late entry, with no score, paired from the next round on."""
        if type(name) is not str or not name or name in self.score or self._pending:
            raise TournamentError(f"a late entry needs a new name between rounds, not "
                                  f"{shown(name)}", given=shown(name), phase=self._phase(),
                                  legal=("a new name, before pair()",))
        self.active.append(name)
        for table in (self.score, self.difference):
            table[name] = Fraction(0)
        self.met[name] = set()
        self.byes[name] = 0

    def withdraw(self, name: str) -> None:
        """A withdrawal: no longer paired (kept in the standings)."""
        least = 2 if self.table_size == 2 else 3
        if name not in self.active or self._pending or len(self.active) <= least:
            raise TournamentError(f"{shown(name)} cannot withdraw now", given=shown(name),
                                  phase=self._phase(), legal=tuple(self.active))
        self.active.remove(name)

    def _phase(self) -> str:
        return f"round {self.round}"

    # ------------------------------------------------------------------ pairing
    def ranking(self) -> list[str]:
        """Every entrant, best first (score, Buchholz, point difference, lot)."""
        return sorted(self.score, key=self._rank_key)

    def _rank_key(self, name: str) -> tuple[Fraction, Fraction, Fraction, int]:
        return (-self.score[name], -self.buchholz(name), -self.difference[name],
                draw_key(self.seed, "swiss", name))

    def buchholz(self, name: str) -> Fraction:
        return total(self.score[o] for o in self.met[name])

    def pair(self) -> SwissRound:
        """The next round's seating (the same one until it is recorded)."""
        if self._pending is not None:
            return self._pending
        if self.finished:
            raise TournamentError(f"all {self.rounds} rounds are played", given="pair()",
                                  phase=self._phase(), legal=("standings()",))
        active = set(self.active)
        order = [n for n in self.ranking() if n in active]
        if self.table_size == 2:
            sizes, byes = (2,) * (len(order) // 2), len(order) % 2
        else:
            sizes, byes = swiss_sizes(len(order))
        fewest = min(self.byes[n] for n in order) if byes else 0
        candidates = [n for n in reversed(order) if self.byes[n] == fewest] if byes else []
        choices = [(c,) for c in candidates] if byes else [()]
        budget = [SEARCH_LIMIT]  # shared by every bye candidate's search
        for bye in choices:
            rest = [n for n in order if n not in bye]
            tables = _fresh_seating(rest, sizes, self.met, budget)
            if tables is not None:
                break
        else:
            bye = choices[0]
            rest = [n for n in order if n not in bye]
            tables = cut(rest, sizes)
        self._pending = SwissRound(self.round, tables, bye)
        return self._pending

    # ------------------------------------------------------------------ results
    def record(self, results: Sequence[Sequence[int]]) -> None:
        """The points of each entrant at each table of the paired round, in seat order."""
        seating = self.pair()
        phase = self._phase()
        check_round_results(results, [len(t) for t in seating.tables], phase)
        for table, points in zip(seating.tables, results, strict=True):
            k = len(table)
            mps = matchpoints(dict(zip(table, points, strict=True)))
            pts_total = sum(points)
            for name, mine in zip(table, points, strict=True):
                self.score[name] += mps[name] / (k - 1)
                self.difference[name] += Fraction(mine) - Fraction(pts_total - mine, k - 1)
                self.met[name].update(o for o in table if o != name)
        for name in seating.byes:
            self.score[name] += 1
            self.byes[name] += 1
        self.history.append(seating)
        self._pending = None

    def standings(self) -> list[Standing]:
        """The ranking with shared ranks where score and every tie-break but the lot agree."""
        def key(name: str) -> tuple[Fraction, Fraction, Fraction]:
            return self._rank_key(name)[:3]
        return [Standing(rank=rank, entrant=name, score=self.score[name],
                         played=sum(name in t for r in self.history for t in r.tables),
                         bot=name in self.bots,
                         tiebreaks=(self.buchholz(name), self.difference[name]))
                for rank, name in shared_ranks(self.ranking(), key)]


def _fresh_seating(order: list[str], sizes: Sequence[int], met: dict[str, set[str]],
                   budget: list[int]) -> tuple[tuple[str, ...], ...] | None:
    """Tables of ``sizes`` with nobody meeting anyone twice, the highest-ranked unseated
    entrant seated (at the largest table size left that works) with the next-highest possible;
    None if there is none (or the search used up ``budget[0]`` steps)."""

    def seat(rest: list[str], left: tuple[int, ...]) -> list[tuple[str, ...]] | None:
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        for size in sorted(set(left), reverse=True):
            after_sizes = list(left)
            after_sizes.remove(size)
            for mates in combinations(others, size - 1):
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                group = (top, *mates)
                if any(b in met[a] for a, b in combinations(group, 2)):
                    continue
                after = seat([n for n in others if n not in mates], tuple(after_sizes))
                if after is not None:
                    return [group, *after]
        return None

    found = seat(order, tuple(sizes))
    return tuple(found) if found is not None else None
