"""Issue 35: the expert's thinking counted in work (``Budget.work``: positions pushed by its
rollouts and searched by its solver), so that a seed gives the same choice on any machine; the
wall clock (``time_limit``) only a safety net.  Small budgets and chosen deals: cheap."""

from __future__ import annotations

import dataclasses

import pytest

import pitchcards as pc
from pitchcards.analysis import AnalysisBudget
from pitchcards.bots import heuristic
from pitchcards.bots.expert import EXPERT, EXPERT_V1, SAFETY_NET, Budget, ExpertBot
from pitchcards.views import View, view_of

UNCAPPED = Budget(worlds=8, bid_worlds=8, solve_cards=0, time_limit=1e9)


def _view(variant: str, players: int, seed: int, phase: str) -> View:
    """The first decision in ``phase`` of a hand dealt by seat 0 from ``seed`` (heuristic
    play before it)."""
    h = pc.Hand.deal(pc.find_variant(variant), players, dealer=0, seed=seed)
    while h.phase != phase:
        h.push(heuristic.rollout_action(h))
    seat = h.seat_to_act
    assert seat is not None
    return view_of(h, seat)


@pytest.mark.parametrize("variant,phase", [("auction-partners", "auction"),
                                           ("auction-partners", "play"),
                                           ("ten-point", "auction"), ("ten-point", "play")])
def test_the_work_cap_stops_the_worlds_at_a_count(variant: str, phase: str) -> None:
    """Uncapped, every world is evaluated and the work is counted; capped below it, no world
    starts once the cap is spent (two always are), whatever the clock: the same analysis
    twice, and the worlds it did evaluate valued as the uncapped run valued them."""
    view = _view(variant, 4, seed=3, phase=phase)
    assert len(view.legal_actions) > 1
    full = ExpertBot(1, UNCAPPED).analyse(view)
    assert full.worlds == 8 and full.work > 0 and not full.clock
    cap = full.work // 3
    capped = ExpertBot(1, dataclasses.replace(UNCAPPED, work=cap)).analyse(view)
    assert 2 <= capped.worlds < 8 and capped.work >= cap and not capped.clock
    assert capped.work < full.work
    for a, xs in capped.per.items():
        assert xs == full.per[a][:capped.worlds]
    again = ExpertBot(1, dataclasses.replace(UNCAPPED, work=cap)).analyse(view)
    assert (again.best, again.values, again.work) == (capped.best, capped.values, capped.work)
    tiny = ExpertBot(1, dataclasses.replace(UNCAPPED, work=1)).analyse(view)
    assert tiny.worlds == 2


def test_the_ten_point_family_has_its_own_cap() -> None:
    """``ten_point_work`` caps the ten-point family in place of ``work``; the four-point games
    keep ``work``."""
    ten = _view("ten-point", 4, seed=3, phase="auction")
    full = ExpertBot(1, UNCAPPED).analyse(ten)
    capped = ExpertBot(1, dataclasses.replace(UNCAPPED, ten_point_work=full.work // 3,
                                              work=10**9)).analyse(ten)
    assert 2 <= capped.worlds < 8
    four = _view("auction-partners", 4, seed=3, phase="auction")
    assert ExpertBot(1, dataclasses.replace(UNCAPPED, ten_point_work=1)).analyse(four).worlds == 8


def test_the_race_stops_when_the_work_is_spent() -> None:
    """The card play's race (``worlds_max``) starts no batch once the work is spent, and a
    batch it started stops there too (after its first two worlds)."""
    view = _view("auction-partners", 4, seed=5, phase="play")
    racing = dataclasses.replace(UNCAPPED, worlds_max=32, race_z=1e9)
    everyone = ExpertBot(1, racing).analyse(view)
    assert everyone.worlds == 32
    one_batch = ExpertBot(1, UNCAPPED).analyse(view)
    capped = ExpertBot(1, dataclasses.replace(racing, work=one_batch.work + 1)).analyse(view)
    assert capped.worlds == 8 + 2 and capped.work < everyone.work


def test_the_clock_is_a_safety_net_that_says_when_it_stopped_a_decision() -> None:
    """A clock already run out stops after two worlds and says so (``clock``)."""
    view = _view("auction-partners", 4, seed=3, phase="auction")
    stopped = ExpertBot(1, dataclasses.replace(UNCAPPED, time_limit=-1.0)).analyse(view)
    assert stopped.worlds == 2 and stopped.clock


def test_the_expert_counts_its_work_and_expert_v1_and_analysis_do_not() -> None:
    """The default expert's budget is counted (worlds; in the ten-point family work too) with the
    clock far beyond it; ``expert-v1``
    (the yardstick) and ``pitch analyze`` (every candidate on every deal) have no cap."""
    assert EXPERT.ten_point_work > 0 and EXPERT.time_limit == SAFETY_NET
    assert EXPERT_V1.work == EXPERT_V1.ten_point_work == 0
    assert AnalysisBudget().expert().work == AnalysisBudget().expert().ten_point_work == 0
