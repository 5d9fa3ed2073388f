"""RULES §6, the edge-case checklist E1-E34: at least one test named after each case."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import pitchcards as pc
from helpers import (
    CENT,
    E24_HANDS,
    E26_HAND1,
    E26_HAND2,
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
    fill,
    finish,
    held,
    legal,
    play,
    play_hand,
    rules,
    session,
)

# Three players, dealer 0; no A, K, Q, J or 10 is dealt: every game count is 0.  Seat 1 holds
# six spades and takes all six tricks.
ZERO = ["2D 3D 4D 5D 6D 7D", "9S 8S 7S 6S 5S 2S", "2H 3H 4H 5H 6H 7H"]
ZERO_PLAY = ("9S 2H 2D", "8S 3H 3D", "7S 4H 4D", "6S 5H 5D", "5S 6H 6D", "2S 7H 7D")

# Three players, dealer 0: seat 1 pitches 4S; seat 1 and seat 2 each take a ten: game tied.
TIED = ["2S 2C 3C 4C 5C 6C", "4S TC 7H 7D 8D 9D", "3S TH 2H 3H 4H 5H"]
TIED_PLAY = ("pitch 4S", "3S 2S", "TC 2H 2C", "7H TH 3C")


def h_b_match(scores, bid=2, **options):
    """Match of 3 (dealer 0) on H_B: pitcher seat 1 takes High+Game, seat 2 Low+Jack."""
    m = pc.Match(rules("auction", **options), players=3, dealer=0, scores=scores)
    play_hand(m, H_B, (f"bid {bid}, pass, pass", *H_B_PLAY))
    return m


# ---------------------------------------------------------------- dealing and seats
def test_E1_player_counts_per_rule_set():
    for n in range(2, 9):
        assert pc.Hand.deal(rules("money"), players=n, seed=n).players == n
        assert 6 * n <= 52
    s = session([f"P{i}" for i in range(8)])
    with pytest.raises(pc.IllegalActionError):
        s.join("ninth")
    for n in range(3, 8):
        pc.Hand.deal(rules("auction"), players=n, seed=n)
    for n in (2, 8):
        with pytest.raises(pc.IllegalActionError):
            pc.Hand.deal(rules("auction"), players=n, seed=n)
    pc.Hand.deal(rules("auction", allow_two_players=True), players=2, seed=2)
    pc.Hand.deal(rules("auction-partners"), players=4, seed=4)
    for n in (2, 3, 5, 6):
        with pytest.raises(pc.IllegalActionError):
            pc.Hand.deal(rules("auction-partners", allow_two_players=True), players=n, seed=n)


def test_E2_undealt_cards_never_affect_high_low_jack_or_game():
    # the AS, JS, 2S, 3S, 4S are not dealt: KS is High, 5S is Low, nobody scores Jack
    cards = ["KS 2C 3C 4C 6C 7C", "5S 2D 3D 4D 6D 7D", "9S 2H 3H 4H 6H 7H",
             "8C 9C 5C 8D 9D 5D"]
    h = play(deal(cards), "pitch 5S", "9S 5D KS")
    finish(h)
    r = h.result
    assert (r.high_card, r.low_card, r.jack_card) == ("KS", "5S", None)
    assert (r.high, r.low, r.jack) == (0, 0, None)
    assert sum(r.game_counts) == 3  # the KS: the undealt tens, aces ... count for nobody
    assert r.game == 0 and r.points == (3, 0, 0, 0)


def test_E3_the_dealer_rotates_after_every_hand_even_a_set_one():
    m = h_b_match([0, 0, 0], bid=3)
    assert not m.results[-1].made and m.next_dealer == 1
    assert m.deal().dealer == 1
    # A: if the next dealer leaves, the deal goes on clockwise from the departed seat
    s = session(("A", "B", "C", "D"), dealer=1)
    s.deal()
    while s.hand.seat_to_act is not None:
        s.push(s.hand.legal_actions()[0])
    assert s.players[s.next_dealer] == "C"
    s.leave("C")
    assert s.players[s.next_dealer] == "D"
    assert s.players[s.deal().dealer] == "D"


# ---------------------------------------------------------------- bidding
def test_E4_B_all_non_dealers_pass_the_dealer_must_bid_2_3_or_4():
    h = play(deal(SUITED), "pass, pass, pass")
    assert {a for a in legal(h) if a.startswith("bid")} == {"bid 2", "bid 3", "bid 4"}
    assert_refused(h, "pass")
    assert_refused(h, "bid 1")
    play(h, "bid 2")
    assert (h.pitcher, h.contract) == (0, 2)


def test_E5_A_all_non_dealers_pass_the_dealer_bids_exactly_2_and_pitches():
    h = play(deal(SUITED, "money"), "pass, pass, pass")
    assert legal(h) == {"bid 2"}
    assert_refused(h, "bid 3")
    assert_refused(h, "pass")
    play(h, "bid 2")
    assert h.phase == "play" and (h.pitcher, h.contract, h.seat_to_act) == (0, 2, 0)


@pytest.mark.parametrize("high", [1, 2, 3])
def test_E6_B_dealer_steals_1_2_or_3_but_never_a_4(high):
    h = play(deal(SUITED), f"bid {high}, pass, pass, bid {high}")
    assert (h.pitcher, h.contract) == (0, high)
    h = play(deal(SUITED), "bid 4")  # a verbal 4 closes the auction: the dealer gets no turn
    assert h.phase == "play" and h.pitcher == 1
    assert_refused(h, "bid 4")
    h = play(deal(SUITED), "pass, pitch AD")
    assert h.phase == "play" and h.pitcher == 2 and len(h.history) == 2
    assert_refused(h, "bid 4")


def test_E7_A_dealer_steals_4_then_the_bidder_may_bid_moon_or_pass():
    h = play(deal(SUITED, "money"), "bid 4, pass, pass, bid 4")
    assert h.high_bidder == 0 and h.seat_to_act == 1
    assert legal(h) == {"pass", "bid moon"}
    moon = play(h.copy(), "bid moon")
    assert (moon.pitcher, moon.contract, moon.phase) == (1, 5, "play")
    assert_refused(moon, "bid moon")
    assert_refused(moon, "pass")
    passed = play(h.copy(), "pass")
    assert (passed.pitcher, passed.contract) == (0, 4)
    # repeated steals
    h = play(deal(SUITED, "money"), "bid 2, pass, pass, bid 2, bid 3, bid 3")
    assert h.high_bidder == 0 and h.high_bid == 3 and h.seat_to_act == 1


def test_E8_A_a_player_who_passed_is_never_asked_again():
    h = deal(["AS KS QS JS TS 9S", "AH KH QH JH TH 9H", "AD KD QD JD TD 9D",
              "AC KC QC JC TC 9C", "8S 8H 8D 8C 7S 7H"], "money")
    play(h, "pass, bid 2, pass, bid 3, pass, bid 4, pass")
    assert [s for s, _a in h.history] == [1, 2, 3, 4, 0, 2, 4]
    assert (h.pitcher, h.contract) == (2, 4)
    r = rules("money")
    for seed in range(200):
        rng = random.Random(seed)
        n = rng.randint(3, 8)
        h = pc.Hand.deal(r, players=n, dealer=rng.randrange(n), seed=seed)
        passed = set()
        while h.phase == "auction":
            assert h.seat_to_act not in passed
            a = rng.choice(h.legal_actions())
            if str(a) == "pass":
                passed.add(h.seat_to_act)
            h.push(a)


def test_E9_B_pitching_only_in_turn_the_card_leaves_the_hand_and_leads():
    h = deal(SUITED)
    assert_refused(h, "pitch AD", seat=2)  # seat 1 is to act
    assert_refused(h, "pitch AD")          # seat 1 does not hold it
    play(h, "pass")
    play(h, "pitch AD")
    assert "AD" not in held(h, 2) and len(held(h, 2)) == 5
    assert h.current_trick() == [(2, pc.parse_card("AD"))] and h.trump == "D"
    # a verbal 4: the pitcher chooses the lead when play starts
    h = play(deal(SUITED), "pass, bid 4")
    assert h.current_trick() == [] and h.trump is None and h.seat_to_act == 2
    assert legal(h) == {"play " + c for c in SUITED[2].split()}


def test_E10_B_partners_may_outbid_and_steal_from_each_other():
    h = play(deal(SUITED, "auction-partners"), "bid 2, pass, bid 3, pass")
    assert (h.pitcher, h.contract) == (3, 3)  # seat 3 outbid its partner seat 1
    h = play(deal(SUITED, "auction-partners"), "pass, bid 2, pass, bid 2")
    assert (h.pitcher, h.contract) == (0, 2)  # the dealer stole from its partner seat 2


# ---------------------------------------------------------------- play
def test_E11_trick_1_is_a_trump_lead_holders_of_trump_must_play_trump():
    h = deal(["2C 3C 4C 5C 6C 7C", "AS 2D 3D 4D 5D 6D", "2S 2H 3H 4H 5H 6H",
              "8C 9C TC 8D 9D TD"])
    play(h, "pitch AS")
    assert legal(h) == {"play 2S"}
    assert_refused(h, "play 2H")
    play(h, "2S")
    assert legal(h) == {"play " + c for c in ("8C", "9C", "TC", "8D", "9D", "TD")}


def test_E12_on_a_plain_lead_a_holder_of_the_suit_may_trump_but_not_discard():
    h = deal(["2C 3C 4C 5C 6C 7C", "AS KD 8H 9H TH JH", "2S 3S 4D 5D 2H 3H"])
    play(h, "pitch AS", "2S 2C", "KD")
    assert legal(h) == {"play 3S", "play 4D", "play 5D"}
    assert_refused(h, "play 2H")
    play(h, "3S")  # trumping while holding diamonds is fine
    play(h, "3C")
    assert h.completed_tricks()[-1][2] == 2


def test_E13_the_pitcher_leads_trick_1_even_as_dealer():
    for variant in ("auction", "money"):
        h = play(deal(SUITED, variant, dealer=2), "pass, pass, pass, bid 2")
        assert h.pitcher == 2 and h.seat_to_act == 2  # not seat 3, left of the dealer
        assert_refused(h, "play AD", seat=3)
        play(h, "9D")
        assert h.trump == "D" and h.seat_to_act == 3


def test_E14_off_suit_never_wins_the_highest_trump_wins_even_as_a_discard():
    cards = ["2C 3C 4C 5C 6C 7C", "AS 2D 9C TC JC QC", "4S 3S 5H 6H 7H 8H",
             "AH KH QH JH TH 9H"]
    h = play(deal(cards), "pitch AS", "4S 9H 2C", "2D 3S AH 3C")
    assert h.completed_tricks()[1][2] == 2  # the 3S "discard" beats the led 2D and the AH
    h = play(deal(cards), "pitch AS", "4S 9H 2C", "2D 5H AH 3C")
    assert h.completed_tricks()[1][2] == 1  # no trump: the 2D beats two off-suit aces/hearts


@pytest.mark.parametrize("variant,low_to", [("money", "capturer"), ("auction", "capturer"),
                                            ("auction", "holder")])
@pytest.mark.parametrize("card,expected", [("5S", 2), ("JS", 3)])
def test_E15_a_single_trump_in_play_scores_2_or_3_for_the_pitcher(variant, low_to, card,
                                                                  expected):
    h = deal(fill("", card, "", suits="DH"), variant, low_to=low_to)
    play(h, "bid 2, pass, pass", card)
    finish(h)
    r = h.result
    assert r.high == r.low == 1 and r.high_card == r.low_card == card
    assert (r.jack == 1) is (card == "JS")
    assert r.points[1] - (r.game == 1) == expected


# ---------------------------------------------------------------- scoring
def test_E16_jack_not_dealt_means_no_jack_point_and_no_4_or_moon():
    no_jack = ["2D 3D 4D 5D 6D 7D", "AS KS QS TS 9S 2S", "2H 3H 4H 5H 6H 7H"]
    sweep = ("AS 2H 2D", "KS 3H 3D", "QS 4H 4D", "TS 5H 5D", "9S 6H 6D", "2S 7H 7D")
    r = play(deal(no_jack), "bid 4", *sweep).result
    assert r.jack is None and r.tricks == (0, 6, 0) and r.points == (0, 3, 0)
    assert not r.made and r.deltas == (0, -4, 0)
    s = session()
    r = play_hand(s, no_jack, ("bid moon", *sweep))
    assert not r.made and not r.moon and r.deltas == (0, -4, 0)
    assert s.stars["B"] == 0
    assert s.ledger["A"] == s.ledger["C"] == 1 + TEN_CENTS * Fraction(4, 3)


def test_E17_game_ties_award_nothing_and_block_a_moon_or_a_4():
    h = finish(play(deal(TIED), *TIED_PLAY))  # a tie at 10: no game point
    assert h.result.game_counts == (0, 10, 10) and h.result.game is None
    assert not h.result.made and h.result.deltas == (0, -4, 0)
    # nothing that counts is dealt: everyone is at 0, even after a sweep of six tricks
    r = play_hand(session(), ZERO, ("bid moon", *ZERO_PLAY))
    assert r.tricks == (0, 6, 0) and r.game_counts == (0, 0, 0) and r.game is None
    assert not r.made and not r.moon and r.points == (0, 2, 0)
    r = play(deal(ZERO), "bid 4", *ZERO_PLAY).result
    assert r.game is None and not r.made


def test_E18_players_without_tricks_count_0_and_a_sweep_still_needs_a_count():
    r = play(deal(SWEEP), "bid 2, pass, pass", *SWEEP_PLAY).result
    assert r.tricks == (0, 6, 0) and r.game_counts == (0, 20, 0) and r.game == 1
    r = play(deal(ZERO), "bid 2, pass, pass", *ZERO_PLAY).result
    assert r.game_counts == (0, 0, 0) and r.game is None  # 0 ties with the trickless 0s


@pytest.mark.parametrize("variant,low_to,expected", [("money", "capturer", 0),
                                                     ("auction", "capturer", 0),
                                                     ("auction", "holder", 1),
                                                     ("money", "holder", 1)])
def test_E19_low_goes_to_capturer_or_holder(variant, low_to, expected):
    # seat 1 leads its 2S; seat 2's JS is beaten by seat 0's AS, which captures the 2S
    cards = ["AS 3D 4D 5D 6D 7D", "2S TC KC QC 9H 8H", "JS 2H 3H 4H 5H 6H"]
    h = play(deal(cards, variant, low_to=low_to), "bid 2, pass, pass", "2S JS AS")
    finish(h)
    assert h.result.low_card == "2S" and h.result.low == expected
    assert h.result.jack == 0  # the Jack always goes to the capturer


def test_E20_a_set_pitcher_scores_minus_the_bid_and_nothing_it_won():
    for variant in ("auction", "money"):
        r = play(deal(H_B, variant), "bid 3, pass, pass", *H_B_PLAY).result
        assert r.points == (0, 2, 2) and not r.made
        assert r.deltas == (0, -3, 2)


def test_E21_a_pitcher_scores_every_point_won_up_to_4():
    r = play(deal(SWEEP), "bid 2, pass, pass", *SWEEP_PLAY).result
    assert r.made and r.deltas == (0, 4, 0)
    r = play(deal(SWEEP), "bid 4", *SWEEP_PLAY).result
    assert r.made and r.deltas == (0, 4, 0)
    for seed in range(100):
        h = finish(pc.Hand.deal(rules("auction"), players=3 + seed % 5, seed=seed))
        assert max(h.result.points) <= 4 and sum(h.result.points) <= 4


def test_E22_A_a_4_bid_sweep_scores_4_with_no_star_and_no_moon_money():
    s = session()
    r = play_hand(s, SWEEP, ("bid 4, pass, pass", *SWEEP_PLAY))
    assert r.tricks == (0, 6, 0) and r.points == (0, 4, 0)
    assert r.made and not r.moon and r.deltas == (0, 4, 0)
    assert s.stars == {"A": 0, "B": 0, "C": 0}
    pts = TEN_CENTS * Fraction(8, 3)
    assert s.ledger == {"A": -pts / 2, "B": pts, "C": -pts / 2}  # points money only


def test_E23_negative_scores_and_negative_fractional_averages():
    m = pc.Match(rules("auction"), players=3, dealer=0)
    play_hand(m, H_B, ("bid 3, pass, pass", *H_B_PLAY))
    assert m.scores == [0, -3, 2]
    s = session(dealer=2)
    r = play_hand(s, *E24_HANDS[2])  # d = (0, 1, -3): mean -2/3
    assert r.deltas == (0, 1, -3)
    assert s.scores == {"A": 0, "B": 1, "C": -3}
    assert s.ledger == {"A": Fraction(1, 15), "B": Fraction(1, 6), "C": Fraction(-7, 30)}


# ---------------------------------------------------------------- money (A)
def test_E24_fixed_table_7_2_minus_3_pays_50_0_minus_50_cents():
    for mode in ("per_hand", "snapshot"):
        s = session(average_mode=mode)
        for cards, script in E24_HANDS:
            play_hand(s, cards, script)
        assert s.scores == {"A": 7, "B": 2, "C": -3}
        assert s.ledger == {"A": Fraction(1, 2), "B": 0, "C": Fraction(-1, 2)}
        assert s.settle_cents() == {"A": 50, "B": 0, "C": -50}


def test_E25_fractional_average_and_largest_remainder_cents():
    scores = {"P": 5, "Q": 3, "R": 3}
    mean = Fraction(11, 3)
    exact = {n: TEN_CENTS * (v - mean) for n, v in scores.items()}
    assert exact == {"P": Fraction(2, 15), "Q": Fraction(-1, 15), "R": Fraction(-1, 15)}
    assert pc.round_cents(exact, ["P", "Q", "R"]) == {"P": 14, "Q": -7, "R": -7}
    assert pc.round_cents(exact, ["Q", "R", "P"]) == {"P": 13, "Q": -6, "R": -7}
    assert pc.round_cents(exact, ["R", "P", "Q"]) == {"P": 13, "Q": -7, "R": -6}
    for order in (["P", "Q", "R"], ["Q", "R", "P"]):
        assert sum(pc.round_cents(exact, order).values()) == 0


def test_E26_join_mid_session_per_hand_and_snapshot():
    third = CENT / 3
    ledgers = {}
    for mode in ("per_hand", "snapshot"):
        s = session(("P", "Q"), average_mode=mode)
        r = play_hand(s, *E26_HAND1)
        assert r.deltas == (3, 1)
        if mode == "per_hand":
            assert s.ledger == {"P": 10 * CENT, "Q": -10 * CENT}
        s.join("R")
        assert s.players == ["P", "R", "Q"]
        r = play_hand(s, *E26_HAND2)
        assert r.deltas == (-2, 2, 1) and not r.made
        assert s.scores == {"P": 1, "Q": 2, "R": 2}
        ledgers[mode] = s.ledger
    assert ledgers["per_hand"] == {"P": -40 * third, "Q": -10 * third, "R": 50 * third}
    assert ledgers["snapshot"] == {"P": -20 * third, "Q": 10 * third, "R": 10 * third}
    # hand 2 on its own: P -23 1/3, Q +6 2/3, R +16 2/3 cents
    s = session(("P", "R", "Q"), dealer=2)
    play_hand(s, *E26_HAND2)
    assert s.ledger == {"P": -70 * third, "Q": 20 * third, "R": 50 * third}


def test_E27_moon_money_only_among_the_players_dealt_in():
    s = session(("A", "B", "C", "D"))
    s.leave("D")  # left before the moon
    r = play_hand(s, SWEEP, ("bid moon", *SWEEP_PLAY))
    assert r.moon
    s.join("E")   # joined after it
    pts = TEN_CENTS * Fraction(8, 3)
    assert s.ledger == {"A": -1 - pts / 2, "E": 0, "B": 2 + pts, "C": -1 - pts / 2}
    assert s.payouts == {"D": 0}
    # five dealt in, the moon fails (seat 1 loses the last trick): it pays 1 to each of 4
    s = session(("A", "B", "C", "D", "E"))
    cards = ["2D 3D 4D 5D 6D 7D", "AS KS QS JS TS 2C", "2H 3H 4H 5H 6H 7H",
             "8D 9D TD 8H 9H TH", "3C 4C 5C 6C 7C AC"]
    r = play_hand(s, cards, ("bid moon", "AS 2H 8D 3C 2D", "KS 3H 9D 4C 3D",
                             "QS 4H TD 5C 4D", "JS 5H 8H 6C 5D", "TS 6H 9H 7C 6D",
                             "2C 7H TH AC 7D"))
    assert r.bid == "moon" and not r.made and r.tricks[1] == 5 and r.points[1] == 4
    assert r.deltas == (0, -4, 0, 0, 0)
    mean = Fraction(-4, 5)
    assert s.ledger["B"] == TEN_CENTS * (-4 - mean) - 4
    for name in "ACDE":
        assert s.ledger[name] == TEN_CENTS * (0 - mean) + 1
    assert sum(s.ledger.values()) == 0


def test_E28_leavers_are_paid_at_once_the_rest_at_the_end():
    s = session()
    for cards, script in E24_HANDS:
        play_hand(s, cards, script)
    assert s.leave("A") == Fraction(1, 2)
    assert "A" not in s.ledger and s.payouts == {"A": Fraction(1, 2)}
    with pytest.raises(pc.IllegalActionError):
        s.leave("A")  # the entry is closed
    with pytest.raises(pc.IllegalActionError):
        s.join("A")
    assert s.settle() == {"B": 0, "C": Fraction(-1, 2)}
    assert sum(s.payouts.values()) == 0 and s.pot == 0
    s = session(average_mode="snapshot")
    for cards, script in E24_HANDS:
        play_hand(s, cards, script)
    assert s.leave("A") == Fraction(1, 2)
    assert s.settle() == {"B": Fraction(1, 4), "C": Fraction(-1, 4)}
    assert sum(s.payouts.values()) == Fraction(1, 2)
    assert s.pot == Fraction(-1, 2)  # the table paid out 50 cents more than came in


def test_E29_fewer_than_two_players_end_the_session():
    s = session(("A", "B"))
    play_hand(s, *E26_HAND1)
    assert not s.finished
    s.leave("B")
    assert s.finished and set(s.payouts) == {"A", "B"}
    assert s.payouts == {"A": TEN_CENTS, "B": -TEN_CENTS}
    with pytest.raises(pc.IllegalActionError):
        s.deal()
    with pytest.raises(pc.IllegalActionError):
        s.settle()


# ---------------------------------------------------------------- winning (B)
def test_E30_a_non_pitcher_at_or_past_the_target_does_not_win():
    m = h_b_match([0, 0, 6])
    assert m.scores == [0, 2, 8] and m.winner is None
    assert m.deal().dealer == 1


def test_E31_a_pitcher_who_makes_the_bid_and_reaches_the_target_wins():
    m = h_b_match([9, 5, 0])
    assert m.scores == [9, 7, 2]
    assert m.winner == 1  # although seat 0 has more


def test_E32_a_set_pitcher_at_or_past_the_target_does_not_win_by_default():
    m = h_b_match([0, 11, 0], bid=3)
    assert m.scores == [0, 8, 2] and m.winner is None
    m = h_b_match([0, 11, 0], bid=3, win_requires_made_bid=False)
    assert m.winner == 1


@pytest.mark.parametrize("win_rule,start,winner", [
    ("bidder_goes_out", [0, 5, 5], 1),
    ("first_to_target_HLJG_order", [0, 5, 5], 2),  # Low, then Jack take seat 2 to 7 first
    ("pitcher_counted_first", [0, 5, 5], 1),
    ("higher_score", [0, 5, 5], 1),                # 7-7: the pitcher wins the tie
    ("bidder_goes_out", [0, 5, 6], 1),
    ("higher_score", [0, 5, 6], 2),                # 7 against 8
    ("first_to_target_HLJG_order", [0, 6, 6], 1),  # High takes seat 1 to 7 first
])
def test_E33_two_sides_reach_the_target_on_one_hand(win_rule, start, winner):
    m = h_b_match(start, win_rule=win_rule)
    assert min(m.scores[1:]) >= 7
    assert m.winner == winner


@pytest.mark.parametrize("win_rule,winner", [
    ("bidder_goes_out", None),                     # the pitcher (seat 1) is at 6
    ("first_to_target_HLJG_order", 3),             # High to seat 1 (6), then Low to seat 3 (7)
    ("pitcher_counted_first", 3),                  # the pitcher does not qualify: H-L-J-G
    ("higher_score", None),                        # 7-7-7, and the pitcher is not among them
])
def test_E33_the_tie_break_counts_high_low_jack_game_in_that_order(win_rule, winner):
    # FOUR_WAY: High to seat 1 (the pitcher, bid 1), Low seat 3, Jack seat 2, Game seat 0
    m = pc.Match(rules("auction", win_rule=win_rule), players=4, dealer=0,
                 scores=[6, 5, 6, 6])
    play_hand(m, FOUR_WAY, ("bid 1, pass, pass, pass", *FOUR_WAY_PLAY))
    assert m.scores == [7, 6, 7, 7]
    assert m.winner == winner


def test_E34_reaching_exactly_the_target_counts():
    m = h_b_match([0, 5, 0])
    assert m.scores[1] == 7 and m.winner == 1
    m = h_b_match([0, 4, 0])
    assert m.scores[1] == 6 and m.winner is None
