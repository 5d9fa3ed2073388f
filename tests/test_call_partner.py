"""Call-your-partner (``partnership="call"``, variant ``call-partner``): one test per rule of
docs/rules.md §2.8 (CP1–CP9), then the secret kept (swapping who holds the called card changes
nothing a third seat is told), hypothesis over random hands, records, the bots and the RL ids."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pitchcards as pc
from helpers import play, play_hand, state
from pitchcards.actions import CALL, CALL_BASE, MAX_ACTIONS, NUM_ACTIONS, action_count
from pitchcards.bots import make_bot
from pitchcards.cards import cards_of, mask_of
from pitchcards.hand import Hand
from pitchcards.notation import RecordMismatchError, read_record, replay, write_record
from pitchcards.server.history import finished_hands
from pitchcards.table import Table

CALLP = pc.find_variant("call-partner")
TEN_CALL = pc.find_variant("ten-point-cutthroat").replace(partnership="call", min_players=5,
                                                          max_players=5)

# Dealer 0; seat 1 bids 2 and calls the AS, which seat 3 holds; seat 1 leads the KS (spades
# trump) and seat 3 takes it with the AS: from that card on the table knows the partnership.
# High AS (seat 3: the contracting side), Low 2S (dealt to seat 3, captured by seat 2's TS),
# Jack JS (seat 3 trumps the AH with it), Game: the side's 14 (all seat 3's) against seat 2's 10,
# seat 4's 3 and seat 0's nothing.
DEAL = ["6S 4H 4C 3D 9D 8C", "KS 9S 5H 5C 4D 6H", "3S TS AH 6C 5D 7H",
        "AS 2S JS 2C 6D 7C", "QS 7S 2H 3C KD 7D"]
TRICKS = ("KS 3S AS QS 6S", "2S 7S 4H 9S TS", "AH JS 2H 4C 5H", "2C 3C 8C 5C 6C",
          "3D 4D 5D 6D KD", "7D 9D 6H 7H 7C")
AUCTION = "bid 2, pass, pass, pass, pass"


def called_hand(call: str = "call AS", auction: str = AUCTION, cards: list[str] | None = None,
                **options: object) -> Hand:
    rules = CALLP.replace(**options) if options else CALLP
    h = Hand.deal(rules, players=5, dealer=0, cards=cards or DEAL)
    return play(h, auction, call)


# ------------------------------------------------------------------------------------ CP1
def test_CP1_five_players_each_their_own_side_of_the_match() -> None:
    assert CALLP.player_range == (5, 5) and CALLP.calls_partner
    assert not CALLP.partnership_mode and CALLP.side_count(5) == 5
    assert [CALLP.side_of(s) for s in range(5)] == [0, 1, 2, 3, 4]
    for players in (4, 6):
        with pytest.raises(pc.IllegalActionError, match="allows 5 to 5"):
            Hand.deal(CALLP, players=players)
    assert pc.find_variant("call-your-partner") is CALLP
    assert pc.find_variant("auction").replace(partnership="call").player_range == (5, 5)
    with pytest.raises(pc.OptionError, match="needs exactly 5 players"):
        pc.find_variant("auction-partners").replace(partnership="call")


# ------------------------------------------------------------------------------------ CP2
def test_CP2_six_cards_each_thirty_dealt_and_one_auction_turn_each() -> None:
    h = Hand.deal(CALLP, players=5, dealer=0, seed=4)
    assert all(h.hand_of(s).bit_count() == 6 for s in range(5))
    assert sum(m.bit_count() for m in h.dealt) == 30
    assert h.seat_to_act == 1 and h.phase == "auction"
    play(h, AUCTION)
    assert h.phase == "call" and h.seat_to_act == 1 and h.pitcher == 1


# ------------------------------------------------------------------------------------ CP3
def test_CP3_the_pitcher_calls_any_card_it_does_not_hold() -> None:
    h = play(Hand.deal(CALLP, players=5, dealer=0, cards=DEAL), AUCTION)
    legal = h.legal_actions()
    assert len(legal) == 52 - 6 and all(a.kind == "call" for a in legal)
    assert {a.card for a in legal} == set(range(52)) - set(cards_of(h.hand_of(1)))
    before = h.view(None)
    with pytest.raises(pc.IllegalActionError, match="may not call a card it holds") as err:
        h.push("call KS")
    assert err.value.reason == "bad_call" and "call AS" in err.value.legal
    with pytest.raises(pc.IllegalActionError, match="52-card deck") as err:
        h.push("call BJ")
    assert err.value.reason == "bad_call"
    for wrong in ("play KS", "pass", "bid 3"):
        with pytest.raises(pc.IllegalActionError) as err:
            h.push(wrong)
        assert err.value.reason == "must_call" and err.value.phase == "call"
    with pytest.raises(pc.IllegalActionError, match="not this seat's turn"):
        h.push("call AS", seat=2)
    assert h.view(None) == before
    h.push("call AS")
    assert h.called_card == pc.parse_card("AS") and h.partner == 3 and h.phase == "play"
    assert str(CALL[pc.parse_card("AS")]) == "call AS" == str(pc.parse_action("Call as"))


def test_CP3_alone_allowed_lets_the_pitcher_call_its_own_card() -> None:
    h = called_hand("call KS", call_rule="alone_allowed")
    assert h.partner == 1  # the pitcher itself: alone against four
    play(h, *TRICKS)
    r = h.result
    assert r is not None and r.partner == 1 and r.called == "KS"
    # Alone, the pitcher took nothing: set; seat 3 scores High, Jack, Game for itself.
    assert r.deltas == (0, -2, 1, 3, 0)


def test_CP3_a_pitched_card_leads_after_the_call() -> None:
    h = play(Hand.deal(CALLP, players=5, dealer=0, cards=DEAL), "pitch KS")
    assert h.phase == "call" and h.trick_cards == () and h.trump is None
    h.push("call AS")
    assert h.trick_cards == (pc.parse_card("KS"),) and h.trump == "S" and h.seat_to_act == 2
    h.pop()
    assert h.phase == "call" and h.trick_cards == () and h.trump is None
    assert h.hand_of(1) == h.dealt[1] and h.called_card is None


def test_CP3_a_redeal_before_the_call_leaves_the_pitched_card_with_its_pitcher() -> None:
    # The pitched KS is public (B-R4.3) and still in seat 1's hand until it leads after the
    # call: a redeal (search code's sampled world) that hands it to another seat is refused,
    # and the hand is unchanged (it once made seat 1 hold seven cards once the KS led).
    h = play(Hand.deal(CALLP, players=5, dealer=0, cards=DEAL), "pitch KS")
    before = state(h)
    ks = 1 << pc.parse_card("KS")
    held = [h.hand_of(s) for s in range(5)]
    low = held[2] & -held[2]  # seat 2's lowest card, for the KS
    swapped = [held[0], held[1] & ~ks | low, held[2] & ~low | ks, held[3], held[4]]
    with pytest.raises(pc.IllegalActionError, match="pitched card KS from seat 1") as info:
        h.redeal(swapped)
    assert info.value.reason == "bad_deal" and state(h) == before
    kept = [held[0], held[1], held[3], held[2], held[4]]  # seats 2 and 3 swap, the KS stays
    h.redeal(kept)
    h.push("call AS")
    assert h.trick_cards == (pc.parse_card("KS"),) and h.hand_of(1).bit_count() == 5


def test_CP3_in_the_ten_point_family_the_call_follows_trump_and_is_never_discarded() -> None:
    h = Hand.deal(TEN_CALL, players=5, dealer=0, seed=7)
    rng = random.Random(7)
    while h.phase == "auction":
        h.push(rng.choice(h.legal_actions()))
    assert h.phase == "declare"
    h.push("trump S")
    assert h.phase == "call"
    pitcher = h.pitcher
    assert pitcher is not None
    target = next(c for c in cards_of(h.dealt[(pitcher + 1) % 5]))
    h.push(CALL[target])
    assert h.phase == "discard" and h.partner == (pitcher + 1) % 5
    while h.phase == "discard":
        seat = h.seat_to_act
        assert all(a.card != target for a in h.legal_actions())
        if seat == h.partner:
            with pytest.raises(pc.IllegalActionError) as err:
                h.push(f"discard {pc.card_name(target)}")
            assert err.value.reason == "called_card"
        h.push(h.legal_actions()[0])
    assert h.hand_of(h.partner) >> target & 1


# ------------------------------------------------------------------------------------ CP4
def test_CP4_a_card_nobody_was_dealt_leaves_the_pitcher_alone() -> None:
    h = called_hand("call AD")
    assert h.partner is None
    play(h, *TRICKS)
    r = h.result
    assert r is not None and r.partner is None and r.called == "AD"
    assert r.deltas == (0, -2, 1, 3, 0)
    v = h.view(2)
    assert v.partner_known and v.partner is None  # at the end: the card was out of play
    with pytest.raises(pc.OptionError, match="called_not_dealt='call_again'"):
        CALLP.replace(called_not_dealt="call_again")


# ------------------------------------------------------------------------------------ CP5
def test_CP5_only_the_holder_knows_until_the_card_is_played() -> None:
    h = called_hand()
    for seat in (None, 0, 1, 2, 4):
        v = h.view(seat)
        assert v.called_card == pc.parse_card("AS") and not v.partner_known
        assert v.partner is None and v.known_partner is None
        assert v.to_dict()["partner"] is None and v.to_dict()["called"] == "AS"
    mine = h.view(3)
    assert mine.holds_called and mine.known_partner == 3 and mine.partner is None
    assert mine.own_dict()["holds_called"] is True
    assert mine.public_dict() == h.view(0).public_dict()
    play(h, "KS 3S")
    assert not h.view(0).partner_known
    play(h, "AS")
    for seat in (None, 0, 1, 2, 3, 4):
        v = h.view(seat)
        assert v.partner_known and v.partner == 3 and v.known_partner == 3
    assert pc.View.from_dict(h.view(2).to_dict()) == h.view(2)
    h.pop()
    assert not h.view(0).partner_known


def test_CP5_other_rule_sets_views_carry_no_call_keys() -> None:
    h = Hand.deal(pc.find_variant("auction"), players=4, dealer=0, seed=1)
    d = h.view(1).to_dict()
    assert not {"called", "partner", "partner_known", "holds_called"} & set(d)


# ------------------------------------------------------------------------------------ CP6
def test_CP6_made_the_pitcher_and_partner_each_score_the_sides_points() -> None:
    h = play(called_hand(), *TRICKS)
    r = h.result
    assert r is not None and r.made and r.partner == 3 and r.pitcher_side == 1
    assert (r.high, r.low, r.jack, r.game) == (1, 2, 1, 1)  # the side named by the pitcher
    assert r.points == (0, 3, 1, 3, 0) and r.deltas == (0, 3, 1, 3, 0)
    assert r.game_counts == (0, 14, 10, 14, 3) and r.tricks == (2, 2, 1, 2, 1)


@pytest.mark.parametrize(("call_set", "partner_delta"), [("both", -4), ("pitcher_only", 0)])
def test_CP6_set_the_pitcher_loses_the_bid_and_the_partner_by_call_set(
        call_set: str, partner_delta: int) -> None:
    h = play(called_hand(auction="bid 4", call_set=call_set), *TRICKS)
    r = h.result
    assert r is not None and not r.made
    assert r.deltas == (0, -4, 1, partner_delta, 0)


def test_CP6_pooled_defenders_each_score_the_defenders_total() -> None:
    h = play(called_hand(call_defenders="side"), *TRICKS)
    r = h.result
    assert r is not None and r.made and r.low == 0  # the defenders' side, named by seat 0
    assert r.deltas == (1, 3, 1, 3, 1) and r.game_counts == (13, 14, 13, 14, 13)


# ------------------------------------------------------------------------------------ CP7
def test_CP7_game_goes_to_the_pooled_side_count_not_the_best_single_seat() -> None:
    # Seat 2 took 10 and seat 3 (the partner) 14 alone; called away from seat 3 (the 2H,
    # seat 4's), the contracting side is seats 1 and 4: 3 against seat 3's 14.
    h = play(called_hand("call 2H"), *TRICKS)
    r = h.result
    assert r is not None and r.partner == 4 and r.game == 3
    assert r.game_counts == (0, 3, 10, 14, 3)
    # Pooled defenders count 0 + 10 + 14 = 24 against 3.
    h = play(called_hand("call 2H", call_defenders="side"), *TRICKS)
    assert h.result is not None and h.result.game == 0


# ------------------------------------------------------------------------------------ CP8
def test_CP8_the_partner_goes_out_when_the_pitcher_cannot() -> None:
    m = pc.Match(CALLP, players=5, dealer=0, scores=[0, 0, 6, 5, 0])
    play_hand(m, DEAL, (AUCTION, "call AS", *TRICKS))
    assert m.scores == [0, 3, 7, 8, 0]
    assert m.winner == 3  # the partner, past the target; seat 2 (a defender) is not a winner


def test_CP8_the_pitcher_goes_out_first_and_a_set_side_never() -> None:
    m = pc.Match(CALLP, players=5, dealer=0, scores=[0, 5, 0, 6, 0])
    play_hand(m, DEAL, (AUCTION, "call AS", *TRICKS))
    assert m.winner == 1
    m = pc.Match(CALLP, players=5, dealer=0, scores=[0, 9, 0, 9, 0])
    play_hand(m, DEAL, ("bid 4", "call AS", *TRICKS))
    assert m.winner is None and m.scores == [0, 5, 1, 5, 0]
    with pytest.raises(pc.OptionError, match="CP8"):
        CALLP.replace(win_rule="higher_score")


# ------------------------------------------------------------------------------------ CP9
def test_CP9_no_money_and_the_ten_point_family_combines() -> None:
    with pytest.raises(pc.OptionError, match="partnership='call'"):
        CALLP.replace(money="per_point_vs_average")
    assert TEN_CALL.player_range == (5, 5) and action_count(TEN_CALL) == CALL_BASE + 54
    moon = CALLP.replace(bid_values="2-4+moon")
    assert moon.calls_partner and moon.max_bid == 5


# ------------------------------------------------------------------------------- undo, records
def test_the_call_is_undone_like_any_action() -> None:
    h = called_hand()
    before = h.view(1).to_dict()
    play(h, "KS")
    h.pop()
    assert h.view(1).to_dict() == before
    h.pop()
    assert h.phase == "call" and h.called_card is None and h.partner is None
    assert h.seat_to_act == 1 and len(h.legal_actions()) == 46


def test_a_call_partner_hand_entered_by_its_outcome_names_the_call() -> None:
    """The scorekeeper enters a call by the card and its holder (CP3-CP6,
    tests/test_score_call.py); an outcome without them is refused, nothing entered."""
    m = pc.Match(CALLP, players=5, dealer=0)
    with pytest.raises(pc.IllegalActionError, match="say which card") as err:
        m.enter(pc.Outcome(bidder=1, bid=2, trump="S", high=1, low=1, jack=None, game=1))
    assert err.value.reason == "bad_outcome" and m.hands == []
    m.enter(pc.Outcome(bidder=1, bid=2, trump="S", called="AS", partner=3, high=3, low=1,
                       jack=None, game=1))
    assert m.scores == [0, 3, 0, 3, 0]


def test_a_call_partner_record_round_trips() -> None:
    m = pc.Match(CALLP, players=5, dealer=0, names=list("ABCDE"))
    play_hand(m, DEAL, (AUCTION, "call AS", *TRICKS))
    text = write_record(m)
    assert "variant call-partner" in text and "1 call AS" in text
    assert "game 1, partner 3, tricks 2 2 1 2 1, deltas +0 +3 +1 +3 +0" in text
    again = replay(read_record(text))
    assert isinstance(again, pc.Match)
    assert again.scores == m.scores and again.results == m.results
    assert write_record(again) == text
    with pytest.raises(RecordMismatchError):
        replay(read_record(text.replace("partner 3,", "partner 4,")))


@pytest.mark.parametrize(("call", "options", "words"), [
    ("call AS", {}, "D"), ("call AD", {}, "not dealt"),
    ("call KS", {"call_rule": "alone_allowed"}, "alone")])
def test_the_history_words_who_held_the_called_card(call: str, options: dict[str, str],
                                                    words: str) -> None:
    """CP4, CP5: the hand-history viewer's hand carries the server's words for the holder
    (the page shows them as given, docs/web.md)."""
    m = pc.Match(CALLP.replace(**options), players=5, dealer=0, names=list("ABCDE"))
    play_hand(m, DEAL, (AUCTION, call, *TRICKS))
    hand = finished_hands(write_record(m), list("ABCDE"))["hands"][0]
    assert hand["partner_words"] == words


# ------------------------------------------------------------------------------ hypothesis
@st.composite
def call_hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    base = draw(st.sampled_from([CALLP, TEN_CALL]))
    changes = {name: draw(st.sampled_from(values)) for name, values in {
        "call_rule": ["not_own", "alone_allowed"], "call_set": ["both", "pitcher_only"],
        "call_defenders": ["each", "side"], "low_to": ["capturer", "holder"],
        "game_tie": ["no_point", "elder_hand", "pitcher"],
        "all_pass": ["force_dealer_atleast2", "redeal", "eldest_pitches_no_contract"],
    }.items() if draw(st.booleans())}
    rules = base.replace(**changes)
    seed = draw(st.integers(0, 2**32))
    return (Hand.deal(rules, players=5, dealer=draw(st.integers(0, 4)), seed=seed),
            random.Random(seed))


@settings(max_examples=60, deadline=None)
@given(call_hands())
def test_random_hands_conserve_cards_and_score_per_side(case: tuple[Hand, random.Random]
                                                        ) -> None:
    h, rng = case
    while h.seat_to_act is not None:
        h.push(rng.choice(h.legal_actions()))
    r = h.result
    assert r is not None and len(r.deltas) == 5
    if r.thrown_in:
        return
    rules = h.rules
    kept = [h.dealt[s] & ~h.discarded(s) for s in range(5)]
    union = 0
    for s in range(5):
        assert not union & h.captured(s)
        union |= h.captured(s)
    assert union == mask_of(c for s in range(5) for c in cards_of(kept[s]))
    called = pc.parse_card(r.called)  # type: ignore[arg-type]
    holder = next((s for s in range(5) if h.dealt[s] >> called & 1), None)
    assert r.partner == holder == h.partner
    if rules.call_rule == "not_own":
        assert holder != r.pitcher
    pitcher = r.pitcher
    assert pitcher is not None
    side = {pitcher} | ({holder} if holder is not None else set())
    for s in side:  # CP6: the contracting side shares its points
        assert r.points[s] == r.points[pitcher]
        assert r.tricks[s] == sum(h.tricks_won(x) for x in side)
    if holder is not None and holder != pitcher:
        partner_delta = r.deltas[pitcher] if r.made or rules.call_set == "both" else 0
        assert r.deltas[holder] == partner_delta
    defenders = [s for s in range(5) if s not in side]
    if rules.call_defenders == "side":
        assert len({r.deltas[s] for s in defenders}) == 1
    else:
        for s in defenders:
            assert r.deltas[s] == r.points[s] and r.tricks[s] == h.tricks_won(s)


@settings(max_examples=30, deadline=None)
@given(call_hands())
def test_random_hands_undo_to_the_deal(case: tuple[Hand, random.Random]) -> None:
    h, rng = case
    start = ([h.hand_of(s) for s in range(5)], h.legal_actions(), h.phase, h.seat_to_act)
    pushed = 0
    while h.seat_to_act is not None:
        h.push(rng.choice(h.legal_actions()))
        pushed += 1
    for _ in range(pushed):
        h.pop()
    assert h.result is None and list(h.history) == [] and h.called_card is None
    assert ([h.hand_of(s) for s in range(5)], h.legal_actions(), h.phase, h.seat_to_act) == start


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([CALLP, TEN_CALL]))
def test_random_matches_round_trip_through_records(seed: int, rules: pc.RuleSet) -> None:
    m = pc.Match(rules, players=5, dealer=seed % 5, seed=seed)
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


# ------------------------------------------------------------------------------ the secret
def _moved(dealt: list[int], card: int, to: int | None, rng: random.Random) -> list[int]:
    """``dealt`` with ``card`` moved to seat ``to`` (None: out of play) in exchange for one of
    that seat's cards (or an undealt card), so every seat keeps its count."""
    out = list(dealt)
    holder = next((s for s in range(5) if dealt[s] >> card & 1), None)
    undealt = [c for c in range(52) if not any(m >> c & 1 for m in dealt)]
    if to == holder:
        return out
    give = rng.choice(list(cards_of(dealt[to])) if to is not None else undealt)
    if holder is not None:
        out[holder] = out[holder] & ~(1 << card) | 1 << give
    if to is not None:
        out[to] = out[to] & ~(1 << give) | 1 << card
    return out


