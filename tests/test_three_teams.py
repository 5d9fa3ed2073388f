"""Six players in three teams of two (``partnership="3x2"``, variant ``three-teams``): one test per
rule of docs/rules.md §2.7 (TT1–TT9), then hypothesis over random hands and the bots at six."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pitchcards as pc
from helpers import play, play_hand
from pitchcards.bots import make_bot
from pitchcards.bots.arena import run_arena
from pitchcards.hand import Hand
from pitchcards.notation import RecordMismatchError, read_record, replay, write_record
from pitchcards.scoring import game_point

THREE = pc.find_variant("three-teams")
TEN_THREE = pc.find_variant("ten-point").replace(partnership="3x2", min_players=6,
                                                 max_players=6)

# Dealer 0; seat 1 (team 1) bids 2 and leads the KS: spades are trump.  Every point goes to a
# different team than the seat holding the card, and Game only to a team's pooled count:
# High AS held by seat 4 (team 1, the pitcher's partner); Low 2S held by seat 0 (team 0) and
# captured by seat 2's TS (team 2); Jack JS captured by seat 3 (team 0), who trumps with it;
# Game counts per team 5, 12, 14: team 2 by seats 2 (10) and 5 (4) together — seat 2 alone
# has less than team 1.
SPREAD = ["6S 2S 4H 4C 3D 9D", "KS 9S 5H 5C 4D 6H", "3S TS AH 6C 5D 7H",
          "QS 4S JS 2C 6D 7C", "AS 7S 2H 3C KD 7D", "5S 8S 3H AC 2D 8D"]
SPREAD_TRICKS = ("KS 3S QS AS 5S 6S", "7S 8S 2S 9S TS 4S", "AH JS 2H 3H 4H 5H",
                 "2C 3C AC 4C 5C 6C", "2D 3D 4D 5D 6D KD", "7D 8D 9D 6H 7H 7C")
SPREAD_AUCTION = "bid 2, pass, pass, pass, pass, pass"


def spread_hand(**options: object) -> pc.Hand:
    h = pc.Hand.deal(THREE.replace(**options) if options else THREE, players=6, dealer=0,
                     cards=SPREAD)
    return play(h, SPREAD_AUCTION, *SPREAD_TRICKS)


# ------------------------------------------------------------------------------------ TT1
def test_TT1_partners_sit_opposite_three_seats_apart() -> None:
    assert THREE.teams == 3 and THREE.partnership_mode
    assert [THREE.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert THREE.side_count(6) == 3
    h = pc.Hand.deal(THREE, players=6, dealer=0, seed=1)
    assert [h.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2] and h.sides == 3
    m = pc.Match(THREE, players=6, names=list("ABCDEF"))
    assert [m.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert m.scores == [0, 0, 0] and m.seat_scores() == [0] * 6


def test_TT1_the_other_variants_keep_their_sides() -> None:
    four = pc.find_variant("auction-partners")
    assert four.teams == 2 and [four.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    cut = pc.find_variant("auction")
    assert cut.teams == 0 and not cut.partnership_mode
    assert [cut.side_of(s) for s in range(5)] == [0, 1, 2, 3, 4] and cut.side_count(5) == 5


@pytest.mark.parametrize("players", [4, 5, 7])
def test_TT1_three_teams_need_exactly_six_seats(players: int) -> None:
    assert THREE.player_range == (6, 6)
    with pytest.raises(pc.IllegalActionError) as info:
        pc.Hand.deal(THREE, players=players, dealer=0, seed=1)
    assert info.value.reason == "bad_setup" and tuple(info.value.legal) == ("6",)


def test_TT1_3x2_is_refused_where_six_seats_cannot_be() -> None:
    with pytest.raises(pc.OptionError, match="needs exactly 6 players"):
        pc.find_variant("auction-partners").replace(partnership="3x2")
    with pytest.raises(pc.OptionError, match="allowed values: 'off', '2x2', '3x2'"):
        THREE.replace(partnership="4x2")


def test_TT1_the_variant_is_found_by_its_names() -> None:
    for name in ("three-teams", "2v2v2", "3x2", "six partners", "Auction_Three_Teams"):
        assert pc.find_variant(name) is THREE


def test_TT1_views_name_each_seats_team() -> None:
    m = pc.Match(THREE, players=6, names=["Ann", "Bo", "Cy", "Di", "Ed", "Flo"])
    m.deal(cards=SPREAD)
    data = m.view(4).to_dict()
    assert data["sides"] == [0, 1, 2, 0, 1, 2]
    assert data["side_names"] == ["Ann & Di", "Bo & Ed", "Cy & Flo"]
    assert data["rules"]["partners"] is True and data["rules"]["players"] == [6, 6]
    # Hidden information: seat 4 sees its own cards, not its partner's (seat 1).
    assert set(data["hand"]) == set(SPREAD[4].split())
    assert not set(data["hand"]) & set(SPREAD[1].split())
    assert pc.View.from_dict(data) == m.view(4)


@pytest.mark.parametrize("other", [1, 2, 4, 5])
def test_TT1_a_seat_sees_no_more_of_its_partners_cards_than_an_opponents(other: int) -> None:
    # Swap the unseen cards of seat 0's partner (seat 3) with another seat's: nothing in seat
    # 0's view changes, in the auction or once bids are on the table.
    swapped = list(SPREAD)
    swapped[3], swapped[other] = SPREAD[other], SPREAD[3]
    for script in ("", "pass, pass, pass, pass"):
        views = []
        for cards in (SPREAD, swapped):
            h = pc.Hand.deal(THREE, players=6, dealer=5, cards=cards)  # seat 0 bids first
            play(h, script)
            views.append(h.view(0).to_dict())
        assert views[0] == views[1]


# ------------------------------------------------------------------------------------ TT2
def test_TT2_six_cards_each_thirty_six_dealt_and_the_deal_passes_left() -> None:
    m = pc.Match(THREE, players=6, dealer=4, seed=7)
    h = m.deal()
    dealt = [h.hand_of(s) for s in range(6)]
    assert all(d.bit_count() == 6 for d in dealt)
    union = 0
    for d in dealt:
        assert not union & d
        union |= d
    assert union.bit_count() == 36
    while not h.is_over:
        m.push(h.legal_actions()[0])
    assert m.deal().dealer == 5


def test_TT2_ten_point_three_teams_deal_the_whole_deck() -> None:
    h = pc.Hand.deal(TEN_THREE, players=6, dealer=0, seed=3)
    union = 0
    for s in range(6):
        assert h.hand_of(s).bit_count() == 9
        union |= h.hand_of(s)
    assert union.bit_count() == 54
    assert h.sides == 3


# ------------------------------------------------------------------------------------ TT3
def test_TT3_a_player_may_outbid_their_partner_and_the_dealer_steal_from_theirs() -> None:
    h = pc.Hand.deal(THREE, players=6, dealer=0, cards=SPREAD)
    play(h, "bid 1, pass, bid 2, pass, pass")  # seat 3 bids 2 after seat 1; seats 4, 5 pass
    assert "bid 2" in {str(a) for a in h.legal_actions()}  # dealer 0 steals from partner 3
    play(h, "bid 2")
    assert h.pitcher == 0 and h.contract == 2
    h2 = pc.Hand.deal(THREE, players=6, dealer=0, cards=SPREAD)
    play(h2, "bid 1, pass, pass, bid 2")  # seat 4 outbids its partner seat 1
    assert h2.high_bidder == 4


# ------------------------------------------------------------------------------------ TT5
def test_TT5_each_point_goes_to_the_team_of_the_seat_that_earns_it() -> None:
    r = spread_hand().result
    assert r is not None
    assert r.pitcher == 1 and r.pitcher_side == 1
    assert (r.high, r.low, r.jack, r.game) == (1, 2, 0, 2)
    assert (r.high_card, r.low_card, r.jack_card) == ("AS", "2S", "JS")
    assert r.points == (1, 1, 2)
    assert r.game_counts == (5, 12, 14)
    assert r.tricks == (2, 2, 2)


def test_TT5_low_to_the_holder_goes_to_the_holders_team() -> None:
    r = spread_hand(low_to="holder").result
    assert r is not None and r.low == 0 and r.points == (2, 1, 1)


# ------------------------------------------------------------------------------------ TT6
def test_TT6_game_goes_to_the_team_whose_partners_together_count_most() -> None:
    r = spread_hand().result
    assert r is not None
    # seat 2 alone captured 10, less than team 1's 12; with seat 5's 4 team 2 has 14.
    assert r.game == 2 and r.game_counts[1] == 12


SIDES6 = (0, 1, 2, 0, 1, 2)


@pytest.mark.parametrize(("counts", "tie", "dealer", "pitcher_side", "expected"), [
    ([20, 30, 10], "no_point", 0, 0, 1),       # a strict plurality
    ([30, 30, 10], "no_point", 0, 2, None),    # two teams tied at the top: nobody
    ([30, 30, 10], "pitcher", 0, 2, None),     # the pitcher's team is not among the tied
    ([30, 30, 10], "pitcher", 0, 1, 1),        # ... and here it is
    ([25, 25, 25], "no_point", 3, 0, None),    # all three tied
    ([30, 10, 30], "elder_hand", 0, 1, 2),     # first tied team from the dealer's left: seat 2
    ([30, 10, 30], "elder_hand", 1, 1, 2),     # dealer 1: seat 2 (team 2) is elder
    ([30, 10, 30], "elder_hand", 2, 1, 0),     # dealer 2: seat 3 (team 0) is elder
    ([0, 0, 0], "elder_hand", 0, 0, None),     # E17: no count at all
])
def test_TT6_game_among_three_sides_with_ties(counts: list[int], tie: str, dealer: int,
                                              pitcher_side: int, expected: int | None) -> None:
    rules = THREE.replace(game_tie=tie)
    assert game_point(rules, counts, SIDES6, dealer, pitcher_side) == expected


# ------------------------------------------------------------------------------------ TT7
def test_TT7_a_set_team_loses_its_bid_and_the_other_two_score_what_they_won() -> None:
    r = spread_hand().result
    assert r is not None and not r.made and r.deltas == (1, -2, 2)


def test_TT7_a_made_team_scores_every_point_it_won() -> None:
    h = pc.Hand.deal(THREE, players=6, dealer=0, cards=SPREAD)
    play(h, "bid 1, pass, pass, pass, pass, pass", *SPREAD_TRICKS)
    assert h.result is not None and h.result.made and h.result.deltas == (1, 1, 2)


# ------------------------------------------------------------------------------------ TT8
def spread_in_match(bid: int, scores: list[int], **options: object) -> pc.Match:
    rules = THREE.replace(**options) if options else THREE
    m = pc.Match(rules, players=6, dealer=0, scores=scores)
    play_hand(m, SPREAD, (f"bid {bid}, pass, pass, pass, pass, pass", *SPREAD_TRICKS))
    return m


def test_TT8_a_set_bidder_blocks_every_team_from_going_out() -> None:
    m = spread_in_match(2, [6, 6, 6])
    assert m.scores == [7, 4, 8]  # teams 0 and 2 are at or past 7 ...
    assert m.winner is None and not m.is_over  # ... but only the bidder's team may go out


def test_TT8_the_bidders_team_goes_out_even_behind_another_team() -> None:
    m = spread_in_match(1, [6, 6, 6])
    assert m.scores == [7, 7, 8]
    assert m.winner == 1  # team 1 made its 1 and reached 7; team 2 has 8 and does not win


def test_TT8_first_to_target_counts_high_low_jack_game_among_three() -> None:
    # The set pitcher's loss first (team 1 to 4), its own High skipped, then Low to team 2: 7.
    m = spread_in_match(2, [6, 6, 6], win_rule="first_to_target_HLJG_order")
    assert m.winner == 2


def test_TT8_higher_score_picks_the_highest_team_past_the_target() -> None:
    m = spread_in_match(2, [6, 6, 6], win_rule="higher_score")
    assert m.scores == [7, 4, 8] and m.winner == 2


def test_TT8_a_match_to_its_end_with_heuristic_partners() -> None:
    m = pc.Match(THREE, players=6, dealer=0, seed=11)
    bots = [make_bot("heuristic", s) for s in range(6)]
    while not m.is_over and len(m.results) < 200:
        h = m.deal()
        while not h.is_over:
            seat = h.seat_to_act
            assert seat is not None
            m.push(bots[seat].choose(m.view(seat)))
    assert m.winner in (0, 1, 2)
    last = m.results[-1]
    assert last.pitcher_side == m.winner and last.made  # B-R8.2 across three sides
    assert m.scores[m.winner] >= 7
    assert m.scores == [sum(r.deltas[t] for r in m.results) for t in range(3)]


# ------------------------------------------------------------------------------------ TT9
def test_TT9_money_is_not_played_in_teams() -> None:
    with pytest.raises(pc.OptionError, match="partnership='3x2'"):
        THREE.replace(money="per_point_vs_average")


# ------------------------------------------------------------------------------ records
def test_a_six_player_partnership_record_round_trips() -> None:
    m = pc.Match(THREE, players=6, dealer=0, names=list("ABCDEF"))
    play_hand(m, SPREAD, (SPREAD_AUCTION, *SPREAD_TRICKS))
    text = write_record(m)
    assert "variant three-teams" in text and "total 1 -2 2" in text
    again = replay(read_record(text))
    assert isinstance(again, pc.Match)
    assert again.scores == m.scores and again.results == m.results
    assert write_record(again) == text


@pytest.mark.parametrize(("good", "bad"), [
    ("total 1 -2 2", "total 1 -2 2 1 -2 2"),              # scores per seat, not per team
    ("deltas +1 -2 +2", "deltas +1 -2 +2 +1 -2 +2"),
    ("game 2,", "game 0,"),                                 # Game moved to another team
])
def test_a_record_that_moves_points_between_teams_is_refused(good: str, bad: str) -> None:
    m = pc.Match(THREE, players=6, dealer=0)
    play_hand(m, SPREAD, (SPREAD_AUCTION, *SPREAD_TRICKS))
    text = write_record(m)
    assert good in text
    with pytest.raises(RecordMismatchError):
        replay(read_record(text.replace(good, bad)))


def test_a_custom_three_team_rule_set_is_recorded_by_its_options() -> None:
    rules = TEN_THREE
    m = pc.Match(rules, players=6, dealer=2, seed=5)
    rng = random.Random(5)
    h = m.deal()
    while not h.is_over:
        m.push(rng.choice(h.legal_actions()))
    text = write_record(m)
    again = replay(read_record(text))
    assert again.rules == rules and again.scores == m.scores


# ------------------------------------------------------------------------------ hypothesis
@st.composite
def three_team_hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    base = draw(st.sampled_from([THREE, TEN_THREE]))
    changes = {name: draw(st.sampled_from(values)) for name, values in {
        "low_to": ["capturer", "holder"], "game_tie": ["no_point", "elder_hand", "pitcher"],
        "follow_rule": ["trump_anytime", "strict_follow", "follow_trump_only"],
        "all_pass": ["force_dealer_atleast2", "redeal", "eldest_pitches_no_contract"],
    }.items() if draw(st.booleans())}
    rules = base.replace(**changes)
    seed = draw(st.integers(0, 2**32))
    return (Hand.deal(rules, players=6, dealer=draw(st.integers(0, 5)), seed=seed),
            random.Random(seed))


@settings(max_examples=60, deadline=None)
@given(three_team_hands())
def test_random_hands_conserve_cards_and_score_per_team(case: tuple[Hand, random.Random]) -> None:
    h, rng = case
    dealt = [h.hand_of(s) for s in range(6)]
    while h.seat_to_act is not None:
        h.push(rng.choice(h.legal_actions()))
    r = h.result
    assert r is not None and len(r.deltas) == 3 and len(r.points) == 3
    if r.thrown_in:
        return
    kept = [h.dealt[s] & ~h.discarded(s) for s in range(6)]  # T4: the cards kept
    captured = [h.captured(s) for s in range(6)]
    all_kept = 0
    for s in range(6):
        all_kept |= kept[s]
        assert kept[s] & ~dealt[s] == 0
    union = 0
    for c in captured:
        assert not union & c
        union |= c
    assert union == all_kept  # every card kept was played and captured exactly once
    assert sum(r.tricks) == 6
    # Each point to the team of the seat that held or captured it (TT5).
    assert r.high_card is not None and r.pitcher is not None
    high = pc.parse_card(r.high_card)
    assert r.high == next(s % 3 for s in range(6) if kept[s] >> high & 1)
    if r.jack_card is not None:
        jack = pc.parse_card(r.jack_card)
        assert r.jack == next(s % 3 for s in range(6) if captured[s] >> jack & 1)
    assert r.pitcher_side == r.pitcher % 3


@settings(max_examples=30, deadline=None)
@given(three_team_hands())
def test_random_hands_undo_to_the_deal(case: tuple[Hand, random.Random]) -> None:
    h, rng = case
    start = ([h.hand_of(s) for s in range(6)], h.legal_actions(), h.phase, h.seat_to_act)
    pushed = 0
    while h.seat_to_act is not None:
        h.push(rng.choice(h.legal_actions()))
        pushed += 1
    for _ in range(pushed):
        h.pop()
    assert h.result is None and list(h.history) == []
    assert ([h.hand_of(s) for s in range(6)], h.legal_actions(), h.phase, h.seat_to_act) == start


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([THREE, TEN_THREE]))
def test_random_matches_round_trip_through_records(seed: int, rules: pc.RuleSet) -> None:
    m = pc.Match(rules, players=6, dealer=seed % 6, seed=seed)
    rng = random.Random(seed)
    for _ in range(3):
        h = m.deal()
        while not h.is_over:
            m.push(rng.choice(h.legal_actions()))
        if m.is_over:
            break
    text = write_record(m)
    again = replay(read_record(text))
    assert isinstance(again, pc.Match)
    assert again.scores == m.scores and again.results == m.results
    assert write_record(again) == text


# ------------------------------------------------------------------------------------ bots
def test_the_heuristic_feeds_its_partners_safe_trick_three_seats_away() -> None:
    # Seat 1 leads the AS (the master trump: its trick is safe).  Seat 4, its partner three
    # seats on (TT1), holds TS and 7S and feeds the ten (10 towards Game) to its partner's
    # trick; an opponent of seat 1 would keep it and play the 7S.
    cards = ["6S 2S 4H 4C 3D 9D", "AS 9S 5H 5C 4D 6H", "3S KS AH 6C 5D 7H",
             "QS 4S JS 2C 6D 7C", "TS 7S 2H 3C KD 7D", "5S 8S 3H AC 2D 8D"]
    h = pc.Hand.deal(THREE, players=6, dealer=0, cards=cards)
    play(h, SPREAD_AUCTION, "AS 3S 4S")
    assert str(make_bot("heuristic", 0).choose(h.view(4))) == "play TS"
    # Seat 5 (team 2) is an opponent of the pitcher: it does not feed, it keeps its 8S high.
    play(h, "TS")
    assert str(make_bot("heuristic", 0).choose(h.view(5))) == "play 5S"


def test_expert_beats_random_at_six_in_a_fixed_seed_duplicate() -> None:
    # Counted budgets (no clock): the same decisions on any machine.  Six seatings of one deal
    # sequence, each bot holding one or two teams in turn; eight hands a seating.
    expert = "expert[worlds=2,bid_worlds=2,solve_cards=4,max_nodes=500,time_limit=3600]"
    result = run_arena("three-teams", [expert, "random"], games=1, seed=2, jobs=1, max_hands=8)
    assert result.seatings == 6 and result.players == 6
    mine, theirs = result.stats
    assert mine.hands > 0 and mine.point_diff > 1.0 > 0 > theirs.point_diff


def test_the_arena_seats_partners_with_the_same_bot() -> None:
    from pitchcards.bots.arena import _seat_bots, _Task, _team_seatings

    assert _team_seatings(2, 2) == [(0, 1), (1, 0)]  # two teams: the old A/B swap
    three = _team_seatings(2, 3)
    assert len(three) == 6 and all(sum(a[t] for a in three) == 3 for t in range(3))
    assert len(_team_seatings(3, 3)) == 6  # three bots: every order of the three teams
    for r in range(6):
        seats = _seat_bots(_Task(THREE, ("a", "b"), 6, 0, r, 0, None, 10))
        assert all(seats[s] == seats[s + 3] for s in range(3))
    with pytest.raises(ValueError, match="two to 3 bots"):
        run_arena("three-teams", ["random"] * 4, games=1, jobs=1)


# ------------------------------------------------------------------------------ RL adapters
def test_rl_adapters_add_three_score_slots_and_move_no_action_id() -> None:
    from pitchcards.envs.encoding import Encoder, action_size

    four = pc.find_variant("auction-partners")
    assert action_size(THREE) == action_size(four) == 110  # the four-point game's action ids
    enc = Encoder(THREE, 6)
    assert dict(enc.segments)["scores"] == 3 and dict(enc.segments)["won"] == 3 * 52
    m = pc.Match(THREE, players=6, dealer=0, scores=[5, 1, 3])
    play(m.deal(cards=SPREAD), "bid 2")
    obs = enc.encode(m.view(4))  # seat 4 (team 1): its own team first, then teams 2 and 0
    at = enc.offsets["scores"]
    assert list(obs[at:at + 3]) == pytest.approx([1 / 7, 3 / 7, 5 / 7])
