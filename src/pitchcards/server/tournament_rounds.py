"""A server tournament's format, round by round (issue 34): one face for the core's three.

The server runs a tournament a round at a time: it opens a round (:meth:`Rounds.begin`), makes
one table per :class:`TablePlan` of it, records each table's score changes hand by hand when it
ends (:meth:`Rounds.record`), and opens the next round once the last is recorded.  The formats
themselves are the core's (``pitchcards.tournament``, docs/tournaments.md):

* :class:`DuplicateRounds` — :class:`~pitchcards.tournament.Duplicate`: every table of a round
  plays the same boards (the movement says who holds which cards);
* :class:`ProgressiveRounds` — :class:`~pitchcards.tournament.Progressive`: the seating of a
  round is the core's after the last round's results (winners up, partners split);
* :class:`SwissRounds` — :class:`~pitchcards.tournament.Swiss`: the core pairs each round from
  the standings (no repeat while a fresh pairing exists, byes).

A progressive or Swiss table is dealt **hands of its own** (seeds derived from the
tournament's secret seed, the round and the table): unlike duplicate boards, no two tables
hold the same cards, so no table's play says anything of another's.  A round there is
``boards_per_round`` hands; a table's result is each side's total score change over them (a
side: a partnership at a table of four, a seat at a cutthroat table).  A progressive round ends
when its head table has played its hands: every other table stops after the hand in play and
counts the hands it finished (``stops_at_head``; server/tournaments.py stops them).  Pure:
replaying the tournament's events rebuilds the same rounds (server/tournament_state.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from contextlib import suppress
from typing import Protocol

from ..tournament import (
    Board,
    Duplicate,
    Progressive,
    Standing,
    Swiss,
    SwissRound,
    derive_seed,
    make_boards,
)
from ..tournament.errors import TournamentError

__all__ = ["DuplicateRounds", "ProgressiveRounds", "Rounds", "SwissRounds", "TablePlan"]


@dataclasses.dataclass(frozen=True, slots=True)
class TablePlan:
    """One table of one round: the entrant holding each seat (a pair holds two, opposite),
    and the boards (hands) it deals, in order."""

    round: int
    table: int
    seats: tuple[str, ...]
    boards: tuple[Board, ...]

    @property
    def size(self) -> int:
        return len(self.seats)


class Rounds(Protocol):
    """What the server needs of a format (module doc)."""

    rounds: int
    #: a round ends when its head table has played its hands (progressive; module doc)
    stops_at_head: bool

    @property
    def entrants(self) -> tuple[str, ...]: ...

    def table_count(self, round_: int) -> int:
        """How many tables :meth:`begin` will seat ``round_`` at (the previous round
        complete)."""

    def begin(self, round_: int) -> None:
        """Seat ``round_`` (the previous one is complete)."""

    def plans(self, round_: int) -> list[TablePlan]:
        """``round_``'s tables, table 0 first (once it has begun)."""

    def byes(self, round_: int) -> tuple[str, ...]:
        """The entrants sitting ``round_`` out."""

    def record(self, round_: int, table: int, deltas: Sequence[Sequence[int]]) -> None:
        """A table's score changes per side, hand by hand (a table recorded twice: once)."""

    def is_recorded(self, round_: int, table: int) -> bool: ...

    def round_complete(self, round_: int) -> bool: ...

    def standings(self) -> list[Standing]: ...

    def joins_at(self) -> int:
        """The round a late entry made now plays from."""

    def enter(self, entrant: str) -> int:
        """A late entrant; the round it plays from (duplicate: not here, a bot's seats)."""

    def withdraw(self, entrant: str) -> None:
        """No longer seated from the next round the format seats."""