def _played(h: Hand, card: int) -> bool:
    """The engine's truth, not a view's: ``card`` is on the table or in a trick."""
    return card in h.trick_cards or any(card in cards for _, cards, _ in h.completed_tricks())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), observer=st.integers(0, 4), data=st.data())
def test_no_leak_who_holds_the_called_card_changes_nothing_a_third_seat_is_told(
        seed: int, observer: int, data: st.DataObject) -> None:
    """CP5: play one match hand on two tables whose deals differ only in which seat (or none)
    holds the called card; until that card is played the observer — any seat but those two,
    the pitcher included — and spectators are told exactly the same."""
    rng = random.Random(seed)
    a = Table(pc.Match(CALLP, players=5, dealer=0, seed=seed))
    a.deal()
    hand_a = a.hand
    assert hand_a is not None
    while hand_a.phase == "auction":
        a.push(rng.choice(hand_a.legal_actions()), seat=hand_a.seat_to_act)
    if hand_a.phase != "call":
        return  # thrown in
    pitcher = hand_a.pitcher
    assert pitcher is not None
    call = rng.choice(hand_a.legal_actions())
    card = call.card
    assert card is not None
    holder = next((s for s in range(5) if hand_a.dealt[s] >> card & 1), None)
    could = [s for s in range(5) if s not in (pitcher, observer)] + [None]
    to = data.draw(st.sampled_from(could))
    if observer in (holder, to) or (observer == pitcher and holder == pitcher):
        return
    b = Table(pc.Match(CALLP, players=5, dealer=0, seed=seed))
    b.deal()
    hand_b = b.hand
    assert hand_b is not None
    hand_b.redeal(_moved([hand_b.hand_of(s) for s in range(5)], card, to, rng))
    for seat, act in hand_a.history:
        b.push(act, seat=seat)
    a.push(call, seat=pitcher)
    b.push(call, seat=pitcher)
    assert hand_a.partner == holder and hand_b.partner == to
    while hand_a.seat_to_act is not None and not _played(hand_a, card):
        seat = hand_a.seat_to_act
        legal_b = {str(x) for x in b.view(seat).legal_actions}
        common = [x for x in a.view(seat).legal_actions if str(x) in legal_b and x.card != card]
        if not common:
            break
        action = rng.choice(common)
        a.push(action, seat=seat)
        b.push(action, seat=seat)
    if _played(hand_a, card) or _played(hand_b, card) or hand_a.is_over:
        return
    assert a.events_for(observer) == b.events_for(observer)
    assert a.events_for(None) == b.events_for(None)
    assert a.view(observer) == b.view(observer)


