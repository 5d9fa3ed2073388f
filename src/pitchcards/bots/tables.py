"""Per-trump card tables for the bots, read from the rules' :class:`~pitchcards.deck.DeckModel`.

The four-point game's cards have a printed suit and rank; in the ten-point family the jokers and
the off-jack belong to trump and rank by the trump order (T1-T3).  A :class:`Tables` gives each
card (0..53) what the bots' card play reads, once trump is known:

* ``suit_of``: its suit for following (T2, T3);
* ``rank``: its place in the trump order for a trump, its printed rank otherwise (in the 52-card
  game without an off-jack both are the printed rank, so the old tables come back exactly);
* ``above`` / ``below``: the cards of the same suit for following that beat it / that it beats;
* ``special``: the cards whose capture scores a point (the jack; T7: the off-jack, the jokers
  and the three of trumps) and ``worth`` their points.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..cards import DECK_SIZE, GAME_VALUE, MAX_CARDS
from ..deck import DeckModel, deck_model
from ..rules import RuleSet
from ..scoring import extra_point_cards

__all__ = ["COUNT", "Tables", "capture_points", "tables"]

#: Game count of each card (C9, T7): A 4, K 3, Q 2, J 1 (the off-jack too), 10 10, jokers 0.
COUNT = tuple(GAME_VALUE[c % 13] if c < DECK_SIZE else 0 for c in range(MAX_CARDS))
_JACK = 9


@dataclass(frozen=True, slots=True)
class Tables:
    """What each card is once ``trump`` is trump (see the module docstring)."""

    model: DeckModel
    trump: int
    suit_of: tuple[int, ...]
    rank: tuple[int, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]
    suits: tuple[int, ...]
    tmask: int
    full: int
    jack: int
    special: int
    worth: tuple[int, ...]


def capture_points(rules: RuleSet, trump: int) -> dict[int, int]:
    """T7: the cards whose capturer scores, and their points (the jack of trumps always)."""
    out = {13 * trump + _JACK: 1}
    out.update((card, value) for _, card, value in extra_point_cards(rules, trump))
    return out


def tables(rules: RuleSet, trump: int) -> Tables:
    """The tables of ``rules``' deck with ``trump`` as trump (built once per kind of rules)."""
    return _tables(rules.deck, rules.off_jack, rules.extra_points, trump)


@functools.cache
def _tables(deck: int, off_jack: bool, extra: str, trump: int) -> Tables:
    rules = RuleSet(name="tables", deck=deck, off_jack=off_jack, extra_points=extra)
    model = deck_model(rules)
    suit_of = model.suit_of[trump]
    place = {c: i for i, c in enumerate(model.trump_order[trump])}
    rank = tuple(place[c] if c in place else c % 13 for c in range(MAX_CARDS))
    cards = [c for c in range(MAX_CARDS) if model.mask >> c & 1]
    above = [0] * MAX_CARDS
    below = [0] * MAX_CARDS
    for c in cards:
        for d in cards:
            if d != c and suit_of[d] == suit_of[c]:
                if rank[d] > rank[c]:
                    above[c] |= 1 << d
                else:
                    below[c] |= 1 << d
    points = capture_points(rules, trump)
    special = sum(1 << c for c in points)
    worth = tuple(points.get(c, 0) for c in range(MAX_CARDS))
    return Tables(model, trump, suit_of, rank, tuple(above), tuple(below),
                  model.suit_masks[trump], model.suit_masks[trump][trump], model.mask,
                  13 * trump + _JACK, special, worth)
