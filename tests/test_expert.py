"""The expert bot's parts: the deal sampler, the exact solver, the bot, hints and the oracle."""

from __future__ import annotations

import dataclasses
import importlib
import random
import sys
import types

import pytest

import pitchcards as pc
from helpers import random_positions
from pitchcards import _fast
from pitchcards.actions import PASS
from pitchcards.bots import BOTS, heuristic, make_bot, policy
from pitchcards.bots.expert import Budget, ExpertBot
from pitchcards.bots.hints import suggest
from pitchcards.bots.oracle import OracleBot
from pitchcards.bots.sampler import evidence_of, sample_worlds
from pitchcards.bots.solver import Solver
from pitchcards.bots.utility import Utility
from pitchcards.views import View, view_of

TINY = Budget(worlds=3, bid_worlds=4, solve_cards=8, max_nodes=3000, time_limit=0.5)
FOLLOW = ("trump_anytime", "strict_follow", "follow_trump_only")


def _rules(variant: str, follow: str) -> pc.RuleSet:
    return pc.find_variant(variant).replace(follow_rule=follow)


@pytest.mark.parametrize("follow", FOLLOW)
@pytest.mark.parametrize("variant,players", [("auction", 3), ("auction", 5),
                                             ("auction-partners", 4), ("money", 4),
                                             ("setback", 4)])
def test_sampler_never_contradicts_the_view(variant: str, players: int, follow: str) -> None:
    rules = _rules(variant, follow)
    rng = random.Random(7)
    for seed in range(4):
        for h in random_positions(rules, players, seed):
            seat = h.seat_to_act
            assert seat is not None
            view = view_of(h, seat)
            for world in sampled_and_checked(h, view, rng):
                assert world.dealt[seat] == view.dealt_mask


def sampled_and_checked(h: pc.Hand, view: pc.View, rng: random.Random,
                        count: int = 3) -> list[pc.Hand]:
    """Worlds sampled for ``view`` (of the true hand ``h``), each checked against the view: the
    same public point, the seat sees exactly its view, every seat holds its number of cards,
    none played, none in a proven void, a pitched card still held."""
    ev = evidence_of(view)
    for s in range(view.players):  # the evidence is sound: the true deal satisfies it
        assert not h.hand_of(s) & ev.voids[s]
    worlds = sample_worlds(view, count, rng)
    for world in worlds:
        assert view_of(world, view.seat) == view
        for s in range(view.players):
            held = world.hand_of(s)
            assert held.bit_count() == view.hand_sizes[s]
            assert not held & view.played_mask
            assert not held & ev.voids[s], "a proven void holds a card"
            assert held & ev.held[s] == ev.held[s]
        assert world.hand_of(view.seat or 0) == view.hand_mask
    return worlds


def test_sampler_respects_a_pitched_card_and_a_discard() -> None:
    cards = ["AS 2S 3H 4H 5D 6D", "KH QH JH TH 9H 8H", "AC KC QC JC TC 9C", "AD KD QD JD TD 9D"]
    rules = pc.find_variant("auction").replace(dealer_steal="equal_any_incl_pitched")
    h = pc.Hand.deal(rules, 4, dealer=0, cards=cards)
    h.push("pitch KH")  # seat 1 pitches; the dealer (seat 0) then steals the 4
    h.push("bid 4")
    assert h.pitcher == 0
    h.push("play 5D")  # diamonds are trump
    h.push("play 8H")  # seat 1: neither diamonds nor trump... it is void in diamonds
    view = view_of(h, 2)
    for w in sample_worlds(view, 30, random.Random(1)):
        assert w.hand_of(1) >> pc.parse_card("KH") & 1, "seat 1 still holds its pitched card"
        assert not w.hand_of(1) & (0x1FFF << 13), "seat 1 proved a diamond void"
        assert view_of(w, 2) == view


def _brute(h: pc.Hand, side: int, util: Utility) -> float:
    if h.result is not None:
        return util(h.result)
    seat = h.seat_to_act
    assert seat is not None
    vals = []
    for a in h.legal_actions():
        h.push_unchecked(a)
        vals.append(_brute(h, side, util))
        h.pop()
    return max(vals) if h.side_of(seat) == side else min(vals)