# ------------------------------------------------------------------------------------ bots
@pytest.mark.parametrize("bot", ["random", "heuristic", "easy", "medium"])
def test_every_bot_plays_a_call_partner_hand_legally(bot: str) -> None:
    for seed in range(3):
        h = Hand.deal(CALLP, players=5, dealer=seed, seed=seed)
        bots = [make_bot(bot, seed=s) for s in range(5)]
        while not h.is_over:
            seat = h.seat_to_act
            assert seat is not None
            h.push(bots[seat].choose(h.view(seat)), seat=seat)
        assert h.result is not None and h.result.called is not None


def test_the_heuristic_calls_the_top_trump_it_lacks() -> None:
    h = play(Hand.deal(CALLP, players=5, dealer=0, cards=DEAL), "pitch KS")
    assert str(make_bot("heuristic", 0).choose(h.view(1))) == "call AS"


def test_the_heuristic_partner_feeds_the_pitchers_trick() -> None:
    # Seat 1 (pitcher) leads the KS and seat 2 follows low; seat 3 holds the AS, the TS and
    # the 2S, so the KS is safe (only the JS and 7S are out behind it).  Called the 2S, seat 3
    # knows it is the partner and feeds its ten (10 towards Game) to the pitcher's trick; called
    # anything else, it is a defender and takes the trick with the AS.
    cards = ["6S 4H 4C 3D 9D 8C", "KS 9S 5H 5C 4D 6H", "3S QS AH 6C 5D 7H",
             "AS 2S TS 2C 6D 7C", "JS 7S 2H 3C KD 7D"]
    partner_view = play(Hand.deal(CALLP, players=5, dealer=0, cards=cards), AUCTION,
                        "call 2S", "KS 3S").view(3)
    assert partner_view.known_partner == 3
    assert str(make_bot("heuristic", 0).choose(partner_view)) == "play TS"
    defender_view = play(Hand.deal(CALLP, players=5, dealer=0, cards=cards), AUCTION,
                         "call 2H", "KS 3S").view(3)
    assert defender_view.known_partner is None
    assert str(make_bot("heuristic", 0).choose(defender_view)) == "play AS"


