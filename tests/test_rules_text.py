"""The screen's rules page and its illegal-move sentences (``pitchcards.tui.text``).

The rules page is built from the option tables: every value of every option says what it means
(the expectations below are written from docs/rules.md §3), and only that value's sentence
appears.  The illegal-move sentence comes from the engine's error ``reason`` and the rules.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import pytest

import pitchcards as pc
from helpers import deal, fill, play, session
from pitchcards.errors import REASONS, IllegalActionError
from pitchcards.explain import ILLEGAL_TEXT, OPTION_TEXT, illegal_text, rules_summary
from pitchcards.views import View

BOOL_OPTIONS = tuple(f.name for f in dataclasses.fields(pc.RuleSet) if f.type == "bool")
CHOICES: dict[str, tuple[Any, ...]] = {
    **pc.RuleSet.OPTION_CHOICES, **{name: (True, False) for name in BOOL_OPTIONS}}

#: Per option value: what the page must say (a phrase only that value's sentence has).  None:
#: the value adds nothing, so no other value's phrase may appear.
SAYS: dict[str, dict[Any, str | None]] = {
    "partnership": {"off": "4 players, each for themselves", "2x2": "two partnerships",
                    "3x2": "three partnerships", "call": "secret partner"},
    "call_rule": {"not_own": "calls a card they do not hold", "alone_allowed": "playing alone"},
    "called_not_dealt": {"alone": "nobody was dealt the called card"},
    "call_set": {"both": "both lose the bid", "pitcher_only": "only the pitcher loses the bid"},
    "call_defenders": {"each": "each score the points they win", "side": "play as a side"},
    "allow_two_players": {True: "Two players may also play", False: None},
    "deal_batch": {1: "dealt one at a time", 2: "dealt two at a time", 3: "three at a time"},
    "first_dealer": {"random": "drawn at random", "cut": "chosen by a cut"},
    "auction": {"single_round": "One turn each", "continuous": "round and round"},
    "pass_is_final": {True: "A pass is final", False: "who passed may bid again"},
    "min_bid": {1: "Bids: 1, 2, 3, 4.", 2: "Bids: 2, 3, 4.", 3: "Bids: 3, 4.", 4: "Bids: 4.",
                # above 4 only in the ten-point family (T8): bids up to all ten points
                5: "Bids: 5, 6, 7, 8, 9, 10.", 6: "Bids: 6, 7, 8, 9, 10.", 7: "Bids: 7, 8, 9, 10.",
                8: "Bids: 8, 9, 10.", 9: "Bids: 9, 10.", 10: "Bids: 10."},
    "moon": {"none": "4 is the top bid", "moon": "Moon: a bid above 4",
             "smudge": "made, it scores 5", "smudge_wins": "wins the game outright"},
    "moon_fail_points": {4: "failed moon loses 4", 5: "failed moon loses 5"},
    "moon_must_be_bid": {True: "Only a bid moon counts", False: "on any bid counts as a moon"},
    "pitch_as_bid_4": {True: "put a card face up", False: "no pitching"},
    "all_pass": {"force_dealer_exact2": "must bid exactly 2",
                 "force_dealer_atleast2": "must bid at least 2",
                 "redeal": "the hand is thrown in",
                 "eldest_pitches_no_contract": "left of the dealer leads with no bid"},
    "dealer_steal": {"none": "may not steal", "equal_below_max": "any bid below 4",
                     "equal_any_incl_pitched": "a pitched 4 included"},
    "trump_selection": {"first_lead": "that card's suit is trump",
                        "declare_then_lead_any": "names trump, then leads any card",
                        "declare_then_lead_trump": "must lead a trump if holding one"},
    "deck": {52: None, 53: "One joker (☆) is added", 54: "Two jokers are added"},
    "off_jack": {True: "The off-jack (the other jack of trump's colour) is a trump", False: None},
    "extra_points": {"none": None, "off_jack_jokers": "a point each, to whoever captures it",
                     "off_jack_jokers_three": "the three of trumps (3 points). 10 points a hand"},
    "hand_size": {6: "Everyone gets 6 cards.", 7: "gets 7 cards; once trump is named",
                  8: "gets 8 cards; once trump is named", 9: "discards 3 face down, keeping 6"},
    "follow_rule": {"trump_anytime": "you must follow it or play a trump",
                    "strict_follow": "you must follow it; without it, play any card",
                    "follow_trump_only": "another suit is led you may play any card"},
    "low_to": {"capturer": "lowest trump in play, to whoever captures",
               "holder": "lowest trump in play, to whoever held"},
    "high_to": {"holder": "highest trump in play, to whoever held"},
    "jack_not_dealt": {"no_point": "nobody scores it if it was not dealt"},
    "game_tie": {"no_point": "a tie gives nobody", "elder_hand": "tied player first from",
                 "pitcher": "a tie goes to the pitcher"},
    "pitcher_set_keeps_points": {True: "keeps the points won", False: "none of the points won"},
    "win_rule": {"bidder_goes_out": "Only the pitcher can go out",
                 "first_to_target_HLJG_order": "High, Low, Jack and Game in that order",
                 "pitcher_counted_first": "points are counted first",
                 "higher_score": "higher score at or past 7"},
    "win_requires_made_bid": {True: "must make the bid to go out", False: "even when set"},
    "money": {"none": "GOAL  First to 7", "per_point_vs_average": "per point against the average",
              "per_point_flat": "every two players settle"},
    "average_mode": {"per_hand": "hand by hand", "snapshot": "against the table average"},
    "join_leave": {"between_hands": "may join or leave between hands",
                   "never": "Nobody joins or leaves"},
    "join_score": {"zero": "starts at 0 points", "table_average": "starts at the table's average"},
}

#: Where an option matters: the variant and the options it needs (a pass in a single-round
#: auction is always final, money options need the money game, ...).
CONTEXT: dict[str, tuple[str, dict[str, Any]]] = {
    "pass_is_final": ("auction", {"auction": "continuous"}),
    "moon_fail_points": ("auction", {"moon": "moon"}),
    "moon_must_be_bid": ("auction", {"moon": "moon"}),
    "dealer_steal": ("auction", {"moon": "none"}),
    "average_mode": ("money", {}),
    "join_leave": ("money", {}),
    "join_score": ("money", {"average_mode": "snapshot"}),
    # The ten-point family's options need its cards or its declared trump (T1–T8).
    "trump_selection": ("auction", {"pitch_as_bid_4": False}),
    "extra_points": ("auction", {"deck": 54, "off_jack": True}),
    "hand_size": ("ten-point", {}),
    # Call-your-partner's options (CP3–CP6) matter where the pitcher calls a partner.
    **dict.fromkeys(("call_rule", "called_not_dealt", "call_set", "call_defenders"),
                    ("call-partner", {})),
}


def _rules(option: str, value: Any) -> pc.RuleSet:
    variant, context = CONTEXT.get(option, ("auction", {}))
    if option == "money" and value != "none":
        variant = "money"
    if option == "min_bid" and value > 4:
        variant = "ten-point"  # bids above 4 need more than four points a hand (T8)
    return pc.find_variant(variant).replace(**context, **{option: value})


def test_every_value_of_every_option_has_a_sentence_and_an_expectation() -> None:
    assert set(OPTION_TEXT) == set(CHOICES) == set(SAYS)
    for option, values in CHOICES.items():
        assert set(OPTION_TEXT[option]) == set(values), option
        assert set(SAYS[option]) == set(values), option


@pytest.mark.parametrize("option,value", [(o, v) for o, vs in CHOICES.items() for v in vs])
def test_the_rules_page_says_what_each_option_value_means(option: str, value: Any) -> None:
    rules = _rules(option, value)
    page = rules_summary(rules, rules.default_players)
    expected = SAYS[option][value]
    if expected is not None:
        assert expected in page
    for other, phrase in SAYS[option].items():
        if other != value and phrase is not None:
            assert phrase not in page, (other, phrase)


def test_follow_trump_only_lets_any_card_follow_a_plain_lead() -> None:
    page = rules_summary(pc.find_variant("auction").replace(follow_rule="follow_trump_only"), 4)
    assert "When trump is led you must play a trump if you have one" in page
    assert "follow suit or trump" not in page


@pytest.mark.parametrize("variant", list(pc.VARIANTS))
@pytest.mark.parametrize("option,value", [(o, v) for o, vs in CHOICES.items() for v in vs])
def test_no_word_is_said_twice_in_a_row(variant: str, option: str, value: Any) -> None:
    # "You must you must ..." was printed once.
    try:
        rules = pc.find_variant(variant).replace(**{option: value})
    except pc.OptionError:
        return  # e.g. partnerships with money: not a table anyone can sit at
    page = rules_summary(rules, rules.player_range[0])
    assert not re.search(r"\b(\w+)\s+\1\b", page, re.IGNORECASE), page
    assert "{" not in page


def test_amounts_targets_and_table_size_come_from_the_rules() -> None:
    money = pc.find_variant("money").replace(stake_per_point="0.25", moon_payment=2)
    page = rules_summary(money, 5)
    assert "5 players" in page and "$0.25 per point" in page and "$2.00 from each" in page
    assert "First to 11 points" in rules_summary(pc.find_variant("auction").replace(target=11), 4)
    no_target = rules_summary(pc.find_variant("auction").replace(target=None), 4)
    assert "No target" in no_target and "go out" not in no_target


# ------------------------------------------------------------------ illegal-move sentences
def _refused(target: Any, action: Callable[[], object]) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        action()
    return info.value


def _followed(follow_rule: str, *tricks: str) -> tuple[IllegalActionError, View]:
    # Seat 0 bids and leads; seat 1, holding the led suit and a trump, tries a diamond.
    cards = fill("AS 2H", "3S 5H 4D", "4S 6H", "5S 7H", suits="DC")
    h = deal(cards, dealer=3, follow_rule=follow_rule)
    play(h, "bid 2, pass, pass, pass", *tricks)
    seat = h.seat_to_act
    assert seat is not None
    return _refused(h, lambda: h.push("play 4D")), h.view(seat)


_NINE_EACH = ["LJ AS KS QS JS TS 9S 8S 7S", "BJ AH KH QH JH TH 9H 8H 7H",
              "AD KD QD JD TD 9D 8D 7D 6D", "AC KC QC JC TC 9C 8C 7C 6C"]


def _ten_point(**options: Any) -> pc.Hand:
    """Ten-point, dealer 0: seat 1 (holding BJ and the hearts) bids 4, the others pass."""
    rules = pc.find_variant("ten-point").replace(**options)
    cards = [c.split()[:rules.hand_size] for c in _NINE_EACH]
    h = pc.Hand.deal(rules, 4, 0, cards=cards)
    play(h, "bid 4, pass, pass, pass")
    return h


def _ten_point_sentence(reason: str) -> tuple[IllegalActionError, View]:
    """The ten-point family's refusals (T4–T6), from the view of the seat that tried."""
    if reason == "must_name_trump":
        h = _ten_point()
        return _refused(h, lambda: h.push("play AH")), h.view(1)
    if reason == "must_discard":
        h = _ten_point()
        h.push("trump H")  # seat 1 (left of the dealer) discards first
        return _refused(h, lambda: h.push("play AH")), h.view(1)
    if reason == "joker_cannot_open":
        h = _ten_point(hand_size=6, trump_selection="first_lead")
        return _refused(h, lambda: h.push("play BJ")), h.view(1)
    h = _ten_point(hand_size=6, trump_selection="declare_then_lead_trump")
    h.push("trump S")  # BJ is a trump whatever the suit: seat 1 must lead it
    return _refused(h, lambda: h.push("play AH")), h.view(1)


