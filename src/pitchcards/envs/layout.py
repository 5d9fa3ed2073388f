"""The values of an observation, set from one seat's View (issue 35: compiled).

This is the part of :class:`~pitchcards.envs.encoding.Encoder` that runs at every step of a
research environment: every one-hot and card segment of an observation, as 1s in a
``bytearray`` the encoder turns into its ``float32`` array (:func:`set_ones`), then the few
other values, hand sizes, tricks won and scores, into that array (:func:`set_values`).  It
imports no numpy, so the compiled build compiles it (``pitchcards._fast.COMPILED``).  Like
every encoding it reads only a :class:`~pitchcards.views.View`: the view decides what a seat
may know (``views.view_of``).

The segments, their order and sizes are the encoder's (``Encoder.segments``, the table in
:mod:`.encoding`); seats and sides are relative to the observer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import SUITS, cards_of
from ..views import View

__all__ = ["Layout", "SeatLayout", "set_ones", "set_values"]

_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}


class Layout:
    """Where each segment of one table's observation starts (``Encoder.offsets``; -1 for a
    segment the rules leave out) and what the encoder worked out once for it."""

    def __init__(self, offsets: Mapping[str, int], players: int, kinds: int,
                 phases: Sequence[str], kind_of: Sequence[int], classic: bool,
                 hand_size: int, score_scale: float) -> None:
        def at(name: str) -> int:
            return offsets.get(name, -1)

        self.players = players
        self.classic = classic
        #: the auction kinds a seat's last auction action takes (pass, bid 1..B, pitch)
        self.kinds = kinds
        #: an auction action's kind by id (0 pass, 1..B bid, B + 1 pitch); -1: none
        self.kind_of: list[int] = list(kind_of)
        self.phase_index: dict[str, int] = {phase: i for i, phase in enumerate(phases)}
        self.hand = at("hand")
        self.discarded = at("discarded")
        self.leader = at("leader")
        self.trump = at("trump")
        self.phase = at("phase")
        self.to_act = at("to_act")
        self.dealer = at("dealer")
        self.bids = at("bids")
        self.high_bid = at("high_bid")
        self.high_bidder = at("high_bidder")
        self.pitched = at("pitched")
        self.pitcher = at("pitcher")
        self.contract = at("contract")
        self.called = at("called")
        self.partner = at("partner")
        self.hand_sizes = at("hand_sizes")
        self.tricks_won = at("tricks_won")
        self.scores = at("scores")
        self.hand_size = hand_size
        self.score_scale = score_scale


class SeatLayout:
    """One observer's offsets by absolute seat, worked out once per table (seats and sides
    relative to the observer, as every segment holds them)."""

    def __init__(self, offsets: Mapping[str, int], players: int, cards: int, me: int,
                 side_of: Sequence[int], sides: int) -> None:
        n, c = players, cards
        #: rel[seat]: the seat relative to me (0 = me, 1 = on my left, ...)
        self.rel: tuple[int, ...] = tuple([(seat - me) % n for seat in range(n)])
        rel = self.rel
        #: side_rel[side]: the side relative to mine (0 = my side)
        self.side_rel: tuple[int, ...] = tuple([(side - side_of[me]) % sides
                                                for side in range(sides)])
        self.trick_at: tuple[int, ...] = tuple([offsets["trick"] + c * rel[seat]
                                                for seat in range(n)])
        #: played_at[leader][i]: where the i-th card of a trick led by ``leader`` goes
        self.played_at: tuple[tuple[int, ...], ...] = tuple([
            tuple([offsets["played"] + c * rel[(leader + i) % n] for i in range(n)])
            for leader in range(n)])
        self.won_at: tuple[int, ...] = tuple([offsets["won"] + c * self.side_rel[side_of[seat]]
                                              for seat in range(n)])


def set_ones(lay: Layout, t: SeatLayout, view: View, ones: bytearray) -> None:
    """A 1 in ``ones`` at every one-hot and card value ``view`` (the observer ``t``'s) holds."""
    rel = t.rel
    at = lay.hand
    for c in cards_of(view.hand_mask):
        ones[at + c] = 1
    if not lay.classic:
        at = lay.discarded
        for c in cards_of(view.discarded_mask):
            ones[at + c] = 1
    # trick, leader, played and won
    played_at, won_at = t.played_at, t.won_at
    for leader, cards, winner in view.tricks:
        won = won_at[winner]
        at_of = played_at[leader]
        for i in range(len(cards)):  # a trick may be short
            card = cards[i]
            ones[at_of[i] + card] = 1
            ones[won + card] = 1
    trick_at = t.trick_at
    for seat, card in view.trick:
        ones[trick_at[seat] + card] = 1
        ones[played_at[seat][0] + card] = 1
    if view.trick:
        ones[lay.leader + rel[view.trick[0][0]]] = 1
    if view.trump is not None:
        ones[lay.trump + _SUIT_INDEX[view.trump]] = 1
    ones[lay.phase + lay.phase_index[view.phase]] = 1
    if view.seat_to_act is not None:
        ones[lay.to_act + rel[view.seat_to_act]] = 1
    ones[lay.dealer + rel[view.dealer]] = 1
    _set_auction(lay, rel, view, ones)
    if view.called_card is not None:
        ones[lay.called + view.called_card] = 1
        partner = view.known_partner  # CP5: what this seat knows, nothing more
        if partner is not None:
            ones[lay.partner + rel[partner]] = 1
        elif view.partner_known:
            ones[lay.partner + lay.players] = 1  # CP4: the card was out of play


def _set_auction(lay: Layout, rel: tuple[int, ...], view: View, ones: bytearray) -> None:
    """bids, high_bid, high_bidder, pitched, pitcher and contract."""
    kind_of = lay.kind_of
    last: dict[int, int] = {}
    for seat, a in view.auction:
        last[seat] = kind_of[a]
    at, kinds = lay.bids, lay.kinds
    for seat, kind in last.items():
        ones[at + kinds * rel[seat] + kind] = 1
    if view.high_bid is not None:
        ones[lay.high_bid + view.high_bid - 1] = 1
    if view.high_bidder is not None:
        ones[lay.high_bidder + rel[view.high_bidder]] = 1
    if view.pitched_card is not None:
        ones[lay.pitched + view.pitched_card] = 1
    if view.pitcher is not None:
        ones[lay.pitcher + rel[view.pitcher]] = 1
    if view.contract is not None:
        ones[lay.contract + view.contract] = 1


def set_values(lay: Layout, t: SeatLayout, view: View, out: Any) -> None:
    """The values of ``view`` that are not ones, into ``out`` (the observation's float array,
    zero there): each seat's card count (ten-point only), tricks won, scores (clipped)."""
    rel = t.rel
    if not lay.classic:
        at, size = lay.hand_sizes, lay.hand_size
        for seat, count in enumerate(view.hand_sizes):
            out[at + rel[seat]] = count / size
    at = lay.tricks_won
    for seat, count in enumerate(view.tricks_won):
        if count:
            out[at + rel[seat]] = count / 6.0
    if view.scores is not None:
        at, scale, side_rel = lay.scores, lay.score_scale, t.side_rel
        for side, score in enumerate(view.scores):
            out[at + side_rel[side]] = max(-1.0, min(1.0, score / scale))
