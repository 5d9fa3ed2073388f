"""Fuzzing the engine's public API (issue 9): random and mutated arguments of every kind.

Ints, floats, bools, None, strings (huge ones too), bytes, nested lists and generators go into
``Hand.deal``, ``Hand.push/is_legal/redeal/hand_of/view``, ``parse_card(s)``, ``parse_action``,
``find_variant``, ``RuleSet.replace``, ``Match(...)``, ``MoneySession(...)`` and ``join``/
``leave``.  Nothing may raise anything but the ``PitchError`` family (a ``TypeError`` for a
wrong argument type is a failure), a refused call changes nothing, and no call hangs (a 30 s
guard).  No hypothesis ``deadline``: a limit in milliseconds fails on a loaded machine, not on
slow code (issue 27); the engine's speed is measured in benchmarks/.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pitchcards as pc
from helpers import state
from pitchcards import hand as hand_module

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
VARIANTS = [pc.find_variant(name) for name in pc.VARIANTS]
OPTIONS = [f.name for f in dataclasses.fields(pc.RuleSet)] + ["bid_values", "forced_dealer_bid"]
ACTION_TEXTS = ["pass", "bid 2", "bid moon", "pitch QH", "play QH", "play 10♠", "bid 4"]

HUGE = ["x" * 1_000_000, "9" * 100_000, "1e99999999999", "AS " * 100_000,
        "play " + "Q" * 10**5]
#: Ints too long to print (``repr`` refuses past 4300 digits), made lazily: hypothesis prints
#: its strategies.
huge_int = st.sampled_from([1, -1]).map(lambda sign: sign * 10**5000)
scalar = st.one_of(
    st.integers(-10, 120), st.integers(), st.floats(), st.booleans(), st.none(),
    st.text(max_size=20), st.sampled_from(HUGE), huge_int, st.binary(max_size=10),
    st.sampled_from([*ACTION_TEXTS, "AS", "10h", "Q♥", "auction", "money", "0.25", "1/4"]),
    st.fractions(),
)
junk = st.recursive(
    scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=8), st.tuples(inner, inner),
        st.lists(inner, max_size=6).map(lambda xs: (x for x in xs)),  # a generator
        st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=20)
seat_like = st.one_of(st.integers(-2, 9), junk)


def quick(call: Callable[[], Any]) -> Any:
    """Run ``call``: a result, or None after a PitchError; never a hang."""
    start = time.perf_counter()
    try:
        return call()
    except pc.PitchError:
        return None
    finally:
        assert time.perf_counter() - start < 30, "hangs"  # a hang guard, not a speed claim


def cache_is_clean() -> bool:
    return all(type(k) is int for key in hand_module._DEAL_ORDERS for k in key)


def a_hand(seed: int, steps: int) -> pc.Hand:
    r = random.Random(seed)
    rules = VARIANTS[seed % len(VARIANTS)]
    low, high = rules.player_range
    h = pc.Hand.deal(rules, r.randint(low, high), 0, seed=seed)
    for _ in range(steps):
        if h.seat_to_act is None:
            break
        h.push(r.choice(h.legal_actions()))
    return h


def full_state(h: pc.Hand) -> tuple[Any, ...]:
    return (*state(h), h.dealt, [h.tricks_won(s) for s in range(h.players)])


@SETTINGS
@given(rules=st.one_of(st.sampled_from(VARIANTS), junk), players=st.one_of(st.integers(0, 9), junk),
       dealer=seat_like, seed=st.one_of(st.integers(), junk),
       cards=st.one_of(st.none(), junk, st.lists(st.one_of(st.text(max_size=20), junk),
                                                 min_size=2, max_size=8)))
def test_deal_takes_anything(rules: Any, players: Any, dealer: Any, seed: Any, cards: Any) -> None:
    h = quick(lambda: pc.Hand.deal(rules, players, dealer, seed=seed, cards=cards))
    assert h is None or isinstance(h, pc.Hand)
    assert cache_is_clean()
    pc.Hand.deal(VARIANTS[1], 4, 1, seed=1)      # and dealing still works


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40),
       method=st.sampled_from(["push", "push_seat", "is_legal", "redeal", "hand_of", "view",
                               "tricks_won", "captured", "side_of"]),
       arg=st.one_of(junk, st.integers(0, 109), st.sampled_from(ACTION_TEXTS)), seat=seat_like)
def test_hand_calls_refuse_cleanly(seed: int, steps: int, method: str, arg: Any,
                                   seat: Any) -> None:
    h = a_hand(seed, steps)
    before = full_state(h)
    calls: dict[str, Callable[[], Any]] = {
        "push": lambda: h.push(arg),
        "push_seat": lambda: h.push(arg, seat=seat),
        "is_legal": lambda: h.is_legal(arg),
        "redeal": lambda: h.redeal(arg),
        "hand_of": lambda: h.hand_of(arg),
        "view": lambda: h.view(arg),
        "tricks_won": lambda: h.tricks_won(arg),
        "captured": lambda: h.captured(arg),
        "side_of": lambda: h.side_of(arg),
    }
    try:
        result = calls[method]()
    except pc.PitchError:
        assert full_state(h) == before          # a refused call changes nothing
        return
    if method == "is_legal":
        assert isinstance(result, bool)
        assert full_state(h) == before


@SETTINGS
@given(text=st.one_of(junk, st.sampled_from(ACTION_TEXTS)),
       edits=st.lists(st.tuples(st.integers(0, 40), st.text(max_size=3)), max_size=4))
def test_parsers_take_anything(text: Any, edits: list[tuple[int, str]]) -> None:
    if isinstance(text, str) and len(text) < 100:
        for i, piece in edits:                # mutate: insert a few characters
            text = text[:i] + piece + text[i:]
    for parse in (pc.parse_card, pc.parse_cards, pc.parse_action, pc.find_variant,
                  pc.card_name, pc.card_symbol, pc.format_cards, pc.round_cents):
        quick(lambda parse=parse: parse(text))
    quick(lambda: list(pc.cards.cards_of(text)))


@SETTINGS
@given(base=st.sampled_from(VARIANTS),
       changes=st.dictionaries(st.one_of(st.sampled_from(OPTIONS), st.text(max_size=8)),
                               st.one_of(junk, st.sampled_from(["0.25", "-1", "1e9999999"])),
                               max_size=3))
def test_replace_takes_anything(base: pc.RuleSet, changes: dict[str, Any]) -> None:
    result = quick(lambda: base.replace(**changes))
    assert result is None or isinstance(result, pc.RuleSet)


@SETTINGS
@given(rules=st.one_of(st.sampled_from(VARIANTS), junk), players=st.one_of(st.integers(0, 9), junk),
       dealer=st.one_of(st.none(), seat_like), seed=st.one_of(st.none(), st.integers(), junk),
       scores=st.one_of(st.none(), junk, st.lists(st.integers(-20, 20), max_size=8)),
       names=st.one_of(st.none(), junk, st.lists(st.text(max_size=6), max_size=8)))
def test_match_takes_anything(rules: Any, players: Any, dealer: Any, seed: Any, scores: Any,
                              names: Any) -> None:
    m = quick(lambda: pc.Match(rules, players, dealer=dealer, seed=seed, scores=scores,
                               names=names))
    if m is not None:
        assert isinstance(m.players, int) and len(m.names) == m.players
        quick(m.deal)
    assert cache_is_clean()


@SETTINGS
@given(players=st.one_of(junk, st.lists(st.text(max_size=8), max_size=9)),
       dealer=st.one_of(st.none(), seat_like), seed=st.one_of(st.none(), st.integers(), junk),
       moves=st.lists(st.tuples(st.sampled_from(["join", "leave", "play"]),
                                st.one_of(junk, st.sampled_from(["A", "B", "C", "Zed"]))),
                      max_size=6))
def test_money_session_takes_anything(players: Any, dealer: Any, seed: Any,
                                      moves: list[tuple[str, Any]]) -> None:
    s = quick(lambda: pc.MoneySession(pc.find_variant("money"), players, dealer=dealer,
                                      seed=seed))
    if s is None:
        s = pc.MoneySession(pc.find_variant("money"), ["A", "B", "C"], dealer=0, seed=1)
    for verb, arg in moves:
        before = (list(s.players), dict(s.scores), dict(s.payouts), list(s.events),
                  s.next_dealer, s.finished)
        if verb == "play":
            if quick(s.deal) is not None:
                h = s.hand
                assert h is not None
                while h.seat_to_act is not None:
                    s.push(h.legal_actions()[0])
            continue
        try:
            start = time.perf_counter()
            getattr(s, verb)(arg)
        except pc.PitchError:
            after = (list(s.players), dict(s.scores), dict(s.payouts), list(s.events),
                     s.next_dealer, s.finished)
            assert after == before
        finally:
            assert time.perf_counter() - start < 30, "hangs"  # a hang guard, not a speed claim
