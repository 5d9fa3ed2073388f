"""Errors are data: every documented IllegalActionError.reason is produced by some refusal here.

Each scenario is a call that must be refused with exactly that reason; the set of scenarios
covers every key of ``pc.REASONS`` (``not_your_seat`` and ``bad_seq`` belong to the Table and
are produced through it).  docs/rules.md §6.1 lists the same reasons.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pitchcards as pc

AUCTION = pc.find_variant("auction")
MONEY = pc.find_variant("money")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def _auction_hand(**options: Any) -> pc.Hand:
    return pc.Hand.deal(AUCTION.replace(**options) if options else AUCTION, 4, 0, cards=[
        "2C 3C 4C 5C 6C 7C", "AS 2H 3H 4H 5H 6H", "KS 2D 3D 4D 5D 6D", "8C 9C TC JC QC KC"])


def _in_play(**options: Any) -> pc.Hand:
    h = _auction_hand(**options)
    h.push("pitch AS")          # seat 1 pitches: spades trump, seat 2 (holding KS) to follow
    return h


def _after_bid_2() -> pc.Hand:
    h = _auction_hand(pitch_as_bid_4=False)
    h.push("bid 2")
    return h


def _forced_dealer() -> pc.Hand:
    h = pc.Hand.deal(MONEY, 3, 0, seed=1)
    h.push("pass")
    h.push("pass")
    return h


TEN_POINT = pc.find_variant("ten-point")
_NINE_EACH = ["LJ AS KS QS JS TS 9S 8S 7S", "BJ AH KH QH JH TH 9H 8H 7H",
              "AD KD QD JD TD 9D 8D 7D 6D", "AC KC QC JC TC 9C 8C 7C 6C"]


def _ten_point_after_auction(**options: Any) -> pc.Hand:
    """Seat 1 bids 4 and everyone else passes (dealer 0): seat 1 is to name trump (T5)."""
    rules = TEN_POINT.replace(**options) if options else TEN_POINT
    cards = _NINE_EACH if rules.hand_size == 9 else [c.split()[:6] for c in _NINE_EACH]
    h = pc.Hand.deal(rules, 4, 0, cards=cards)
    for action in ("bid 4", "pass", "pass", "pass"):
        h.push(action)
    return h


def _ten_point_discarding() -> pc.Hand:
    h = _ten_point_after_auction()
    h.push("trump H")
    return h


CALL_PARTNER = pc.find_variant("call-partner")
TEN_CALL = pc.find_variant("ten-point-cutthroat").replace(partnership="call", min_players=5,
                                                          max_players=5)


def _calling() -> pc.Hand:
    """Seat 1 bids 2 and everyone else passes (dealer 0): seat 1 is to call a card (CP3)."""
    h = pc.Hand.deal(CALL_PARTNER, 5, 0, seed=1)
    for action in ("bid 2", "pass", "pass", "pass", "pass"):
        h.push(action)
    return h


def _discarding_the_called_card() -> None:
    """Ten-point call-your-partner: seat 1 bids, names trump and calls a card of seat 2, which
    discards after seat 1 (T4) and tries to discard the called card (CP3)."""
    h = pc.Hand.deal(TEN_CALL, 5, 0, seed=1)
    for action in ("bid 4", "pass", "pass", "pass", "pass", "trump S"):
        h.push(action)
    card = min(pc.cards.cards_of(h.hand_of(2)))
    h.push(pc.actions.CALL[card])
    for _ in range(3):
        h.push(h.legal_actions()[0])
    h.push(f"discard {pc.card_name(card)}")


def _joker_opening_lead() -> None:
    h = _ten_point_after_auction(hand_size=6, trump_selection="first_lead")
    h.push("play BJ")  # seat 1, the pitcher, leads the high joker: it names no suit (T6)


def _non_trump_opening_lead() -> None:
    h = _ten_point_after_auction(hand_size=6, trump_selection="declare_then_lead_trump")
    h.push("trump S")   # seat 1 holds BJ, a trump whatever the suit: it must lead a trump
    h.push("play AH")


def _finished_match() -> pc.Match:
    m = pc.Match(AUCTION.replace(target=1), 3, dealer=0, seed=1)
    while m.winner is None:
        h = m.deal()
        while h.seat_to_act is not None:
            m.push(h.legal_actions()[0])
    return m


def _session_after_a_leave() -> pc.MoneySession:
    s = pc.MoneySession(MONEY, ["A", "B", "C"], dealer=0, seed=2)
    h = s.deal()
    while h.seat_to_act is not None:
        s.push(h.legal_actions()[0])
    s.leave("C")
    return s


def _full_table() -> pc.MoneySession:
    return pc.MoneySession(MONEY, [f"P{i}" for i in range(8)], dealer=0)


def _not_your_seat() -> None:
    table = pytest.importorskip("pitchcards.table")
    bots = pytest.importorskip("pitchcards.bots")
    t = table.Table(pc.Match(AUCTION, 4, dealer=0, seed=7), bots={1: bots.make_bot("random")})
    t.deal()
    t.push("pass", seat=1)


def _bad_seq() -> None:
    table = pytest.importorskip("pitchcards.table")
    table.Table(pc.Match(AUCTION, 4, dealer=0, seed=7)).events(None, after=-1)


SCENARIOS: dict[str, Callable[[], object]] = {
    "not_your_turn": lambda: _auction_hand().push("pass", seat=2),
    "not_your_seat": _not_your_seat,
    "bad_seq": _bad_seq,
    "no_such_seat": lambda: _auction_hand().push("pass", seat="1"),
    "card_not_held": lambda: _in_play().push("play AH"),
    "must_follow_suit": lambda: _in_play().push("play 2D"),
    "must_follow_trump": lambda: _in_play(follow_rule="follow_trump_only").push("play 2D"),
    "bid_too_low": lambda: _after_bid_2().push("bid 1"),
    "bid_too_high": lambda: _after_bid_2().push("bid moon"),
    "must_bid": lambda: _forced_dealer().push("pass"),
    "pitch_not_allowed": lambda: _after_bid_2().push("pitch 2D"),
    "auction_over": lambda: _in_play().push("bid 2"),
    "auction_in_progress": lambda: _auction_hand().push("play AS"),
    "hand_over": lambda: _finished_match().hand.push("pass"),  # type: ignore[union-attr]
    "game_over": lambda: _finished_match().deal(),
    "no_hand": lambda: pc.Match(AUCTION, 4).push("pass"),
    "hand_in_progress": lambda: (lambda m: (m.deal(), m.deal()))(pc.Match(AUCTION, 4)),
    "nothing_to_undo": lambda: _auction_hand().pop(),
    "undo_blocked": lambda: _session_after_a_leave().pop(),
    "bad_setup": lambda: pc.Hand.deal(AUCTION, 4, 1.0),
    "bad_deal": lambda: pc.Hand.deal(AUCTION, 4, 0, cards=["AS KS QS JS TS 9S"] * 4),
    "join_leave_not_allowed": lambda: pc.MoneySession(
        MONEY.replace(join_leave="never"), ["A", "B"]).join("C"),
    "name_taken": lambda: pc.MoneySession(MONEY, ["A", "B"]).join("A"),
    "not_seated": lambda: pc.MoneySession(MONEY, ["A", "B", "C"]).leave("Z"),
    "table_full": lambda: _full_table().join("Z"),
    "wrong_dealer": lambda: pc.Match(AUCTION, 4, dealer=0).enter(pc.Outcome(
        dealer=2, bidder=1, bid=2, trump="S", high=1, low=1, jack=None, game=1)),
    "bad_outcome": lambda: pc.Match(AUCTION, 4, dealer=0).enter(pc.Outcome(
        bidder=1, bid=2, trump="S", points=(3, 1, 1, 0))),
    "must_name_trump": lambda: _ten_point_after_auction().push("discard AH"),
    "must_discard": lambda: _ten_point_discarding().push("play AS"),
    "joker_cannot_open": _joker_opening_lead,
    "must_lead_trump": _non_trump_opening_lead,
    "must_call": lambda: _calling().push("play AS"),
    "bad_call": lambda: (lambda h: h.push(pc.actions.CALL[min(pc.cards.cards_of(
        h.hand_of(1)))]))(_calling()),
    "called_card": _discarding_the_called_card,
}


def test_the_scenarios_cover_every_reason() -> None:
    assert set(SCENARIOS) == set(pc.REASONS)


@pytest.mark.parametrize("reason", sorted(SCENARIOS))
def test_each_reason_is_produced(reason: str) -> None:
    with pytest.raises(pc.IllegalActionError) as info:
        SCENARIOS[reason]()
    assert info.value.reason == reason, str(info.value)
    assert str(info.value)                      # and the text is there for a human


def test_the_docs_list_every_reason() -> None:
    text = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)` \| ", text, flags=re.M)) & set(pc.REASONS)
    table = text[text.index("`IllegalActionError.reason` is one of"):]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M))
    assert listed == set(pc.REASONS) == documented


def test_an_undocumented_reason_cannot_be_raised() -> None:
    with pytest.raises(KeyError):
        pc.IllegalActionError("x", reason="because")
