"""Hypothesis invariants of the engine: whatever the variant, options, deal and legal play."""

from __future__ import annotations

import os
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import pitchcards as pc
from helpers import HAND_SLOTS
from pitchcards.call_partner import hand_sides
from pitchcards.hand import Hand

VARIANT_NAMES = sorted(pc.VARIANTS)


def test_the_suite_tries_the_same_examples_on_every_run() -> None:
    """tests/conftest.py's profile: no property test of the test command fails by chance."""
    if os.environ.get("HYPOTHESIS_PROFILE", "suite") == "suite":
        assert settings.default.derandomize

OPTION_CHOICES = {
    "follow_rule": ["trump_anytime", "strict_follow", "follow_trump_only"],
    "low_to": ["capturer", "holder"],
    "game_tie": ["no_point", "elder_hand", "pitcher"],
    "dealer_steal": ["none", "equal_below_max", "equal_any_incl_pitched"],
    "all_pass": ["force_dealer_exact2", "force_dealer_atleast2", "redeal",
                 "eldest_pitches_no_contract"],
    "pass_is_final": [True, False],
    "auction": ["single_round", "continuous"],
}
# The ten-point family's own options (T1–T6), drawn on top of a ten-point variant.
TEN_POINT_CHOICES = {
    "deck": [53, 54],
    "off_jack": [True, False],
    "hand_size": [6, 7, 8, 9],
    "trump_selection": ["declare_then_lead_any", "declare_then_lead_trump"],
    "extra_points": ["off_jack_jokers", "off_jack_jokers_three"],
    "min_bid": [1, 2, 3, 4, 5],
}


@st.composite
def rulesets(draw: st.DrawFn) -> pc.RuleSet:
    rules = pc.find_variant(draw(st.sampled_from(VARIANT_NAMES)))
    changes = {name: draw(st.sampled_from(values))
               for name, values in OPTION_CHOICES.items() if draw(st.booleans())}
    if rules.is_ten_point:
        changes |= {name: draw(st.sampled_from(values))
                    for name, values in TEN_POINT_CHOICES.items() if draw(st.booleans())}
        if changes.get("hand_size", 9) * rules.max_players > changes.get("deck", 54):
            changes["max_players"] = changes.get("deck", 54) // changes.get("hand_size", 9)
            changes["min_players"] = min(rules.min_players, changes["max_players"])
    return rules.replace(**changes)


@st.composite
def random_hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    rules = draw(rulesets())
    low, high = rules.player_range
    players = draw(st.integers(low, high))
    dealer = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 2**32))
    return Hand.deal(rules, players=players, dealer=dealer, seed=seed), random.Random(seed)


def play_out(h: Hand, rng: random.Random) -> None:
    while h.seat_to_act is not None:
        h.push(rng.choice(h.legal_actions()))


# Derived caches that pop need not restore (they are rebuilt before they are read).
_CACHES = {"_strengths", "_allowed", "_stack", "_led_mask", "_suit_of", "_strength_rows",
           "_allowed_rows", "_suit_masks"}


def snapshot(h: Hand) -> dict[str, object]:
    state = {name: getattr(h, name) for name in HAND_SLOTS if name not in _CACHES}
    for name, value in state.items():
        if isinstance(value, list):
            state[name] = list(value)
    state["_stack"] = [entry[:2] for entry in h._stack]
    return state


@settings(max_examples=150, deadline=None)
@given(random_hands())
def test_every_hand_has_six_tricks_and_every_dealt_card_is_played_or_discarded_once(
        arg: tuple[Hand, random.Random]) -> None:
    h, rng = arg
    play_out(h, rng)
    assert h.result is not None
    if h.result.thrown_in:
        return
    tricks = h.completed_tricks()
    assert len(tricks) == 6
    played = [c for _, cards, _ in tricks for c in cards]
    assert len(played) == 6 * h.players == len(set(played))
    dealt = discarded = 0
    for s, mask in enumerate(h.dealt):
        assert mask.bit_count() == h.rules.hand_size
        assert h.discarded(s).bit_count() == h.rules.hand_size - 6  # T4: down to six
        assert not discarded & h.discarded(s)
        dealt |= mask
        discarded |= h.discarded(s)
    assert not discarded & sum(1 << c for c in played)
    assert sum(1 << c for c in played) | discarded == dealt
    assert all(h.hand_of(s) == 0 for s in range(h.players))
    assert sum(h.tricks_won(s) for s in range(h.players)) == 6


