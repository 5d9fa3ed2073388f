"""Entered hands agree with played hands (issue 16): for random played hands of every variant,
entering their outcome instead gives the same scores, stars, ledger, payouts and winner."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import pitchcards as pc
from pitchcards.outcome import EnteredHand, Outcome
from test_properties import OPTION_CHOICES as ENGINE_CHOICES

# The four-point variants: a ten-point hand is played, never entered by its outcome (T7).
# The scorekeeper keeps four-point games with fixed sides: not the ten-point family, nor a
# partner called each hand (an outcome does not name the partner: CP3).
VARIANT_NAMES = sorted(name for name, rules in pc.VARIANTS.items()
                       if not rules.is_ten_point and not rules.calls_partner)

OPTION_CHOICES = {
    **ENGINE_CHOICES,
    "moon": ["none", "moon", "smudge", "smudge_wins"],
    "moon_must_be_bid": [True, False],
    "pitcher_set_keeps_points": [True, False],
    "win_rule": ["bidder_goes_out", "first_to_target_HLJG_order", "pitcher_counted_first",
                 "higher_score"],
    "min_bid": [1, 2, 3, 4],
}
MONEY_CHOICES = {
    "money": ["per_point_vs_average", "per_point_flat"],
    "average_mode": ["per_hand", "snapshot"],
    "join_score": ["zero", "table_average"],
    "moon": ["none", "moon", "smudge"],
    "moon_must_be_bid": [True, False],
    "all_pass": ["force_dealer_exact2", "force_dealer_atleast2", "redeal",
                 "eldest_pitches_no_contract"],
    "game_tie": ["no_point", "elder_hand", "pitcher"],
    "low_to": ["capturer", "holder"],
}


@st.composite
def match_rules(draw: st.DrawFn) -> pc.RuleSet:
    rules = pc.find_variant(draw(st.sampled_from([v for v in VARIANT_NAMES if v != "money"])))
    changes = {name: draw(st.sampled_from(values))
               for name, values in OPTION_CHOICES.items() if draw(st.booleans())}
    if changes.get("min_bid", 1) > 2 and rules.replace(**changes).all_pass.startswith("force"):
        changes["min_bid"] = 2
    return rules.replace(target=draw(st.sampled_from([5, 11, 21])), **changes)


@st.composite
def money_rules(draw: st.DrawFn) -> pc.RuleSet:
    changes = {name: draw(st.sampled_from(values))
               for name, values in MONEY_CHOICES.items() if draw(st.booleans())}
    return pc.find_variant("money").replace(**changes)


def _play(session: pc.Match | pc.MoneySession, rng: random.Random) -> pc.Hand:
    hand = session.deal()
    while hand.seat_to_act is not None:
        session.push(rng.choice(hand.legal_actions()))
    return hand


def _state(s: pc.Match | pc.MoneySession) -> object:
    if isinstance(s, pc.Match):
        return (s.scores, s.winner, s.next_dealer, [r.deltas for r in s.results],
                [(r.made, r.moon, r.pitcher, r.bid) for r in s.results])
    return (s.scores, s.stars, s.ledger, s.payouts, s.payout_cents, s.next_dealer,
            s.tie_order(), s.settle_cents(), s.pot, [r.deltas for r in s.results],
            [(r.made, r.moon, r.pitcher, r.bid) for r in s.results])


@settings(max_examples=60, deadline=None)
@given(rules=match_rules(), seed=st.integers(0, 2**32), players=st.integers(2, 7),
       by_points=st.booleans(), winner_only=st.booleans())
def test_entered_match_hands_score_as_played(rules: pc.RuleSet, seed: int, players: int,
                                             by_points: bool, winner_only: bool) -> None:
    low, high = rules.player_range
    players = min(max(players, low), high)
    rng = random.Random(seed)
    played = pc.Match(rules, players, dealer=seed % players, seed=seed)
    entered = pc.Match(rules, players, dealer=seed % players)
    # Points alone cannot say who reached the target first under the H-L-J-G win rules.
    by_points = by_points and rules.win_rule in ("bidder_goes_out", "higher_score")
    for _ in range(12):
        if played.is_over:
            break
        hand = _play(played, rng)
        outcome = Outcome.of(hand, points=by_points)
        if winner_only and hand.pitcher is not None and hand.result is not None \
                and not hand.result.thrown_in:
            outcome = Outcome(trump=outcome.trump, bidder=hand.pitcher,
                              bid=hand.result.bid, high=outcome.high, low=outcome.low,
                              jack=outcome.jack, game=outcome.game,
                              game_tied=outcome.game_tied, points=outcome.points,
                              swept=outcome.swept)
        got = entered.enter(outcome)
        assert isinstance(got, EnteredHand)
        assert got.result is not None and hand.result is not None
        assert got.result.deltas == hand.result.deltas
        assert _state(entered) == _state(played)
    text = pc.write_record(entered)
    again = pc.replay(pc.read_record(text))
    assert pc.write_record(again) == text and _state(again) == _state(entered)


@settings(max_examples=60, deadline=None)
@given(rules=money_rules(), seed=st.integers(0, 2**32), players=st.integers(2, 8),
       steps=st.lists(st.sampled_from(["hand", "hand", "hand", "join", "leave"]),
                      min_size=1, max_size=14),
       mixed=st.lists(st.booleans(), min_size=14, max_size=14))
def test_entered_money_hands_score_as_played(rules: pc.RuleSet, seed: int, players: int,
                                             steps: list[str], mixed: list[bool]) -> None:
    """Mixing played and entered hands, with joins and leaves: the same money to the cent."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    played = pc.MoneySession(rules, names, dealer=seed % players, seed=seed)
    entered = pc.MoneySession(rules, names, dealer=seed % players, seed=seed)
    joined = 0
    for step, play_it in zip(steps, mixed, strict=False):
        if played.is_over:
            break
        if step == "join" and len(played.players) < 8:
            joined += 1
            played.join(f"J{joined}")
            entered.join(f"J{joined}")
        elif step == "leave":
            who = rng.choice(played.players)
            assert played.leave(who) == entered.leave(who)
        else:
            hand = _play(played, rng)
            if play_it:  # the same cards, played again: entered and played hands mix
                copy = entered.deal(cards=[pc.format_cards(m) for m in hand.dealt])
                for _, action in hand.history:
                    entered.push(action)
                assert copy.result == hand.result
            else:
                entered.enter(Outcome.of(hand))
        assert _state(entered) == _state(played)
    if not played.is_over:
        assert played.settle() == entered.settle()
    assert _state(entered) == _state(played)
    assert sum(entered.payout_cents.values()) == pc.money.round_half_away(
        sum(entered.payouts.values(), start=pc.money.Fraction(0)))
    text = pc.write_record(entered)
    again = pc.replay(pc.read_record(text))
    assert pc.write_record(again) == text and _state(again) == _state(entered)


@settings(max_examples=40, deadline=None)
@given(rules=money_rules(), seed=st.integers(0, 2**32), players=st.integers(2, 8),
       hands=st.integers(1, 5))
def test_undoing_entered_hands_restores_everything(rules: pc.RuleSet, seed: int,
                                                   players: int, hands: int) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    played = pc.MoneySession(rules, names, dealer=0, seed=seed)
    entered = pc.MoneySession(rules, names, dealer=0)
    before = [(_state(entered), pc.write_record(entered))]
    for _ in range(hands):
        entered.enter(Outcome.of(_play(played, rng)))
        before.append((_state(entered), pc.write_record(entered)))
    for _ in range(hands):
        before.pop()
        entered.pop()
        assert (_state(entered), pc.write_record(entered)) == before[-1]
