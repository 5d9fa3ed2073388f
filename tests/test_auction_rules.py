"""RULES §3, rule set B "Auction Pitch": B-R1 to B-R8, one or more tests per rule."""

from __future__ import annotations

import pytest

import pitchcards as pc
from helpers import (
    FOUR_WAY,
    FOUR_WAY_PLAY,
    H_B,
    H_B_PLAY,
    SUITED,
    assert_refused,
    deal,
    fill,
    finish,
    held,
    legal,
    play,
    rules,
)

# Four players, one suit each: for auction-only tests.

def four_way(variant="auction", **options):
    h = deal(FOUR_WAY, variant, **options)
    return play(h, "bid 1, pass, pass, pass", *FOUR_WAY_PLAY)


def h_b_match(scores, bid=2, **options):
    m = pc.Match(rules("auction", **options), players=3, dealer=0, scores=scores)
    m.deal(cards=H_B)
    play(m, f"bid {bid}, pass, pass", *H_B_PLAY)
    return m


# ---------------------------------------------------------------- B-R1 players and modes
@pytest.mark.parametrize("n", range(3, 8))
def test_B_R1_1_three_to_seven_players_cutthroat(n):
    h = finish(pc.Hand.deal(rules("auction"), players=n, dealer=0, seed=n))
    assert h.sides == n and len(h.result.deltas) == n
    assert pc.Match(rules("auction"), players=n).players == n


@pytest.mark.parametrize("n", [2, 8])
def test_B_R1_1_two_or_eight_players_refused_by_default(n):
    with pytest.raises(pc.IllegalActionError):
        pc.Hand.deal(rules("auction"), players=n, dealer=0, seed=1)
    with pytest.raises(pc.IllegalActionError):
        pc.Match(rules("auction"), players=n)


def test_B_R1_2_allow_two_players():
    r = rules("auction", allow_two_players=True)
    h = pc.Hand.deal(r, players=2, dealer=0, seed=3)
    assert h.seat_to_act == 1
    finish(h)
    assert sum(h.result.tricks) == 6 and len(h.result.points) == 2
    assert pc.Match(r, players=2).players == 2


@pytest.mark.parametrize("n", [3, 5])
def test_B_R1_3_partnership_needs_exactly_four_players(n):
    with pytest.raises(pc.IllegalActionError):
        pc.Hand.deal(rules("auction-partners"), players=n, dealer=0, seed=1)
    with pytest.raises(pc.IllegalActionError):
        pc.Match(rules("auction-partners"), players=n)


# Dealer 3, seat 0 bids 2: seat 0 takes High and Low and counts 6, seat 2 counts 7, seat 1
# counts 10.  Alone seat 1 has the most; pooled, team 0 (13) beats team 1 (10).
POOLED = ["AS 2C KD QD 5C 2H", "2D TC 4D 8D 6C 3H", "3S 3C AD 6D 7C 4H", "3D 4C 5D 7D 8C 9C"]
POOLED_PLAY = ("bid 2, pass, pass, pass", "AS 2D 3S 3D", "2C TC 3C 4C", "4D AD 5D KD",
               "6D 7D QD 8D", "5C 6C 7C 8C", "9C 2H 3H 4H")


def test_B_R1_3_partners_pool_points_trick_piles_and_game_counts():
    h = play(deal(POOLED, "auction-partners", dealer=3), *POOLED_PLAY)
    r = h.result
    assert r.game_counts == (13, 10)
    assert r.tricks == (3, 3)
    assert (r.high, r.low, r.jack, r.game) == (0, 0, None, 0)
    assert r.points == (3, 0) and r.deltas == (3, 0)
    assert r.pitcher == 0 and r.pitcher_side == 0 and r.made
    # the same cards cutthroat: the game point goes to seat 1 alone
    h = play(deal(POOLED, "auction", dealer=3), *POOLED_PLAY)
    assert h.result.game_counts == (6, 10, 7, 0)
    assert h.result.game == 1 and h.result.points == (2, 1, 0, 0)


def test_B_R1_3_partners_bid_individually_and_may_outbid_each_other():
    h = deal(SUITED, "auction-partners", dealer=0)
    play(h, "bid 2, pass, bid 3")  # seat 3 outbids its partner seat 1
    assert h.high_bid == 3 and h.high_bidder == 3
    play(h, "pass")
    assert h.pitcher == 3 and h.contract == 3


