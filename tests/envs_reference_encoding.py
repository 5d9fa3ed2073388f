"""The observation encoder as it was before issue 35 made it fast, kept as the oracle of
``tests/test_envs_encoding_reference.py``: one numpy write per index, straight from the view.

It is :class:`~pitchcards.envs.encoding.Encoder` (the same segments and offsets) with the old
``encode`` and ``encode_infostate`` bodies, unchanged but for the names they import, and the old
``action_mask``.  Only the values are under test: the fast encoder must write exactly these.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pitchcards.actions import PASS_ID, Action
from pitchcards.cards import SUITS, cards_of
from pitchcards.envs.encoding import Array, Encoder, action_size
from pitchcards.views import View

_Rel = Callable[[int], int]


def _auction_kind(a: Action, top: int) -> int:
    if a == PASS_ID:
        return 0
    if a.kind == "pitch":
        return top + 1
    return a.bid  # type: ignore[return-value]


def _set_cards(out: Array, at: int, mask: int) -> None:
    for c in cards_of(mask):
        out[at + c] = 1.0


def action_mask(view: View) -> npt.NDArray[np.int8]:
    mask = np.zeros(action_size(view.rules), np.int8)
    for a in view.legal_actions:
        mask[a] = 1
    return mask


class ReferenceEncoder(Encoder):
    """The pre-issue-35 ``encode`` / ``encode_infostate``, one index at a time."""

    def encode(self, view: View, out: Array | None = None) -> Array:
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out[:] = 0.0
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to encode from")
        n, me, o = self.players, view.seat, self.offsets

        def rel(seat: int) -> int:
            return (seat - me) % n

        self._encode_cards(view, out, rel)
        if view.trump is not None:
            out[o["trump"] + SUITS.index(view.trump)] = 1.0
        out[o["phase"] + self.phases.index(view.phase)] = 1.0
        if view.seat_to_act is not None:
            out[o["to_act"] + rel(view.seat_to_act)] = 1.0
        out[o["dealer"] + rel(view.dealer)] = 1.0
        if not self.classic:
            for seat, size in enumerate(view.hand_sizes):
                out[o["hand_sizes"] + rel(seat)] = size / self.rules.hand_size
        self._encode_auction(view, out, rel)
        for seat, count in enumerate(view.tricks_won):
            out[o["tricks_won"] + rel(seat)] = count / 6.0
        if view.scores is not None:
            for side, score in enumerate(view.scores):
                out[o["scores"] + self._rel_side(view, side)] = max(
                    -1.0, min(1.0, score / self.score_scale))
        if view.called_card is not None:
            out[o["called"] + view.called_card] = 1.0
            partner = view.known_partner
            if partner is not None:
                out[o["partner"] + rel(partner)] = 1.0
            elif view.partner_known:
                out[o["partner"] + n] = 1.0
        return out

    def _rel_side(self, view: View, side: int) -> int:
        assert view.seat is not None
        return (side - view.side_of(view.seat)) % self.sides

    def _encode_cards(self, view: View, out: Array, rel: _Rel) -> None:
        o, c, n = self.offsets, self.cards, self.players
        _set_cards(out, o["hand"], view.hand_mask)
        if not self.classic:
            _set_cards(out, o["discarded"], view.discarded_mask)
        for seat, card in view.trick:
            out[o["trick"] + c * rel(seat) + card] = 1.0
        if view.trick:
            out[o["leader"] + rel(view.trick[0][0])] = 1.0
        played, won = o["played"], o["won"]
        for leader, cards, winner in view.tricks:
            w = c * self._rel_side(view, view.side_of(winner))
            for i, card in enumerate(cards):
                out[played + c * rel((leader + i) % n) + card] = 1.0
                out[won + w + card] = 1.0
        for seat, card in view.trick:
            out[played + c * rel(seat) + card] = 1.0

    def _encode_auction(self, view: View, out: Array, rel: _Rel) -> None:
        o, top = self.offsets, self.top_bid
        last: dict[int, int] = {}
        for seat, a in view.auction:
            last[seat] = _auction_kind(a, top)
        for seat, kind in last.items():
            out[o["bids"] + self.kinds * rel(seat) + kind] = 1.0
        if view.high_bid is not None:
            out[o["high_bid"] + view.high_bid - 1] = 1.0
        if view.high_bidder is not None:
            out[o["high_bidder"] + rel(view.high_bidder)] = 1.0
        if view.pitched_card is not None:
            out[o["pitched"] + view.pitched_card] = 1.0
        if view.pitcher is not None:
            out[o["pitcher"] + rel(view.pitcher)] = 1.0
        if view.contract is not None:
            out[o["contract"] + view.contract] = 1.0

    def encode_infostate(self, view: View, out: Array | None = None) -> Array:
        if out is None:
            out = np.zeros(self.info_size, np.float32)
        self.encode(view, out[:self.size])
        out[self.size:] = 0.0
        assert view.seat is not None
        n, me, c = self.players, view.seat, self.cards
        at = self.size
        for i, (_, a) in enumerate(view.auction[:self.max_auction]):
            out[at + self.kinds * i + _auction_kind(a, self.top_bid)] = 1.0
        at += self.max_auction * self.kinds
        tricks = [(ld, cs) for ld, cs, _ in view.tricks]
        if view.trick:
            tricks.append((view.trick[0][0], tuple(card for _, card in view.trick)))
        block = n + n * c
        for t, (leader, cards) in enumerate(tricks):
            base = at + t * block
            out[base + (leader - me) % n] = 1.0
            for i, card in enumerate(cards):
                out[base + n + c * ((leader + i - me) % n) + card] = 1.0
        return out