def _call_sentence(reason: str) -> tuple[IllegalActionError, View]:
    """Call-your-partner's refusals (CP3), from the view of the seat that tried."""
    h = pc.Hand.deal(pc.find_variant("call-partner"), 5, 0, seed=1)
    play(h, "bid 2, pass, pass, pass, pass")
    if reason == "must_call":
        return _refused(h, lambda: h.push("play AS")), h.view(1)
    if reason == "bad_call":
        own = min(pc.cards.cards_of(h.hand_of(1)))
        return _refused(h, lambda: h.push(pc.actions.CALL[own])), h.view(1)
    ten = pc.find_variant("ten-point-cutthroat").replace(partnership="call", min_players=5,
                                                         max_players=5)
    h = pc.Hand.deal(ten, 5, 0, seed=1)
    play(h, "bid 4, pass, pass, pass, pass, trump S")
    card = min(pc.cards.cards_of(h.hand_of(2)))
    h.push(pc.actions.CALL[card])
    for _ in range(3):  # the pitcher, left of the dealer, discards first (T4)
        h.push(h.legal_actions()[0])
    return _refused(h, lambda: h.push(f"discard {pc.card_name(card)}")), h.view(2)


def _sentence(reason: str) -> tuple[IllegalActionError, View | None]:
    """Make the engine refuse something with ``reason``; the view of the player who tried."""
    if reason in ("must_call", "bad_call", "called_card"):
        return _call_sentence(reason)
    if reason in ("must_name_trump", "must_discard", "joker_cannot_open", "must_lead_trump"):
        return _ten_point_sentence(reason)
    if reason in ("must_follow_suit", "must_follow_trump"):
        if reason == "must_follow_trump":
            return _followed("follow_trump_only", "AS")
        return _followed("strict_follow", "AS 3S 4S 5S", "2H")
    h = deal(fill("AS", "KS", "QS", "JS"), dealer=3)
    v0 = h.view(0)
    if reason == "not_your_turn":
        return _refused(h, lambda: h.push("pass", seat=2)), h.view(2)
    if reason == "auction_in_progress":
        return _refused(h, lambda: h.push("play AS")), v0
    if reason == "pitch_not_allowed":
        h = deal(fill("AS", "KS", "QS", "JS"), dealer=3, pitch_as_bid_4=False)
        return _refused(h, lambda: h.push("pitch AS")), h.view(0)
    if reason == "card_not_held":
        return _refused(h, lambda: h.push("pitch KS")), v0
    if reason == "bid_too_low":
        play(h, "bid 3")
        return _refused(h, lambda: h.push("bid 2")), h.view(1)
    if reason == "bid_too_high":
        return _refused(h, lambda: h.push("bid moon")), v0
    if reason == "must_bid":
        play(h, "pass, pass, pass")
        return _refused(h, lambda: h.push("pass")), h.view(3)
    if reason == "auction_over":
        play(h, "bid 2, pass, pass, pass")
        return _refused(h, lambda: h.push("bid 3")), h.view(0)
    if reason == "hand_over":
        h = deal(fill("AS", "KS", "QS", "JS"), dealer=3, all_pass="redeal")
        play(h, "pass, pass, pass, pass")
        return _refused(h, lambda: h.push("pass")), None
    if reason == "nothing_to_undo":
        return _refused(h, h.pop), v0
    match = pc.Match(pc.find_variant("auction"), 4, dealer=0, seed=1)
    if reason == "no_hand":
        return _refused(match, lambda: match.push("pass")), None
    if reason == "game_over":
        won = pc.Match(pc.find_variant("auction"), 4, dealer=0, seed=2, scores=[6, 6, 6, 6])
        for _ in range(100):
            if won.winner is not None:
                break
            hand = won.deal()
            while hand.seat_to_act is not None:
                won.push(hand.legal_actions()[-1])  # the top bid, or a card
        return _refused(won, won.deal), None
    money = session(("A", "B", "C"))
    if reason == "hand_in_progress":
        money.deal()
        return _refused(money, lambda: money.join("D")), None
    if reason == "name_taken":
        return _refused(money, lambda: money.join("B")), None
    if reason == "not_seated":
        return _refused(money, lambda: money.leave("Z")), None
    if reason == "table_full":
        full = session(tuple("ABCDEFGH"))
        return _refused(full, lambda: full.join("I")), None
    if reason == "join_leave_not_allowed":
        closed = session(join_leave="never")
        return _refused(closed, lambda: closed.join("D")), None
    if reason == "undo_blocked":
        money.deal()
        play(money, "pass, pass, bid 2")
        while money.hand is not None and money.hand.seat_to_act is not None:
            money.push(money.hand.legal_actions()[0])
        money.join("D")
        return _refused(money, money.pop), None
    raise AssertionError(f"no way to make {reason!r}")


