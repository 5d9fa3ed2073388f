"""The fast ``view_of`` (issue 35) builds exactly the view the old one built.

Differential test: on seeded random hands of every named variant at each of its table sizes, at
every step, for every seat and a spectator, :func:`pitchcards.views.view_of` and the pre-issue-35
``view_of`` kept in ``tests/views_reference.py`` give equal Views, field by field, of the same
types (tuples stay tuples), with scores, names, stars and money passed or not.  Also: a View
copies, deep-copies, pickles and is ``dataclasses.replace``-d alike on either build, and stays
frozen (the compiled build's View is a mypyc class, issue 35).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from fractions import Fraction

import pytest

import pitchcards as pc
from pitchcards.hand import Hand
from pitchcards.views import View, view_of
from views_reference import reference_view_of

TABLES = [(name, players) for name, rules in pc.VARIANTS.items()
          for players in range(rules.player_range[0], rules.player_range[1] + 1)]
HANDS = 4


def _same(fast: View, old: View) -> None:
    assert fast == old
    for field in dataclasses.fields(View):
        a, b = getattr(fast, field.name), getattr(old, field.name)
        assert a == b and type(a) is type(b), field.name


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_view_of_matches_the_reference_at_every_step_for_every_seat(
        variant: str, players: int) -> None:
    rules = pc.find_variant(variant)
    rng = random.Random(f"{variant}/{players}")
    sides = rules.side_count(players)
    for h in range(HANDS):
        hand = Hand.deal(rules, players, dealer=h % players, rng=rng)
        extra: dict[str, object] = {} if h == 0 else {
            "scores": [rng.randint(-30, 30) for _ in range(sides)],
            "names": [f"p{s}" for s in range(players)],
            "stars": [rng.randint(0, 2) for _ in range(players)],
            "money": [Fraction(rng.randint(-9, 9), 4) for _ in range(players)],
            "money_cents": [rng.randint(-900, 900) for _ in range(players)]}
        while True:
            for seat in (*range(players), None):
                _same(view_of(hand, seat, **extra),  # type: ignore[arg-type]
                      reference_view_of(hand, seat, **extra))  # type: ignore[arg-type]
            if hand.seat_to_act is None:
                break
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])


def test_a_view_copies_pickles_and_replaces_on_either_build() -> None:
    hand = Hand.deal(pc.find_variant("auction-partners"), 4, dealer=0, seed=3)
    while hand.phase == "auction":
        hand.push(hand.legal_actions()[-1])
    hand.push(hand.legal_actions()[0])
    view = view_of(hand, hand.seat_to_act, scores=[3, -2], names=["a", "b", "c", "d"])
    for twin in (copy.copy(view), copy.deepcopy(view), pickle.loads(pickle.dumps(view))):
        _same(twin, view)
        assert hash(twin) == hash(view)
    other = dataclasses.replace(view, scores=None)
    assert other.scores is None and other.trick == view.trick and other != view
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 0  # type: ignore[misc]
