"""What every game session offers: the :class:`GameSession` protocol.

A session is a sequence of hands at one table with a running score: a :class:`~pitchcards.Match`
(rule set B and its relatives: played to a target, a winner) or a
:class:`~pitchcards.MoneySession` (rule set A: no target, money against the average, players
joining and leaving between hands).  Everything that drives or shows a session — the
:class:`~pitchcards.table.Table`, game records, the terminal game — uses this protocol and never
asks which kind it has.

Seats are the positions of the current hand (or of the next one, between hands); in a money
session the seating changes between hands as players join and leave, so per-seat answers are
about the seating now.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .errors import IllegalActionError, shown

if TYPE_CHECKING:
    from collections.abc import Mapping
    from fractions import Fraction

    from .actions import Action
    from .hand import ActionLike, Hand
    from .outcome import EnteredHand, Outcome
    from .rules import RuleSet
    from .scoring import HandResult
    from .views import View

__all__ = ["NAME_LIMIT", "Deal", "GameSession", "check_name", "check_names"]

#: Stacked cards for :meth:`GameSession.deal`: each seat's cards, as text or card numbers.
Deal = Sequence[str] | Sequence[Sequence[int]]

#: The longest player name (names are written into game records and shown on screens).
NAME_LIMIT = 40


@runtime_checkable
class GameSession(Protocol):
    """The interface :class:`Match` and :class:`MoneySession` share."""

    rules: RuleSet
    seed: int | None
    #: Every hand dealt, in order, and the result of each finished one.
    hands: list[Hand]
    results: list[HandResult]
    #: How many hands were dealt before ``hands[0]`` (0 unless a long money session forgot
    #: its oldest: MoneySession.forget_hands).
    first_hand: int
    #: The hand being played or the last one dealt (None before the first deal).
    hand: Hand | None
    #: The seat that deals the next hand.
    next_dealer: int

    @property
    def seat_count(self) -> int:
        """Seats at the table now (the next hand's seats, between hands)."""

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order now."""

    @property
    def in_hand(self) -> bool:
        """A hand is dealt and not over."""

    @property
    def is_over(self) -> bool:
        """The match is won, or the money session settled: nothing more can be dealt."""

    @property
    def winner(self) -> int | None:
        """The side that won the match (None while it runs, and always for money sessions)."""

    @property
    def payouts(self) -> Mapping[str, Fraction]:
        """What each player who left or was settled was paid (always empty in a match)."""

    @property
    def payout_cents(self) -> Mapping[str, int]:
        """The same in whole cents as paid (A-R7.6: reconciled, they add up); empty in a match."""

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat now (the seat itself, or team 0/1 in partnerships)."""

    def side_scores(self) -> list[int]:
        """The running score of each side now (one per seat unless partnerships)."""

    def seat_scores(self) -> list[int]:
        """The running score of each seat now (a partnership's score for both partners)."""

    def deal(self, cards: Deal | None = None) -> Hand:
        """Deal the next hand (shuffled from the seed, or stacked) and return it."""

    def enter(self, outcome: Outcome) -> EnteredHand:
        """Score the next hand by its outcome, without its cards (a real table's score sheet,
        :mod:`pitchcards.outcome`); :meth:`pop` undoes the whole entry."""

    def push(self, action: ActionLike, seat: int | None = None) -> None:
        """Apply an action to the current hand; score the hand as soon as it ends."""

    def pop(self) -> Action:
        """Undo the last action of the current hand."""

    def view(self, seat: int | None = None) -> View:
        """The current hand as ``seat`` (None: a spectator) sees it, with the session's scores."""

    def join(self, name: str) -> None:
        """Seat a player between hands (A-R8.3).  A match refuses: ``join_leave_not_allowed``."""

    def leave(self, name: str) -> Fraction:
        """A player leaves between hands and is paid out (A-R7.5); returns the payout.  A match
        refuses: ``join_leave_not_allowed``."""

    def settle(self) -> dict[str, Fraction]:
        """End the session: every seated player's payout (A-R7.5).  A match refuses:
        ``join_leave_not_allowed`` (it ends when a side wins)."""



def check_name(name: object, phase: str = "setup") -> str:
    """A player's name, or :class:`IllegalActionError` (``bad_setup``) naming it.

    A name is printable text of 1 to :data:`NAME_LIMIT` characters without spaces at either
    end (it is written into game records, one line per fact).
    """
    if (isinstance(name, str) and 0 < len(name) <= NAME_LIMIT and name.isprintable()
            and name == name.strip()):
        return name
    raise IllegalActionError(
        f"player name {shown(name)} is not a name: a name is printable text of 1 to "
        f"{NAME_LIMIT} characters with no space at either end", reason="bad_setup", phase=phase)


def check_names(names: object, phase: str = "setup") -> list[str]:
    """Player names in seat order: a list or tuple of distinct :func:`check_name` names.

    A single string is refused (``"ABC"`` is not the three players A, B and C).
    """
    if not isinstance(names, list | tuple):
        raise IllegalActionError(
            f"player names must be a list of names in seat order, not {shown(names)}",
            reason="bad_setup", phase=phase)
    if len(names) > 8:  # C3: no table seats more than 8
        raise IllegalActionError(f"{len(names)} names for a table of at most 8 seats (C3)",
                                 reason="bad_setup", phase=phase)
    checked = [check_name(n, phase) for n in names]
    if len(set(checked)) != len(checked):
        raise IllegalActionError(f"player names must be distinct: {shown(checked)}",
                                 reason="bad_setup", phase=phase)
    return checked