#: What a player may try at a table: every reason but setup mistakes a program makes.
PLAYER_REASONS = [r for r in REASONS if r not in ("bad_setup", "bad_deal", "no_such_seat",
                                                   "not_your_seat", "bad_seq", "wrong_dealer",
                                                   "bad_outcome")]

EXPECTED = {
    "must_follow_suit": "You must follow ♥.",
    "must_follow_trump": "Trump was led: you must play a trump (♠).",
    "bid_too_low": "Bid higher than that. You may: pass, bid 4 or pitch a card.",
    "bid_too_high": "That bid is too high: the highest bid now is 4.",
    "must_bid": "Everyone else passed: the dealer must bid. You may: bid 2, bid 3, bid 4 or "
                "pitch a card.",
    "pitch_not_allowed": "You may not pitch a card now. You may: pass, bid 1, bid 2, bid 3, "
                         "bid 4.",
    "must_discard": "Discard first: throw 3 more cards face down, down to 6.",
    "must_lead_trump": "The first lead must be a trump while you hold one: lead a trump (♠).",
}


def test_every_reason_has_a_sentence() -> None:
    assert set(ILLEGAL_TEXT) == set(REASONS)
    for reason in REASONS:
        text = illegal_text(IllegalActionError("x", reason=reason))
        assert text and "{" not in text and text[0].isupper() and text.endswith(".")


