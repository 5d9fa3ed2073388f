"""``expert-ismcts``: SO-ISMCTS on the expert's sampler."""

from __future__ import annotations

import inspect
import random

import pytest

import pitchcards as pc
from helpers import random_positions
from pitchcards.bots import BOTS, make_bot
from pitchcards.bots.ismcts import ISMCTSBot, ISMCTSBudget, redeal
from pitchcards.bots.sampler import build_world, evidence_of, sample_hidden
from pitchcards.views import view_of

TINY = ISMCTSBudget(iterations=12, time_limit=5.0, bid_time_limit=5.0, pimc_bidding=False)


def test_registered() -> None:
    assert "expert-ismcts" in BOTS
    assert isinstance(make_bot("expert-ismcts", seed=1), ISMCTSBot)
    pure = make_bot("expert-ismcts-pure", seed=1)
    assert isinstance(pure, ISMCTSBot) and not pure.budget.pimc_bidding


@pytest.mark.parametrize("variant,players", [("auction", 3), ("auction-partners", 4),
                                             ("money", 4), ("setback", 4), ("auction", 6)])
def test_legal_in_every_variant(variant: str, players: int) -> None:
    rules = pc.find_variant(variant)
    bot = ISMCTSBot(seed=3, budget=TINY)
    for seed in range(2):
        for h in random_positions(rules, players, seed):
            seat = h.seat_to_act
            assert seat is not None
            view = view_of(h, seat, scores=[0] * (2 if rules.partnership_mode else players)
                           if rules.target is not None else None)
            assert bot.choose(view) in view.legal_actions


@pytest.mark.parametrize("variant", ["auction-partners", "setback", "money"])
def test_pimc_bidding_is_legal(variant: str) -> None:
    rules = pc.find_variant(variant)
    bot = ISMCTSBot(seed=2, budget=ISMCTSBudget(iterations=12, time_limit=0.05))
    for h in random_positions(rules, 4, 3):
        if h.phase != "auction":
            break
        view = view_of(h, h.seat_to_act)
        assert bot.choose(view) in view.legal_actions


@pytest.mark.parametrize("follow", ["trump_anytime", "strict_follow", "follow_trump_only"])
def test_redeal_equals_build_world(follow: str) -> None:
    rules = pc.find_variant("auction-partners").replace(follow_rule=follow)
    rng = random.Random(5)
    for h in random_positions(rules, 4, 11):
        seat = h.seat_to_act
        assert seat is not None
        view = view_of(h, seat)
        ev = evidence_of(view)
        got = sample_hidden(ev, rng)
        assert got is not None
        world = build_world(view, got[0], ev)
        other = sample_hidden(ev, rng)
        assert other is not None
        redeal(world, view, other[0], ev)
        fresh = build_world(view, other[0], ev)
        assert view_of(world, seat) == view
        for s in range(4):
            assert world.hand_of(s) == fresh.hand_of(s)
        assert world.dealt == fresh.dealt
        assert world.legal_actions() == fresh.legal_actions()


def test_decides_from_the_view_only() -> None:
    params = inspect.signature(ISMCTSBot.choose).parameters
    assert list(params) == ["self", "view"]
    assert not ISMCTSBot.sees_all
    h = pc.Hand.deal(pc.find_variant("auction-partners"), 4, dealer=0, seed=2)
    with pytest.raises(NotImplementedError):
        ISMCTSBot(seed=1).choose_open(h)


def test_deterministic_for_a_seed_and_iteration_cap() -> None:
    rules = pc.find_variant("auction-partners")
    for seed in (1, 4):
        views = [view_of(h, h.seat_to_act) for h in random_positions(rules, 4, seed)
                 if h.seat_to_act is not None]
        a = [ISMCTSBot(seed=9, budget=TINY).choose(v) for v in views]
        b = [ISMCTSBot(seed=9, budget=TINY).choose(v) for v in views]
        assert a == b


def test_plays_a_whole_match() -> None:
    rules = pc.find_variant("auction-partners")
    bots = [ISMCTSBot(seed=s, budget=TINY) for s in range(4)]
    h = pc.Hand.deal(rules, 4, dealer=1, seed=21)
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        h.push(bots[seat].choose(view_of(h, seat)))
    assert h.result is not None
