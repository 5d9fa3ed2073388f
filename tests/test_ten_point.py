"""The ten-point family, one test per rule (T1–T9, docs/rules.md §2.6) and per documented choice.

Hands are stacked so that each test shows its rule on cards a reader can check by eye.
"""

from __future__ import annotations

import random

import pytest

import pitchcards as pc
from pitchcards.bots import make_bot
from pitchcards.cards import card_name, cards_of, game_count, mask_of
from pitchcards.deck import deck_model, off_jack_of
from pitchcards.events import HIDDEN_DISCARD, apply_event
from pitchcards.notation import read_record, replay, write_record
from pitchcards.scoresheet import ScoreSheet
from pitchcards.table import Table

TEN = pc.find_variant("ten-point")
CUT = pc.find_variant("ten-point-cutthroat")
#: Dealer 0; seat 1 bids first.  Nine cards each, 36 of the 54.
NINE = ["LJ AS KS QS JS TS 9S 8S 7S", "BJ AH KH QH JH TH 9H 8H 7H",
        "AD KD QD JD TD 9D 8D 7D 6D", "AC KC QC JC TC 9C 8C 7C 6C"]
#: The same hands as six cards each, for rules with hand_size=6.
SIX = [" ".join(h.split()[:6]) for h in NINE]


def card(text: str) -> int:
    return pc.parse_card(text)


def auction_won_by_seat_1(rules: pc.RuleSet, cards: list[str], bid: str = "bid 4") -> pc.Hand:
    h = pc.Hand.deal(rules, 4, 0, cards=cards)
    for action in (bid, "pass", "pass", "pass"):
        h.push(action)
    return h


def discard(h: pc.Hand, cards_by_seat: dict[int, str]) -> None:
    """Every seat discards, in turn from the dealer's left (T4)."""
    while h.phase == "discard":
        seat = h.seat_to_act
        assert seat is not None
        h.push(f"discard {cards_by_seat[seat].split()[0]}", seat)
        cards_by_seat[seat] = " ".join(cards_by_seat[seat].split()[1:])


def played(h: pc.Hand, *actions: str) -> pc.Hand:
    for action in actions:
        h.push(action)
    return h


# ------------------------------------------------------------------------------- T1 the deck
def test_T1_the_deck_has_54_cards_with_two_jokers_or_53_with_one() -> None:
    assert pc.card_name(52) == "LJ" and pc.card_name(53) == "BJ"
    assert pc.parse_card("JK") == 52 and pc.parse_card("bj") == 53
    assert deck_model(TEN).mask.bit_count() == 54
    assert deck_model(TEN.replace(deck=53)).mask.bit_count() == 53
    one_joker = TEN.replace(deck=53)
    with pytest.raises(pc.IllegalActionError) as info:  # BJ is not in a 53-card deck
        pc.Hand.deal(one_joker, 4, 0, cards=[NINE[1], NINE[0], NINE[2], NINE[3]])
    assert info.value.reason == "bad_deal"
    for seed in range(30):  # a shuffled deal uses every card of the deck, jokers included
        h = pc.Hand.deal(CUT, 6, 0, seed=seed)
        assert sum(h.dealt) == deck_model(CUT).mask


def test_T1_a_joker_counts_nothing_towards_game() -> None:
    assert game_count(mask_of([52, 53])) == 0
    assert game_count(mask_of([52, 53, card("TS")])) == 10


# ----------------------------------------------------------------------------- T2 off-jack
def test_T2_the_off_jack_is_the_jack_of_the_same_colour() -> None:
    assert [pc.card_name(off_jack_of(s)) for s in range(4)] == ["JS", "JH", "JD", "JC"]


def test_T2_the_off_jack_follows_trump_and_not_its_printed_suit() -> None:
    h = auction_won_by_seat_1(TEN.replace(hand_size=6), [
        "2H 3D 4D 5D 6D 7D", "AH KH 3S 4S 5S 6S", "JD 2C 3C 4C 5C 6C", "7C 8C 9C TC JC QC"])
    h.push("trump H")                 # J♦ is now a heart (T2)
    played(h, "play 3S", "play 2C", "play 7C", "play 2H")  # seat 0 trumps the spade
    assert h.completed_tricks()[0][2] == 0
    played(h, "play 3D", "play 4S")   # seat 0 leads a diamond, seat 1 has none
    # seat 2's only "diamond" is the J♦, a heart now: it is void in diamonds, anything goes
    assert h.is_legal("play 3C") and h.is_legal("play JD")