def test_B_R1_3_the_pitchers_team_is_the_contracting_side():
    # seat 1 bids 2 and wins only High; its partner seat 3 captures the Low: team 1 makes
    h = deal(FOUR_WAY, "auction-partners")
    play(h, "bid 2, pass, pass, pass", *FOUR_WAY_PLAY)
    assert h.result.pitcher == 1 and h.result.pitcher_side == 1
    assert h.result.points == (2, 2)  # team 0: Jack, Game; team 1: High, Low
    assert h.result.made and h.result.deltas == (2, 2)
    # cutthroat, the same bid is set: seat 1 alone has one point
    h = deal(FOUR_WAY, "auction")
    play(h, "bid 2, pass, pass, pass", *FOUR_WAY_PLAY)
    assert not h.result.made and h.result.deltas == (1, -2, 1, 1)


def test_B_R1_4_seven_players_allowed_six_is_not_the_limit():
    assert rules("auction").player_range == (3, 7)
    h = finish(pc.Hand.deal(rules("auction"), players=7, dealer=6, seed=2))
    assert sum(h.result.tricks) == 6


# ---------------------------------------------------------------- B-R2 dealer
def test_B_R2_1_first_dealer_is_random():
    dealers = {pc.Match(rules("auction"), players=4, dealer=None, seed=s).first_dealer
               for s in range(60)}
    assert dealers == {0, 1, 2, 3}


def test_B_R2_2_the_player_left_of_the_dealer_deals_next():
    m = pc.Match(rules("auction"), players=4, dealer=2, seed=1)
    dealers = []
    for _ in range(5):
        h = m.deal()
        dealers.append(h.dealer)
        while h.seat_to_act is not None:
            m.push(h.legal_actions()[0])
        if m.winner is not None:
            break
    assert dealers == [2, 3, 0, 1, 2][:len(dealers)] and len(dealers) >= 3


# ---------------------------------------------------------------- B-R3 deal
def test_B_R3_six_cards_dealt_three_at_a_time_by_default():
    r = rules("auction")
    assert r.deal_batch == 3
    for seed in range(5):
        default = pc.Hand.deal(r, players=4, dealer=1, seed=seed).dealt
        assert default == pc.Hand.deal(r.replace(deal_batch=3), players=4, dealer=1,
                                       seed=seed).dealt
        assert [m.bit_count() for m in default] == [6] * 4
    assert any(pc.Hand.deal(r, players=4, dealer=1, seed=s).dealt
               != pc.Hand.deal(r.replace(deal_batch=1), players=4, dealer=1, seed=s).dealt
               for s in range(5))


# ---------------------------------------------------------------- B-R4 auction
def test_B_R4_1_one_chance_each_from_the_dealers_left_ending_with_the_dealer():
    h = pc.Hand.deal(rules("auction"), players=5, dealer=2, seed=9)
    play(h, "pass, bid 1, pass, bid 2, pass")
    assert [s for s, _a in h.history] == [3, 4, 0, 1, 2]
    assert h.phase == "play" and h.pitcher == 1 and h.contract == 2
    # the auction is closed: seat 4, outbid by seat 1, is not asked again
    assert_refused(h, "bid 3")


def test_B_R4_2_a_non_dealer_passes_or_bids_strictly_higher():
    h = deal(SUITED, "auction")
    assert legal(h) >= {"pass", "bid 1", "bid 2", "bid 3", "bid 4"}
    play(h, "bid 2")
    bids = {a for a in legal(h) if a.startswith("bid")}
    assert bids == {"bid 3", "bid 4"}
    assert_refused(h, "bid 2")
    assert_refused(h, "bid 1")
    assert_refused(h, "bid moon")
    play(h, "pass")
    assert h.seat_to_act == 3


def test_B_R4_3_pitching_a_card_bids_4_and_makes_it_the_opening_lead():
    h = deal(SUITED, "auction")
    assert {"pitch " + c for c in ("AH", "KH", "9H")} <= legal(h)
    play(h, "pitch KH")
    assert h.pitcher == 1 and h.contract == 4
    assert h.trump == "H"
    assert h.current_trick() == [(1, pc.parse_card("KH"))]
    assert "KH" not in held(h, 1) and h.seat_to_act == 2


def test_B_R4_3_a_verbal_4_is_legal_and_its_bidder_leads_any_card_later():
    h = deal(SUITED, "auction")
    play(h, "bid 4")
    assert h.pitcher == 1 and h.contract == 4
    assert h.trump is None and h.current_trick() == []
    assert h.seat_to_act == 1
    assert legal(h) == {"play " + c for c in SUITED[1].split()}
    play(h, "9H")
    assert h.trump == "H"