# ------------------------------------------------------------------------------ RL adapters
def test_call_actions_come_after_every_existing_id() -> None:
    assert CALL_BASE == MAX_ACTIONS == 176 and NUM_ACTIONS == 110
    assert action_count(CALLP) == CALL_BASE + 54
    assert action_count(pc.find_variant("auction")) == NUM_ACTIONS
    assert action_count(pc.find_variant("ten-point")) == MAX_ACTIONS
    assert [a.kind for a in CALL] == ["call"] * 54 and CALL[0] == CALL_BASE


def test_the_sampler_draws_worlds_consistent_with_the_call() -> None:
    # Seat 0 (a defender) samples the unseen cards: never does the pitcher hold the card it
    # called (CP3, not_own), and in every world the called card's holder is the partner.
    from pitchcards.bots.sampler import sample_worlds

    h = called_hand()
    view = h.view(0)
    card = pc.parse_card("AS")
    worlds = sample_worlds(view, 40, random.Random(3))
    assert len(worlds) == 40
    holders = set()
    for world in worlds:
        assert world.called_card == card and not world.hand_of(1) >> card & 1
        assert world.partner == next((s for s in range(5) if world.dealt[s] >> card & 1), None)
        holders.add(world.partner)
    assert len(holders) > 1  # seat 0 does not know where the card is