@pytest.mark.parametrize("reason", PLAYER_REASONS)
def test_each_refusal_a_player_can_meet_is_explained(reason: str) -> None:
    error, view = _sentence(reason)
    assert error.reason == reason
    text = illegal_text(error, view)
    assert text == EXPECTED.get(reason, ILLEGAL_TEXT[reason])


def test_the_follow_sentence_follows_the_rule_in_force() -> None:
    error, view = _followed("trump_anytime", "AS 3S 4S 5S", "2H")
    assert error.reason == "must_follow_suit"
    assert illegal_text(error, view) == "You must follow ♥ or play a trump (♠)."
    error, view = _followed("strict_follow", "AS 3S 4S 5S", "2H")
    assert illegal_text(error, view) == "You must follow ♥."


# ------------------------------------------------------------------ the ten-point family
def test_a_bid_of_five_in_ten_point_is_five_points_not_the_moon() -> None:
    from pitchcards.actions import BIDS, DISCARD, PLAY, TRUMP
    from pitchcards.explain import action_words, bid_word
    ten, setback = pc.find_variant("ten-point"), pc.find_variant("setback")
    assert bid_word(ten, 5) == "5" and action_words(ten, BIDS[5]) == "bid 5"
    assert bid_word(setback, 5) == "smudge"  # the four-point game's fifth bid is unchanged
    assert action_words(ten, BIDS[10]) == "bid 10"
    assert action_words(ten, PLAY[52]) == "☆ low joker"
    assert action_words(ten, PLAY[53]) == "★ high joker"
    assert action_words(ten, DISCARD[pc.parse_card("KH")]) == "discard K♥"
    assert action_words(ten, TRUMP[2]) == "trump ♥"


def test_the_ten_point_page_says_ten_points_the_discard_and_the_trump_order() -> None:
    page = rules_summary(pc.find_variant("ten-point"), 4)
    assert "Bids: 4, 5, 6, 7, 8, 9, 10." in page
    assert "Everyone gets 9 cards" in page and "discards 3 face down, keeping 6" in page
    assert "Trumps, high to low: A K Q J, the off-jack, ★ high joker, ☆ low joker, 10 9 … 2" \
        in page
    assert "10 points a hand" in page and "First to 52 points" in page
    assert "moon" not in page.replace("shooting the moon", "")  # no moon bid in ten-point
    four = rules_summary(pc.find_variant("auction"), 4)
    assert "joker" not in four and "off-jack" not in four and "Trumps, high" not in four