@pytest.mark.parametrize("four", ["bid 4", "pitch AD"])
def test_B_R4_4_a_bid_of_4_ends_the_auction_immediately(four):
    h = deal(SUITED, "auction")
    play(h, "pass", four)  # seat 2 bids 4; seat 3 and the dealer never speak
    assert h.phase == "play" and h.pitcher == 2 and h.contract == 4
    assert [s for s, _a in h.history] == [1, 2]
    assert_refused(h, "bid 4")  # no steal of a 4
    assert_refused(h, "pass")


def test_B_R4_5_a_dealer_must_bid_at_least_2_when_all_others_passed():
    h = deal(SUITED, "auction")
    play(h, "pass, pass, pass")
    assert h.seat_to_act == 0
    assert {a for a in legal(h) if not a.startswith("pitch")} == {"bid 2", "bid 3", "bid 4"}
    assert {a for a in legal(h) if a.startswith("pitch")} == {"pitch " + c
                                                              for c in SUITED[0].split()}
    assert_refused(h, "pass")
    assert_refused(h, "bid 1")
    play(h, "bid 3")
    assert h.pitcher == 0 and h.contract == 3


@pytest.mark.parametrize("high", [1, 2, 3])
def test_B_R4_5_b_the_dealer_may_pass_raise_or_steal_by_equalling(high):
    h = deal(SUITED, "auction")
    play(h, f"pass, bid {high}, pass")
    bids = {a for a in legal(h) if a.startswith("bid")}
    assert "pass" in legal(h)
    assert bids == {f"bid {v}" for v in range(high, 5)}
    if high > 1:
        assert_refused(h, f"bid {high - 1}")
    steal = h.copy()
    play(steal, f"bid {high}")
    assert steal.pitcher == 0 and steal.contract == high
    passed = h.copy()
    play(passed, "pass")
    assert passed.pitcher == 2 and passed.contract == high


def test_B_R4_6_the_high_bidder_is_the_pitcher():
    h = deal(SUITED, "auction")
    play(h, "bid 1, bid 3, pass, pass")
    assert h.pitcher == 2 and h.contract == 3
    assert h.seat_to_act == 2


# ---------------------------------------------------------------- B-R5 play
def test_B_R5_1_the_pitcher_makes_the_first_lead_which_sets_trump():
    h = deal(SUITED, "auction")
    play(h, "pass, pass, bid 2, pass")
    assert h.pitcher == 3 and h.seat_to_act == 3 and h.trump is None
    assert_refused(h, "play AH", seat=1)
    play(h, "TC")
    assert h.trump == "C" and h.leader == 3


def test_B_R5_1_a_pitched_card_is_the_lead():
    h = deal(SUITED, "auction")
    play(h, "pass, pitch QD")
    assert h.current_trick() == [(2, pc.parse_card("QD"))]
    assert h.trump == "D" and h.seat_to_act == 3


def test_B_R5_2_six_tricks_then_the_hand_is_scored():
    h = deal(H_B)
    play(h, "bid 2, pass, pass", *H_B_PLAY[:5])
    assert h.result is None and len(h.completed_tricks()) == 5
    play(h, H_B_PLAY[5])
    assert len(h.completed_tricks()) == 6 and h.result is not None
    assert h.seat_to_act is None and h.legal_actions() == []


# ---------------------------------------------------------------- B-R6 hand scoring
def test_B_R6_1_one_point_each_for_high_low_jack_and_game():
    r = four_way().result
    assert (r.high, r.low, r.jack, r.game) == (1, 3, 2, 0)
    assert (r.high_card, r.low_card, r.jack_card) == ("AS", "2S", "JS")
    assert r.game_counts == (14, 7, 1, 0)
    assert r.points == (1, 1, 1, 1)


# Three players, dealer 0: seat 1 pitches 2S and takes only the game point with 10 of 23
# (a plurality, not a majority); seat 0 takes High and Low; the JS is not dealt.
PLURALITY = ["4S AC QC 2D 3H 4H", "2S 2C 4C TD 2H 5H", "3S 3C 5C 3D AH KH"]
PLURALITY_PLAY = ("pitch 2S", "3S 4S", "AC 2C 3C", "QC 4C 5C", "2D TD 3D", "2H AH 3H",
                  "KH 4H 5H")


def test_B_R6_2_the_game_point_goes_to_a_plurality_not_a_majority():
    r = play(deal(PLURALITY), *PLURALITY_PLAY).result
    assert r.game_counts == (6, 10, 7)
    assert sum(r.game_counts) > 2 * 10
    assert r.game == 1


def test_B_R6_2_a_tie_for_the_most_awards_no_game_point():
    h = deal(["2S 2C 3C 4C 5C 6C", "4S TC 7H 7D 8D 9D", "3S TH 2H 3H 4H 5H"])
    play(h, "pitch 4S", "3S 2S", "TC 2H 2C", "7H TH 3C")
    finish(h)
    assert h.result.game_counts == (0, 10, 10) and h.result.game is None


