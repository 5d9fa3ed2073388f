"""RULES §2, rule set A "Pitch: Money Game": A-R1 to A-R8, one or more tests per rule.

The worked money examples E24-E29 are in test_edge_cases.py; the deals they use live here.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import pitchcards as pc
from helpers import (
    E24_DELTAS,
    E24_HANDS,
    E26_HAND1,
    E26_HAND2,
    FIVE_OF_SIX,
    FIVE_OF_SIX_PLAY,
    FOUR_WAY,
    FOUR_WAY_PLAY,
    H_B,
    H_B_PLAY,
    SUITED,
    SWEEP,
    SWEEP_PLAY,
    TEN_CENTS,
    assert_refused,
    deal,
    finish,
    legal,
    play,
    play_hand,
    rules,
    session,
)
from pitchcards.match import deal_rng
from pitchcards.money import round_half_away


def e24_session(**options):
    s = session(**options)
    for cards, script in E24_HANDS:
        play_hand(s, cards, script)
    return s


# ---------------------------------------------------------------- A-R1 players and session
@pytest.mark.parametrize("n", range(2, 9))
def test_A_R1_1_two_to_eight_players_each_for_themselves(n):
    s = session([f"P{i}" for i in range(n)])
    h = s.deal()
    assert h.players == n and h.sides == n
    assert rules("money").player_range == (2, 8)


@pytest.mark.parametrize("n", [1, 9])
def test_A_R1_1_one_or_nine_players_refused(n):
    with pytest.raises(pc.IllegalActionError):
        session([f"P{i}" for i in range(n)])


def test_A_R1_2_a_session_has_no_target_and_runs_until_ended():
    assert rules("money").target is None
    s = pc.MoneySession(rules("money"), players=["A", "B", "C"], dealer=0, seed=4)
    rng = random.Random(4)
    for _ in range(30):
        h = s.deal()
        while h.seat_to_act is not None:
            s.push(rng.choice(h.legal_actions()))
    assert max(abs(v) for v in s.scores.values()) >= 7  # far past any target
    assert not s.finished
    s.settle()  # ended by the host
    assert s.finished
    with pytest.raises(pc.IllegalActionError):
        s.deal()


def test_A_R1_3_integer_scores_that_may_go_negative_stars_and_an_exact_ledger():
    s = session()
    r = play_hand(s, FIVE_OF_SIX, ("bid moon", *FIVE_OF_SIX_PLAY))
    assert r.bid == "moon" and not r.made
    assert s.scores == {"A": 0, "B": -4, "C": 0}
    assert all(type(v) is int for v in s.scores.values())
    assert s.stars == {"A": 0, "B": 0, "C": 0}
    assert all(isinstance(v, Fraction) for v in s.ledger.values())
    play_hand(s, *_moon_hand_for_dealer_1())
    assert s.stars == {"A": 0, "B": 0, "C": 1}


def _moon_hand_for_dealer_1():
    # dealer 1: seat 2 bids first and shoots the moon with the SWEEP cards
    cards = [SWEEP[0], SWEEP[2], SWEEP[1]]
    plays = ("AS 2D 2H", "KS 3D 3H", "QS 4D 4H", "JS 5D 5H", "TS 6D 6H", "2S 7D 7H")
    return cards, ("bid moon", *plays)


# ---------------------------------------------------------------- A-R2 dealer
def test_A_R2_1_first_dealer_chosen_at_random():
    dealers = {pc.MoneySession(rules("money"), ["A", "B", "C", "D"], dealer=None,
                               seed=s).next_dealer for s in range(60)}
    assert dealers == {0, 1, 2, 3}


def test_A_R2_2_the_deal_passes_left_after_each_hand():
    s = session()
    assert s.next_dealer == 0
    dealers = []
    for cards, script in E24_HANDS:
        s.deal(cards=cards)
        dealers.append(s.hand.dealer)
        play(s, *script)
    assert dealers == [0, 1, 2]
    assert s.next_dealer == 0  # wraps


# ---------------------------------------------------------------- A-R3 deal
def test_A_R3_six_cards_each_dealt_three_at_a_time():
    r = rules("money")
    assert r.deal_batch == 3
    s = pc.MoneySession(r, players=["A", "B", "C", "D", "E"], dealer=2, seed=8)
    h = s.deal()
    assert [h.hand_of(i).bit_count() for i in range(5)] == [6] * 5
    # Hand 0 of a seeded session is shuffled by the generator derived from (seed, 0).
    expected = pc.Hand.deal(r, players=5, dealer=2, rng=deal_rng(8, 0, random.Random())).dealt
    assert h.dealt == expected


# ---------------------------------------------------------------- A-R4 auction
def test_A_R4_1_bid_values_2_3_4_then_moon():
    h = deal(SUITED, "money")
    assert legal(h) == {"pass", "bid 2", "bid 3", "bid 4", "bid moon"}
    assert_refused(h, "bid 1")
    assert_refused(h, "pitch AH")  # no pitching in A
    play(h, "bid 3")
    assert legal(h) == {"pass", "bid 4", "bid moon"}
    play(h, "bid 4")
    assert legal(h) == {"pass", "bid moon"}


def test_A_R4_2_turns_go_clockwise_round_and_round_skipping_passed_players():
    h = deal(SUITED, "money")
    play(h, "bid 2, pass, bid 3, pass")  # seats 1, 2, 3, 0 (the dealer passes)
    assert h.phase == "auction" and h.seat_to_act == 1  # back round to seat 1
    play(h, "bid 4")
    assert h.seat_to_act == 3  # seat 2 and the dealer are skipped
    assert [s for s, _a in h.history] == [1, 2, 3, 0, 1]


def test_A_R4_3_a_non_dealer_passes_or_bids_strictly_higher():
    h = deal(SUITED, "money")
    play(h, "bid 3")
    assert_refused(h, "bid 3")  # only the dealer may equal
    assert_refused(h, "bid 2")
    play(h, "pass")
    assert h.seat_to_act == 3


def test_A_R4_4_a_dealer_must_bid_exactly_2_when_everyone_else_passed():
    h = deal(SUITED, "money")
    play(h, "pass, pass, pass")
    assert h.seat_to_act == 0 and legal(h) == {"bid 2"}
    assert_refused(h, "pass")
    assert_refused(h, "bid 3")
    play(h, "bid 2")
    assert h.phase == "play" and h.pitcher == 0 and h.contract == 2
    h = deal(SUITED, "money", forced_dealer_bid="at_least")
    play(h, "pass, pass, pass")
    assert legal(h) == {"bid 2", "bid 3", "bid 4", "bid moon"}
    play(h, "bid 4")
    assert h.pitcher == 0 and h.contract == 4


@pytest.mark.parametrize("high", [2, 3, 4])
def test_A_R4_4_b_the_dealer_may_pass_raise_or_steal_any_bid_below_moon(high):
    h = deal(SUITED, "money")
    play(h, f"bid {high}, pass, pass")
    expected = {"pass", "bid moon"} | {f"bid {v}" for v in range(high, 5)}
    assert h.seat_to_act == 0 and legal(h) == expected
    steal = play(h.copy(), f"bid {high}")
    assert steal.high_bidder == 0 and steal.phase == "auction"
    assert steal.seat_to_act == 1  # the bid comes back to the original bidder
    assert legal(steal) == {"pass", "bid moon"} | {f"bid {v}" for v in range(high + 1, 5)}
    play(steal, "pass")
    assert steal.pitcher == 0 and steal.contract == high


def test_A_R4_4_b_the_dealer_may_steal_again_each_time_the_bid_comes_back():
    h = deal(SUITED, "money")
    play(h, "bid 2, pass, pass, bid 2, bid 3, bid 3, bid 4, bid 4")
    assert h.high_bidder == 0 and h.high_bid == 4 and h.seat_to_act == 1
    assert legal(h) == {"pass", "bid moon"}
    play(h, "pass")
    assert h.pitcher == 0 and h.contract == 4


def test_A_R4_5_i_a_moon_bid_ends_the_auction_at_once():
    h = deal(SUITED, "money")
    play(h, "bid moon")
    assert h.phase == "play" and h.pitcher == 1 and h.contract == 5
    assert_refused(h, "bid moon")
    assert_refused(h, "pass")
    h = deal(SUITED, "money")
    play(h, "bid 2, pass, pass, bid 2, bid moon")  # after a steal: the dealer cannot steal it
    assert h.phase == "play" and h.pitcher == 1


def test_A_R4_5_ii_the_auction_ends_when_one_active_player_holds_the_high_bid():
    h = deal(SUITED, "money")
    play(h, "pass, bid 2, bid 3")
    assert h.phase == "auction"
    play(h, "pass, pass")  # the dealer and seat 2 pass: only seat 3 is left
    assert h.phase == "play" and h.pitcher == 3 and h.contract == 3


def test_A_R4_6_the_high_bidder_becomes_the_pitcher():
    h = deal(SUITED, "money")
    play(h, "bid 2, bid 4, pass, pass, pass")
    assert (h.pitcher, h.contract, h.seat_to_act) == (2, 4, 2)


def test_A_R4_7_there_is_no_redeal_every_auction_finds_a_pitcher():
    r = rules("money")
    for seed in range(300):
        rng = random.Random(seed)
        n = rng.randint(2, 8)
        h = pc.Hand.deal(r, players=n, dealer=rng.randrange(n), seed=seed)
        while h.phase == "auction":
            acts = h.legal_actions()
            h.push(acts[0] if rng.random() < 0.6 else rng.choice(acts))  # mostly passes
        assert h.phase == "play" and h.pitcher is not None and h.contract >= 2


def test_A_R4_8_cooperation_against_the_pitcher_is_informal_defenders_score_alone():
    h = play(deal(FOUR_WAY, "money"), "bid 2, pass, pass, pass", *FOUR_WAY_PLAY)
    r = h.result
    assert r.pitcher == 1 and not r.made
    assert r.deltas == (1, -2, 1, 1)  # each defender scores only its own point
    assert len(r.points) == 4


# ---------------------------------------------------------------- A-R5 play
def test_A_R5_1_the_pitcher_leads_trick_1_and_sets_trump():
    h = deal(SUITED, "money")
    play(h, "pass, bid 2, pass, pass")
    assert h.seat_to_act == 2 and h.trump is None
    assert_refused(h, "play AH", seat=1)
    play(h, "9D")
    assert h.trump == "D"


def test_A_R5_2_six_tricks_under_the_trump_anytime_rule():
    h = deal(["AS 2C 3C 4C 5C 6C", "KS KD 7C 8C 2H 3H", "2S 2D 3D 4D 5D 6D"], "money")
    play(h, "bid 2, pass, pass", "KS 2S AS")  # seat 0 wins with the AS
    play(h, "2C")
    assert legal(h) == {"play 7C", "play 8C"}  # seat 1: clubs, no trump left
    finish(h)
    assert len(h.completed_tricks()) == 6 and sum(h.result.tricks) == 6


# ---------------------------------------------------------------- A-R6 hand scoring
def test_A_R6_1_low_is_awarded_to_its_capturer():
    h = play(deal(FOUR_WAY, "money"), "bid 2, pass, pass, pass", *FOUR_WAY_PLAY)
    assert h.result.low_card == "2S" and h.result.low == 3  # seat 1 held it, seat 3 took it
    assert rules("money").low_to == "capturer"


@pytest.mark.parametrize("bid", [2, 3, 4])
def test_A_R6_2_a_numeric_contract_is_made_with_at_least_that_many_points(bid):
    r = play(deal(SWEEP, "money"), f"bid {bid}, pass, pass", *SWEEP_PLAY).result
    assert r.points[1] == 4 and r.made
    r = play(deal(H_B, "money"), f"bid {bid}, pass, pass", *H_B_PLAY).result
    assert r.points[1] == 2 and r.made is (bid <= 2)


def test_A_R6_2_a_moon_needs_all_four_points_and_all_six_tricks():
    r = play(deal(SWEEP, "money"), "bid moon", *SWEEP_PLAY).result
    assert r.made and r.moon and r.tricks[1] == 6
    r = play(deal(FIVE_OF_SIX, "money"), "bid moon", *FIVE_OF_SIX_PLAY).result
    assert r.points[1] == 4 and r.tricks[1] == 5
    assert not r.made and not r.moon


def test_A_R6_3_score_changes_made_set_moon_set_and_non_pitchers():
    r = play(deal(SWEEP, "money"), "bid 2, pass, pass", *SWEEP_PLAY).result
    assert r.deltas == (0, 4, 0)  # made: +points, more than the bid
    r = play(deal(H_B, "money"), "bid 3, pass, pass", *H_B_PLAY).result
    assert r.deltas == (0, -3, 2)  # set: -bid; the non-pitcher keeps its 2
    r = play(deal(FIVE_OF_SIX, "money"), "bid moon", *FIVE_OF_SIX_PLAY).result
    assert r.deltas == (0, -4, 0)  # a failed moon counts as 4
    r = play(deal(FIVE_OF_SIX, "money", moon_fail_points=5), "bid moon",
             *FIVE_OF_SIX_PLAY).result
    assert r.deltas == (0, -5, 0)


def test_A_R6_4_only_a_moon_bid_earns_a_star():
    s = session()
    play_hand(s, SWEEP, ("bid 4, pass, pass", *SWEEP_PLAY))
    assert s.scores["B"] == 4 and s.stars["B"] == 0
    play_hand(s, *_moon_hand_for_dealer_1())
    assert s.scores["C"] == 4 and s.stars["C"] == 1


# ---------------------------------------------------------------- A-R7 money
def test_A_R7_1_ten_cents_a_point_and_a_one_dollar_moon_by_default_both_configurable():
    r = rules("money")
    assert r.stake_per_point == TEN_CENTS and r.moon_payment == 1
    s = e24_session()
    assert s.ledger == {"A": Fraction(1, 2), "B": 0, "C": Fraction(-1, 2)}
    s = e24_session(stake_per_point="0.25")
    assert s.ledger == {"A": Fraction(5, 4), "B": 0, "C": Fraction(-5, 4)}
    s = session(moon_payment="2.50")
    play_hand(s, SWEEP, ("bid moon", *SWEEP_PLAY))
    points = TEN_CENTS * Fraction(8, 3)
    assert s.ledger["B"] == 5 + points
    assert s.ledger["A"] == Fraction(-5, 2) - points / 2


def test_A_R7_2_moon_transfers_among_the_players_dealt_in():
    s = session(("A", "B", "C", "D"))
    assert s.leave("D") == 0  # D leaves before the moon hand and is not involved
    play_hand(s, SWEEP, ("bid moon", *SWEEP_PLAY))
    assert s.payouts == {"D": 0}
    pts = TEN_CENTS * Fraction(4 * 3 - 4, 3)  # B's d - mean(d) = 4 - 4/3
    assert s.ledger == {"B": 2 + pts, "A": -1 - pts / 2, "C": -1 - pts / 2}
    s = session()
    play_hand(s, FIVE_OF_SIX, ("bid moon", *FIVE_OF_SIX_PLAY))
    assert s.ledger == {"B": -2 - pts, "A": 1 + pts / 2, "C": 1 + pts / 2}


def test_A_R7_3_per_hand_average_is_zero_sum_and_equals_score_minus_mean_on_a_fixed_table():
    s = session()
    expected = {n: Fraction(0) for n in "ABC"}
    for (cards, script), deltas in zip(E24_HANDS, E24_DELTAS, strict=True):
        r = play_hand(s, cards, script)
        assert r.deltas == deltas
        mean = Fraction(sum(deltas), 3)
        for name, d in zip("ABC", deltas, strict=True):
            expected[name] += TEN_CENTS * (d - mean)
        assert s.ledger == expected
        assert sum(s.ledger.values()) == 0
    mean = Fraction(sum(s.scores.values()), 3)
    assert s.ledger == {n: TEN_CENTS * (s.scores[n] - mean) for n in "ABC"}


def test_A_R7_4_snapshot_mode_pays_against_the_mean_of_the_players_seated_now():
    s = e24_session(average_mode="snapshot")
    assert s.scores == {"A": 7, "B": 2, "C": -3}
    payout = s.leave("A")  # mean of 7, 2, -3 (the leaver included) is 2
    assert payout == Fraction(1, 2)
    final = s.settle()  # mean of 2 and -3 is -1/2
    assert final == {"B": Fraction(1, 4), "C": Fraction(-1, 4)}
    assert s.pot == -Fraction(1, 2)  # not zero-sum: the residue is reported


def test_A_R7_4_snapshot_moon_money_is_added_to_the_payout():
    s = session(average_mode="snapshot")
    play_hand(s, SWEEP, ("bid moon", *SWEEP_PLAY))
    mean = Fraction(4, 3)
    assert s.leave("B") == TEN_CENTS * (4 - mean) + 2
    assert s.settle() == {"A": -1, "C": -1}


def test_A_R7_5_a_leaver_is_paid_at_once_the_others_when_the_session_ends():
    s = e24_session()
    payout = s.leave("C")
    assert payout == Fraction(-1, 2) and s.payouts == {"C": Fraction(-1, 2)}
    assert "C" not in s.ledger and not s.finished
    final = s.settle()
    assert final == {"A": Fraction(1, 2), "B": 0}
    assert s.payouts == {"A": Fraction(1, 2), "B": 0, "C": Fraction(-1, 2)}
    assert s.finished and s.pot == 0


def test_A_R7_6_money_is_exact_and_cents_are_rounded_to_keep_the_group_total():
    assert round_half_away(Fraction(5, 1000)) == 1      # half a cent: away from zero
    assert round_half_away(Fraction(-5, 1000)) == -1
    assert round_half_away(Fraction(-4999, 1000000)) == 0
    assert round_half_away(Fraction(2, 15)) == 13
    s = session()
    play_hand(s, *E24_HANDS[0])  # d = (4, 0, 0): A +26 2/3 c, B and C -13 1/3 c each
    assert s.ledger == {"A": Fraction(4, 15), "B": Fraction(-2, 15), "C": Fraction(-2, 15)}
    # floors 26, -14, -14 leave 2 cents; equal remainders go in seat order from the dealer's
    # left (dealer A: B, C, A)
    assert s.tie_order() == ["B", "C", "A"]
    assert s.settle_cents() == {"A": 26, "B": -13, "C": -13}


def test_A_R7_6_a_single_leaver_is_rounded_half_away_from_zero():
    half_cent = Fraction(1, 200)
    assert pc.round_cents({"A": half_cent}) == {"A": 1}
    assert pc.round_cents({"A": -half_cent}) == {"A": -1}
    assert pc.round_cents({"A": Fraction(-1, 300)}) == {"A": 0}
    s = session(("P", "Q"))
    play_hand(s, *E26_HAND1)
    payout = s.leave("Q")  # the session ends with one player left
    assert payout == Fraction(-1, 10)
    assert pc.round_cents({"Q": payout}) == {"Q": -10}


def test_A_R7_6_tie_order_starts_left_of_the_last_dealer_after_a_join():
    s = session(dealer=2)
    play_hand(s, *E24_HANDS[2])  # dealt by C; A deals next
    assert s.tie_order() == ["A", "B", "C"]
    s.join("D")  # D sits right of the next dealer A, i.e. left of the last dealer C
    assert s.players == ["D", "A", "B", "C"]
    assert s.tie_order() == ["D", "A", "B", "C"]
    # A +6 2/3, B +16 2/3, C -23 1/3 cents: the two spare cents go to A and B, not to C
    assert s.settle_cents() == {"D": 0, "A": 7, "B": 17, "C": -24}


# ---------------------------------------------------------------- A-R8 joining and leaving
def test_A_R8_1_join_and_leave_only_between_hands():
    s = session()
    h = s.deal(cards=E24_HANDS[0][0])
    play(s, "pass")
    before = (list(s.players), dict(s.scores), list(h.history))
    with pytest.raises(pc.IllegalActionError):
        s.join("D")
    with pytest.raises(pc.IllegalActionError):
        s.leave("A")
    with pytest.raises(pc.IllegalActionError):
        s.settle()
    with pytest.raises(pc.IllegalActionError):
        s.deal()
    assert (list(s.players), dict(s.scores), list(h.history)) == before
    play(s, "pass, bid 2", *E24_HANDS[0][1][1:])
    s.join("D")
    assert s.players == ["A", "D", "B", "C"]
    assert s.leave("A") == s.payouts["A"]


def test_A_R8_2_a_seat_is_added_only_below_eight_players():
    s = session([f"P{i}" for i in range(7)])
    s.join("P7")
    assert len(s.players) == 8
    with pytest.raises(pc.IllegalActionError):
        s.join("P8")
    assert len(s.players) == 8


def test_A_R8_3_a_joiner_sits_right_of_the_next_dealer_and_starts_at_zero():
    s = session(("P", "Q"))
    play_hand(s, *E26_HAND1)
    assert s.next_dealer == 1  # Q deals next
    s.join("R")
    assert s.players == ["P", "R", "Q"] and s.players[s.next_dealer] == "Q"
    assert (s.scores["R"], s.stars["R"], s.ledger["R"]) == (0, 0, 0)
    h = s.deal(cards=E26_HAND2[0])
    order = []
    while h.phase == "auction":
        order.append(s.players[h.seat_to_act])
        s.push("pass" if h.seat_to_act != h.dealer else "bid 2")
    assert order == ["P", "R", "Q"]  # the joiner is last before the dealer


def test_A_R8_4_if_the_next_dealer_leaves_the_deal_goes_to_the_next_seat_clockwise():
    s = session(("A", "B", "C", "D"))
    s.deal()
    finish_session_hand(s)
    assert s.players[s.next_dealer] == "B"
    s.leave("B")
    assert s.players[s.next_dealer] == "C"
    assert s.deal().dealer == s.players.index("C")
    s = session(("A", "B", "C", "D"), dealer=2)
    s.deal()
    finish_session_hand(s)
    s.leave("D")  # D was due to deal: the deal wraps round to A
    assert s.players[s.next_dealer] == "A"


def finish_session_hand(s):
    while s.hand.seat_to_act is not None:
        s.push(s.hand.legal_actions()[0])


def test_A_R8_5_fewer_than_two_players_end_and_settle_the_session():
    s = e24_session()
    s.leave("A")
    assert not s.finished
    s.leave("B")
    assert s.finished
    assert s.payouts == {"A": Fraction(1, 2), "B": 0, "C": Fraction(-1, 2)}
    with pytest.raises(pc.IllegalActionError):
        s.deal()