@settings(max_examples=150, deadline=None)
@given(random_hands())
def test_points_per_hand_at_most_the_rules_total_and_deltas_follow_the_points(
        arg: tuple[Hand, random.Random]) -> None:
    h, rng = arg
    play_out(h, rng)
    r = h.result
    assert r is not None
    assert all(p >= 0 for p in r.points)
    if r.thrown_in:
        assert r.deltas == (0,) * h.sides
        return
    # The sides that name themselves in the result: every side, or under call-your-partner
    # the hand's sides, each by a seat (CP6: the partner repeats the pitcher's figures).
    named = set(range(len(r.points))) if r.called is None else set(hand_sides(
        h.rules, h.players, r.pitcher, -1 if r.partner is None else r.partner))  # type: ignore[arg-type]
    points = {s: p for s, p in enumerate(r.points) if s in named}
    assert sum(points.values()) <= h.rules.points_total  # 4, or 10 in ten-point (T7)
    awarded = [s for s in (r.high, r.low, r.jack, r.game) if s is not None]
    awarded += [s for _, s, value in r.extra if s is not None for _ in range(value)]
    assert sorted(awarded) == sorted(s for s, p in points.items() for _ in range(p))
    assert sum(value for _, _, value in r.extra) + 4 == h.rules.points_total
    assert r.high is not None and r.low is not None  # C5: trump always exists
    pside = h.side_of(r.pitcher)  # type: ignore[arg-type]
    for side, delta in enumerate(r.deltas):
        if side != pside and side in named:
            assert delta == r.points[side]  # A-R6.3 / B-R6.6
    if not r.made:
        assert r.deltas[pside] < 0


@settings(max_examples=120, deadline=None)
@given(random_hands())
def test_pop_restores_exactly_and_copy_is_independent(arg: tuple[Hand, random.Random]) -> None:
    h, rng = arg
    states = [snapshot(h)]
    while h.seat_to_act is not None:
        action = rng.choice(h.legal_actions())
        twin = h.copy()
        h.push(action)
        assert snapshot(twin) == states[-1]  # pushing on h leaves the copy untouched
        twin.push(action)
        assert snapshot(twin) == snapshot(h)
        states.append(snapshot(h))
    while states[:-1]:
        states.pop()
        h.pop()
        assert snapshot(h) == states[-1]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(0, 2**32), st.integers(1, 12))
def test_per_hand_ledger_sums_to_zero_with_joins_and_leaves(players: int, seed: int,
                                                            hands: int) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    session = pc.MoneySession(pc.find_variant("money"), players=names, dealer=0, seed=seed)
    joined = 0
    paid = Fraction(0)
    for _ in range(hands):
        if session.finished:
            break
        hand = session.deal()
        while hand.seat_to_act is not None:
            session.push(rng.choice(hand.legal_actions()))
        assert sum(session.ledger.values()) + paid == 0
        roll = rng.random()
        if roll < 0.2 and len(session.players) < 8:
            joined += 1
            session.join(f"J{joined}")
        elif roll < 0.4:
            paid += session.leave(rng.choice(session.players))
            if session.finished:  # A-R8.5: one player left, the session settled itself
                break
        assert sum(session.ledger.values()) + paid == 0
    if not session.finished:
        session.settle()
    assert sum(session.payouts.values()) == 0
    assert session.pot == 0


@settings(max_examples=60, deadline=None)
@given(random_hands(), st.integers(0, 2**32))
def test_illegal_actions_are_refused_and_change_nothing(arg: tuple[Hand, random.Random],
                                                        seed: int) -> None:
    h, rng = arg
    while h.seat_to_act is not None:
        legal = set(h.legal_actions())
        before = snapshot(h)
        for action in rng.sample(pc.ACTIONS, 12):
            if action in legal:
                continue
            try:
                h.push(action)
            except pc.IllegalActionError as exc:
                assert exc.phase == h.phase and exc.seat == h.seat_to_act
                assert set(exc.legal) == {str(a) for a in legal}
            else:
                raise AssertionError(f"{action} was accepted but is not legal")
            assert snapshot(h) == before
        h.push(rng.choice(sorted(legal)))