def test_B_R6_3_jack_not_in_play_is_not_awarded():
    r = play(deal(PLURALITY), *PLURALITY_PLAY).result
    assert r.jack is None and r.jack_card is None
    assert sum(r.points) == 3


@pytest.mark.parametrize("low_to", ["capturer", "holder"])
@pytest.mark.parametrize("card,points", [("5D", 2), ("JD", 3)])
def test_B_R6_4_a_single_trump_scores_2_or_3_for_the_pitcher(card, points, low_to):
    h = deal(fill("", card, "", suits="CH"), low_to=low_to)
    play(h, f"pitch {card}")
    finish(h)
    r = h.result
    assert r.high == r.low == 1 and r.high_card == r.low_card == card
    assert r.points[1] - (r.game == 1) == points
    assert (h.result.jack == 1) == (card == "JD")


def test_B_R6_5_a_pitcher_who_wins_the_bid_scores_all_points_won():
    r = play(deal(H_B), "bid 2, pass, pass", *H_B_PLAY).result
    assert r.made and r.points == (0, 2, 2) and r.deltas == (0, 2, 2)
    r = play(deal(H_B), "bid 1, pass, pass", *H_B_PLAY).result
    assert r.made and r.deltas == (0, 2, 2)  # more than the bid: all points count


def test_B_R6_5_a_set_pitcher_loses_the_bid_and_negative_totals_are_allowed():
    r = play(deal(PLURALITY), *PLURALITY_PLAY).result
    assert r.pitcher == 1 and r.bid == 4 and r.points[1] == 1
    assert not r.made and r.deltas == (2, -4, 0)
    m = pc.Match(rules("auction"), players=3, dealer=0)
    m.deal(cards=PLURALITY)
    play(m, *PLURALITY_PLAY)
    assert m.scores == [2, -4, 0] and m.winner is None


def test_B_R6_6_non_pitchers_score_whatever_they_won():
    r = play(deal(H_B), "bid 3, pass, pass", *H_B_PLAY).result
    assert not r.made
    assert r.deltas[2] == r.points[2] == 2  # seat 2 keeps Low and Jack though the pitcher fell
    assert four_way().result.deltas == (1, 1, 1, 1)


# ---------------------------------------------------------------- B-R7 recipients
def test_B_R7_1_high_goes_to_the_holder_who_is_also_the_capturer():
    h = four_way()
    assert h.result.high == 1
    trick = next(t for t in h.completed_tricks() if pc.parse_card("AS") in t[1])
    assert trick[2] == 1


def test_B_R7_2_low_goes_to_the_capturer_by_default_and_to_the_holder_as_an_option():
    assert rules("auction").low_to == "capturer"
    assert four_way().result.low == 3
    h = four_way(low_to="holder")
    assert h.result.low == 1 and h.result.points == (1, 2, 1, 0)


# ---------------------------------------------------------------- B-R8 end of game
def test_B_R8_1_target_7_by_default_and_11_15_21_as_options():
    assert rules("auction").target == 7
    assert h_b_match([0, 5, 0]).winner == 1  # 7 reached
    for target in (11, 15, 21):
        m = h_b_match([0, 5, 0], target=target)
        assert m.winner is None and m.scores == [0, 7, 2]
        m = h_b_match([0, target - 2, 0], target=target)
        assert m.winner == 1


def test_B_R8_2_bidder_goes_out_only_the_pitcher_can_win_and_only_by_making_the_bid():
    m = h_b_match([0, 0, 5])  # seat 2 reaches 7 without pitching
    assert m.winner is None and m.scores == [0, 2, 7]
    m.deal()  # play continues
    assert m.in_hand
    m = h_b_match([0, 10, 0], bid=3)  # pitcher set, still >= 7
    assert m.scores == [0, 7, 2] and m.winner is None
    m = h_b_match([0, 10, 0], bid=3, win_requires_made_bid=False)
    assert m.winner == 1


def test_B_R8_3_the_winner_may_have_fewer_points_than_a_loser():
    m = h_b_match([0, 5, 9])
    assert m.scores == [0, 7, 11]
    assert m.winner == 1


def test_B_R8_4_only_the_pitcher_can_win_so_there_is_never_a_second_winner():
    m = h_b_match([0, 5, 5])
    assert m.scores == [0, 7, 7]
    assert m.winner == 1
    with pytest.raises(pc.IllegalActionError):
        m.deal()  # the match is over
