"""The one error of the tournament formats: bad input to a director's call.

Like every error of the package it is a ``ValueError`` (a :class:`~pitchcards.errors.PitchError`);
it says what was given, for whom (a table, a board, an entrant), when (the round), and what is
allowed.  A refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import PitchError, shown

__all__ = ["TournamentError", "check_round_results"]


class TournamentError(PitchError):
    """A tournament call with input the format does not allow now.

    ``given`` is the bad input (as shown in the message), ``who`` the table, board or entrant it
    concerned, ``phase`` when (``"round 2"``, ``"setup"``), ``legal`` what would have been allowed.
    """

    def __init__(self, message: str, *, given: str, who: str | None = None,
                 phase: str = "setup", legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.given = given
        self.who = who
        self.phase = phase
        self.legal = tuple(legal)


def check_round_results(results: object, sides: Sequence[int], phase: str) -> None:
    """Refuse a round's results unless they are one list of ints per table, ``sides[t]``
    numbers at table ``t``."""
    if not isinstance(results, list | tuple) or len(results) != len(sides):
        raise TournamentError(f"{phase} needs one result per table ({len(sides)}), not "
                              f"{shown(results)}", given=shown(results), phase=phase,
                              legal=(f"{len(sides)} results",))
    for t, (count, points) in enumerate(zip(sides, results, strict=True)):
        if (not isinstance(points, list | tuple) or len(points) != count
                or not all(type(p) is int for p in points)):
            raise TournamentError(f"table {t} needs {count} ints, one per side, not "
                                  f"{shown(points)}", given=shown(points), who=f"table {t}",
                                  phase=phase, legal=(f"{count} ints",))
