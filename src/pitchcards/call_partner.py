"""Call-your-partner (docs/rules.md §2.8, CP1–CP9): what the pitcher may call, who the
partner is, when the table learns it, and how a hand's result is shared out to the seats.

The match's sides are the five seats (CP1); within one hand the pitcher and the holder of the
called card are one side and the defenders each their own (or one pooled side,
``call_defenders="side"``).  :class:`~pitchcards.hand.Hand` keeps the call; this module states
the rules it reads, once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .cards import card_name
from .rules import RuleSet
from .scoring import HandResult

__all__ = ["callable_cards", "hand_sides", "holder_of", "is_revealed", "share_result"]


def callable_cards(rules: RuleSet, deck: int, own: int) -> int:
    """CP3: the cards (a mask) the pitcher holding ``own`` may call from the ``deck`` mask:
    any card it does not hold (``call_rule="not_own"``), or any card at all
    (``"alone_allowed"``: calling one's own card is playing alone)."""
    return deck if rules.call_rule == "alone_allowed" else deck & ~own


def holder_of(card: int, holdings: Sequence[int]) -> int:
    """The seat whose ``holdings`` (masks) include ``card``, or -1: nobody was dealt it (CP4:
    the pitcher plays alone)."""
    bit = 1 << card
    for seat, mask in enumerate(holdings):
        if mask & bit:
            return seat
    return -1


def is_revealed(called: int, played: int, over: bool) -> bool:
    """CP5: the partnership is public once the called card is played, and at the end of the
    hand in any case (a card never played was not dealt: the pitcher was alone, CP4)."""
    return over or bool(played >> called & 1)


def hand_sides(rules: RuleSet, players: int, pitcher: int, partner: int) -> tuple[int, ...]:
    """Each seat's side *in this hand* (CP1, CP6), named by a seat number: the contracting
    side by the pitcher's seat (the partner's included; ``partner`` -1 or the pitcher: alone),
    each defender by its own seat, or under ``call_defenders="side"`` all three by the first
    defender's seat."""
    defenders = [s for s in range(players) if s not in (pitcher, partner)]
    pooled = rules.call_defenders == "side"
    return tuple(pitcher if s in (pitcher, partner) else defenders[0] if pooled else s
                 for s in range(players))


def share_result(rules: RuleSet, result: HandResult, sides: Sequence[int], called: int,
                 partner: int) -> HandResult:
    """A hand's result scored by its ``sides`` (:func:`hand_sides`), shared out to the seats,
    the match's sides (CP6): every seat is told its side's points, tricks and game count; the
    partner scores what the pitcher scores when the side made it, and when it was set loses the
    bid too (``call_set="both"``) or nothing (``"pitcher_only"``); pooled defenders each score
    the defenders' total.  High, Low, Jack and Game name the side that took them, by the seat
    that names it (the pitcher's for the contracting side)."""
    pitcher = result.pitcher
    assert pitcher is not None
    deltas = [result.deltas[side] for side in sides]
    if 0 <= partner != pitcher and not result.made and rules.call_set == "pitcher_only":
        deltas[partner] = 0  # CP6: only the pitcher loses the bid
    return dataclasses.replace(
        result, deltas=tuple(deltas),
        points=tuple(result.points[side] for side in sides),
        tricks=tuple(result.tricks[side] for side in sides) if result.tricks else (),
        game_counts=(tuple(result.game_counts[side] for side in sides)
                     if result.game_counts else ()),
        called=card_name(called), partner=partner if partner >= 0 else None)
