"""The fitted bid model (issue 14): a likelihood of the auction given the cards, and its switch."""

from __future__ import annotations

import functools
import math
import random

import pytest

import pitchcards as pc
import test_expert
from helpers import random_positions
from pitchcards.bots.bid_model import fitted_likelihood
from pitchcards.bots.sampler import (
    bid_likelihood,
    sample_worlds,
    soft_evidence,
    ten_point_likelihood,
)
from pitchcards.views import view_of

STRONG = "AS KS QS JS 3S 2S"  # every point in spades
WEAK = "4H 5H 6D 7D 8C 9C"    # no A, K, Q, J, 10 or 2 anywhere
OTHERS = ("AH KH QH JH TH 9H", "AD KD QD JD TD 9D")


def _views(variant: str, players: int, seeds: range) -> list[tuple[pc.Hand, pc.View]]:
    """(a copy of the true hand, the view of the seat to act) at every auction and play point."""
    out = []
    for seed in seeds:
        for h in random_positions(pc.find_variant(variant), players, seed):
            if h.seat_to_act is not None and h.phase in ("auction", "play"):
                out.append((h.copy(), view_of(h, h.seat_to_act)))
    return out


def _likelihoods(action: str) -> tuple[float, float]:
    """The fitted likelihood of seat 0's ``action`` (seen by seat 1) when seat 0 holds the
    strong hand, and when it holds the weak one (the hands of seats 0 and 2 swapped)."""
    h = pc.Hand.deal(pc.find_variant("auction"), 4, dealer=3,
                     cards=[STRONG, OTHERS[0], WEAK, OTHERS[1]])
    h.push(action)
    view = view_of(h, 1)
    dealt = list(h.dealt)
    swapped = [dealt[2], dealt[1], dealt[0], dealt[3]]
    return fitted_likelihood(view, dealt), fitted_likelihood(view, swapped)


@pytest.mark.parametrize("variant,players", [("auction", 3), ("auction", 5),
                                             ("auction-partners", 4), ("money", 4),
                                             ("money", 6), ("setback", 4)])
def test_fitted_likelihood_is_a_positive_finite_weight(variant: str, players: int) -> None:
    for h, view in _views(variant, players, range(3)):
        like = fitted_likelihood(view, list(h.dealt))
        assert math.isfinite(like) and 0.0 < like <= 1.0


def test_a_high_bid_says_strong_and_a_pass_says_weak() -> None:
    strong, weak = _likelihoods("bid 3")
    assert strong > 10 * weak
    strong, weak = _likelihoods("pass")
    assert weak > 10 * strong


@pytest.mark.parametrize("variant,players", [("auction", 4), ("money", 6), ("setback", 4)])
def test_hand_set_is_bid_likelihood_exactly(variant: str, players: int) -> None:
    for h, view in _views(variant, players, range(2)):
        dealt = list(h.dealt)
        assert soft_evidence(view, "hand-set")(dealt) == bid_likelihood(view, dealt)
        assert soft_evidence(view, "fitted")(dealt) == fitted_likelihood(view, dealt)
    h, view = _views(variant, players, range(1))[-1]
    named = sample_worlds(view, 4, random.Random(5), bid_model="hand-set")
    default = sample_worlds(view, 4, random.Random(5))
    assert [w.dealt for w in named] == [w.dealt for w in default]


def test_the_ten_point_family_keeps_its_own_evidence() -> None:
    for h, view in _views("ten-point", 4, range(1))[:12]:
        dealt = list(h.dealt)
        assert soft_evidence(view, "fitted")(dealt) == ten_point_likelihood(view, dealt)


def test_an_unknown_bid_model_is_refused() -> None:
    _, view = _views("auction", 4, range(1))[0]
    with pytest.raises(ValueError, match=r"'learned'.*hand-set, fitted"):
        sample_worlds(view, 2, random.Random(1), bid_model="learned")
    with pytest.raises(ValueError, match="unknown bid model"):
        sample_worlds(view, 2, random.Random(1), soft=False, bid_model="")


@pytest.mark.parametrize("variant,players", [("auction", 3), ("auction", 5),
                                             ("auction-partners", 4), ("money", 4),
                                             ("setback", 4)])
def test_fitted_worlds_never_contradict_the_view(variant: str, players: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fitted = functools.partial(sample_worlds, bid_model="fitted")
    monkeypatch.setattr(test_expert, "sample_worlds", fitted)
    rules = pc.find_variant(variant)
    rng = random.Random(7)
    for seed in range(3):
        for h in random_positions(rules, players, seed):
            seat = h.seat_to_act
            assert seat is not None
            view = view_of(h, seat)
            for world in test_expert.sampled_and_checked(h, view, rng):
                assert world.dealt[seat] == view.dealt_mask
