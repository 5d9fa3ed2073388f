"""What the screen reads of a game: the seam between the table UI and whoever runs the game.

Two things run a game behind the same screen: :class:`~.controller.GameController` (a local
Table with bots) and :class:`~.remote.RemoteGame` (a seat at a ``pitch serve`` table, fed by
the server's events).  The text builders (:mod:`.text`, :mod:`.history`) and the parts of the
app every game shares — drawing, choosing a bid or a card, the hint, the log pages — read a
game only through :class:`TableGame`.  Only your own seat's :class:`~pitchcards.View` is ever
in it.
"""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..events import Event
from ..money import MoneySession
from ..rules import RuleSet
from ..scoring import HandResult
from ..views import View
from .config import GameConfig
from .words import sentence

__all__ = ["TableGame", "expert_hint", "side_count", "side_label", "side_of", "win_sentence"]


class TableGame(Protocol):
    """A game as the screen sees it: your seat's view, names, scores and what happened."""

    config: GameConfig
    rules: RuleSet
    money: bool
    #: the money session's own calls (ledger, stars, payouts); None in a match or online
    session: MoneySession | None
    levels: dict[str, str]

    @property
    def seating(self) -> list[str]:
        """Names in seat order (yours is ``HUMAN``)."""

    @property
    def human_seat(self) -> int: ...

    @property
    def my_side(self) -> int: ...

    @property
    def sides(self) -> int: ...

    @property
    def dealt(self) -> bool:
        """A hand has been dealt (the view exists)."""

    @property
    def hand_number(self) -> int:
        """The hand in play, or the last one, counted from 1 (0 before the first deal)."""

    @property
    def results(self) -> list[HandResult]:
        """The finished hands' results (the ones this game knows of)."""

    @property
    def in_hand(self) -> bool: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def human_to_act(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    def side_scores(self) -> list[int]: ...

    def name(self, seat: int) -> str: ...

    def level(self, seat: int) -> str:
        """What plays a seat, in a word: a bot's level, "you", "human", "away" …"""

    def side_name(self, side: int) -> str: ...

    def view(self) -> View:
        """Your view of the hand (the only thing the screen may show)."""

    def events_since(self, after: int) -> list[Event]:
        """Your copy of the events after seq ``after``."""

    def hint(self, view: View) -> tuple[Action, str]:
        """The expert's choice for your view and why (slow: call off the UI thread)."""


# What both games say the same way: sides and the winner's sentence (one place for each).
def side_of(rules: RuleSet, seat: int) -> int:
    """A seat's side: the seat itself, or its team (0 or 1; 0, 1 or 2 in three teams: TT1)."""
    return rules.side_of(seat)


def side_count(rules: RuleSet, players: int) -> int:
    return rules.side_count(players)


def side_label(rules: RuleSet, names: list[str], side: int) -> str:
    """A side as words: a name, or in partnerships both names ("You & Cy")."""
    if rules.partnership_mode:
        return " & ".join(names[s] for s in rules.side_seats(len(names))[side])
    return names[side]


def win_sentence(game: TableGame, side: int) -> str:
    """"You win the match!" / "Ann & Cy win the match!"."""
    return sentence(game.side_name(side), "win", "the match!")


def expert_hint(view: View) -> tuple[Action, str]:
    """The expert's choice for your view and why (slow: call off the UI thread)."""
    from ..bots.hints import suggest  # the expert's search loads only when a hint is asked

    return suggest(view)