@pytest.mark.parametrize("follow", FOLLOW)
@pytest.mark.parametrize("variant", ["auction-partners", "auction"])
def test_solver_is_exact_on_small_endgames(variant: str, follow: str) -> None:
    rules = _rules(variant, follow)
    rng = random.Random(3)
    checked = 0
    for seed in range(25):
        h = pc.Hand.deal(rules, 4, dealer=seed % 4, seed=100 + seed)
        while h.phase == "auction" or len(h.completed_tricks()) < 4:
            acts = h.legal_actions()
            h.push(acts[int(rng.random() * len(acts))])
        for _ in range(seed % 4):
            acts = h.legal_actions()
            h.push(acts[int(rng.random() * len(acts))])
        seat = h.seat_to_act
        assert seat is not None
        side = h.side_of(seat)
        util = Utility(rules, side, 4, [seed % 7, 5] if rules.partnership_mode else None)
        values = Solver(h, side, util).action_values()
        assert set(values) == set(h.legal_actions())
        for a, v in values.items():
            h.push_unchecked(a)
            assert _brute(h, side, util) == pytest.approx(v)
            h.pop()
            checked += 1
    assert checked > 25


@pytest.mark.parametrize("follow", FOLLOW)
@pytest.mark.parametrize("variant,players", [("auction", 3), ("auction-partners", 4),
                                             ("money", 5), ("setback", 4)])
def test_expert_plays_legal_actions_in_every_variant(variant: str, players: int,
                                                     follow: str) -> None:
    rules = _rules(variant, follow)
    bot = ExpertBot(1, TINY)
    h = pc.Hand.deal(rules, players, dealer=1, seed=11)
    scores = [0] * (2 if rules.partnership_mode else players)
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        view = view_of(h, seat, scores=scores if rules.target is not None else None)
        action = bot.choose(view)
        assert action in view.legal_actions
        h.push(action)


@pytest.mark.skipif(_fast.compiled(), reason="the compiled build binds calls between its modules "
                    "when built: a monkeypatch cannot reach them (scripts/test.sh runs this "
                    "module on the pure build too)")
def test_a_broken_rollout_policy_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    # No silent fallback: an error in the heuristic's card play reaches the caller.
    def broken(*args: object, **kwargs: object) -> int:
        raise RuntimeError("broken heuristic")

    monkeypatch.setattr(heuristic, "choose_card", broken)
    h = pc.Hand.deal(pc.find_variant("auction-partners"), 4, dealer=0, seed=3)
    h.push("bid 2")
    while h.phase == "auction":
        h.push("pass")
    seat = h.seat_to_act
    assert seat is not None
    with pytest.raises(RuntimeError, match="broken heuristic"):
        ExpertBot(1, TINY).choose(view_of(h, seat))