class DuplicateRounds:
    """Duplicate Pitch: the movement's rounds, the same boards at every table of a round."""

    def __init__(self, event: Duplicate) -> None:
        self.event = event
        self.rounds = event.rounds
        self.stops_at_head = False

    @property
    def entrants(self) -> tuple[str, ...]:
        return self.event.entrants

    def table_count(self, round_: int) -> int:
        return self.event.tables

    def begin(self, round_: int) -> None:
        """The movement seats every round in advance."""

    def plans(self, round_: int) -> list[TablePlan]:
        boards = self.event.boards_of_round(round_)
        return [TablePlan(round_, t, self.event.play(boards[0].number, t).seats, boards)
                for t in range(self.event.tables)]

    def byes(self, round_: int) -> tuple[str, ...]:
        return ()

    def record(self, round_: int, table: int, deltas: Sequence[Sequence[int]]) -> None:
        for board, board_deltas in zip(self.event.boards_of_round(round_), deltas,
                                       strict=True):
            if not self.event.is_recorded(board.number, table):
                self.event.record(board.number, table, board_deltas)

    def is_recorded(self, round_: int, table: int) -> bool:
        return self.event.is_recorded(self.event.boards_of_round(round_)[0].number, table)

    def round_complete(self, round_: int) -> bool:
        return self.event.round_complete(round_)

    def standings(self) -> list[Standing]:
        return self.event.standings()

    def joins_at(self) -> int:
        """From the next round (in a bot entrant's seats)."""
        current = next((r for r in range(self.rounds) if not self.round_complete(r)),
                       self.rounds)
        return current + 1

    def enter(self, entrant: str) -> int:  # pragma: no cover - the service takes a bot's seats
        raise TournamentError("a duplicate movement is fixed: a late entry takes a bot's "
                              "seats", given=entrant, legal=("a bot entrant's seats",))

    def withdraw(self, entrant: str) -> None:
        """The movement is fixed: bots play the entrant's seats (the fields keep their
        size)."""


class _Staged:
    """A format seated a round at a time: the round's tables kept, results gathered until
    every table of the round has one."""

    def __init__(self, seed: int, boards_per_round: int, rounds: int, label: str) -> None:
        self.seed = seed
        self.boards_per_round = boards_per_round
        self.rounds = rounds
        self.label = label
        self._plans: dict[int, list[TablePlan]] = {}
        self._byes: dict[int, tuple[str, ...]] = {}
        self._results: dict[int, dict[int, list[int]]] = {}

    def _seat(self, round_: int, tables: Sequence[tuple[str, ...]],
              byes: tuple[str, ...] = ()) -> None:
        self._plans[round_] = [
            TablePlan(round_, t, seats, make_boards(
                derive_seed(self.seed, self.label, round_, "table", t),
                self.boards_per_round, len(seats)))
            for t, seats in enumerate(tables)]
        self._byes[round_] = byes
        self._results[round_] = {}

    def plans(self, round_: int) -> list[TablePlan]:
        return list(self._plans.get(round_, []))

    def byes(self, round_: int) -> tuple[str, ...]:
        return self._byes.get(round_, ())

    def is_recorded(self, round_: int, table: int) -> bool:
        return table in self._results.get(round_, {})

    def round_complete(self, round_: int) -> bool:
        plans = self._plans.get(round_)
        return plans is not None and len(self._results[round_]) == len(plans)

    def record(self, round_: int, table: int, deltas: Sequence[Sequence[int]]) -> None:
        if self.is_recorded(round_, table):
            return
        sides = self.sides(self._plans[round_][table].size)
        short = self.stops_at_head and table > 0  # stopped when the head table finished
        if (len(deltas) > self.boards_per_round if short
                else len(deltas) != self.boards_per_round) \
                or any(len(d) != sides for d in deltas):
            want = f"{'at most ' * short}{self.boards_per_round}"
            raise TournamentError(f"table {table} of round {round_} plays {want} hands of "
                                  f"{sides} sides: not {len(deltas)} results",
                                  given=str(list(map(list, deltas))), phase=f"round {round_}",
                                  legal=(f"{want} hands' score changes",))
        totals = [sum(d[s] for d in deltas) for s in range(sides)]
        self._results[round_][table] = totals
        if len(self._results[round_]) == len(self._plans[round_]):
            self._finish([self._results[round_][p.table] for p in self._plans[round_]])

    #: whether a round ends when its head table (table 0) has played its hands: the other
    #: tables stop after the hand in play, their results the hands they finished
    stops_at_head = False

    def sides(self, size: int) -> int:
        """The sides that score at a table of ``size``."""
        raise NotImplementedError

    def _finish(self, results: list[list[int]]) -> None:
        raise NotImplementedError


