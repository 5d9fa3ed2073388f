"""A duplicate event: every table plays the same boards, each entrant compared with the others
who held the same cards.

``Duplicate(entrants, boards_per_round=3, seed=7)`` with ``2n`` pairs (``movement="mitchell"``)
or ``4n`` players (``movement="individual"``) for ``n`` tables; ``schedule`` says who sits where
for every board; ``record(board, table, deltas)`` enters a table's result (the hand's score
change per side, ``HandResult.deltas``); ``matchpoints(board)`` and ``standings(through_round)``
(the *barometer* after any round) read them.  A board's *field* is the entrants who held the
same cards: a direction (seats 0 and 2, or 1 and 3) for pairs, a seat for individuals.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from ..errors import shown
from .boards import Board, board_scores, make_boards
from .errors import TournamentError
from .movements import Sitting, individual, mitchell
from .scoring import Standing, matchpoints, shared_ranks, total

__all__ = ["Duplicate", "Play"]

Movement = Literal["mitchell", "individual"]


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    """One board at one table: who held each seat (entrant names) and each seat's field."""

    board: Board
    round: int
    table: int
    seats: tuple[str, str, str, str]
    fields: tuple[int, int, int, int]   #: the field of each seat (a direction, or the seat)


class Duplicate:
    """The state of one duplicate event (module doc).  Tables and rounds start at 0, boards
    at 1."""

    def __init__(self, entrants: Sequence[str], *, boards_per_round: int = 2, seed: int = 0,
                 movement: Movement = "mitchell", rounds: int | None = None,
                 partnership: bool = True, bots: frozenset[str] = frozenset()) -> None:
        names = tuple(entrants)
        per_table = 2 if movement == "mitchell" else 4
        if movement not in ("mitchell", "individual"):
            raise TournamentError(f"unknown movement {shown(movement)}", given=shown(movement),
                                  legal=("mitchell", "individual"))
        if (not all(type(n) is str and n for n in names) or len(set(names)) != len(names)
                or len(names) % per_table):
            raise TournamentError(
                f"the {movement} movement needs distinct names, {per_table} per table, not "
                f"{shown(list(names))}", given=shown(list(names)),
                legal=(f"a multiple of {per_table} distinct names",))
        if movement == "mitchell" and not partnership:
            raise TournamentError("fixed pairs play partnership rules; cutthroat events use "
                                  "movement='individual'", given="partnership=False",
                                  legal=("partnership=True",))
        if type(boards_per_round) is not int or boards_per_round < 1:
            raise TournamentError(f"boards per round must be a positive int, not "
                                  f"{shown(boards_per_round)}", given=shown(boards_per_round),
                                  legal=("1, 2, 3, ...",))
        tables = len(names) // per_table
        move = mitchell if movement == "mitchell" else individual
        self.sittings: tuple[Sitting, ...] = move(tables, rounds)
        self.entrants = names
        self.movement = movement
        self.partnership = partnership
        self.bots = bots & frozenset(names)
        self.tables = tables
        self.rounds = 1 + max(s.round for s in self.sittings)
        self.boards_per_round = boards_per_round
        self.boards = make_boards(seed, self.rounds * boards_per_round)
        self.seed = seed
        self.schedule: tuple[Play, ...] = tuple(
            self._play(board, sitting) for sitting in self.sittings
            for board in self.boards_of_round(sitting.round))
        self._plays = {(p.board.number, p.table): p for p in self.schedule}
        self._results: dict[tuple[int, int], tuple[Fraction, ...]] = {}

    def _play(self, board: Board, sitting: Sitting) -> Play:
        who = sitting.seats
        seats = (self.entrants[who[0]], self.entrants[who[1]], self.entrants[who[2]],
                 self.entrants[who[3]])
        fields = (0, 1, 0, 1) if self.movement == "mitchell" else (0, 1, 2, 3)
        return Play(board=board, round=sitting.round, table=sitting.table, seats=seats,
                    fields=fields)

    # ------------------------------------------------------------------ reading the schedule
    def boards_of_round(self, round_: int) -> tuple[Board, ...]:
        """The boards every table plays in ``round_``."""
        start = round_ * self.boards_per_round
        return self.boards[start:start + self.boards_per_round]

    def play(self, board: int, table: int) -> Play:
        """Who plays ``board`` at ``table``; TournamentError if no such pair."""
        found = self._plays.get((board, table))
        if found is None:
            raise TournamentError(
                f"board {shown(board)} is not played at table {shown(table)}",
                given=f"board {shown(board)}, table {shown(table)}", who=f"table {shown(table)}",
                legal=(f"boards 1..{len(self.boards)}", f"tables 0..{self.tables - 1}"))
        return found

    # ------------------------------------------------------------------ results
    def record(self, board: int, table: int, deltas: Sequence[int]) -> None:
        """Enter the result of ``board`` at ``table``: the hand's score change per side (two
        in partnerships, one per seat each for himself).  Entering a board twice is refused."""
        play = self.play(board, table)
        phase = f"round {play.round}"
        if (board, table) in self._results:
            raise TournamentError(f"board {board} at table {table} is already recorded",
                                  given=shown(deltas), who=f"table {table}", phase=phase,
                                  legal=("a board not yet recorded",))
        sides = 2 if self.partnership else 4
        if not isinstance(deltas, list | tuple) or len(deltas) != sides:
            raise TournamentError(
                f"board {board} at table {table} needs {sides} score changes, one per side, "
                f"not {shown(deltas)}", given=shown(deltas), who=f"table {table}", phase=phase,
                legal=(f"{sides} ints",))
        try:
            scores = board_scores(deltas, self.partnership)
        except TournamentError as exc:
            raise TournamentError(str(exc), given=shown(deltas), who=f"table {table}",
                                  phase=phase, legal=exc.legal) from None
        self._results[(board, table)] = scores

    def is_recorded(self, board: int, table: int) -> bool:
        return (board, table) in self._results

    def scores(self, board: int, table: int) -> tuple[Fraction, ...] | None:
        """The board scores recorded for ``board`` at ``table`` (None: not yet)."""
        return self._results.get((board, table))

    def round_complete(self, round_: int) -> bool:
        """Every board of ``round_`` recorded at every table."""
        return all((b.number, t) in self._results for b in self.boards_of_round(round_)
                   for t in range(self.tables))

    def seat_score(self, play: Play, seat: int) -> Fraction:
        """The board score of the side holding ``seat`` (recorded results only)."""
        scores = self._results[(play.board.number, play.table)]
        side = seat % 2 if self.partnership else seat
        return scores[side]

    def matchpoints(self, board: int) -> dict[str, Fraction]:
        """Every entrant's matchpoints on ``board`` among the tables recorded: compared with
        the others of its field (same direction, or seat)."""
        fields: dict[int, dict[str, Fraction]] = {}
        for table in range(self.tables):
            play = self.play(board, table)
            if (board, table) not in self._results:
                continue
            for seat in range(4) if self.movement == "individual" else (0, 1):
                fields.setdefault(play.fields[seat], {})[play.seats[seat]] = \
                    self.seat_score(play, seat)
        out: dict[str, Fraction] = {}
        for field in fields.values():
            out.update(matchpoints(field))
        return out

    def standings(self, through_round: int | None = None) -> list[Standing]:
        """The ranking by matchpoints as a percentage of the top, over the boards of the rounds
        up to ``through_round`` (default: all) that every table has recorded; the barometer
        after any round.  ``played`` counts the boards each entrant was compared on."""
        last = self.rounds - 1 if through_round is None else through_round
        got: dict[str, list[Fraction]] = {n: [] for n in self.entrants}
        tops: dict[str, Fraction] = {n: Fraction(0) for n in self.entrants}
        for board in self.boards[:(last + 1) * self.boards_per_round]:
            round_ = (board.number - 1) // self.boards_per_round
            if not self.round_complete(round_):
                continue
            for name, mp in self.matchpoints(board.number).items():
                got[name].append(mp)
                tops[name] += self.tables - 1
        rows = sorted(self.entrants, key=lambda n: (-_percent(total(got[n]), tops[n]),
                                                    self.entrants.index(n)))
        return [Standing(rank=rank, entrant=name, score=total(got[name]),
                         percent=_percent(total(got[name]), tops[name]), played=len(got[name]),
                         bot=name in self.bots)
                for rank, name in shared_ranks(rows, lambda n: (_percent(total(got[n]),
                                                                         tops[n]),))]


def _percent(score: Fraction, top: Fraction) -> float:
    return float(100 * score / top) if top else 0.0