# --------------------------------------------------------------------------- T3 trump order
def test_T3_trump_order_is_A_K_Q_J_off_jack_BJ_LJ_then_ten_down() -> None:
    order = [card_name(c) for c in deck_model(TEN).trump_order[2]]  # hearts
    assert order[::-1][:7] == ["AH", "KH", "QH", "JH", "JD", "BJ", "LJ"]
    assert order[::-1][7:] == ["TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]
    model = deck_model(TEN)
    assert model.trick_winner([card("TH"), 52, 53, card("JD")], 2) == 3
    assert model.trick_winner([card("AS"), 52], 2) == 1  # a joker trumps a side suit


# ----------------------------------------------------------------------- T4 deal and discard
def test_T4_nine_cards_each_then_every_seat_discards_three_from_the_dealers_left() -> None:
    h = auction_won_by_seat_1(TEN, NINE)
    assert all(m.bit_count() == 9 for m in h.dealt)
    h.push("trump S")
    assert h.phase == "discard" and h.seat_to_act == 1  # the dealer's left first
    order = []
    while h.phase == "discard":
        order.append(h.seat_to_act)
        h.push(h.legal_actions()[0])
    assert order == [1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 0]
    assert all(h.hand_of(s).bit_count() == 6 and h.discarded(s).bit_count() == 3
               for s in range(4))
    assert h.phase == "play" and h.seat_to_act == 1  # the pitcher leads (T6)


def test_T4_a_discard_is_seen_only_by_its_seat_and_never_in_play() -> None:
    h = auction_won_by_seat_1(TEN, NINE)
    h.push("trump S")
    h.push("discard 7H")
    assert h.view(1).discarded_mask == 1 << card("7H")
    assert h.view(0).discarded_mask == 0 and h.view(None).discarded_mask == 0
    assert all(a.kind != "discard" for _, a in h.view(0).auction)
    assert h.view(0).hand_sizes[1] == 8


def test_T4_at_most_deck_over_hand_size_players() -> None:
    assert CUT.player_range == (3, 6)
    with pytest.raises(pc.OptionError):
        CUT.replace(max_players=7)
    with pytest.raises(pc.OptionError):
        CUT.replace(deck=53)  # 6 × 9 = 54 > 53
    assert CUT.replace(deck=53, max_players=5).player_range == (3, 5)


def test_T4_discarded_trumps_are_not_in_play_so_nobody_may_score_high_or_low() -> None:
    # Seat 1 names clubs and every club is thrown away: no trump is in play.
    rules = CUT.replace(low_to="capturer")
    cards = ["2S 3S 4S 5S 6S 7S 2C 3C 4C", "AH KH QH JH TH 9H 5C 6C 7C",
             "AD KD QD JD TD 9D 8C 9C TC", "2H 3H 4H 5H 6H 7H JC QC KC"]
    h = pc.Hand.deal(rules, 4, 0, cards=cards)
    for a in ("bid 4", "pass", "pass", "pass", "trump C"):
        h.push(a)
    discard(h, {0: "2C 3C 4C", 1: "5C 6C 7C", 2: "8C 9C TC", 3: "JC QC KC"})
    while h.seat_to_act is not None:
        h.push(h.legal_actions()[0])
    r = h.result
    assert r is not None and r.high is None and r.low is None and r.jack is None
    assert r.high_card is None and not r.made


# ---------------------------------------------------------------------------- T5 naming trump
def test_T5_the_pitcher_names_trump_after_the_auction() -> None:
    h = auction_won_by_seat_1(TEN, NINE, bid="bid 6")
    assert h.phase == "declare" and h.seat_to_act == 1 and h.trump is None
    assert [str(a) for a in h.legal_actions()] == ["trump C", "trump D", "trump H", "trump S"]
    with pytest.raises(pc.IllegalActionError) as info:
        h.push("trump H", seat=2)
    assert info.value.reason == "not_your_turn"
    h.push("trump D")
    assert h.trump == "D" and h.contract == 6


def test_T5_pitching_a_card_needs_the_first_lead_to_name_trump() -> None:
    with pytest.raises(pc.OptionError):
        TEN.replace(pitch_as_bid_4=True)
    with pytest.raises(pc.OptionError):
        TEN.replace(trump_selection="first_lead")  # nine cards need trump named first (T4)


# ---------------------------------------------------------------------------- T6 first lead
def test_T6_under_declare_then_lead_any_the_pitcher_may_lead_anything() -> None:
    h = auction_won_by_seat_1(TEN.replace(hand_size=6), SIX)
    h.push("trump S")
    assert {str(a) for a in h.legal_actions()} == {
        "play BJ", "play AH", "play KH", "play QH", "play JH", "play TH"}


def test_T6_under_declare_then_lead_trump_a_trump_must_lead_if_held() -> None:
    h = auction_won_by_seat_1(TEN.replace(hand_size=6, trump_selection="declare_then_lead_trump"),
                              SIX)
    h.push("trump S")
    assert [str(a) for a in h.legal_actions()] == ["play BJ"]  # the joker is a spade now
    h.pop()
    h.push("trump C")  # seat 1 holds no club: BJ is still a trump (T1), so it must lead it
    assert [str(a) for a in h.legal_actions()] == ["play BJ"]


def test_T6_a_joker_cannot_open_when_the_first_lead_names_trump() -> None:
    rules = TEN.replace(hand_size=6, trump_selection="first_lead")
    h = auction_won_by_seat_1(rules, SIX)
    assert "play BJ" not in {str(a) for a in h.legal_actions()}
    with pytest.raises(pc.IllegalActionError) as info:
        h.push("play BJ")
    assert info.value.reason == "joker_cannot_open"
    h.push("play AH")  # hearts trump; then a joker may lead later tricks as a trump
    assert h.trump == "H"


def test_T6_a_joker_led_later_is_a_trump_lead() -> None:
    h = auction_won_by_seat_1(TEN.replace(hand_size=6), [
        "2C 3C 4C 5C 6C 7C", "BJ AS 2H 3H 4H 5H", "2D 3D 4D 5D 6D AH", "8C 9C TC JC QC KC"])
    h.push("trump H")
    h.push("play BJ")
    assert [str(a) for a in h.legal_actions()] == ["play AH"]  # seat 2 must follow trump
    h.push("play AH")
    assert {str(a) for a in h.legal_actions()} == {  # seat 3 is void in trumps: anything
        "play 8C", "play 9C", "play TC", "play JC", "play QC", "play KC"}


# ------------------------------------------------------------------------------- T7 points
def test_T7_ten_points_each_extra_card_to_its_capturer_and_low_to_its_holder() -> None:
    cards = ["LJ 3H QS 2S 9C 8C", "BJ AH KH JH 4S 5S", "JD 2H TD 9D 8D 7D", "QH TH 3S 6C 5C 4C"]
    h = auction_won_by_seat_1(TEN.replace(hand_size=6), cards)
    h.push("trump H")
    for action in ("play AH", "play 2H", "play TH", "play 3H",     # 1 wins: TH, 3H, 2H
                   "play KH", "play JD", "play QH", "play LJ",     # 1 wins: JD, QH, LJ
                   "play BJ", "play TD", "play 3S", "play QS",     # 1 wins
                   "play JH", "play 9D", "play 6C", "play 2S",     # 1 wins
                   "play 4S", "play 8D", "play 5C", "play 9C",     # 1 wins (spade led)
                   "play 5S", "play 7D", "play 4C", "play 8C"):
        h.push(action)
    r = h.result
    assert r is not None
    assert r.high == 1 and r.high_card == "AH"
    assert r.low == 0 and r.low_card == "2H"          # held by seat 2 (team 0), captured by 1
    assert dict((n, s) for n, s, _ in r.extra) == {
        "Off-jack": 1, "High joker": 1, "Low joker": 1, "Three": 1}
    assert sum(r.points) == 10 and r.points == (1, 9) and r.made and r.deltas == (1, 9)


def test_T7_a_joker_or_the_off_jack_can_be_high_when_nothing_above_is_in_play() -> None:
    cards = ["LJ 2S 3S 4S 5S 6S", "BJ 2C 3C 4C 5C 6C", "JD 2D 3D 4D 5D 6D", "7S 8S 9S 7C 8C 9C"]
    h = auction_won_by_seat_1(TEN.replace(hand_size=6), cards)
    h.push("trump H")
    while h.seat_to_act is not None:
        h.push(h.legal_actions()[0])
    r = h.result
    assert r is not None and r.high_card == "JD" and r.low_card == "LJ"


def test_T7_without_the_three_a_hand_is_worth_seven() -> None:
    assert TEN.replace(extra_points="off_jack_jokers").points_total == 7
    assert TEN.replace(deck=53).points_total == 9 and TEN.points_total == 10
    assert TEN.replace(extra_points="none").points_total == 4
    with pytest.raises(pc.OptionError):
        pc.find_variant("auction").replace(extra_points="off_jack_jokers")  # no extra cards


# --------------------------------------------------------------------------------- T8 bids
def test_T8_bids_run_from_4_to_10_and_5_is_a_number_not_the_moon() -> None:
    h = pc.Hand.deal(TEN, 4, 0, cards=NINE)
    assert [str(a) for a in h.legal_actions()] == ["pass"] + [f"bid {v}" for v in range(4, 11)]
    h.push("bid 5")
    assert h.high_bid == 5 and h.view(None).to_dict()["high_bid"] == "5"
    assert TEN.bid_text(5) == "5" and pc.find_variant("money").bid_text(5) == "moon"
    with pytest.raises(pc.IllegalActionError) as info:
        h.push("bid moon")
    assert info.value.reason == "bid_too_high"
    with pytest.raises(pc.OptionError):
        TEN.replace(moon="moon")


def test_T8_the_dealer_is_stuck_at_the_minimum_bid() -> None:
    h = pc.Hand.deal(TEN, 4, 0, cards=NINE)
    for _ in range(3):
        h.push("pass")
    assert h.seat_to_act == 0 and [str(a) for a in h.legal_actions()] == ["bid 4"]


def test_T8_ten_is_the_moon_and_scores_like_any_bid() -> None:
    h = pc.Hand.deal(TEN, 4, 0, cards=NINE)
    h.push("bid 10")
    assert h.phase == "declare" and h.contract == 10  # nothing beats 10: the auction ends


# ---------------------------------------------------------------------------------- T9 end
def test_T9_target_52_and_the_bidder_goes_out() -> None:
    assert TEN.target == 52 and TEN.win_rule == "bidder_goes_out"
    m = pc.Match(TEN, 4, dealer=0, seed=5, scores=[50, 51])
    table = Table(m, bots={s: make_bot("heuristic", seed=s) for s in range(4)})
    while not table.is_over and len(m.results) < 40:
        table.deal()
        table.advance(stop_at_hand_end=True)
    assert m.winner is not None
    last = m.results[-1]
    assert last.made and m.side_of(last.pitcher) == m.winner  # type: ignore[arg-type]


def test_T9_counted_in_order_the_extra_points_come_after_game() -> None:
    from pitchcards.match import hljg_reach_order
    from pitchcards.scoring import contract_result

    rules = TEN.replace(win_rule="first_to_target_HLJG_order")
    # Side 1 (the pitcher's, bid 2, made) takes High and Game; side 0 takes Low, Jack, the
    # off-jack and the three.  From 46 to 50: side 1 reaches 52 with Game; side 0 would have
    # got there first had the off-jack and the three been counted before Game.
    result = contract_result(rules, 1, 2, 1, [6, 2], False, 1, 0, 0, 1,
                             extra=(("Off-jack", 0, 1), ("High joker", None, 1),
                                    ("Low joker", None, 1), ("Three", 0, 3)))
    assert result.made and result.deltas == (6, 2)
    assert hljg_reach_order(rules, [46, 50], result) == [1, 0]


# ------------------------------------------------------------------ events and records (T4)
def test_T4_other_seats_and_spectators_are_told_discard_without_the_card() -> None:
    table = Table(pc.Match(TEN, 4, dealer=0, seed=2),
                  bots={s: make_bot("random", seed=s) for s in range(4)})
    table.deal()
    table.advance(stop_at_hand_end=True)
    hand = table.hand
    assert hand is not None
    for who in (None, 0, 1, 2, 3):
        view = None
        for event in table.events(who):
            view = apply_event(view, event)
            action = getattr(event, "action", "")
            if action.startswith("discard"):
                assert (action == HIDDEN_DISCARD) == (who != event.seat)  # type: ignore[attr-defined]
            text = str(event.to_dict())
            for seat in range(4):
                if seat != who:
                    for c in cards_of(hand.discarded(seat)):
                        assert f"'discard {card_name(c)}'" not in text
        assert view == table.session.view(who)  # the fold keeps own discards out of the hand


def test_T4_a_seats_whole_discard_is_applied_in_order_all_or_none() -> None:
    """Table.push_all (issue 29: a discard is one message): the cards in order, one event
    each; a refused card anywhere among them changes nothing."""
    table = Table(pc.Match(TEN, 4, dealer=0, seed=2))
    table.deal()
    rng = random.Random(5)
    while table.hand is not None and table.hand.phase != "discard":
        seat = table.to_act
        assert seat is not None
        table.push(rng.choice(table.view(seat).legal_actions), seat=seat)
    seat = table.to_act
    assert seat is not None
    held = table.view(seat).hand
    throw = [f"discard {c}" for c in held[:len(held) - 6]]
    not_held = next(card_name(c) for c in range(52) if card_name(c) not in held)
    before = (table.seq, table.view(seat))
    for bad in ([*throw[:-1], f"discard {not_held}"], [throw[0], throw[0]],
                [*throw, f"discard {held[-1]}"], [*throw[:1], "play 2C"]):
        with pytest.raises(pc.IllegalActionError):
            table.push_all(bad, seat)
        assert (table.seq, table.view(seat)) == before, bad
    with pytest.raises(pc.InvalidActionError):
        table.push_all([], seat)
    with pytest.raises(pc.IllegalActionError) as wrong:
        table.push_all(throw, (seat + 1) % 4)
    assert wrong.value.reason == "not_your_turn"
    table.push_all(throw, seat)
    assert table.seq == before[0] + len(throw)
    assert [e.action for e in table.events(seat)[-len(throw):]] == throw  # type: ignore[attr-defined]
    assert len(table.view(seat).hand) == 6


def test_T4_a_public_record_deals_the_kept_cards_and_replays_to_the_same_scores() -> None:
    m = pc.Match(CUT, 5, dealer=0, seed=7)
    rng = random.Random(7)
    for _ in range(4):
        h = m.deal()
        while h.seat_to_act is not None:
            m.push(rng.choice(h.legal_actions()))
    full, public = write_record(m), write_record(m, public=True)
    assert "discard" in full and "discard" not in public
    blocks = public.split("\nhand ")[1:]  # one block per hand, in order
    assert len(blocks) == len(m.hands)
    for h, block in zip(m.hands, blocks, strict=True):
        for seat in range(5):
            kept = h.dealt[seat] & ~h.discarded(seat)
            assert f"deal {seat} {pc.format_cards(kept)}\n" in block
            for c in cards_of(h.discarded(seat)):
                assert card_name(c) not in block.split()
    assert replay(read_record(public)).scores == replay(read_record(full)).scores == m.scores


# ----------------------------------------------------------------- the scorekeeper says no
def test_a_ten_point_hand_is_played_not_entered_by_its_outcome() -> None:
    with pytest.raises(pc.IllegalActionError) as info:
        pc.Match(TEN, 4, dealer=0).enter(pc.Outcome(bidder=1, bid=4, trump="S", high=1, low=1,
                                                    jack=1, game=1))
    assert info.value.reason == "bad_outcome" and "ten-point" in str(info.value)
    with pytest.raises(pc.IllegalActionError) as setup:
        ScoreSheet.new(CUT, ["Ann", "Bob", "Cy"])
    assert setup.value.reason == "bad_setup"


# ------------------------------------------------------------- the four-point game unchanged
def test_the_four_point_variants_keep_their_action_space_and_deck() -> None:
    for name in ("money", "auction", "auction-partners", "setback"):
        rules = pc.find_variant(name)
        assert not rules.is_ten_point and rules.points_total == 4
        assert pc.actions.action_count(rules) == pc.NUM_ACTIONS == 110
        assert deck_model(rules).classic
    assert pc.actions.action_count(TEN) == pc.actions.MAX_ACTIONS == 176