class ProgressiveRounds(_Staged):
    """Progressive Pitch: each round seated by the core from the last one's results."""

    def __init__(self, night: Progressive, boards_per_round: int, rounds: int) -> None:
        super().__init__(night.seed, boards_per_round, rounds, "progressive round")
        self.night = night

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(self.night.scores)

    def table_count(self, round_: int) -> int:
        return len(self.night.tables)

    #: "all tables stop when the head table finishes a round" (docs/tournaments.md)
    stops_at_head = True

    def begin(self, round_: int) -> None:
        self._seat(round_, self.night.tables)

    def sides(self, size: int) -> int:
        return 2 if size == 4 else size  # two partnerships, or each for himself

    def _finish(self, results: list[list[int]]) -> None:
        # a table of four: its two partnerships' points (seats 0 & 2, 1 & 3); a table of
        # three or five: one a seat (docs/tournaments.md, "Progressive Pitch")
        self.night.record_round(results)

    def standings(self) -> list[Standing]:
        return self.night.standings()

    def joins_at(self) -> int:
        """At the foot from the next seating: the round after this one, if this round's
        results are all in (the next round is seated already)."""
        current = max(self._plans, default=-1)
        return current + 2 if self.round_complete(current) else current + 1

    def enter(self, entrant: str) -> int:
        joins = self.joins_at()
        self.night.arrive(entrant)
        return joins

    def withdraw(self, entrant: str) -> None:
        if entrant in self.night.players:
            with suppress(TournamentError):  # the last three stay seated: bots play for them
                self.night.withdraw(entrant)


class SwissRounds(_Staged):
    """Swiss: each round paired by the core from the standings; pairs hold opposite seats."""

    def __init__(self, swiss: Swiss, boards_per_round: int) -> None:
        super().__init__(swiss.seed, boards_per_round, swiss.rounds, "swiss round")
        self.swiss = swiss
        self.pairs = swiss.table_size == 2
        self._entering: list[str] = []
        self._leaving: list[str] = []

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(self.swiss.score) + tuple(self._entering)

    def table_count(self, round_: int) -> int:
        return len(self._pair().tables)

    def begin(self, round_: int) -> None:
        seating = self._pair()
        tables = [(t[0], t[1], t[0], t[1]) if self.pairs else t for t in seating.tables]
        self._seat(round_, tables, seating.byes)

    def _pair(self) -> SwissRound:
        """The next round's pairing, the entries and withdrawals since the last applied
        first (the same pairing until it is recorded)."""
        for name in self._entering:
            self.swiss.enter(name)
        for name in self._leaving:
            with suppress(TournamentError):  # too few left to pair: bots play its seats
                self.swiss.withdraw(name)
        self._entering, self._leaving = [], []
        return self.swiss.pair()

    def sides(self, size: int) -> int:
        return 2 if self.pairs else size

    def _finish(self, results: list[list[int]]) -> None:
        self.swiss.record(results)

    def standings(self) -> list[Standing]:
        return self.swiss.standings()

    def joins_at(self) -> int:
        """Paired from the next round opened."""
        return max(self._plans, default=-1) + 1

    def enter(self, entrant: str) -> int:
        self._entering.append(entrant)
        return self.joins_at()

    def withdraw(self, entrant: str) -> None:
        self._leaving.append(entrant)
