"""Fixed-size encodings of one seat's :class:`~pitchcards.views.View` (numpy).

Every RL observation and every OpenSpiel tensor is made here, and only from a ``View``: the view
is the one place that decides what a seat may know (``views.view_of``), so an encoding cannot
leak a hidden card the view does not hold (T4: another seat's discards are not in it).

Seats are **relative** to the observer (0 = me, 1 = the seat on my left, ...); sides are relative
too (0 = my side).  All values lie in ``[-1, 1]`` (``float32``).  :class:`Encoder` lists its
segments in order (``Encoder.segments``; ``docs/research.md`` has the table).  Sizes depend on the
rules: ``C`` cards (the rule set's deck: 52, or 53 / 54 with the jokers, T1), ``B`` the top bid
(5 = moon in the four-point game, ``rules.max_bid`` = 10 in the ten-point family, T8):

=============  =============  ===========================================================
segment        size           content
=============  =============  ===========================================================
hand           C              cards I hold now
discarded      C              *ten-point only*: the cards I discarded face down (T4)
trick          n × C          the current trick: the card each relative seat put on it
leader         n              who led the current trick
trump          4              trump suit (after the first lead, or named: T5)
phase          3 or 5         auction, play, over (ten-point: auction, declare, discard,
                              play, over)
to_act         n              whose turn it is
dealer         n              the dealer
hand_sizes     n              *ten-point only*: cards each relative seat holds, / hand_size
bids           n × (B + 2)    each seat's last auction action: pass, bid 1..B, pitch
high_bid       B              the current high bid: 1 .. B
high_bidder    n              who holds it
pitched        C              a card pitched face up with the high bid (B-R4.3)
pitcher        n              the pitcher, once the auction is over
contract       B + 1          none (eldest pitches), 1 .. B
played         n × C          cards seen: every card each relative seat has played
won            sides × C      the cards in the tricks each relative side has won
tricks_won     n              tricks won per seat, / 6
scores         sides          match score per relative side, / scale, clipped to [-1, 1]
called         C              *call-your-partner only*: the card the pitcher called (CP3)
partner        n + 1          *call-your-partner only*: the partner as I know it (CP5): the
                              relative seat, or the last slot: the card was out of play
=============  =============  ===========================================================

``n`` is the number of seats and ``sides`` 2 in partnerships, else ``n``.  The score scale is
the rules' target (21 without one).  The information-state encoding
(:meth:`Encoder.encode_infostate`, OpenSpiel's perfect-recall tensor) appends the whole public
history: every auction action in order (``max_auction`` × (B + 2)) and every trick
(6 × (n leader + n × C cards by relative seat)).

The four-point game (:func:`is_classic`: 52 cards, six dealt, trump by the first lead, bids up to
4 or the moon) keeps exactly the encodings it had before the ten-point family (C = 52, B = 5, no
``discarded`` or ``hand_sizes``, three phases) and its 110 actions, so saved models still fit.
Call-your-partner (``partnership="call"``) uses the extended encoding with a ``call`` phase, the
two segments above at the end, and 230 actions (its ``call X`` ids 176..229 after every other).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..actions import ACTIONS, MAX_ACTIONS, NUM_ACTIONS, PASS_ID, Action, action_count
from ..cards import card_name, cards_of
from ..rules import MOON, RuleSet, bid_text
from ..views import View
from .layout import Layout, SeatLayout, set_ones, set_values

__all__ = ["Encoder", "action_mask", "action_size", "infostate_string", "is_classic",
           "legal_mask", "max_auction_length", "observation_string"]

Array = npt.NDArray[np.float32]

_PHASES = ("auction", "play", "over")
_TEN_POINT_PHASES = ("auction", "declare", "discard", "play", "over")  # T5, T4
_CALL_PHASES = ("auction", "declare", "call", "discard", "play", "over")  # CP3


def is_classic(rules: RuleSet) -> bool:
    """The four-point game's encodings and 110 actions: no jokers, off-jack, discard, named
    trump or bid above 4 (the moon aside)."""
    return action_count(rules) == NUM_ACTIONS and not rules.declares_trump


def action_size(rules: RuleSet) -> int:
    """The size of the action space and masks: 110 (four-point), 176 (ten-point family) or 230
    (call-your-partner, CP3).

    ``actions.action_count`` with one more case: a 52-card rule set that names trump (T5) uses
    the ``trump X`` ids 166..169, so it needs the full 176.
    """
    return NUM_ACTIONS if is_classic(rules) else max(action_count(rules), MAX_ACTIONS)


def _top_bid(rules: RuleSet) -> int:
    """B: the top bid value encoded (MOON in the four-point game, as always; else max_bid)."""
    return MOON if is_classic(rules) else rules.max_bid


def _auction_kind(a: Action, top: int) -> int:
    """0 = pass, 1..top = a bid of that value (the moon is MOON), top + 1 = a pitch."""
    if a == PASS_ID:
        return 0
    if a.kind == "pitch":
        return top + 1  # a pitch (a bid of 4 that leads a card)
    return a.bid  # type: ignore[return-value]


def max_auction_length(rules: RuleSet, players: int) -> int:
    """An upper bound on the auction's length (bids only rise, so each level is bid once)."""
    if rules.auction == "single_round":
        return players + 1  # one bid each, and the dealer's steal of a top bid
    return players * (_top_bid(rules) + 2)


