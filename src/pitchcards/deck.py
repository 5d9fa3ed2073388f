"""The deck a rule set plays with, and what each card is once trump is known (C1, T1–T3).

The four-point game uses the 52 cards of C1, where a card's suit is printed on it and the trump
order is the rank order.  The ten-point family adds one or two jokers and the off-jack, whose
suit *for play* depends on trump: both jokers and the off-jack (the jack of the other suit of
trump's colour) belong to the trump suit, ranked A K Q J off-jack BJ LJ 10 … 2 (T3).

A :class:`DeckModel` holds, for each possible trump suit, every table the engine's hot path
reads: each card's suit for following, the four suit masks, the trick-strength rows and the
follow-rule masks.  There is one model per ``(deck, off_jack)`` pair, built once; the 52-card
model without an off-jack is built from the very tables ``cards.py`` and ``hand.py`` always
used, so the four-point variants play and score exactly as before.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import (
    DECK_SIZE,
    FULL_DECK,
    HIGH_JOKER,
    LOW_JOKER,
    STRENGTH,
    strongest,
)

if TYPE_CHECKING:
    from .rules import RuleSet

__all__ = ["CLASSIC", "DeckModel", "deck_model", "off_jack_of"]

_JACK = 9
#: The suit of the same colour: clubs <-> spades, diamonds <-> hearts (T2).
_SAME_COLOUR = (3, 2, 1, 0)
_SUIT_OF_CARD = tuple(c // 13 for c in range(DECK_SIZE))


def off_jack_of(trump: int) -> int:
    """T2: the off-jack of a trump suit, the jack of the other suit of the same colour."""
    return _SAME_COLOUR[trump] * 13 + _JACK


class DeckModel:
    """Which cards are in the deck and how each plays under each trump suit (T1–T3).

    Read-only tables, indexed by the trump suit ``t`` (0..3):

    - ``suit_of[t][card]``: the card's suit for following (jokers and the off-jack: ``t``);
    - ``suit_masks[t][suit]``: the cards of each suit for following;
    - ``strength[t][led][card]``: a card's power in a trick (trumps 100 + their place in the
      trump order, the led suit its rank, anything else -1: C7);
    - ``trump_order[t]``: the trumps from lowest to highest (T3);
    - ``allowed[follow][t][led]``: what a seat holding the led suit may play (C6, §7.8).

    Before trump is known (the first lead under ``first_lead``) every card has its printed
    suit; the first card led names trump by that suit and cannot be a joker (T6).
    """

    __slots__ = ("allowed", "classic", "deck", "jokers", "mask", "off_jack", "strength",
                 "suit_masks", "suit_of", "trump_order")

    def __init__(self, deck: int, off_jack: bool) -> None:
        self.deck = deck
        self.off_jack = off_jack
        self.jokers: tuple[int, ...] = (LOW_JOKER, HIGH_JOKER)[:deck - DECK_SIZE]
        self.mask = FULL_DECK | sum(1 << j for j in self.jokers)
        self.classic = deck == DECK_SIZE and not off_jack
        cards = range(DECK_SIZE + len(self.jokers))
        self.suit_of = tuple(tuple(self._suit(c, t) for c in range(DECK_SIZE + 2))
                             for t in range(4))
        self.suit_masks = tuple(tuple(sum(1 << c for c in cards if self.suit_of[t][c] == s)
                                      for s in range(4)) for t in range(4))
        self.trump_order = tuple(self._trump_order(t) for t in range(4))
        if self.classic:
            # The four-point game's tables, shared rather than rebuilt: identical by design.
            self.strength: tuple[tuple[tuple[int, ...], ...], ...] = STRENGTH
        else:
            self.strength = tuple(tuple(self._strength_row(t, led) for led in range(4))
                                  for t in range(4))
        self.allowed = tuple(tuple(tuple(self._allowed(f, t, led) for led in range(4))
                                   for t in range(4)) for f in range(3))

    def _suit(self, card: int, trump: int) -> int:
        if card >= DECK_SIZE or (self.off_jack and card == off_jack_of(trump)):
            return trump  # T2, T3: jokers and the off-jack are trumps
        return _SUIT_OF_CARD[card]

    def _trump_order(self, trump: int) -> tuple[int, ...]:
        """T3: 2 … 10 of trump, the jokers (low, high), the off-jack, then J Q K A."""
        base = trump * 13
        order = [base + r for r in range(_JACK)]
        order += self.jokers
        if self.off_jack:
            order.append(off_jack_of(trump))
        order += [base + r for r in range(_JACK, 13)]
        return tuple(order)

    def _strength_row(self, trump: int, led: int) -> tuple[int, ...]:
        place = {c: i for i, c in enumerate(self.trump_order[trump])}
        row = []
        for card in range(DECK_SIZE + 2):
            suit = self.suit_of[trump][card]
            if suit == trump and card in place:
                row.append(100 + place[card])
            elif suit == led and card < DECK_SIZE:
                row.append(card % 13)
            else:
                row.append(-1)
        return tuple(row)

    def _allowed(self, follow: int, trump: int, led: int) -> int:
        """C6 / §7.8 with suits for following: 0 trump_anytime, 1 strict, 2 follow_trump_only."""
        masks = self.suit_masks[trump]
        if follow == 0:
            return masks[led] | masks[trump]
        if follow == 1 or led == trump:
            return masks[led]
        return self.mask

    def card_strength(self, card: int, trump: int, led: int) -> int:
        """C7: a card's power in a trick (see :func:`pitchcards.cards.card_strength`)."""
        return self.strength[trump][led][card]

    def trick_winner(self, cards: Sequence[int], trump: int) -> int:
        """C7: the index into ``cards`` (the lead first) of the card that wins the trick."""
        if not cards:
            raise ValueError("a trick needs at least one card")
        return strongest(cards, self.strength[trump][self.suit_of[trump][cards[0]]])

    def __repr__(self) -> str:
        return f"<DeckModel {self.deck} cards{' + off-jack' if self.off_jack else ''}>"


@functools.cache
def _model(deck: int, off_jack: bool) -> DeckModel:
    return DeckModel(deck, off_jack)


def deck_model(rules: RuleSet) -> DeckModel:
    """The deck model of a rule set (built once per ``(deck, off_jack)`` pair)."""
    return _model(rules.deck, rules.off_jack)


#: The 52-card deck of C1 with no off-jack: the four-point game.
CLASSIC = _model(DECK_SIZE, False)
