"""Boards: the deals every table of a duplicate event plays, and a board's score per side.

A *board* is one hand of Pitch dealt the same way at every table: board ``b`` of an event with
seed ``s`` is :meth:`Hand.deal <pitchcards.hand.Hand.deal>` with the seed
``derive_seed(s, "board", b)`` (SHA-256) and the dealer rotating board by board (board 1 is
dealt by seat 0, board 2 by seat 1, ...), so the players holding the same seat's cards at
different tables can be compared.

A board's score for a side is what its hand was worth to that side against the others:

* in partnerships, the side's score change less the opponents' (``+3`` for a made 3 that gave
  the others 1 point is ``3 - 1 = 2``);
* each for himself, the seat's change less the average change of the other seats.

Scores are exact :class:`~fractions.Fraction` s, so equal results compare equal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction

from ..bots.base import Bot
from ..cards import format_cards
from ..errors import shown
from ..hand import Hand
from ..rules import RuleSet
from .errors import TournamentError
from .seeding import derive_seed

__all__ = ["Board", "board_cards", "board_scores", "deal_board", "make_boards", "play_board"]


@dataclasses.dataclass(frozen=True, slots=True)
class Board:
    """Board ``number`` (from 1): who deals it and the seed of its deal."""

    number: int
    dealer: int
    seed: int


def make_boards(seed: int, count: int, players: int = 4, first: int = 1) -> tuple[Board, ...]:
    """Boards ``first .. first + count - 1`` of the event with ``seed`` at tables of
    ``players``: the dealer rotates one seat a board, the deal's seed is derived by SHA-256."""
    if type(seed) is not int:
        raise TournamentError(f"the event seed must be an int, not {shown(seed)}",
                              given=shown(seed), legal=("an int",))
    if type(count) is not int or count < 0:
        raise TournamentError(f"a number of boards must be an int >= 0, not {shown(count)}",
                              given=shown(count), legal=("0, 1, 2, ...",))
    return tuple(Board(number=b, dealer=(b - 1) % players, seed=derive_seed(seed, "board", b))
                 for b in range(first, first + count))


def deal_board(rules: RuleSet, board: Board, players: int = 4) -> Hand:
    """The board's hand, dealt and not yet bid: the same cards at every table."""
    return Hand.deal(rules, players=players, dealer=board.dealer % players, seed=board.seed)


def board_cards(rules: RuleSet, board: Board, players: int = 4, shown: int = -1) -> list[str]:
    """The cards each seat holds on ``board``, as text (a stacked deal for ``Table.deal``):
    a server table of a tournament deals its boards with them, dealer ``board.dealer``.
    ``shown``: a mask of the cards to give (the others are left out), e.g. the cards played."""
    hand = deal_board(rules, board, players)
    return [format_cards(hand.hand_of(seat) & shown) for seat in range(players)]


def play_board(rules: RuleSet, board: Board, bots: Sequence[Bot]) -> Hand:
    """The board played to its end by ``bots`` (one per seat), each seeing only its own view."""
    hand = deal_board(rules, board, len(bots))
    while hand.seat_to_act is not None:
        seat = hand.seat_to_act
        hand.push(bots[seat].choose(hand.view(seat)), seat)
    return hand


def board_scores(deltas: Sequence[int], partnership: bool) -> tuple[Fraction, ...]:
    """Each side's board score from the hand's score changes per side (``HandResult.deltas``):
    the side's change less the opponents' (partnerships) or less the others' average."""
    sides = len(deltas) if isinstance(deltas, list | tuple) else 0
    if (partnership and sides != 2) or sides < 2 or not all(type(d) is int for d in deltas):
        raise TournamentError(
            f"a board's score changes must be one int per side ({'2' if partnership else '2+'}),"
            f" not {shown(deltas)}", given=shown(deltas), phase="scoring",
            legal=("one int per side",))
    total = sum(deltas)
    return tuple(Fraction(d) - Fraction(total - d, sides - 1) for d in deltas)
