"""Fixed-size encodings of one seat's :class:`~pitchcards.views.View` (numpy).

Every RL observation and every OpenSpiel tensor is made here, and only from a ``View``: the view
is the one place that decides what a seat may know (``views.view_of``), so an encoding cannot
leak a hidden card the view does not hold.

Seats are **relative** to the observer (0 = me, 1 = the seat on my left, ...); sides are relative
too (0 = my side).  All values lie in ``[-1, 1]`` (``float32``).  :class:`Encoder` lists its
segments in order (``Encoder.segments``; ``docs/research.md`` has the table):

=============  =============  ===========================================================
segment        size           content
=============  =============  ===========================================================
hand           52             cards I hold now
trick          n × 52         the current trick: the card each relative seat put on it
leader         n              who led the current trick
trump          4              trump suit (after the first lead)
phase          3              auction, play, over
to_act         n              whose turn it is
dealer         n              the dealer
bids           n × 7          each seat's last auction action: pass, bid 1-4, moon, pitch
high_bid       5              the current high bid: 1, 2, 3, 4, moon
high_bidder    n              who holds it
pitched        52             a card pitched face up with the high bid (B-R4.3)
pitcher        n              the pitcher, once the auction is over
contract       6              none (eldest pitches), 1, 2, 3, 4, moon
played         n × 52         cards seen: every card each relative seat has played
won            sides × 52     the cards in the tricks each relative side has won
tricks_won     n              tricks won per seat, / 6
scores         sides          match score per relative side, / scale, clipped to [-1, 1]
=============  =============  ===========================================================

``n`` is the number of seats and ``sides`` 2 in partnerships, else ``n``.  The score scale is
the rules' target (21 without one).  The information-state encoding
(:meth:`Encoder.encode_infostate`, OpenSpiel's perfect-recall tensor) appends the whole public
history: every auction action in order (``max_auction`` × 7) and every trick (6 × (n leader +
n × 52 cards by relative seat)).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ..actions import BID_BASE, NUM_ACTIONS, PASS_ID, Action
from ..cards import SUITS, card_name, cards_of
from ..rules import MOON, RuleSet, bid_text
from ..views import View

__all__ = ["Encoder", "action_mask", "infostate_string", "max_auction_length",
           "observation_string"]

Array = npt.NDArray[np.float32]

_AUCTION_KINDS = 7  # pass, bid 1, 2, 3, 4, moon, pitch
_PHASES = ("auction", "play", "over")


def _auction_kind(a: int) -> int:
    if a == PASS_ID:
        return 0
    if a < PASS_ID:
        return 6  # a pitch (a bid of 4 that leads a card)
    return a - BID_BASE  # 1..5


def max_auction_length(rules: RuleSet, players: int) -> int:
    """An upper bound on the auction's length (bids only rise, so each level is bid once)."""
    if rules.auction == "single_round":
        return players + 1  # one bid each, and the dealer's steal of a top bid
    return players * (MOON + 2)


