"""Issue 9: bad input gets a documented error (``pc.PitchError``), names itself and changes nothing.

Each reproduction from the issue is a test here; the fuzz tests (test_fuzz_engine.py) try the
same boundaries with random input.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from typing import Any

import pytest

import pitchcards as pc
from helpers import rules, state
from pitchcards.errors import REASONS, SHOWN_LIMIT
from pitchcards.money import round_cents, round_half_away
from pitchcards.rules import parse_money

AUCTION = pc.find_variant("auction")
SUITS4 = ["AS KS QS JS TS 9S", "AH KH QH JH TH 9H", "AD KD QD JD TD 9D", "AC KC QC JC TC 9C"]


def refused(call: Any, error: type[pc.PitchError] = pc.PitchError,
            reason: str | None = None) -> pc.PitchError:
    """``call()`` raises ``error`` (with ``reason``, for an IllegalActionError)."""
    with pytest.raises(error) as info:
        call()
    if reason is not None:
        assert isinstance(info.value, pc.IllegalActionError)
        assert info.value.reason == reason, info.value
    return info.value


# ---------------------------------------------------------------- (1) a float dealer
def test_a_float_dealer_is_refused_and_poisons_nothing() -> None:
    refused(lambda: pc.Hand.deal(AUCTION, 4, 1.0, seed=1), pc.IllegalActionError, "bad_setup")
    h = pc.Hand.deal(AUCTION, 4, 1, seed=1)           # was a TypeError: a poisoned cache
    assert h.dealer == 1 and h.seat_to_act == 2
    pc.Hand.deal(pc.find_variant("setback"), 4, 1)
    assert all(type(k) is int for key in pc.hand._DEAL_ORDERS for k in key)


@pytest.mark.parametrize("dealer", [1.0, True, None, "1", -1, 4])
def test_a_dealer_that_is_not_an_int_seat_is_refused(dealer: Any) -> None:
    err = refused(lambda: pc.Hand.deal(AUCTION, 4, dealer), pc.IllegalActionError, "bad_setup")
    assert "dealer" in str(err) and "0..3" in str(err)


@pytest.mark.parametrize("dealer", [1.0, True, "0"])
def test_match_and_session_refuse_a_float_or_bool_dealer(dealer: Any) -> None:
    refused(lambda: pc.Match(AUCTION, 4, dealer=dealer), pc.IllegalActionError, "bad_setup")
    refused(lambda: pc.MoneySession(pc.find_variant("money"), ["A", "B", "C"], dealer=dealer),
            pc.IllegalActionError, "bad_setup")
    pc.Match(AUCTION, 4, dealer=1, seed=1).deal()      # and nothing was poisoned


@pytest.mark.parametrize("players", [4.0, True, "4", None, 1, 9, 2])
def test_a_table_size_that_is_not_an_allowed_int_is_refused(players: Any) -> None:
    err = refused(lambda: pc.Hand.deal(AUCTION, players, 0), pc.IllegalActionError, "bad_setup")
    assert "3 to 7" in str(err)
    refused(lambda: pc.Match(AUCTION, players), pc.IllegalActionError, "bad_setup")


def test_one_statement_of_the_table_size_rule() -> None:
    assert AUCTION.check_players(5) == 5
    err = refused(lambda: AUCTION.check_players(8), pc.IllegalActionError, "bad_setup")
    assert isinstance(err, pc.IllegalActionError) and err.legal == ("3", "4", "5", "6", "7")
    refused(lambda: pc.find_variant("setback").check_players(3), pc.IllegalActionError)


# ---------------------------------------------------------------- (6) raw exception types
def test_deal_with_none_dealer_or_bad_rules_or_seed_is_a_pitch_error() -> None:
    refused(lambda: pc.Hand.deal(AUCTION, 4, None), pc.IllegalActionError, "bad_setup")
    refused(lambda: pc.Hand.deal(None, 4, 0), pc.OptionError)  # type: ignore[arg-type]
    refused(lambda: pc.Hand.deal("auction", 4, 0), pc.OptionError)  # type: ignore[arg-type]
    refused(lambda: pc.Hand.deal(AUCTION, 4, 0, seed=[1]), pc.IllegalActionError, "bad_setup")
    refused(lambda: pc.Hand.deal(AUCTION, 4, 0, rng=3), pc.IllegalActionError, "bad_setup")


def test_stacked_cards_as_lists_of_card_texts_are_read() -> None:
    h = pc.Hand.deal(AUCTION, 4, 0, cards=[s.split() for s in SUITS4])
    assert h.dealt == pc.Hand.deal(AUCTION, 4, 0, cards=SUITS4).dealt


@pytest.mark.parametrize("cards", [
    [["AS", "KS", "QS", "JS", "TS", "9S"]] * 4,       # the same cards four times
    [["5", "1", "2", "3", "4", "6"]] * 4,              # ids as strings: not card texts
    (s for s in SUITS4),                               # a generator
    [[5.7, 1, 2, 3, 4, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18],
     [19, 20, 21, 22, 23, 24]],                        # a float id (was read as 5)
    [[True, 1, 2, 3, 4, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18],
     [19, 20, 21, 22, 23, 24]],                        # a bool is not a card id
    [[52, 1, 2, 3, 4, 6]] * 4,
    [None] * 4,
    [[[0]] * 6] * 4,
    "AS KS QS JS TS 9S",
    5,
])
def test_bad_stacked_cards_are_a_pitch_error(cards: Any) -> None:
    refused(lambda: pc.Hand.deal(AUCTION, 4, 0, cards=cards))


def test_parse_card_and_find_variant_of_non_text() -> None:
    refused(lambda: pc.parse_card(None), pc.InvalidCardError)  # type: ignore[arg-type]
    refused(lambda: pc.parse_card(5), pc.InvalidCardError)  # type: ignore[arg-type]
    refused(lambda: pc.parse_cards(5), pc.InvalidCardError)  # type: ignore[arg-type]
    refused(lambda: pc.parse_cards([None]), pc.InvalidCardError)  # type: ignore[list-item]
    refused(lambda: pc.parse_action(None), pc.InvalidActionError)  # type: ignore[arg-type]
    err = refused(lambda: pc.find_variant(1), pc.OptionError)  # type: ignore[arg-type]
    assert "auction" in str(err)


def test_a_view_or_hand_of_no_such_seat_is_refused() -> None:
    h = pc.Hand.deal(AUCTION, 4, 0, seed=1)
    for seat in (9, -1, 4, "1", 1.0, True):
        for call in (h.view, h.hand_of, h.tricks_won, h.captured, h.side_of):
            err = refused(lambda call=call, seat=seat: call(seat), pc.IllegalActionError,
                          "no_such_seat")
            assert "0..3" in str(err) and "auction" in str(err)
    assert h.view(None).seat is None and h.hand_of(2) == h.dealt[2]


def test_an_action_id_out_of_range_is_refused_at_once() -> None:
    refused(lambda: pc.Action(230), pc.InvalidActionError)
    refused(lambda: pc.Action(-1), pc.InvalidActionError)
    h = pc.Hand.deal(AUCTION, 4, 0, seed=1)
    before = state(h)
    for bad in (230, -1, 10**6, True, 1.5, None, b"pass", ["pass"]):
        refused(lambda bad=bad: h.push(bad), pc.InvalidActionError)
        assert not h.is_legal(bad)
    assert state(h) == before


def test_redeal_checks_every_mask() -> None:
    h = pc.Hand.deal(AUCTION, 4, 0, seed=1)
    before = state(h)
    for holdings in ([1 << 60, 0, 0, 0], [h.dealt[0] | 1 << 60, *h.dealt[1:]],
                     [-1, *h.dealt[1:]], [str(h.dealt[0]), *h.dealt[1:]], h.dealt[:3], 5,
                     (m for m in h.dealt)):
        refused(lambda holdings=holdings: h.redeal(holdings), pc.IllegalActionError, "bad_deal")
    assert state(h) == before
    h.redeal(list(reversed(h.dealt)))                  # a legal redeal still works
    assert h.hand_of(0) == before[9][3]


def test_hand_init_checks_its_masks() -> None:
    refused(lambda: pc.Hand(AUCTION, [1, 2, 3, 4], 0), pc.IllegalActionError, "bad_deal")
    refused(lambda: pc.Hand(AUCTION, "abcd", 0), pc.IllegalActionError,  # type: ignore[arg-type]
            "bad_deal")
    good = pc.Hand.deal(AUCTION, 4, 0, seed=2)
    assert pc.Hand(AUCTION, list(good.dealt), 0).dealt == good.dealt


# ---------------------------------------------------------------- (7) accepted silently
def test_match_scores_must_be_ints() -> None:
    for scores in (["a", 0, 0, 0], [1.5, 0, 0, 0], [True, 0, 0, 0], "0000", [0, 0, 0]):
        refused(lambda scores=scores: pc.Match(AUCTION, 4, scores=scores),
                pc.IllegalActionError, "bad_setup")
    assert pc.Match(AUCTION, 4, scores=(1, 2, 3, 4)).scores == [1, 2, 3, 4]


def test_session_players_must_be_a_list_of_names() -> None:
    money = pc.find_variant("money")
    err = refused(lambda: pc.MoneySession(money, "ABC"), pc.IllegalActionError, "bad_setup")
    assert "'ABC'" in str(err)
    for players in (["A", "A"], ["A", ""], ["A", 1], ["A", "B\nC"], [" A", "B"],
                    ["A", "x" * 41], None, ["A"]):
        refused(lambda players=players: pc.MoneySession(money, players), pc.IllegalActionError,
                "bad_setup")
    s = pc.MoneySession(money, ("Ann", "Bob Lee"))
    assert s.players == ["Ann", "Bob Lee"]
    for name in ("", 7, "Ann", "a\tb"):
        before = (list(s.players), dict(s.scores))
        refused(lambda name=name: s.join(name), pc.IllegalActionError)
        assert (s.players, s.scores) == before
    refused(lambda: s.leave(["Ann"]), pc.IllegalActionError, "not_seated")


@pytest.mark.parametrize("option", ["stake_per_point", "moon_payment"])
@pytest.mark.parametrize("value", [-1, "-0.10", Fraction(-1, 10), -0.5, "1e99999999999",
                                   "1e10000000", "x" * 10_000, float("inf"), float("nan"),
                                   True, None, [1], "1/0"])
def test_bad_money_options_are_refused_fast(option: str, value: Any) -> None:
    start = time.perf_counter()
    err = refused(lambda: pc.find_variant("money").replace(**{option: value}), pc.OptionError)
    assert time.perf_counter() - start < 30, "hangs"  # a hang guard, not a speed claim
    assert option in str(err) and len(str(err)) < 400


def test_a_rule_set_name_must_be_short_printable_text() -> None:
    for name in (123, "", "a\nb", "x" * 41, None):
        refused(lambda name=name: pc.RuleSet(name=name), pc.OptionError)
    assert pc.RuleSet(name="house rules").name == "house rules"


def test_finding10_name_is_not_an_option() -> None:
    """Issue 31, finding 10: ``{"variant": "auction", "options": {"name": "money"}}`` was listed
    as "money".  A rule set is named by the variant chosen, never by an option."""
    for name in ("money", "house rules", "auction", 123):
        err = refused(lambda name=name: AUCTION.replace(name=name, target=10), pc.OptionError)
        assert "not an option" in str(err) and "variant" in str(err)
    assert AUCTION.replace(target=10).name == "auction"


def test_unhashable_or_odd_option_values_are_option_errors() -> None:
    for change in ({"forced_dealer_bid": []}, {"follow_rule": ["strict_follow"]},
                   {"min_bid": 2.0}, {"min_bid": True}, {"auction": 1}, {"x" * 10_000: 1},
                   {"bid_values": object()}, {"target": 1.5}):
        err = refused(lambda change=change: AUCTION.replace(**change), pc.OptionError)
        assert len(str(err)) < 700  # bounded: the 10 000-character name is cut, the options listed


# ---------------------------------------------------------------- parse_money
def test_parse_money_reads_decimals_and_fractions() -> None:
    assert parse_money("0.25", what="stake_per_point") == Fraction(1, 4)
    assert parse_money(" 1/4 ", what="stake_per_point") == Fraction(1, 4)
    assert parse_money("2", what="moon_payment") == 2
    assert parse_money("1e-2", what="stake_per_point") == Fraction(1, 100)
    assert parse_money("-2/15", what="payout", negative=True) == Fraction(-2, 15)
    refused(lambda: parse_money("-2/15", what="payout"), pc.OptionError)
    refused(lambda: parse_money(0.5, what="payout"), pc.OptionError)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["1e99999999999", "1e10000000", "9" * 100_000, "1e13",
                                  "1" * 41, "1_000", "0x10", "½", "1/", "/2", "--1", ""])
def test_parse_money_bounds_the_text_before_converting(text: str) -> None:
    start = time.perf_counter()
    err = refused(lambda: parse_money(text, what="payout", negative=True), pc.OptionError)
    assert time.perf_counter() - start < 30, "hangs"  # a hang guard, not a speed claim
    assert str(err).startswith("payout=") and len(str(err)) < 300


# ---------------------------------------------------------------- (8) a joiner's average
def test_a_joiner_gets_the_table_average_rounded_half_away_from_zero() -> None:
    # D21: A=-4, B=3, mean -1/2 -> -1 (away from zero), not 0 (to even).
    s = pc.MoneySession(rules("money", average_mode="snapshot", join_score="table_average"),
                        ["A", "B"], dealer=0)
    s.scores.update(A=-4, B=3)
    s.join("C")
    assert s.scores["C"] == -1
    s.scores.update(A=4, B=-3, C=0)          # mean 1/3 -> 0
    s.join("D")
    assert s.scores["D"] == 0
    s.scores.update(A=5, B=0, C=0, D=0)      # mean 5/4 -> 1
    s.join("E")
    assert s.scores["E"] == 1
    s.scores.update(A=5, B=0, C=0, D=0, E=0)  # mean 1 exactly
    s.join("F")
    assert s.scores["F"] == 1


def test_round_half_away_is_the_one_rounding() -> None:
    assert round_half_away(Fraction(-1, 2), unit=Fraction(1)) == -1
    assert round_half_away(Fraction(1, 2), unit=Fraction(1)) == 1
    assert round_half_away(Fraction(5, 2), unit=Fraction(1)) == 3      # round() would give 2
    assert round_half_away(Fraction(5, 1000)) == 1                     # cents by default
    assert round_cents({"a": Fraction(1, 200), "b": Fraction(1, 200)}, total=0) == {"a": 0,
                                                                                   "b": 0}


# ---------------------------------------------------------------- (9) cents and messages
def _long_session(seed: int, mode: str, hands: int) -> tuple[pc.MoneySession, int]:
    """A random session with joins and leaves; returns it and the cents of the old rounding."""
    r = random.Random(seed)
    s = pc.MoneySession(rules("money", average_mode=mode, stake_per_point=Fraction(1, 7),
                              moon_payment=Fraction(1, 3)),
                        ["P0", "P1", "P2"], dealer=0, seed=seed)
    naive = 0   # each leaver rounded alone, then the rest as a group: what issue 9 saw drift
    fresh = 3
    for _ in range(hands):
        if s.finished:
            break
        h = s.deal()
        while h.seat_to_act is not None:
            acts = h.legal_actions()
            s.push(acts[r.randrange(len(acts))])
        roll = r.random()
        if roll < 0.04 and len(s.players) < 8:
            s.join(f"P{fresh}")
            fresh += 1
        elif roll < 0.08 and len(s.players) > 2:
            naive += round_half_away(s.leave(r.choice(s.players)))
    if not s.finished:
        final = s.settle()
        naive += sum(round_cents(final, s.tie_order()).values())
    return s, naive


@pytest.mark.parametrize("mode", ["per_hand", "snapshot"])
def test_a_sessions_cents_sum_like_its_exact_payouts(mode: str) -> None:
    drifted = 0
    for seed in range(12):
        s, naive = _long_session(seed, mode, 250)
        exact = sum(s.payouts.values(), Fraction(0))
        assert set(s.payout_cents) == set(s.payouts)
        assert sum(s.payout_cents.values()) == round_half_away(exact)
        if mode == "per_hand":
            assert exact == 0 and sum(s.payout_cents.values()) == 0
        for name, cents in s.payout_cents.items():
            assert abs(cents - s.payouts[name] * 100) < 2
        drifted += naive != round_half_away(exact)
    assert drifted, "no session drifted under the old rounding: the test would not catch it"


def test_settle_cents_before_and_after_settling_agree() -> None:
    s2 = pc.MoneySession(rules("money", stake_per_point=Fraction(1, 7)), ["A", "B", "C", "D"],
                         dealer=0, seed=5)
    for _ in range(6):
        h = s2.deal()
        while h.seat_to_act is not None:
            s2.push(h.legal_actions()[-1])
    s2.leave("B")
    preview = s2.settle_cents()
    s2.settle()
    assert s2.settle_cents() == preview == {n: s2.payout_cents[n] for n in s2.players}
    assert sum(s2.payout_cents.values()) == 0


def test_a_str_seat_is_a_bad_seat_not_a_wrong_turn() -> None:
    h = pc.Hand.deal(AUCTION, 4, 0, seed=1)
    before = state(h)
    err = refused(lambda: h.push("pass", seat="1"), pc.IllegalActionError, "no_such_seat")
    assert "is to act" not in str(err) and "'1'" in str(err)
    refused(lambda: h.push("pass", seat=True), pc.IllegalActionError, "no_such_seat")
    refused(lambda: h.push("pass", seat=1.0), pc.IllegalActionError, "no_such_seat")
    refused(lambda: h.push("pass", seat=2), pc.IllegalActionError, "not_your_turn")
    assert state(h) == before
    h.push("pass", seat=1)


def test_error_messages_cut_a_huge_token() -> None:
    huge = "x" * 10_000_000
    h = pc.Hand.deal(AUCTION, 4, 0, seed=1)
    calls = [lambda: h.push(huge), lambda: h.push("play " + huge), lambda: pc.parse_card(huge),
             lambda: pc.find_variant(huge), lambda: AUCTION.replace(low_to=huge),
             lambda: pc.MoneySession(pc.find_variant("money"), [huge, "B"]),
             lambda: h.push("pass", seat=huge), lambda: parse_money(huge, what="payout")]
    for call in calls:
        err = refused(call)
        assert len(str(err)) < 1000 and f"({len(repr(huge))} characters)" in str(err)
    assert SHOWN_LIMIT < 100


# ---------------------------------------------------------------- reasons
def test_every_refused_play_has_the_reason_legal_mask_implies() -> None:
    # Seat 1 pitches AS: spades trump; seat 2 holds spades and must follow.
    cards = ["2C 3C 4C 5C 6C 7C", "AS 2H 3H 4H 5H 6H", "KS 2D 3D 4D 5D 6D",
             "8C 9C TC JC QC KC"]
    h = pc.Hand.deal(AUCTION, 4, 0, cards=cards)
    h.push("pitch AS")                        # B-R4.4: the top bid ends the auction
    assert h.phase == "play" and h.seat_to_act == 2
    refused(lambda: h.push("play 2D"), pc.IllegalActionError, "must_follow_suit")
    refused(lambda: h.push("play AH"), pc.IllegalActionError, "card_not_held")
    refused(lambda: h.push("bid 2"), pc.IllegalActionError, "auction_over")
    trump_only = pc.Hand.deal(AUCTION.replace(follow_rule="follow_trump_only"), 4, 0,
                              cards=cards)
    trump_only.push("pitch AS")
    refused(lambda: trump_only.push("play 2D"), pc.IllegalActionError, "must_follow_trump")


def test_every_refused_bid_has_its_reason() -> None:
    h = pc.Hand.deal(AUCTION.replace(pitch_as_bid_4=False), 4, 0, seed=3)
    h.push("bid 2")
    refused(lambda: h.push("bid 1"), pc.IllegalActionError, "bid_too_low")
    refused(lambda: h.push("bid moon"), pc.IllegalActionError, "bid_too_high")
    refused(lambda: h.push("pitch 2C"), pc.IllegalActionError, "pitch_not_allowed")
    pitchy = pc.Hand.deal(AUCTION, 4, 0, cards=SUITS4)
    refused(lambda: pitchy.push("pitch AS"), pc.IllegalActionError, "card_not_held")
    forced = pc.Hand.deal(pc.find_variant("money"), 3, 0, seed=1)
    forced.push("pass")
    forced.push("pass")
    refused(lambda: forced.push("pass"), pc.IllegalActionError, "must_bid")


def test_operations_at_the_wrong_time_have_their_reason() -> None:
    m = pc.Match(AUCTION, 4, dealer=0, seed=1)
    refused(m.view, pc.IllegalActionError, "no_hand")
    refused(lambda: m.push("pass"), pc.IllegalActionError, "no_hand")
    h = m.deal()
    refused(m.deal, pc.IllegalActionError, "hand_in_progress")
    refused(h.pop, pc.IllegalActionError, "nothing_to_undo")
    while h.seat_to_act is not None:
        m.push(h.legal_actions()[0])
    refused(lambda: h.push("pass"), pc.IllegalActionError, "hand_over")
    refused(lambda: h.push("pass", seat=1), pc.IllegalActionError, "hand_over")
    s = pc.MoneySession(pc.find_variant("money"), ["A", "B", "C"], dealer=0)
    s.deal()
    refused(lambda: s.join("D"), pc.IllegalActionError, "hand_in_progress")
    s2 = pc.MoneySession(pc.find_variant("money").replace(join_leave="never"), ["A", "B"])
    refused(lambda: s2.join("D"), pc.IllegalActionError, "join_leave_not_allowed")
    refused(lambda: s2.leave("A"), pc.IllegalActionError, "join_leave_not_allowed")
    s2.settle()
    refused(s2.deal, pc.IllegalActionError, "game_over")
    refused(s2.settle, pc.IllegalActionError, "game_over")


def test_every_documented_reason_is_a_key_with_a_description() -> None:
    assert all(isinstance(k, str) and v for k, v in REASONS.items())
    with pytest.raises(KeyError):
        pc.IllegalActionError("x", reason="no_such_reason")


def test_card_helpers_refuse_non_cards_and_never_hang() -> None:
    for bad in (54, -1, True, 1.0, None, "AS"):
        refused(lambda bad=bad: pc.card_name(bad), pc.InvalidCardError)
        refused(lambda bad=bad: pc.card_symbol(bad), pc.InvalidCardError)
    start = time.perf_counter()
    for bad in (-1, 1 << 54, "AS", 1.5, [54], [True], (c for c in range(60))):
        refused(lambda bad=bad: pc.format_cards(bad), pc.InvalidCardError)  # -1 looped forever
        refused(lambda bad=bad: list(pc.cards.cards_of(bad)), pc.InvalidCardError)
    assert time.perf_counter() - start < 30, "hangs"  # a hang guard, not a speed claim
    assert pc.format_cards(c for c in (0, 51)) == "AS 2C"
    assert pc.card_name(pc.ACTIONS[3]) == "5C"


def test_round_cents_checks_its_arguments() -> None:
    for amounts, order, total in (([1], None, None), ({"a": 0.5}, None, None),
                                  ({"a": True}, None, None), ({1: Fraction(1)}, None, None),
                                  ({"a": Fraction(1)}, "a", None),
                                  ({"a": Fraction(1)}, None, 1.0)):
        refused(lambda a=amounts, o=order, t=total: round_cents(a, o, total=t), pc.OptionError)
    assert round_cents({"a": Fraction(1, 3), "b": Fraction(-1, 3)}, ["b", "a"]) == {"a": 33,
                                                                                   "b": -33}


def test_huge_int_and_fraction_amounts_are_refused_not_kept_unprintable() -> None:
    money = pc.find_variant("money")
    for option in ("stake_per_point", "moon_payment"):
        for bad in (10**5000, Fraction(10) ** 100000, Fraction(1, 10**100), 10**61):
            error = refused(lambda o=option, b=bad: money.replace(**{o: b}), pc.OptionError)
            assert option in str(error) and len(str(error)) < 300
        kept = money.replace(**{option: 10**59})
        assert repr(kept) and pc.write_record(pc.MoneySession(kept, ["a", "b"]))


def test_record_functions_refuse_what_is_not_text_or_a_record() -> None:
    from pitchcards.notation import RecordSyntaxError, parse_record, replay_text

    for bad in (None, 123, b"pitchcards-record 2", ["game match"]):
        for call in (pc.read_record, parse_record, replay_text):
            assert "text" in str(refused(lambda c=call, b=bad: c(b), RecordSyntaxError))
    for bad in (None, "x", 123, {"game": "match"}):
        assert "Record" in str(refused(lambda b=bad: pc.replay(b), RecordSyntaxError))


def test_make_bot_refuses_unknown_names_non_text_and_bad_seeds() -> None:
    from pitchcards.bots import make_bot

    assert "heuristic" in str(refused(lambda: make_bot("godlike"), pc.OptionError))
    for bad in (None, 3, b"random"):
        assert "random" in str(refused(lambda b=bad: make_bot(b), pc.OptionError))
    for seed in ("x", 1.0, True, [1], 10**5000):
        assert "seed" in str(refused(lambda s=seed: make_bot("random", seed=s), pc.OptionError))
    assert make_bot(" Random ", 3).seed == 3 and make_bot("random").seed is None