def test_a_broken_heuristic_module_is_not_replaced_silently(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The rollout policy once fell back to a built-in one when the heuristic failed to load.
    broken = types.ModuleType("pitchcards.bots.heuristic")  # no rollout_action
    monkeypatch.setitem(sys.modules, "pitchcards.bots.heuristic", broken)
    try:
        with pytest.raises(ImportError):
            importlib.reload(policy)
    finally:
        monkeypatch.undo()
        importlib.reload(policy)
    assert policy.rollout_action is heuristic.rollout_action


def test_registered_levels() -> None:
    assert isinstance(make_bot("expert", 1), ExpertBot)
    assert isinstance(make_bot("hard", 1), ExpertBot)
    assert isinstance(make_bot("oracle", 1), OracleBot)


def test_suggest_gives_a_legal_action_and_a_reason() -> None:
    rules = pc.find_variant("auction-partners")
    h = pc.Hand.deal(rules, 4, dealer=0, seed=5)
    while not h.is_over:
        seat = h.seat_to_act
        assert seat is not None
        view = view_of(h, seat, scores=[3, 4])
        action, reason = suggest(view, TINY)
        assert action in view.legal_actions
        assert isinstance(reason, str) and reason.strip()
        h.push(action)


def test_the_oracle_is_the_only_bot_that_sees_all() -> None:
    seeing = [name for name, factory in BOTS.items() if factory(0).sees_all]
    assert seeing == ["oracle"]
    rules = pc.find_variant("auction-partners")
    oracle = OracleBot(0)
    h = pc.Hand.deal(rules, 4, dealer=0, seed=9)
    while not h.is_over:
        action = oracle.choose_open(h)
        assert action in h.legal_actions()
        h.push(action)


def _first_bid(variant: str, players: int, seed: int,
               scores: tuple[int, ...] | None = None) -> View:
    """The view of the first seat to bid in a hand dealt by seat 0 from ``seed``."""
    h = pc.Hand.deal(pc.find_variant(variant), players, dealer=0, seed=seed)
    seat = h.seat_to_act
    assert seat is not None
    return view_of(h, seat, scores=scores)


def test_the_auction_race_spends_worlds_only_on_close_choices() -> None:
    """``bid_worlds_max``: candidates within ``race_z`` paired standard errors of the best get
    fresh worlds, batch by batch, up to the maximum; the others keep their first estimate, and
    the choice is the best of the values it reports."""
    view = _first_bid("auction-partners", 4, seed=12)
    base = Budget(bid_worlds=8, time_limit=1e9)
    one_batch = ExpertBot(1, base).analyse(view)
    assert one_batch.worlds == 8
    everyone = ExpertBot(1, dataclasses.replace(base, bid_worlds_max=40, race_z=1e9)).analyse(view)
    assert everyone.worlds == 40  # no one is ever clear at z = 1e9: five batches
    assert {len(xs) for xs in everyone.per.values()} == {40}
    assert everyone.per[everyone.best][:8] == one_batch.per[one_batch.best][:8]  # same first batch
    nobody = ExpertBot(1, dataclasses.replace(base, bid_worlds_max=40, race_z=-1e9)).analyse(view)
    assert nobody.worlds == 8 and nobody.best == one_batch.best  # all clear after one batch
    some = ExpertBot(1, dataclasses.replace(base, bid_worlds_max=64, race_z=1.0)).analyse(view)
    longest = max(len(xs) for xs in some.per.values())
    assert some.worlds == longest <= 64
    assert some.best == max((a for a, xs in some.per.items() if len(xs) == longest),
                            key=lambda a: some.values[a])
    for a, xs in some.per.items():
        assert some.values[a] == pytest.approx(sum(xs) / len(xs))


def _first_lead(variant: str, players: int, seed: int) -> View:
    """The view of the first card-play decision, after a heuristic auction, of a hand dealt by
    seat 0 from ``seed``."""
    h = pc.Hand.deal(pc.find_variant(variant), players, dealer=0, seed=seed)
    while h.phase != "play":
        h.push(heuristic.rollout_action(h))
    seat = h.seat_to_act
    assert seat is not None
    return view_of(h, seat)


@pytest.mark.parametrize("variant,players", [("auction-partners", 4), ("auction", 3)])
def test_the_card_play_race_spends_worlds_only_on_close_cards(variant: str,
                                                              players: int) -> None:
    """``worlds_max``: the auction's race in the card play, ``worlds`` at a time; the choice
    is the best of the values it reports and the clear losers keep their first estimate."""
    view = _first_lead(variant, players, seed=5)
    assert len(view.legal_actions) > 2
    base = Budget(worlds=8, time_limit=1e9)
    one_batch = ExpertBot(1, base).analyse(view)
    assert one_batch.worlds == 8
    everyone = ExpertBot(1, dataclasses.replace(base, worlds_max=32, race_z=1e9)).analyse(view)
    assert everyone.worlds == 32
    assert everyone.per[everyone.best][:8] == one_batch.per[everyone.best][:8]
    nobody = ExpertBot(1, dataclasses.replace(base, worlds_max=32, race_z=-1e9)).analyse(view)
    assert nobody.worlds == 8 and nobody.best == one_batch.best
    some = ExpertBot(1, dataclasses.replace(base, worlds_max=48, race_z=1.0)).analyse(view)
    longest = max(len(xs) for xs in some.per.values())
    assert some.worlds == longest <= 48
    assert some.best == max((a for a, xs in some.per.items() if len(xs) == longest),
                            key=lambda a: some.values[a])
    assert all(len(xs) in (8, 16, 24, 32, 40, 48) for xs in some.per.values())


def test_the_ten_point_card_play_keeps_one_batch() -> None:
    """The ten-point family's card play does not race (its long hands keep one batch of worlds,
    guarded by ``ten_point_guard``), whatever ``worlds_max`` says."""
    view = _first_lead("ten-point", 4, seed=5)
    racing = Budget(worlds=8, worlds_max=32, race_z=1e9, time_limit=1e9)
    assert ExpertBot(1, racing).analyse(view).worlds == 8


def test_a_card_worth_the_same_as_the_best_in_every_world_does_not_race() -> None:
    """Two cards of equal value in every sampled world (the 2 and the 3 of a suit no one can
    win with) are not contenders: more worlds could never part them."""
    from pitchcards.bots.expert import _contenders

    per = {1: [1.0, 0.0, 2.0], 2: [1.0, 0.0, 2.0], 3: [0.9, 0.1, 1.5], 4: [-3.0, -3.0, -3.1]}
    assert _contenders(1, per, 2.0) == [1, 3]
    assert _contenders(1, per, 1e9) == [1, 3, 4]


@pytest.mark.parametrize("variant,players", [("auction-partners", 4), ("auction", 3),
                                             ("ten-point", 4)])
def test_a_deep_rollout_hands_the_last_cards_to_the_solver(variant: str, players: int) -> None:
    """``deep_cards``: in the card play the policy plays until that many cards are left and
    the rest is solved exactly: the value is the solver's there, the point margin the
    policy's to the end, and the world is left as it was."""
    from pitchcards.bots.expert import _rollout

    rules = pc.find_variant(variant)
    deep = Budget(deep_cards=2 * players)
    checked = 0
    for seed in range(6):
        for h in random_positions(rules, players, seed):
            if h.phase != "play" or sum(h.hand_of(s).bit_count()
                                        for s in range(players)) <= deep.deep_cards + 2:
                continue
            side = h.side_of(h.seat_to_act)
            util = Utility(rules, side, players)
            history = h.history
            value, margin = _rollout(h, util, deep, side)
            assert h.history == history
            stopped = h.copy()
            heuristic.playout(stopped, deep.deep_cards)
            assert sum(stopped.hand_of(s).bit_count() for s in range(players)) \
                == deep.deep_cards
            assert value == Solver(stopped, side, util, deep.max_nodes).value()
            whole = h.copy()
            heuristic.playout(whole)
            assert whole.history[:len(stopped.history)] == stopped.history
            assert whole.result is not None and margin == util.points(whole.result)
            checked += 1
            break
    assert checked >= 4


@pytest.mark.parametrize("variant,players,scores", [("auction-partners", 4, None),
                                                    ("auction-partners", 4, (3, 5)),
                                                    ("auction", 3, (2, 6, 0)), ("money", 4, None)])
def test_the_bid_bias_takes_points_off_each_bid_by_its_level(
        variant: str, players: int, scores: tuple[int, ...] | None) -> None:
    """``bid_bias``: over the same worlds, every bid's value is the unbiased one less the bias
    times its level (a pitch bids 4) in the utility's units, its point margin less the bias in
    points; a pass is untouched, and the choice is the best of the reported values."""
    from pitchcards.bots.bid_model import level_of

    rules = pc.find_variant(variant)
    view = _first_bid(variant, players, seed=5, scores=scores)
    seat = view.seat
    assert seat is not None
    base = Budget(bid_worlds=6, time_limit=1e9, win_table=True)
    plain = ExpertBot(3, base).analyse(view)
    biased = ExpertBot(3, dataclasses.replace(base, bid_bias=0.25)).analyse(view)
    util = Utility(rules, view.side_of(seat), players, scores, win_table=True)
    assert (util.per_point() == 1.0) == (scores is None)
    assert 0.002 < util.per_point() < 0.5 or scores is None
    assert PASS in plain.values and len(plain.values) >= 3
    for a, value in plain.values.items():
        off = 0.25 * level_of(a)
        assert biased.values[a] == pytest.approx(value - off * util.per_point())
        assert biased.points[a] == pytest.approx(plain.points[a] - off)
    assert biased.best == max(biased.values, key=lambda a: biased.values[a])


def test_the_bid_bias_is_off_in_the_ten_point_family() -> None:
    """The calibration was measured on four-point games: ten-point bids (5 to 10) keep their
    rolled-out values."""
    view = _first_bid("ten-point", 4, seed=5)
    base = Budget(bid_worlds=4, time_limit=1e9)
    plain = ExpertBot(3, base).analyse(view)
    biased = ExpertBot(3, dataclasses.replace(base, bid_bias=0.5)).analyse(view)
    assert biased.values == plain.values