class Encoder:
    """Observation and information-state tensors of one seat's view, for a fixed table."""

    def __init__(self, rules: RuleSet, players: int) -> None:
        self.rules = rules
        self.players = n = players
        self.sides = s = 2 if rules.partnership_mode else players
        self.score_scale = float(rules.target or 21)
        self.max_auction = max_auction_length(rules, players)
        self.segments: tuple[tuple[str, int], ...] = (
            ("hand", 52), ("trick", n * 52), ("leader", n), ("trump", 4), ("phase", 3),
            ("to_act", n), ("dealer", n), ("bids", n * _AUCTION_KINDS), ("high_bid", MOON),
            ("high_bidder", n), ("pitched", 52), ("pitcher", n), ("contract", MOON + 1),
            ("played", n * 52), ("won", s * 52), ("tricks_won", n), ("scores", s),
        )
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in self.segments:
            self.offsets[name] = at
            at += size
        self.size = at
        self.history_segments: tuple[tuple[str, int], ...] = (
            ("auction_history", self.max_auction * _AUCTION_KINDS),
            ("trick_history", 6 * (n + n * 52)),
        )
        self.info_size = self.size + sum(size for _, size in self.history_segments)

    # ------------------------------------------------------------------ observation
    def encode(self, view: View, out: Array | None = None) -> Array:
        """The observation tensor of ``view`` (which must belong to a seat)."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out[:] = 0.0
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to encode from")
        n, me, o = self.players, view.seat, self.offsets

        def rel(seat: int) -> int:
            return (seat - me) % n

        def rel_side(side: int) -> int:
            return (side - view.side_of(me)) % self.sides

        _set_cards(out, o["hand"], view.hand_mask)
        for seat, card in view.trick:
            out[o["trick"] + 52 * rel(seat) + card] = 1.0
        if view.trick:
            out[o["leader"] + rel(view.trick[0][0])] = 1.0
        if view.trump is not None:
            out[o["trump"] + SUITS.index(view.trump)] = 1.0
        out[o["phase"] + _PHASES.index(view.phase)] = 1.0
        if view.seat_to_act is not None:
            out[o["to_act"] + rel(view.seat_to_act)] = 1.0
        out[o["dealer"] + rel(view.dealer)] = 1.0
        last: dict[int, int] = {}
        for seat, a in view.auction:
            last[seat] = _auction_kind(a)
        for seat, kind in last.items():
            out[o["bids"] + _AUCTION_KINDS * rel(seat) + kind] = 1.0
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
        played = o["played"]
        won = o["won"]
        for leader, cards, winner in view.tricks:
            w = 52 * rel_side(view.side_of(winner))
            for i, card in enumerate(cards):
                out[played + 52 * rel((leader + i) % n) + card] = 1.0
                out[won + w + card] = 1.0
        for seat, card in view.trick:
            out[played + 52 * rel(seat) + card] = 1.0
        for seat, count in enumerate(view.tricks_won):
            out[o["tricks_won"] + rel(seat)] = count / 6.0
        if view.scores is not None:
            for side, score in enumerate(view.scores):
                out[o["scores"] + rel_side(side)] = max(-1.0, min(1.0,
                                                                  score / self.score_scale))
        return out

    # ------------------------------------------------------------------ information state
    def encode_infostate(self, view: View, out: Array | None = None) -> Array:
        """The observation followed by the whole public history (perfect recall)."""
        if out is None:
            out = np.zeros(self.info_size, np.float32)
        self.encode(view, out[:self.size])
        out[self.size:] = 0.0
        assert view.seat is not None
        n, me = self.players, view.seat
        at = self.size
        for i, (_, a) in enumerate(view.auction[:self.max_auction]):
            out[at + _AUCTION_KINDS * i + _auction_kind(a)] = 1.0
        at += self.max_auction * _AUCTION_KINDS
        tricks = [(ld, cs) for ld, cs, _ in view.tricks]
        if view.trick:
            tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
        block = n + n * 52
        for t, (leader, cards) in enumerate(tricks):
            base = at + t * block
            out[base + (leader - me) % n] = 1.0
            for i, card in enumerate(cards):
                out[base + n + 52 * ((leader + i - me) % n) + card] = 1.0
        return out

    def encode_deal(self, seat: int, dealt: int, out: Array | None = None,
                    info: bool = False) -> Array:
        """While the cards are still being dealt (OpenSpiel's chance nodes): only own cards."""
        size = self.info_size if info else self.size
        if out is None:
            out = np.zeros(size, np.float32)
        else:
            out[:] = 0.0
        _set_cards(out, self.offsets["hand"], dealt)
        return out


def _set_cards(out: Array, at: int, mask: int) -> None:
    for c in cards_of(mask):
        out[at + c] = 1.0


def action_mask(view: View) -> npt.NDArray[np.int8]:
    """``int8`` mask over the engine's 110 action ids: 1 where the action is legal for the seat."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    for a in view.legal_actions:
        mask[a] = 1
    return mask


def _cards(mask: int) -> str:
    return "".join(card_name(c) for c in cards_of(mask)) or "-"


def _actions(actions: Iterable[tuple[int, Action]]) -> str:
    return ",".join(f"{s}:{str(a).replace(' ', '_')}" for s, a in actions) or "-"


def infostate_string(view: View) -> str:
    """Perfect-recall text of ``view``: everything the seat knows and the order it came in."""
    trick = " ".join(f"{s}:{card_name(c)}" for s, c in view.trick) or "-"
    tricks = "|".join(f"{ld}:{''.join(card_name(c) for c in cs)}>{w}"
                      for ld, cs, w in view.tricks) or "-"
    scores = "-" if view.scores is None else ",".join(map(str, view.scores))
    return (f"p{view.seat} d{view.dealer} hand {_cards(view.hand_mask)} "
            f"dealt {_cards(view.dealt_mask)} auction {_actions(view.auction)} "
            f"tricks {tricks} trick {trick} scores {scores}")


def observation_string(view: View) -> str:
    """Text of what the seat sees now (not the order of the past)."""
    trick = " ".join(f"{s}:{card_name(c)}" for s, c in view.trick) or "-"
    contract = "-" if view.contract is None else bid_text(view.contract)
    high = "-" if view.high_bid is None else f"{bid_text(view.high_bid)}@{view.high_bidder}"
    return (f"p{view.seat} {view.phase} hand {_cards(view.hand_mask)} high {high} "
            f"pitcher {view.pitcher} contract {contract} trump {view.trump or '-'} "
            f"trick {trick} played {_cards(view.played_mask)} "
            f"won {','.join(map(str, view.tricks_won))}")