# ------------------------------------------------------------- defenders (TricksterBots #97)
def test_a_defender_suspects_a_seat_that_fed_the_pitcher_and_clears_a_void_one() -> None:
    """CP5: before the reveal a defender reasons from the called card and the play
    (bots/call_sides.py): a seat that gave a ten to the pitcher's trick is kept with the
    pitcher, unless it proved void in the called card's suit; the other defenders are allies
    only where the defenders pool their points (``call_defenders="side"``)."""
    from pitchcards.bots.call_sides import defender_sides, suspects
    from pitchcards.bots.tables import tables
    from pitchcards.cards import parse_card

    tb = tables(CALLP, 0)  # spades trump
    trick = (1, tuple(parse_card(c) for c in ("KS", "3S", "TH", "QS", "6S")), 1)
    assert suspects([trick], 1, 5, tb.worth) == 1 << 3  # seat 3 fed its ten to seat 1
    assert suspects([(1, trick[1], 2)], 1, 5, tb.worth) == 0  # not the pitcher's trick
    spade = tb.suit_of[parse_card("AS")]
    no_voids = [0] * 5
    assert defender_sides(5, 1, 0, spade, no_voids, 1 << 3, False) == [0, 1, 2, 1, 4]
    assert defender_sides(5, 1, 0, spade, no_voids, 1 << 3, True) == [0, 1, 0, 1, 0]
    void = [0, 0, 0, 1 << spade, 0]  # seat 3 cannot hold the called spade
    assert defender_sides(5, 1, 0, spade, void, 1 << 3, True) == [0, 1, 0, 0, 0]