class Encoder:
    """Observation and information-state tensors of one seat's view, for a fixed table."""

    def __init__(self, rules: RuleSet, players: int) -> None:
        self.rules = rules
        self.players = n = players
        self.sides = s = rules.side_count(players)
        self.classic = classic = is_classic(rules)
        self.cards = c = 52 if classic else rules.deck  # C: one slot per card of the deck (T1)
        self.top_bid = top = _top_bid(rules)            # B
        self.kinds = top + 2                            # pass, bid 1..B, pitch
        self.phases = (_PHASES if classic else _CALL_PHASES if rules.calls_partner
                       else _TEN_POINT_PHASES)
        self.actions = action_size(rules)
        self.score_scale = float(rules.target or 21)
        self.max_auction = max_auction_length(rules, players)
        # T4: own discards and every seat's card count (public) exist only in the ten-point
        # family; the four-point game's segments are exactly the old ones.
        own_discards = () if classic else (("discarded", c),)
        hand_sizes = () if classic else (("hand_sizes", n),)
        self.segments: tuple[tuple[str, int], ...] = (
            ("hand", c), *own_discards, ("trick", n * c), ("leader", n), ("trump", 4),
            ("phase", len(self.phases)), ("to_act", n), ("dealer", n), *hand_sizes,
            ("bids", n * self.kinds), ("high_bid", top), ("high_bidder", n), ("pitched", c),
            ("pitcher", n), ("contract", top + 1), ("played", n * c), ("won", s * c),
            ("tricks_won", n), ("scores", s),
            *((("called", c), ("partner", n + 1)) if rules.calls_partner else ()),
        )
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in self.segments:
            self.offsets[name] = at
            at += size
        self.size = at
        self.history_segments: tuple[tuple[str, int], ...] = (
            ("auction_history", self.max_auction * self.kinds),
            ("trick_history", 6 * (n + n * c)),
        )
        self.info_size = self.size + sum(size for _, size in self.history_segments)
        #: an auction action's kind by id (0 pass, 1..B bid, B + 1 pitch); -1: no auction action
        self._kind_of = [_auction_kind(a, top) if a == PASS_ID or a.bid is not None else -1
                         for a in ACTIONS]
        # issue 35: the ones of an observation are set by .layout (compiled)
        self._layout = Layout(self.offsets, n, self.kinds, self.phases, self._kind_of, classic,
                              rules.hand_size, self.score_scale)
        side_of = [rules.side_of(seat) for seat in range(n)]
        self._tables = [SeatLayout(self.offsets, n, c, me, side_of, s) for me in range(n)]

    def __reduce__(self) -> tuple[type[Encoder], tuple[RuleSet, int]]:
        """Copied and pickled as ``Encoder(rules, players)`` (it never changes after it is made;
        OpenSpiel pickles a game with it): the compiled build's layouts (issue 35) cannot be
        made blank and filled, as a default copy would."""
        return (Encoder, (self.rules, self.players))

    # ------------------------------------------------------------------ observation
    def encode(self, view: View, out: Array | None = None) -> Array:
        """The observation tensor of ``view`` (which must belong to a seat).

        Every 1 is set in a ``bytearray`` and the array made from it at once, then the few
        other values written (hand sizes, tricks won, scores): a numpy write per index, or a
        list of indices handed to numpy, cost more than the whole rest of the encoding
        (issue 35, ``benchmarks/bench_envs.py``)."""
        me = view.seat
        if me is None:
            raise ValueError("a spectator's view has no seat to encode from")
        ones = bytearray(self.size)
        t = self._tables[me]
        set_ones(self._layout, t, view, ones)
        if out is None:
            out = np.frombuffer(ones, np.uint8).astype(np.float32)
        else:
            out[:] = np.frombuffer(ones, np.uint8)
        set_values(self._layout, t, view, out)
        return out

    # ------------------------------------------------------------------ information state
    def encode_infostate(self, view: View, out: Array | None = None) -> Array:
        """The observation followed by the whole public history (perfect recall)."""
        if out is None:
            out = np.zeros(self.info_size, np.float32)
        self.encode(view, out[:self.size])
        out[self.size:] = 0.0
        assert view.seat is not None
        n, me, c = self.players, view.seat, self.cards
        at = self.size
        for i, (_, a) in enumerate(view.auction[:self.max_auction]):
            out[at + self.kinds * i + self._kind_of[a]] = 1.0
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
    """``int8`` mask over the rule set's action ids (:func:`action_size`: 110 in the four-point
    game, 176 in the ten-point family, 230 calling a partner): 1 where the action is legal for
    the seat."""
    return legal_mask(view.legal_actions, action_size(view.rules))


