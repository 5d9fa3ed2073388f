"""RULES §1, the common rules C1-C11, one or more tests per rule (stacked deals)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import pitchcards as pc
from helpers import assert_refused, deal, fill, finish, held, legal, names, play, rules

RANKS = "23456789TJQKA"
COUNT = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}

# 3 players, dealer 0: seat 1 bids first, seat 0 (the dealer) last.


# ---------------------------------------------------------------- C1 deck
def test_C1_deck_is_52_distinct_cards_without_jokers():
    texts = [r + s for s in "CDHS" for r in RANKS]
    ids = pc.parse_cards(texts)
    assert sorted(ids) == list(range(52))
    assert {pc.card_name(c) for c in ids} == set(texts)
    for not_a_card in ("1S", "ZS", "AX", "JX"):
        with pytest.raises(pc.InvalidActionError):
            pc.parse_card(not_a_card)
    # A joker is a card of the ten-point family's deck (T1), not of the four-point game's:
    # it cannot be stacked into a 52-card deal.
    cards = [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 52], [12, 13, 14, 15, 16, 17]]
    with pytest.raises(pc.IllegalActionError) as info:
        pc.Hand.deal(rules("auction"), players=3, dealer=0, cards=cards)
    assert info.value.reason == "bad_deal" and "LJ" in str(info.value)
    for seed in range(20):  # and no 52-card deal ever holds one
        h = pc.Hand.deal(rules("auction"), players=7, seed=seed)
        assert all(mask >> 52 == 0 for mask in h.dealt)


def test_C1_a_card_cannot_be_dealt_twice():
    with pytest.raises(pc.IllegalActionError):
        deal(["AS 2C 3C 4C 5C 6C", "AS 2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H 7H"])


@pytest.mark.parametrize("low,high", list(itertools.pairwise(RANKS)))
def test_C1_rank_order_high_to_low_A_K_Q_J_10_down_to_2(low, high):
    # seat 1 pitches the lower spade, seat 2 must follow with the next rank up and wins.
    h = deal(fill("", low + "S", high + "S"))
    play(h, f"pitch {low}S", f"{high}S")
    finish(h)
    leader, cards, winner = h.completed_tricks()[0]
    assert leader == 1 and pc.card_name(cards[1]) == high + "S"
    assert winner == 2


@pytest.mark.parametrize("suit", "CDHS")
def test_C1_suits_are_equal_until_trump_is_set(suit):
    # any suit can become trump; then its 2 beats the ace of a plain suit that was led
    o, t = [x for x in "CDHS" if x != suit][:2]
    h = deal([f"A{t} A{o} 3{o} 4{o} 5{o} 6{o}", f"K{suit} 2{suit} 2{t} 3{t} 4{t} 5{t}"],
             allow_two_players=True)
    assert h.trump is None
    play(h, f"pitch K{suit}", f"3{o}")
    assert h.trump == suit
    play(h, f"2{t} A{t}", f"A{o} 2{suit}")
    assert [w for _l, _c, w in h.completed_tricks()] == [1, 0, 1]


# ---------------------------------------------------------------- C2 seating and direction
@pytest.mark.parametrize("dealer", range(4))
def test_C2_bidding_starts_left_of_the_dealer_and_goes_clockwise(dealer):
    h = pc.Hand.deal(rules("auction"), players=4, dealer=dealer, seed=7)
    seen = []
    while h.phase == "auction":
        seen.append(h.seat_to_act)
        h.push("pass" if h.seat_to_act != dealer else "bid 2")
    assert seen == [(dealer + k) % 4 for k in range(1, 5)]


def test_C2_play_goes_clockwise_and_wraps_from_the_last_seat_to_seat_0():
    # dealer 2: seat 3 bids first and pitches; then seats 0, 1, 2 play in that order
    h = deal(fill("", "", "", "AS"), dealer=2)
    assert h.seat_to_act == 3
    play(h, "pitch AS")
    order = []
    while h.current_trick():
        order.append(h.seat_to_act)
        h.push(h.legal_actions()[0])
    assert order == [0, 1, 2]


def test_C2_left_of_a_seat_is_the_next_seat_clockwise():
    # A: after seat 2 passes, "left of 2" (seat 3) is asked next; after seat 3, seat 0 wraps
    h = pc.Hand.deal(rules("money"), players=4, dealer=1, seed=3)
    assert h.seat_to_act == 2
    h.push("pass")
    assert h.seat_to_act == 3
    h.push("bid 2")
    assert h.seat_to_act == 0


# ---------------------------------------------------------------- C3 hand size
@pytest.mark.parametrize("n", range(2, 9))
def test_C3_six_cards_to_each_of_n_players_from_one_deck(n):
    h = pc.Hand.deal(rules("money"), players=n, dealer=0, seed=n)
    masks = [h.hand_of(s) for s in range(n)]
    assert [m.bit_count() for m in masks] == [6] * n
    union = 0
    for m in masks:
        assert union & m == 0
        union |= m
    assert union.bit_count() == 6 * n


def test_C3_nine_players_do_not_fit_a_52_card_deck():
    with pytest.raises(pc.IllegalActionError):
        pc.Hand.deal(rules("money"), players=9, dealer=0, seed=1)
    with pytest.raises(pc.OptionError):
        rules("money", max_players=9)


@pytest.mark.parametrize("size", [5, 7])
def test_C3_a_stacked_hand_must_have_exactly_six_cards(size):
    cards = fill("", "", "")
    cards[1] = " ".join(cards[1].split()[:5] + (["AS", "KS"] if size == 7 else []))
    with pytest.raises(pc.IllegalActionError):
        deal(cards)


def test_C3_undealt_cards_are_out_of_play():
    # AS is undealt: KS is High; the undealt TS/TH never count for Game
    h = deal(["KS 2C 3C 4C 5C 6C", "QS 2D 3D 4D 5D 6D", "3S 2H 3H 4H 5H 6H"])
    play(h, "pass, pass, bid 2", "KS QS 3S")
    finish(h)
    assert h.result.high_card == "KS" and h.result.high == 0
    assert h.result.low_card == "3S"
    assert sum(h.result.game_counts) == 3 + 2  # KS + QS: nothing undealt counted


# ---------------------------------------------------------------- C4 dealing
def _positions(n, dealer, batch):
    """Deal-order positions of the cards each seat receives (C4)."""
    pos = {s: set() for s in range(n)}
    i = 0
    for _round in range(6 // batch):
        for k in range(1, n + 1):
            for _ in range(batch):
                pos[(dealer + k) % n].add(i)
                i += 1
    return pos


def test_C4_seeded_deals_are_reproducible_and_the_rng_is_injectable():
    r = rules("auction")
    a = pc.Hand.deal(r, players=4, dealer=1, seed=42)
    b = pc.Hand.deal(r, players=4, dealer=1, seed=42)
    c = pc.Hand.deal(r, players=4, dealer=1, rng=random.Random(42))
    d = pc.Hand.deal(r, players=4, dealer=1, seed=43)
    assert a.dealt == b.dealt == c.dealt
    assert a.dealt != d.dealt


@pytest.mark.parametrize("n,dealer", [(2, 0), (4, 0), (4, 3), (5, 2), (7, 6)])
def test_C4_packets_of_three_clockwise_from_the_dealers_left(n, dealer):
    """The shuffled deck is dealt in packets: the batch changes who gets which card, not which
    cards are dealt.  Whatever the shuffle, the cards two batch sizes give the same seat overlap
    exactly as their deal-order positions do, which pins down "from the dealer's left, 3+3"."""
    r3 = rules("auction", allow_two_players=True)
    for seed in range(10):
        hands = {b: pc.Hand.deal(r3.replace(deal_batch=b), players=n, dealer=dealer,
                                 seed=seed).dealt for b in (1, 2, 3)}
        union = {b: 0 for b in hands}
        for b, masks in hands.items():
            for m in masks:
                union[b] |= m
        assert union[1] == union[2] == union[3]
        pos = {b: _positions(n, dealer, b) for b in (1, 2, 3)}
        for b in (1, 2):
            for s in range(n):
                for t in range(n):
                    overlap = (hands[b][s] & hands[3][t]).bit_count()
                    assert overlap == len(pos[b][s] & pos[3][t]), (seed, b, s, t)


def test_C4_the_shuffle_is_uniform():
    counts = Counter()
    deals = 2600
    r = rules("auction")
    for seed in range(deals):
        h = pc.Hand.deal(r, players=4, dealer=seed % 4, seed=seed)
        for c in range(52):
            if h.dealt[(seed % 4 + 1) % 4] >> c & 1:
                counts[c] += 1
    expected = deals * 6 / 52  # 300 each; sd ~16
    assert len(counts) == 52
    assert all(abs(v - expected) < 90 for v in counts.values()), counts


# ---------------------------------------------------------------- C5 trump
def test_C5_the_first_card_led_sets_trump_for_all_six_tricks():
    # verbal bid; the pitcher leads a heart: hearts stay trump when spades are led later
    h = deal(["2S 3S 4S 5S 6S 7S", "2H AS KS QS JS TS", "AD KD QD JD TD 9D"])
    play(h, "bid 2, pass, pass")
    assert h.trump is None and h.seat_to_act == 1
    play(h, "2H 9D 2S")  # seat 2 has no heart, seat 0 none either: the 2H wins
    assert h.trump == "H" and h.completed_tricks()[0][2] == 1
    play(h, "AS TD 3S")  # spades led: AS wins, spades are not trump
    assert h.trump == "H"
    assert h.result is None
    finish(h)
    assert h.result.trump == "H"
    assert h.result.high_card == "2H" and h.result.low_card == "2H"  # the only heart


def test_C5_a_pitched_card_sets_trump_at_once():
    h = deal(fill("", "QD", ""))
    play(h, "pitch QD")
    assert h.trump == "D" and h.phase == "play"


# ---------------------------------------------------------------- C6 legal play
C6_CARDS = ["2C 3C 4C 5C 6C 7C",        # seat 0: clubs only
            "AS KD QH 8C 9D 2H",        # seat 1: pitcher
            "3S 4D 5H 6H TD 8H"]        # seat 2: one trump, diamonds, hearts


def _c6_after_trick_one():
    h = deal(C6_CARDS)
    play(h, "pitch AS", "3S 2C")  # trick 1: seat 1 wins and leads again
    return h


def test_C6_the_leader_may_lead_any_card():
    h = _c6_after_trick_one()
    assert h.seat_to_act == 1
    assert legal(h) == {"play " + c for c in ("KD", "QH", "8C", "9D", "2H")}


def test_C6_a_follower_holding_the_led_suit_may_follow_or_trump_but_not_discard():
    h = deal(["2C 3C 4C 5C 6C 7C", "AS KD QH 8C 9D 2H", "3S 4D 5H 6H TD 2S"])
    play(h, "pitch AS", "2S 2C", "KD")  # seat 2 holds diamonds and the 3S
    assert h.seat_to_act == 2
    assert legal(h) == {"play 4D", "play TD", "play 3S"}
    assert_refused(h, "play 5H")


def test_C6_when_trump_is_led_a_follower_holding_trump_must_play_trump():
    h = deal(C6_CARDS)
    play(h, "pitch AS")
    assert legal(h) == {"play 3S"}
    assert_refused(h, "play 4D")


def test_C6_a_follower_void_in_the_led_suit_may_play_any_card():
    h = _c6_after_trick_one()
    play(h, "KD 4D")
    assert h.seat_to_act == 0  # seat 0 holds clubs only
    assert legal(h) == {"play " + c for c in ("3C", "4C", "5C", "6C", "7C")}


def test_C6_the_engine_rejects_illegal_plays_and_a_refusal_changes_nothing():
    h = _c6_after_trick_one()
    play(h, "KD")
    assert_refused(h, "play 5H")                    # discard while holding diamonds
    assert_refused(h, "play 2C")                    # not this seat's card
    assert_refused(h, "play 4D", seat=0)            # not this seat's turn
    assert_refused(h, "pass")                       # the auction is over
    assert_refused(h, "bid 3")
    assert_refused(h, "play XX", error=pc.InvalidActionError)
    assert_refused(h, "hello", error=pc.InvalidActionError)
    assert_refused(h, 999, error=pc.InvalidActionError)
    h.push("play 4D", seat=2)


# ---------------------------------------------------------------- C7 trick winner
def test_C7_the_highest_trump_wins_the_trick():
    # 4 players; trick 2: everyone follows hearts and the AH wins ...
    h = deal(["2C 3C 4C 5C 6C 7C", "AS AH 2D 3D 4D 5D", "3S 6H 6D 7D 8D 9D",
              "9S TS 7H 8C 9C TC"])
    play(h, "pitch AS", "3S 9S 2C", "AH 6H 7H 3C")  # trick 1 to seat 1; trick 2 all hearts
    assert h.completed_tricks()[1][2] == 1
    h2 = deal(["2C 3C 4C 5C 6C 7C", "AS AH 2D 3D 4D 5D", "3S QS 6D 7D 8D 9D",
               "9S TS 8C 9C TC JC"])
    # ... but when seats 2 and 3 are void in hearts and trump, the higher trump (QS) wins
    play(h2, "pitch AS", "3S 9S 2C", "AH QS TS 3C")
    assert h2.completed_tricks()[1][2] == 2


def test_C7_without_trump_the_highest_card_of_the_led_suit_wins_and_off_suits_never_win():
    h = deal(["2C 3C 4C 5C 6C AD", "AS 2D 3H 4H 5H 6H", "2S AC AH KD 7C 8C"])
    play(h, "pitch AS", "2S 2C", "2D KD AD")
    assert h.completed_tricks()[1][2] == 0  # AD beats KD
    h = deal(["2C 3C 4C 5C 6C 7C", "AS 2D 3H 4H 5H 6H", "2S AC AH KH 7H 8H"])
    play(h, "pitch AS", "2S 2C", "2D AH 3C")  # seat 2 and 0 are void: their aces/clubs lose
    assert h.completed_tricks()[1][2] == 1


def test_C7_the_winner_takes_the_cards_and_leads_the_next_trick():
    h = deal(["2C 3C 4C 5C 6C AD", "AS 2D 3H 4H 5H 6H", "2S AC AH KD 7C 8C"])
    play(h, "pitch AS", "2S 2C", "2D KD AD")
    assert h.seat_to_act == 0 and h.leader == 0
    assert names(h.captured(0)) == {"2D", "KD", "AD"}
    assert h.tricks_won(0) == 1 and h.tricks_won(1) == 1


def test_C7_trick_one_is_led_by_the_pitcher_not_the_player_left_of_the_dealer():
    h = pc.Hand.deal(rules("auction"), players=4, dealer=0, seed=5)
    play(h, "pass, pass, bid 2, pass")
    assert h.pitcher == 3 and h.seat_to_act == 3 and h.leader == 3


# ---------------------------------------------------------------- C8 game count
@pytest.mark.parametrize("rank", list(RANKS))
def test_C8_game_count_of_each_rank(rank):
    # the pitcher (seat 1) holds six count-free trumps and takes all six tricks; seat 2 gives it
    # one card of ``rank`` among count-free diamonds, so the pitcher's count is that card's value
    h = deal(["2C 3C 4C 5C 6C 7C", "2S 3S 4S 5S 6S 7S",
              fill(rank + "H", suits="D")[0]])
    play(h, "pitch 7S")
    finish(h)
    assert h.result.tricks == (0, 6, 0)
    assert h.result.game_counts == (0, COUNT.get(rank, 0), 0)


def test_C8_counts_all_suits_and_the_full_deck_holds_80():
    from pitchcards.cards import FULL_DECK, game_count

    assert game_count(FULL_DECK) == 80
    h = deal(["TC AC KC QC JC 2C", "AS KS QS JS TS 2S", "TH AH KH QH JH 2H"])
    play(h, "pitch AS")
    finish(h)  # spades sweep: every card ends in seat 1's tricks
    assert h.result.game_counts == (0, 60, 0)


def test_C8_players_with_no_tricks_count_zero():
    h = deal(["TC AC KC QC JC 2C", "AS KS QS JS TS 2S", "TH AH KH QH JH 2H"])
    play(h, "pitch AS")
    finish(h)
    assert h.result.tricks[0] == h.result.tricks[2] == 0
    assert h.result.game_counts[0] == h.result.game_counts[2] == 0


# ---------------------------------------------------------------- C9 in play = dealt
def test_C9_every_dealt_card_is_played_by_the_end_of_trick_six():
    for seed in range(20):
        h = finish(pc.Hand.deal(rules("money"), players=2 + seed % 7, dealer=0, seed=seed))
        dealt = 0
        for m in h.dealt:
            dealt |= m
        played = 0
        for _leader, cards, _winner in h.completed_tricks():
            for c in cards:
                played |= 1 << c
        assert len(h.completed_tricks()) == 6
        assert played == dealt
        assert all(h.hand_of(s) == 0 for s in range(h.players))


# ---------------------------------------------------------------- C10 hand points
# seat 1 pitches 2S; seat 2's only trump is the JS, which takes trick 1 (and the low 2S);
# the AS is held by seat 0 and played later.
C10_CARDS = ["AS 3D 4D 5D 6D 7D", "2S TC KC QC 9H 8H", "JS 2H 3H 4H 5H 6H"]


def _c10_hand(**options):
    h = deal(C10_CARDS, **options)
    play(h, "pitch 2S", "JS AS")  # seat 0 must trump too: AS beats JS, seat 0 takes all three
    finish(h)
    return h


def test_C10_high_goes_to_the_holder_of_the_highest_trump_in_play():
    h = _c10_hand()
    assert h.result.high_card == "AS" and h.result.high == 0


def test_C10_jack_goes_to_the_winner_of_the_trick_containing_it():
    h = _c10_hand()
    assert h.result.jack_card == "JS" and h.result.jack == 0  # seat 2 held it, seat 0 won it


def test_C10_low_is_the_lowest_trump_in_play_and_goes_to_its_capturer_by_default():
    h = _c10_hand()
    assert h.result.low_card == "2S" and h.result.low == 0
    assert _c10_hand(low_to="holder").result.low == 1


def test_C10_jack_not_dealt_scores_for_nobody():
    h = deal(["AS 3D 4D 5D 6D 7D", "2S TC KC QC 9H 8H", "QS 2H 3H 4H 5H 6H"])
    play(h, "pitch 2S")
    finish(h)
    assert h.result.jack is None and h.result.jack_card is None
    assert sum(h.result.points) == 3


def test_C10_game_goes_to_a_strict_maximum_only():
    h = _c10_hand()
    counts = h.result.game_counts
    best = max(counts)
    assert counts.count(best) == 1 and h.result.game == counts.index(best)
    # a tie for the most: 10 each (TC for seat 1, TH for seat 2) and nothing else counts
    h = deal(["2S 2C 3C 4C 5C 6C", "4S TC 7H 7D 8D 9D", "3S TH 2H 3H 4H 5H"])
    play(h, "pitch 4S", "3S 2S", "TC 2H 2C", "7H TH 3C")
    finish(h)
    assert h.result.game_counts == (0, 10, 10)
    assert h.result.game is None


def test_C10_one_card_may_earn_several_points():
    h = deal(fill("", "JS", ""))  # the JS is the only trump in play
    play(h, "pitch JS")
    finish(h)
    r = h.result
    assert (r.high, r.low, r.jack) == (1, 1, 1)
    assert r.high_card == r.low_card == r.jack_card == "JS"


# ---------------------------------------------------------------- C11 team = player
@pytest.mark.parametrize("variant,sides", [("money", 4), ("auction", 4),
                                           ("auction-partners", 2)])
def test_C11_team_means_the_individual_player_outside_partnerships(variant, sides):
    h = finish(pc.Hand.deal(rules(variant), players=4, dealer=0, seed=11))
    assert h.sides == sides
    assert len(h.result.points) == len(h.result.deltas) == sides
    expected = [0, 1, 2, 3] if sides == 4 else [0, 1, 0, 1]
    assert [h.side_of(s) for s in range(4)] == expected


# ---------------------------------------------------------------- C6/C7/C8/C10 cross-check
def _reference(h):
    """Recompute legal plays and every hand point from first principles (C6-C10)."""
    trump = h.trump_suit
    sides = [h.side_of(s) for s in range(h.players)]
    holder = {c: s for s in range(h.players) for c in range(52) if h.dealt[s] >> c & 1}
    capturer = {c: w for _l, cards, w in h.completed_tricks() for c in cards}
    trumps = [c for c in holder if c // 13 == trump]
    points = [0] * h.sides
    points[sides[holder[max(trumps)]]] += 1
    low = min(trumps)
    points[sides[holder[low] if h.rules.low_to == "holder" else capturer[low]]] += 1
    jack = trump * 13 + 9
    if jack in holder:
        points[sides[capturer[jack]]] += 1
    counts = [0] * h.sides
    for c, w in capturer.items():
        counts[sides[w]] += COUNT.get(RANKS[c % 13], 0)
    if max(counts) > 0 and counts.count(max(counts)) == 1:
        points[counts.index(max(counts))] += 1
    return points, counts


def _reference_legal(hand, trick, trump, rule):
    cards = [c for c in range(52) if hand >> c & 1]
    if not trick:
        return set(cards)
    led = trick[0] // 13
    follow = {c for c in cards if c // 13 == led}
    if not follow:
        return set(cards)
    if rule == "trump_anytime":
        return follow | {c for c in cards if c // 13 == trump}
    if rule == "strict_follow" or led == trump:
        return follow
    return set(cards)


@pytest.mark.parametrize("variant", ["money", "auction", "auction-partners"])
@pytest.mark.parametrize("follow_rule", ["trump_anytime", "strict_follow", "follow_trump_only"])
def test_C6_C7_C8_C10_random_hands_agree_with_a_reference_model(variant, follow_rule):
    r = rules(variant, follow_rule=follow_rule)
    low, high = r.player_range
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.randint(low, high)
        h = pc.Hand.deal(r, players=n, dealer=rng.randrange(n), seed=seed)
        while h.seat_to_act is not None:
            acts = h.legal_actions()
            if h.phase == "play":
                trick = [c for _s, c in h.current_trick()]
                ref = _reference_legal(h.hand_of(h.seat_to_act), trick, h.trump_suit,
                                       follow_rule)
                assert {int(a) for a in acts} == ref
                assert h.legal_mask() == sum(1 << c for c in ref)
                assert all(h.is_legal(pc.ACTIONS[c]) == (c in ref) for c in range(52))
                before = len(h.completed_tricks())
                leader = h.leader
                h.push(rng.choice(acts))
                if len(h.completed_tricks()) > before:
                    _l, cards, winner = h.completed_tricks()[-1]
                    led = cards[0] // 13

                    def power(c, led=led, trump=h.trump_suit):
                        return (2 if c // 13 == trump else 1 if c // 13 == led else 0,
                                c % 13 if c // 13 in (trump, led) else 0)

                    best = max(range(n), key=lambda i, cards=cards: power(cards[i]))
                    assert winner == (leader + best) % n
            else:
                h.push(rng.choice(acts))
        points, counts = _reference(h)
        assert list(h.result.points) == points
        assert list(h.result.game_counts) == counts
        assert sum(points) <= 4
        assert sum(counts) == sum(
            COUNT.get(c[0], 0) for s in range(n) for c in names(h.dealt[s]))
        assert held(h, 0) == set()