@pytest.mark.parametrize("defenders", ["each", "side"])
def test_the_rollouts_defend_as_the_bot_does(defenders: str) -> None:
    """The expert's rollouts read the same defence as the heuristic bot: ``rollout_action``
    is the bot's choice from the view, and ``playout`` plays exactly its moves."""
    from pitchcards.bots.heuristic import decide, playout, rollout_action
    from pitchcards.views import view_of

    rules = CALLP.replace(call_defenders=defenders)
    rng = random.Random(97)
    checked = 0
    for seed in range(12):
        h = Hand.deal(rules, 5, dealer=seed % 5, seed=seed)
        for _ in range(rng.randrange(0, 20)):
            if h.result is not None:
                break
            h.push(rng.choice(h.legal_actions()))
        if h.result is not None:
            continue
        fast, slow = h.copy(), h.copy()
        moves = []
        while slow.result is None:
            action = rollout_action(slow)
            assert action == decide(view_of(slow, slow.seat_to_act))
            moves.append(action)
            slow.push_unchecked(action)
        depth = playout(fast)
        assert [a for _, a in fast.history[len(fast.history) - depth:]] == moves
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("variant", ["call-partner", "three-teams"])
def test_the_five_and_six_benchmark_prints_a_running_line_a_game(
        variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/bench_five_six.py at its smallest, a cheap bot in the expert's place: one
    line per duplicate game, the margin and its interval."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_five_six.py"
    spec = importlib.util.spec_from_file_location("bench_five_six", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--variant", variant, "--games", "2", "--hands", "1", "--expert", "random"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{variant}: random against heuristic")
    assert lines[-1].split()[0] == "2" and "[" in lines[-1]