def legal_mask(actions: Sequence[int], size: int) -> npt.NDArray[np.int8]:
    """``int8`` mask of ``size`` with a 1 at each of ``actions``."""
    mask = bytearray(size)
    for a in actions:
        mask[a] = 1
    return np.frombuffer(mask, np.int8)  # writable: it shares the bytearray


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
            f"tricks {tricks} trick {trick} scores {scores}{_ten_point_text(view)}")


def observation_string(view: View) -> str:
    """Text of what the seat sees now (not the order of the past)."""
    trick = " ".join(f"{s}:{card_name(c)}" for s, c in view.trick) or "-"
    # bid_text with the rules: 5 is the moon only where there is one (T8)
    contract = "-" if view.contract is None else bid_text(view.contract, view.rules)
    high = ("-" if view.high_bid is None
            else f"{bid_text(view.high_bid, view.rules)}@{view.high_bidder}")
    return (f"p{view.seat} {view.phase} hand {_cards(view.hand_mask)} high {high} "
            f"pitcher {view.pitcher} contract {contract} trump {view.trump or '-'} "
            f"trick {trick} played {_cards(view.played_mask)} "
            f"won {','.join(map(str, view.tricks_won))}{_ten_point_text(view)}")


def _ten_point_text(view: View) -> str:
    """The ten-point family's extra text (nothing in the four-point game, whose strings are
    unchanged): trump named (T5), the phase, my own discards only (T4) and every seat's card
    count (public; it tells how far the discard has gone)."""
    if is_classic(view.rules):
        return ""
    sizes = ",".join(map(str, view.hand_sizes))
    called = "" if view.called_card is None else (  # CP3, CP5: as this seat knows it
        f" called {card_name(view.called_card)} partner "
        f"{'-' if view.known_partner is None else view.known_partner}")
    return (f" named {view.trump or '-'} {view.phase} discarded {_cards(view.discarded_mask)} "
            f"sizes {sizes}{called}")
