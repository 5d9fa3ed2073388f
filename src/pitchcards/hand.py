"""One hand of Pitch: deal, auction, six tricks, result.  ``push``/``pop``/``copy``.

The hot path (``legal_actions``/``push`` in the play phase) works on bit masks and precomputed
tables and allocates as little as it can: a search bot lives on ``push``/``pop``, and
``push_unchecked`` skips the legality check for callers that took the action from
``legal_actions`` themselves (OpenSpiel's ``apply_action`` vs its checked sibling).
"""

from __future__ import annotations

import operator
import random
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Self, SupportsIndex, cast

from ._fast import class_options
from .actions import (
    ACTIONS,
    BID,
    BIDS,
    CALL,
    DISCARD,
    PASS,
    PASS_ID,
    PITCH,
    PITCH_BASE,
    PLAY,
    TRUMP,
    Action,
    parse_action,
)
from .call_partner import callable_cards, hand_sides, holder_of, share_result
from .cards import (
    DECK_SIZE,
    FULL_DECK,
    MAX_CARDS,
    STRENGTH,
    SUIT_MASKS,
    SUITS,
    card_name,
    format_cards,
    parse_card,
    parse_cards,
)
from .deck import CLASSIC, DeckModel, deck_model
from .errors import IllegalActionError, InvalidActionError, InvalidCardError, OptionError, shown
from .rules import MOON, RuleSet, first_to_bid
from .scoring import HandResult, RuleValues, rule_values, score_hand
from .views import View, view_of

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr


globals().setdefault("mypyc_attr", class_options)  # (_fast.class_options says why)

__all__ = ["AUCTION", "CALL_PHASE", "DECLARE", "DISCARD_PHASE", "OVER", "PLAY_PHASE",
           "ActionLike", "Hand", "check_seed", "check_table", "deal_order", "follow_allowed"]

ActionLike = Action | str | int

# Phases (ints on the hot path; ``Hand.phase`` gives the name).  The ten-point family adds
# naming trump (T5) and the discard (T4) between the auction and the play; call-your-partner
# the call (CP3), after trump is named and before the discard.
# (``Final``: the compiled build inlines them instead of reading the module's dict, issue 35.)
AUCTION: Final = 0
PLAY_PHASE: Final = 1
OVER: Final = 2
DECLARE: Final = 3
DISCARD_PHASE: Final = 4
CALL_PHASE: Final = 5
_PHASE_NAMES: Final = ("auction", "play", "over", "declare", "discard", "call")

_SUIT_OF: Final = tuple(c // 13 for c in range(DECK_SIZE))
_BITS: Final = [1 << c for c in range(MAX_CARDS)]
_CARD_IDS: Final = list(range(MAX_CARDS))
#: The card a play action puts down (a joker's play ids are 110 and 111), or a bit no hand
#: holds for any other action, so ``legal_mask() >> _PLAY_CARD[a] & 1`` refuses it.
_NOT_A_PLAY: Final = 127
_PLAY_CARD: Final = tuple(a.card if a.kind == "play" and a.card is not None else _NOT_A_PLAY
                   for a in ACTIONS)
#: The value of each bid action (pitch = 4, moon = 5, ``bid 7`` = 7), 0 for any other action.
_BID_VALUE: Final = tuple(a.bid or 0 for a in ACTIONS)
#: Every card of every deck, for an opening lead that may be anything.
_ANY_CARD: Final = (1 << MAX_CARDS) - 1


# Follow rules (C6 and §7.8) as small ints for the hot path.
_TRUMP_ANYTIME: Final = 0
_STRICT: Final = 1
_TRUMP_ONLY: Final = 2
_FOLLOW: Final = {"trump_anytime": _TRUMP_ANYTIME, "strict_follow": _STRICT,
           "follow_trump_only": _TRUMP_ONLY}


def follow_allowed(follow_rule: str, trump: int, led: int, model: DeckModel = CLASSIC) -> int:
    """C6 / §7.8: the cards (a mask) a seat *holding the led suit* may play under ``follow_rule``.

    ``trump_anytime``: the led suit or trump; ``strict_follow``: the led suit only;
    ``follow_trump_only``: only a trump lead must be followed, otherwise any card.  A seat void
    in the led suit may play any card (``Hand.legal_mask``).  Suits are suits for following
    (``model``: in the ten-point family the jokers and the off-jack are trumps, T2).  The rules
    are stated once, in :class:`pitchcards.deck.DeckModel`; ``Hand.legal_mask`` reads the same
    table, and the bots infer other seats' voids from it.
    """
    return model.allowed[_FOLLOW[follow_rule]][trump][led]


#: _SIDES[teams][players]: the scoring side of each seat (``RuleSet.side_of``, worked out
#: once): the seat itself when ``teams`` is 0, else its team (B-R1.3, TT1: seat % teams).
_SIDES: Final = tuple(tuple(tuple(s % teams if teams else s for s in range(n)) for n in range(9))
               for teams in range(4))

# _SUIT_PLAYS[suit][13-bit rank mask]: the play actions of those cards, so a legal mask turns
# into its actions with four lookups (random playouts rarely repeat a whole-hand mask).  The
# spades table is indexed by 15 bits, the jokers' (cards 52, 53: T1) being the top two, so a
# hand with jokers needs no fifth lookup.  _SUIT_PITCHES likewise for the pitch actions.  Both
# are made the first time a legal action list needs them (_suit_tables), not at import: making
# them cost every process that imports the engine 225 ms (issue 27), one that never lists a
# play or a pitch nothing.  They live in _SUIT_TABLES, [_SUIT_PLAYS, _SUIT_PITCHES] once made
# (a ``Final`` list: the hot path pays one truth test of a list).  Only the pure build lists
# from them; the compiled build lists bit by bit, which is cheaper there (_listed, issue 35).
_SuitTable = tuple[tuple[tuple[Action, ...], ...], ...]
_SUIT_TABLES: Final[list[_SuitTable]] = []


def _suit_tables() -> list[_SuitTable]:
    """Make _SUIT_TABLES (once) and return it: [the plays' table, the pitches'].

    Safe from several threads without a lock: each builds into locals and publishes both
    tables in one slice assignment, so a thread finds both made or neither (review F5: two
    separate names once let a thread find the plays made and the pitches not); two threads
    that find neither build both (the same tuples, at worst twice)."""
    if not _SUIT_TABLES:
        plays_13 = tuple(
            tuple(tuple(PLAY[13 * suit + r] for r in range(13) if m >> r & 1)
                  for m in range(1 << 13))
            for suit in range(4))
        plays = (
            *plays_13[:3],
            tuple(spades + jokers for jokers in ((), (PLAY[52],), (PLAY[53],), (PLAY[52], PLAY[53]))
                  for spades in plays_13[3]))
        pitches = tuple(
            tuple(tuple(PITCH[13 * suit + r] for r in range(13) if m >> r & 1)
                  for m in range(1 << 13))
            for suit in range(4))
        _SUIT_TABLES[:] = [plays, pitches]
    return _SUIT_TABLES


#: ``Action`` as a constant: the compiled build reads it without a lookup in the module's dict.
_ACTION: Final = Action


def _actions_of(mask: int, table: _SuitTable) -> list[Action]:
    return [*table[0][mask & 0x1FFF], *table[1][mask >> 13 & 0x1FFF],
            *table[2][mask >> 26 & 0x1FFF], *table[3][mask >> 39 & 0x1FFF]]


def _listed(mask: int, actions: tuple[Action, ...]) -> list[Action]:
    """``actions[card]`` for each card of ``mask``, the lowest card first: the list the tables
    give (_actions_of, legal_actions), made bit by bit.  In the compiled build this loop is
    native and cheaper than the tables, whose tuples lie scattered over a few megabytes (a
    cache miss per suit looked up); in pure Python the tables are cheaper (issue 35)."""
    listed = []
    while mask:
        low = mask & -mask
        listed.append(actions[low.bit_length() - 1])
        mask ^= low
    return listed


#: Whether this module runs compiled (mypyc makes its functions builtins, not Python
#: functions): the legal action lists are then made by _listed, else from the tables.  Both
#: give the same actions in the same order (tests/test_fast_path.py compares every list of
#: random hands of every variant between the builds).
_BY_BITS: Final = not isinstance(_listed, types.FunctionType)
_PLAY: Final = PLAY
_PITCH: Final = PITCH


@mypyc_attr(allow_interpreted_subclasses=True)  # outcome.EnteredHand is a Hand
class Hand:
    """A hand from the deal to its :class:`HandResult`.

    Public read-only state: ``rules``, ``players``, ``dealer``, ``seat_to_act`` (None when over),
    ``pitcher`` and ``contract`` (once the auction is over), ``result`` (once the hand is over),
    ``trump`` (a suit letter, once the first card is led).
    """

    __slots__ = (  # noqa: RUF023 (grouped by phase, not sorted)
        "rules", "players", "dealer", "dealt", "seat_to_act", "pitcher", "contract", "result",
        "_rs", "_sides", "_follow", "_hands", "_phase", "_stack", "_model", "_bids",
        # auction
        "_high", "_high_seat", "_pitch", "_active", "_passes",
        # naming trump and the discard (T4, T5)
        "_discarded", "_opening", "_kept_only",
        # call-your-partner (CP3): the called card and its holder (-1: none yet / not dealt)
        "_called", "_partner",
        # play
        "_trump", "_leader", "_led", "_win_seat", "_win_str", "_strengths", "_allowed", "_trick",
        "_tricks", "_captured", "_tricks_won", "_led_mask", "_suit_of", "_strength_rows",
        "_allowed_rows", "_suit_masks",
    )

    rules: RuleSet
    players: int
    dealer: int
    dealt: tuple[int, ...]
    seat_to_act: int | None
    pitcher: int | None
    contract: int | None
    result: HandResult | None
    _rs: RuleValues  # the rule set's values the hot path reads (issue 35)

    # ------------------------------------------------------------------ creation
    def __new__(cls, *_: object, **__: object) -> Self:
        # Stated so that the compiled build (mypyc) can make a blank hand for :meth:`deal` and
        # :meth:`copy` (``cls.__new__(cls)``), which fill it without ``__init__``'s checks.
        return super().__new__(cls)

    # Seats, table sizes and seeds are typed ``SupportsIndex`` in the public methods, which take
    # any object and refuse a bad one with the documented error: the compiled build (mypyc)
    # would check an ``int`` annotation itself and raise a bare TypeError first (issue 35).
    def __init__(self, rules: RuleSet, dealt: Sequence[int], dealer: SupportsIndex) -> None:
        """Start a hand from dealt masks (one per seat, ``rules.hand_size`` cards each: six, or
        up to nine in the ten-point family).  Prefer :meth:`deal`.

        Where seats discard (``hand_size`` above six), six cards each is also a deal: the cards
        each seat *kept*, as a public record shows a finished hand (its discards are never
        shown, T4); such a hand has no discard phase and scores exactly as the hand played.

        Checked like :meth:`deal`: :class:`IllegalActionError` (``bad_setup`` / ``bad_deal``)
        or :class:`OptionError` for bad arguments, never a raw ``TypeError``.
        """
        if not isinstance(dealt, list | tuple):
            raise IllegalActionError(f"dealt must be a list of card masks, one per seat, not "
                                     f"{shown(dealt)}", reason="bad_deal", phase="deal")
        check_table(rules, len(dealt), dealer)
        seen = 0
        deck = deck_model(rules).mask
        size = _deal_size(rules, dealt[0].bit_count() if dealt and type(dealt[0]) is int else 0)
        for seat, mask in enumerate(dealt):
            # C3, T4: hand_size cards each (six, or up to nine) from the one deck.
            if (type(mask) is not int or mask < 0 or mask & ~deck or mask & seen
                    or mask.bit_count() != size):
                raise IllegalActionError(
                    f"dealt mask {shown(mask)} of seat {seat} is not {size} cards of the "
                    f"{rules.deck}-card deck that no other seat holds (C3)", reason="bad_deal",
                    phase="deal")
            seen |= mask
        self._start(rules, tuple(dealt), cast(int, dealer))  # an int seat: check_table

    def _start(self, rules: RuleSet, dealt: tuple[int, ...], dealer: int) -> None:
        """Set up a checked deal (the unchecked half of ``__init__``, used by :meth:`deal`)."""
        n = len(dealt)
        self.rules = rules
        self.players = n
        self.dealer = dealer
        self.dealt = dealt
        # What every hand under these rules starts from (read once per rule set: issue 35).
        values = self._rs = rule_values(rules)
        self._sides = _SIDES[values.teams][n]
        self._follow = _FOLLOW[values.follow_rule]
        self._model = values.model
        # T8: without a moon the bids are numbers up to every point of a hand (BIDS[5] is a
        # bid of five); with one, BID[5] is the moon (the two agree on 1..4).
        self._bids = BID if values.moon != "none" else BIDS
        # What the opening lead may be (T6): not a joker when it names trump; a trump, if the
        # leader has one, under declare_then_lead_trump (set when trump is named).
        self._opening = FULL_DECK if values.trump_selection == "first_lead" else _ANY_CARD
        self._discarded = [0] * n
        self._called = -1
        self._partner = -1
        # T4: a deal of the kept six cards (a public record's) skips the discard.
        self._kept_only = values.hand_size > 6 and dealt[0].bit_count() == 6
        self._hands = list(dealt)
        self._phase = AUCTION
        self._stack: list[tuple[object, ...]] = []
        self.pitcher = None
        self.contract = None
        self.result = None
        self._high = 0
        self._high_seat = -1
        self._pitch = -1
        self._active = (1 << n) - 1
        self._passes = 0
        self._trump = -1
        self._leader = -1
        self._led = -1
        self._win_seat = -1
        self._win_str = -1
        self._strengths: tuple[int, ...] = STRENGTH[0][0]
        self._allowed = FULL_DECK
        self._led_mask = 0
        self._suit_of: tuple[int, ...] = _SUIT_OF
        self._strength_rows: tuple[tuple[int, ...], ...] = STRENGTH[0]
        self._allowed_rows: tuple[int, ...] = ()
        self._suit_masks: tuple[int, ...] = SUIT_MASKS
        self._trick: list[int] = []
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._captured = [0] * n
        self._tricks_won = [0] * n
        self.seat_to_act = first_to_bid(dealer, n)

    @classmethod
    def deal(cls, rules: RuleSet, players: SupportsIndex = 4, dealer: SupportsIndex = 0,
             seed: SupportsIndex | None = None,
             cards: Sequence[str] | Sequence[Sequence[int]] | None = None,
             rng: random.Random | None = None) -> Hand:
        """Deal a hand: shuffled (reproducible from ``seed``, or drawn from ``rng``) or stacked.

        ``cards`` stacks the deck: one entry per seat, ``rules.hand_size`` cards each, as text
        (``"AS KS 2S 9H 3D TC"``) or a list of card ids or card texts.  Bad arguments raise
        :class:`IllegalActionError` (``bad_setup``, ``bad_deal``), :class:`InvalidCardError`
        or :class:`OptionError` (``rules`` not a :class:`RuleSet`); nothing is cached for them.
        """
        n = check_table(rules, players, dealer)
        if cards is not None:
            masks = _stacked(cards, n, rules)
        else:
            if rng is None:
                rng = random.Random(check_seed(seed))
            elif not isinstance(rng, random.Random):
                raise IllegalActionError(f"rng {shown(rng)} is not a random.Random",
                                         reason="bad_setup", phase="deal")
            masks = deal_masks(rng, n, cast(int, dealer), rules.deal_batch, rules.hand_size,
                               rules.deck)
        hand = cls.__new__(cls)
        hand._start(rules, tuple(masks), cast(int, dealer))  # an int seat: check_table
        return hand

    def copy(self) -> Hand:
        """An independent copy (the action stack included, so ``pop`` works on it)."""
        other = Hand.__new__(Hand)
        # Every slot, one by one (the compiled build has no __slots__ to loop over); the lists
        # are copied, everything else is immutable and shared.
        other.rules, other.players, other.dealer = self.rules, self.players, self.dealer
        other.dealt, other.seat_to_act = self.dealt, self.seat_to_act
        other.pitcher, other.contract, other.result = self.pitcher, self.contract, self.result
        other._rs, other._sides = self._rs, self._sides
        other._follow, other._model = self._follow, self._model
        other._hands, other._phase, other._stack = self._hands[:], self._phase, self._stack[:]
        other._bids = self._bids
        other._high, other._high_seat, other._pitch = self._high, self._high_seat, self._pitch
        other._active, other._passes = self._active, self._passes
        other._discarded, other._opening = self._discarded[:], self._opening
        other._kept_only = self._kept_only
        other._called, other._partner = self._called, self._partner
        other._trump, other._leader, other._led = self._trump, self._leader, self._led
        other._win_seat, other._win_str = self._win_seat, self._win_str
        other._strengths, other._allowed = self._strengths, self._allowed
        other._trick, other._tricks = self._trick[:], self._tricks[:]
        other._captured, other._tricks_won = self._captured[:], self._tricks_won[:]
        other._led_mask, other._suit_of = self._led_mask, self._suit_of
        other._strength_rows, other._allowed_rows = self._strength_rows, self._allowed_rows
        other._suit_masks = self._suit_masks
        return other

    def redeal(self, holdings: Sequence[int], check: bool = True) -> None:
        """Give the seats other cards *now*, keeping everything that has happened.

        ``holdings[s]`` is the mask of cards seat ``s`` holds from this point on; each seat's
        dealt cards become those plus the cards it has played or discarded.  For search code
        that samples the hidden cards of a position (determinization) without replaying its
        history.  With ``check`` the new holdings must be disjoint, keep every seat's hand
        size, come from the deck, avoid every card already played or discarded and leave a
        pitched card that has not led yet with its pitcher (B-R4.3: it is public);
        :class:`IllegalActionError` otherwise.
        """
        n = self.players
        if check:
            if not isinstance(holdings, list | tuple) or len(holdings) != n:
                raise IllegalActionError(f"redeal needs a list of one card mask per seat ({n}), "
                                         f"not {shown(holdings)}", reason="bad_deal",
                                         phase=self.phase)
            played = 0
            for s in range(n):
                played |= self.dealt[s] & ~self._hands[s]
            seen = 0
            deck = self._model.mask
            for s in range(n):
                h = holdings[s]
                if type(h) is not int or h < 0 or h & ~deck:
                    raise IllegalActionError(
                        f"redeal gives seat {s} {shown(h)}, which is not a mask of cards of "
                        f"the {self.rules.deck}-card deck", reason="bad_deal",
                        phase=self.phase)
                if h & seen or h & played or h.bit_count() != self._hands[s].bit_count():
                    raise IllegalActionError(
                        f"redeal gives seat {s} cards that overlap another seat's or a played "
                        f"card, or {h.bit_count()} cards instead of "
                        f"{self._hands[s].bit_count()}", reason="bad_deal", phase=self.phase)
                seen |= h
            owner = holder_of(self._pitch, self._hands) if self._pitch >= 0 else -1
            if owner >= 0 and not holdings[owner] >> self._pitch & 1:
                raise IllegalActionError(
                    f"redeal takes the pitched card {card_name(self._pitch)} from seat {owner}: "
                    f"a pitched card is public and stays with its pitcher until it leads "
                    f"(B-R4.3)", reason="bad_deal", phase=self.phase)
        self.dealt = tuple(holdings[s] | (self.dealt[s] & ~self._hands[s]) for s in range(n))
        self._hands = list(holdings)
        if self._called >= 0:  # CP3: the partner is whoever holds the called card now
            self._partner = holder_of(self._called, self.dealt)

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> str:
        """``"auction"``, ``"declare"`` (naming trump, T5), ``"call"`` (calling a partner,
        CP3), ``"discard"`` (T4), ``"play"`` or ``"over"``."""
        return _PHASE_NAMES[self._phase]

    @property
    def called_card(self) -> int | None:
        """The card the pitcher called (CP3, public), or None before the call / without one."""
        return self._called if self._called >= 0 else None

    @property
    def partner(self) -> int | None:
        """The seat holding the called card: the pitcher's secret partner (CP3; the pitcher
        itself when it called its own card).  None before the call or when nobody was dealt
        it (CP4).  Hidden information until the card is played (CP5): use a view for bots."""
        return self._partner if self._partner >= 0 else None

    @property
    def trump(self) -> str | None:
        """Trump suit letter, or None before the first lead (C5)."""
        return SUITS[self._trump] if self._trump >= 0 else None

    @property
    def trump_suit(self) -> int | None:
        """Trump suit index 0..3, or None."""
        return self._trump if self._trump >= 0 else None

    @property
    def high_bid(self) -> int | None:
        """The current high bid value (moon = 5) during or after the auction, else None."""
        return self._high or None

    @property
    def high_bidder(self) -> int | None:
        return self._high_seat if self._high_seat >= 0 else None

    @property
    def leader(self) -> int | None:
        """The seat that led (or is to lead) the current trick."""
        return self._leader if self._leader >= 0 else None

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    def side_of(self, seat: SupportsIndex) -> int:
        """The scoring side of a seat: the seat, or its team in partnerships (seat % 2 in
        ``2x2``, seat % 3 in ``3x2``: TT1)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self.check_seat(seat, "side_of seat")
        return self._sides[seat]

    @property
    def sides(self) -> int:
        """How many scoring sides there are."""
        return self.rules.side_count(self.players)

    def hand_of(self, seat: SupportsIndex) -> int:
        """The cards ``seat`` still holds, as a mask.  Hidden information: use a view for bots."""
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self.check_seat(seat, "hand_of seat")
        return self._hands[seat]

    def discarded(self, seat: SupportsIndex) -> int:
        """The cards ``seat`` discarded face down (T4), as a mask.  Hidden information: only
        that seat's own view shows them, and nothing ever shows them to anyone else."""
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self.check_seat(seat, "discarded seat")
        return self._discarded[seat]

    @property
    def model(self) -> DeckModel:
        """How the cards of this hand's deck play (:mod:`pitchcards.deck`)."""
        return self._model

    def current_trick(self) -> list[tuple[int, int]]:
        """(seat, card) of the cards on the table in the current trick, in play order."""
        n, lead = self.players, self._leader
        return [((lead + i) % n, c) for i, c in enumerate(self._trick)]

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The cards of the current trick in play order (led by :attr:`leader`)."""
        return tuple(self._trick)

    def completed_tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """(leader, cards in play order, winner) of every finished trick."""
        return list(self._tricks)

    def tricks_won(self, seat: SupportsIndex) -> int:
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self.check_seat(seat, "tricks_won seat")
        return self._tricks_won[seat]

    def captured(self, seat: SupportsIndex) -> int:
        """The cards in the tricks ``seat`` has won, as a mask (public: tricks are played open)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self.check_seat(seat, "captured seat")
        return self._captured[seat]

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every action so far as (seat, action)."""
        return [(e[1], e[0]) for e in self._stack]  # type: ignore[misc]

    @property
    def pitched_card(self) -> int | None:
        """The card pitched with the current high bid (B-R4.3), while the auction runs."""
        return self._pitch if self._pitch >= 0 else None

    def __repr__(self) -> str:
        return (f"<Hand {self.rules.name} players={self.players} dealer={self.dealer} "
                f"phase={self.phase} seat_to_act={self.seat_to_act}>")

    # ------------------------------------------------------------------ legal actions
    def legal_mask(self) -> int:
        """The cards the seat to act may play now, as a mask (0 outside the play phase)."""
        if self._phase != PLAY_PHASE:
            return 0
        seat: int = self.seat_to_act  # type: ignore[assignment]  # (compiled: an int index)
        hand = self._hands[seat]
        if not self._trick:
            if self._tricks:
                return hand
            return hand & self._opening or hand  # T6: what may open the hand
        if hand & self._led_mask:
            return hand & self._allowed  # C6: holding the led suit (see DeckModel.allowed)
        return hand  # C6: void in the led suit, any card

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (empty when the hand is over)."""
        if self._phase == PLAY_PHASE:
            hand = self.legal_mask()
            if _BY_BITS:
                return _listed(hand, _PLAY)
            t = (_SUIT_TABLES or _suit_tables())[0]
            return [*t[0][hand & 0x1FFF], *t[1][hand >> 13 & 0x1FFF],
                    *t[2][hand >> 26 & 0x1FFF], *t[3][hand >> 39]]
        if self._phase == AUCTION:
            return self._auction_actions()
        if self._phase == DECLARE:
            return list(TRUMP)  # T5: the pitcher names any suit
        if self._phase == DISCARD_PHASE:
            # T4: any card, but never the called card (CP3)
            hand = self._hands[self.seat_to_act]  # type: ignore[index]
            if self._called >= 0:
                hand &= ~(1 << self._called)
            return [DISCARD[c] for c in range(MAX_CARDS) if hand >> c & 1]
        if self._phase == CALL_PHASE:
            cards = self._callable()
            return [CALL[c] for c in range(MAX_CARDS) if cards >> c & 1]
        return []

    def _callable(self) -> int:
        """CP3: the cards the pitcher may call now."""
        return callable_cards(self.rules, self._model.mask,
                              self._hands[self.pitcher])  # type: ignore[index]

    def _auction_options(self) -> tuple[bool, int, int, bool]:
        """The seat to act's options: (may pass, lowest bid, highest bid, may pitch)."""
        rules = self._rs  # the rule set's values (issue 35)
        high = self._high
        top = rules.max_bid
        floor = rules.min_bid
        if self.seat_to_act == self.dealer and high == 0 and self._all_others_passed():
            # A-R4.4(a), B-R4.5(a), T8: everyone else passed.
            mode = rules.all_pass
            if mode == "force_dealer_exact2":
                lo = hi = max(2, floor)
                allow_pass = False
            elif mode == "force_dealer_atleast2":
                lo, hi = max(2, floor), top
                allow_pass = False
            else:  # redeal / eldest pitches: the dealer may pass too
                lo, hi = floor, top
                allow_pass = True
        else:
            allow_pass = True
            lo, hi = (high + 1 if high else floor), top
            steal = rules.dealer_steal
            if (self.seat_to_act == self.dealer and high and self._high_seat != self.dealer
                    and steal != "none" and (high < top or steal == "equal_any_incl_pitched")):
                lo = high  # A-R4.4(b), B-R4.5(b): the dealer steals by equalling
        return allow_pass, lo, hi, rules.pitch_as_bid_4 and lo <= 4 <= hi

    def _auction_actions(self) -> list[Action]:
        allow_pass, lo, hi, pitch = self._auction_options()
        actions = [PASS] if allow_pass else []
        actions += self._bids[lo:hi + 1]
        if pitch:  # B-R4.3: any card in hand may be pitched as a bid of 4
            held = self._hands[self.seat_to_act]  # type: ignore[index]
            actions += (_listed(held & FULL_DECK, _PITCH) if _BY_BITS  # (a joker: no pitch, T6)
                        else _actions_of(held, (_SUIT_TABLES or _suit_tables())[1]))
        return actions

    def _auction_allows(self, a: int) -> bool:
        allow_pass, lo, hi, pitch = self._auction_options()
        if a == PASS_ID:
            return allow_pass
        if a > PASS_ID:
            v = _BID_VALUE[a]
            bids = self._bids
            return 0 < v < len(bids) and bids[v] == a and lo <= v <= hi
        if a >= PITCH_BASE:
            return pitch and bool(self._hands[self.seat_to_act] >> (a - PITCH_BASE) & 1)  # type: ignore[index]
        return False

    def _all_others_passed(self) -> bool:
        if self._rs.auction == "single_round" or not self._rs.pass_is_final:
            return self._high == 0  # nobody has bid, so everyone before the dealer passed
        return self._active == 1 << self.dealer

    def is_legal(self, action: ActionLike) -> bool:
        try:
            a = self._as_action(action)
        except InvalidActionError:
            return False
        if self._phase == PLAY_PHASE:
            return bool(self.legal_mask() >> _PLAY_CARD[a] & 1)
        if self._phase == AUCTION:
            return self._auction_allows(a)
        return self._phase != OVER and a in self.legal_actions()

    # ------------------------------------------------------------------ push / pop
    def push(self, action: ActionLike, seat: SupportsIndex | None = None) -> None:
        """Apply an action (an :class:`Action`, its id or its text) for the seat to act.

        ``seat``, if given, must be the seat to act (a server passes the requesting seat).
        Raises :class:`InvalidActionError` for input it cannot read and
        :class:`IllegalActionError` for an action not legal now (its ``reason`` says why);
        either way nothing changes.
        """
        a = action if type(action) is _ACTION else self._as_action(action)
        if seat is not None and (type(seat) is not int or seat != self.seat_to_act):
            self._check_turn(a, seat)
        if self._phase == PLAY_PHASE:
            # C6 / E12: the follow rules are stated once, in legal_mask.  (A tuple lookup is
            # cheaper than comparing an int subclass with 52: every action takes it; by the
            # action as an int, which the compiled build indexes without a generic lookup.)
            action_id: int = a
            card = _PLAY_CARD[action_id]
            if not self.legal_mask() >> card & 1:
                raise self._play_refused(a)
            s: int = self.seat_to_act  # type: ignore[assignment]
            self._stack.append((a, s, self._led, self._win_seat, self._win_str))
            self._play_card(s, card)
        elif self._phase == AUCTION:
            if not self._auction_allows(a):
                raise self._auction_refused(a)
            self._push_auction(a)
        elif self._phase == OVER:
            # (a seat named here was refused by _check_turn: nobody is to act)
            raise self._illegal(a, cast("int | None", seat), "hand_over", "the hand is over")
        else:
            self._push_before_play(a, checked=True)

    def push_unchecked(self, action: Action) -> None:
        """Apply a legal action without checking it (for search code on ``legal_actions``)."""
        if self._phase == PLAY_PHASE:
            s: int = self.seat_to_act  # type: ignore[assignment]
            self._stack.append((action, s, self._led, self._win_seat, self._win_str))
            action_id: int = action
            self._play_card(s, _PLAY_CARD[action_id])
        elif self._phase == AUCTION:
            self._push_auction(action)
        else:
            self._push_before_play(action, checked=False)


    # ------------------------------------------------------------------ naming trump, discard
    def _push_before_play(self, a: Action, checked: bool) -> None:
        """T5 (name trump) and T4 (discard face down to six)."""
        seat: int = self.seat_to_act  # type: ignore[assignment]
        if self._phase == DECLARE:
            suit = a.suit
            if suit is None:
                raise self._illegal(a, seat, "must_name_trump",
                                    "the pitcher names trump first (T5)")
            self._stack.append((a, seat, DECLARE))
            self._set_trump(suit)
            if self._rs.trump_selection == "declare_then_lead_trump":
                self._opening = self._suit_masks[suit]  # T6: lead a trump if you have one
            if self._rs.calls_partner:
                self._phase = CALL_PHASE  # CP3: the call comes after trump is named
            else:
                self._to_discard_or_play()
            return
        if self._phase == CALL_PHASE:
            self._push_call(a, seat, checked)
            return
        card = a.card if a.kind == "discard" else None
        if card is None or not self._hands[seat] >> card & 1:
            if card is None:
                raise self._illegal(a, seat, "must_discard",
                                    "every seat discards down to six first (T4)")
            raise self._illegal(a, seat, "card_not_held", "not a card this seat holds")
        if card == self._called:
            raise self._illegal(a, seat, "called_card", "the called card may not be "
                                "discarded (CP3)")
        self._stack.append((a, seat, DISCARD_PHASE))
        hand = self._hands[seat] ^ _BITS[card]
        self._hands[seat] = hand
        self._discarded[seat] |= _BITS[card]
        if hand.bit_count() > 6:
            return
        nxt = (seat + 1) % self.players
        if nxt == (self.dealer + 1) % self.players:
            self._start_play()  # everyone is down to six
        else:
            self.seat_to_act = nxt

    def _push_call(self, a: Action, seat: int, checked: bool) -> None:
        """CP3: the pitcher calls a card; its holder is the partner (CP4: nobody, if it was
        not dealt).  Then the hand goes on as it would have without a call."""
        card = a.card if a.kind == "call" else None
        if checked and (card is None or not self._callable() >> card & 1):
            if card is None:
                raise self._illegal(a, seat, "must_call", "the pitcher calls a card first: "
                                    "its holder is the partner (CP3)")
            if not self._model.mask >> card & 1:
                raise self._illegal(a, seat, "bad_call", f"not a card of the {self.rules.deck}"
                                    "-card deck (CP3)")
            raise self._illegal(a, seat, "bad_call", "the pitcher may not call a card it "
                                "holds (CP3, call_rule='not_own')")
        self._stack.append((a, seat, CALL_PHASE))
        self._called = card  # type: ignore[assignment]
        self._partner = holder_of(card, self._hands)  # type: ignore[arg-type]
        self._to_discard_or_play()
        if self._pitch >= 0 and not self._rs.declares_trump:
            self._play_card(seat, self._pitch)  # B-R4.3: the pitched card leads, after the call

    def _to_discard_or_play(self) -> None:
        """After trump is named (T5) and the partner called (CP3): the discard (T4) or play."""
        if self._rs.hand_size > 6 and not self._kept_only:
            self._phase = DISCARD_PHASE
            self.seat_to_act = (self.dealer + 1) % self.players  # T4: from dealer's left
        else:
            self._start_play()

    def _set_trump(self, suit: int) -> None:
        """C5 / T5: trump is known; every table of the play reads it from here on."""
        model = self._model
        self._trump = suit
        self._suit_of = model.suit_of[suit]
        self._strength_rows = model.strength[suit]
        self._allowed_rows = model.allowed[self._follow][suit]
        self._suit_masks = model.suit_masks[suit]

    def _start_play(self) -> None:
        self._phase = PLAY_PHASE
        self._leader = self.pitcher  # type: ignore[assignment]
        self.seat_to_act = self.pitcher  # A-R5.1, B-R5.1, E13: the pitcher leads trick 1

    def _as_action(self, action: object) -> Action:
        if isinstance(action, str):
            a = parse_action(action)
            # The text "bid 5" means the moon where there is one (it always did) and a bid of
            # five where there is none (T8); the action ids stay distinct.
            return BID[MOON] if a == BIDS[5] and self._rs.moon != "none" else a
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < len(ACTIONS):
            return ACTIONS[action]
        raise InvalidActionError(
            f"cannot read action {shown(action)}: expected an Action, an action id "
            f"0..{len(ACTIONS) - 1} or text such as 'pass', 'bid 2', 'pitch QH', 'play QH'")

    def _check_turn(self, a: Action, seat: object) -> None:
        """Refuse an action by ``seat`` unless it is a seat number and that seat is to act."""
        checked = self.check_seat(seat, f"{str(a)!r} by seat")
        if checked != self.seat_to_act:
            if self._phase == OVER:
                raise self._illegal(a, checked, "hand_over", "the hand is over")
            raise self._illegal(a, checked, "not_your_turn", "it is not this seat's turn")

    def check_seat(self, seat: object, what: str = "seat") -> int:
        """``seat`` as a seat number of this hand, or :class:`IllegalActionError` (no_such_seat).

        An int 0..players-1 (or an integer type with ``__index__``); a bool, a str or a float is
        not a seat.
        """
        if not isinstance(seat, bool):
            try:
                number = operator.index(seat)  # type: ignore[arg-type]
            except TypeError:
                number = -1
            if 0 <= number < self.players:
                return number
        raise IllegalActionError(
            f"{what} {shown(seat)} in the {self.phase} phase: not a seat of this "
            f"{self.players}-player hand (seats are the ints 0..{self.players - 1})",
            reason="no_such_seat", phase=self.phase,
            legal=[str(s) for s in range(self.players)])

    def _play_refused(self, a: Action) -> IllegalActionError:
        """Why ``a`` is not in the legal mask of the play phase (derived from it, C6)."""
        s: int = self.seat_to_act  # type: ignore[assignment]
        card = _PLAY_CARD[a]
        if card == _NOT_A_PLAY:
            return self._illegal(a, s, "auction_over", "the auction is over")
        if not self._hands[s] >> card & 1:
            return self._illegal(a, s, "card_not_held", "not a card this seat holds")
        if not self._trick:
            if self._trump < 0:
                return self._illegal(a, s, "joker_cannot_open", "a joker names no suit, so it "
                                     "cannot be the first card of the hand (T6)")
            return self._illegal(a, s, "must_lead_trump", "the first lead must be a trump "
                                 "when the leader holds one (T6)")
        if self._follow == _TRUMP_ONLY:  # only a trump lead must be followed (§7.8)
            return self._illegal(a, s, "must_follow_trump", "trump was led: must follow trump")
        return self._illegal(a, s, "must_follow_suit", "must follow suit"
                             + (" or trump" if self._follow == _TRUMP_ANYTIME else ""))

    def _auction_refused(self, a: Action) -> IllegalActionError:
        """Why ``a`` is not a legal bid, pass or pitch now (A-R4, B-R4)."""
        _, lo, hi, pitch = self._auction_options()
        s = self.seat_to_act
        if a < PITCH_BASE or a.kind in ("play", "discard", "trump"):
            return self._illegal(a, s, "auction_in_progress",
                                 "the auction is still running: no card is played yet")
        if a == PASS_ID:
            return self._illegal(a, s, "must_bid", "everyone else passed: the dealer must bid")
        if a < PASS_ID:
            if pitch:
                return self._illegal(a, s, "card_not_held", "not a card this seat holds")
            return self._illegal(a, s, "pitch_not_allowed", "pitching a card is not allowed now")
        v = a.bid or 0
        if a not in self._bids:
            return self._illegal(a, s, "bid_too_high", "these rules have no such bid (bids: "
                                 f"{', '.join(str(b) for b in self.rules.bid_values)})")
        if v < lo:
            return self._illegal(a, s, "bid_too_low", f"the lowest bid allowed now is {lo}")
        return self._illegal(a, s, "bid_too_high",
                             f"the highest bid allowed now is {self.rules.bid_text(hi)}")

    def _illegal(self, a: Action, seat: int | None, reason: str, why: str
                 ) -> IllegalActionError:
        turn = self.seat_to_act
        # The legal actions are the acting seat's (its cards, in play): told only to that seat,
        # or to a caller that named no seat; never to another seat that tried out of turn.
        legal = [str(x) for x in self.legal_actions()] if seat is None or seat == turn else []
        who = f"seat {seat}" if seat is not None else "nobody"
        msg = (f"{str(a)!r} by {who} in the {self.phase} phase: {why}"
               + (f" (seat {turn} is to act)" if turn is not None and turn != seat else "")
               + (f"; legal now: {', '.join(legal)}" if legal else ""))
        if self._phase == PLAY_PHASE and a.kind == "play" and self._trick:
            msg += (f"; {SUITS[self._led]} was led, trump is {SUITS[self._trump]}, "
                    f"rule {self.rules.follow_rule}")
        return IllegalActionError(msg, reason=reason, action=str(a), seat=seat, phase=self.phase,
                                  legal=legal)

    def _play_card(self, seat: int, card: int) -> None:
        """Put ``card`` from ``seat`` on the trick; close the trick and the hand when due."""
        hands = self._hands
        hands[seat] = hands[seat] ^ _BITS[card]  # not ``^=``: compiled, an int operation
        trick = self._trick
        if trick:
            # C7: a trump beats every non-trump, the led suit beats off-suits, which never win.
            strength = self._strengths[card]
            if strength > self._win_str:
                self._win_str = strength
                self._win_seat = seat
        else:
            if self._trump < 0:
                self._set_trump(_SUIT_OF[card])  # C5: the first card led sets trump
            suit = self._suit_of[card]  # T2: a joker or the off-jack leads trump
            self._led = suit
            self._leader = seat
            self._strengths = self._strength_rows[suit]
            self._allowed = self._allowed_rows[suit]
            self._led_mask = self._suit_masks[suit]
            self._win_str = self._strengths[card]
            self._win_seat = seat
        trick.append(card)
        n = self.players
        if len(trick) < n:
            self.seat_to_act = seat + 1 if seat + 1 < n else 0
            return
        # C7: the winner takes the trick and leads the next one.
        winner = self._win_seat
        cards = tuple(trick)
        mask = 0
        for c in cards:
            mask |= 1 << c
        captured, won = self._captured, self._tricks_won
        captured[winner] = captured[winner] | mask
        won[winner] = won[winner] + 1
        tricks = self._tricks
        tricks.append((self._leader, cards, winner))
        trick.clear()
        self._leader = winner
        self._win_str = -1
        self._win_seat = -1
        if len(tricks) == 6:
            self._phase = OVER
            self.seat_to_act = None
            kept = (self.dealt if self._rs.hand_size == 6 else  # T4: discards are not in play
                    tuple(d & ~x for d, x in zip(self.dealt, self._discarded, strict=True)))
            if self._called < 0:
                self.result = score_hand(self.rules, self.dealer, self.pitcher, self.contract,
                                         self._sides, kept, self._captured, self._tricks_won,
                                         self._trump, self._model)
            else:
                self._score_call(kept)
        else:
            self.seat_to_act = winner

    def _score_call(self, kept: tuple[int, ...]) -> None:
        """CP6, CP7: score by the hand's sides (the pitcher and its partner pooled), then share
        the result out to the seats, the match's sides."""
        sides = hand_sides(self.rules, self.players, self.pitcher,  # type: ignore[arg-type]
                           self._partner)
        result = score_hand(self.rules, self.dealer, self.pitcher, self.contract, sides, kept,
                            self._captured, self._tricks_won, self._trump, self._model)
        self.result = share_result(self.rules, result, sides, self._called, self._partner)

    def _push_auction(self, a: Action) -> None:
        seat: int = self.seat_to_act  # type: ignore[assignment]
        self._stack.append((a, seat, self._high, self._high_seat, self._pitch, self._active,
                            self._passes, AUCTION))
        rules = self._rs
        if a == PASS_ID:
            self._passes += 1
            if rules.pass_is_final:
                self._active &= ~(1 << seat)
        else:
            self._passes = 0
            if a < PASS_ID:
                self._high = 4  # B-R4.3: pitching a card is a bid of 4
                self._pitch = a - PITCH_BASE
            else:
                self._high = _BID_VALUE[a]
                self._pitch = -1
            self._high_seat = seat
        nxt = self._next_bidder(seat)
        if nxt is None:
            self._end_auction()
        else:
            self.seat_to_act = nxt

    def _next_bidder(self, seat: int) -> int | None:
        """Who bids next, or None when the auction is over (A-R4.5, B-R4.1, B-R4.4)."""
        rules = self._rs
        n, dealer, high = self.players, self.dealer, self._high
        top_reached = high == rules.max_bid
        dealer_may_take_top = (top_reached and rules.dealer_steal == "equal_any_incl_pitched"
                               and self._high_seat != dealer)
        if rules.auction == "single_round":
            if seat == dealer:
                return None
            if top_reached:
                # B-R4.4: a 4 (the top bid) ends the auction, unless the dealer may take it.
                return dealer if dealer_may_take_top else None
            return (seat + 1) % n
        # Continuous auction (A-R4).
        if top_reached and not (dealer_may_take_top and self._dealer_can_act()):
            return None  # A-R4.5(i): nothing beats the moon
        if top_reached:
            return dealer
        if rules.pass_is_final:
            active = self._active
            if high and active.bit_count() == 1:
                return None  # A-R4.5(ii): one active player left and a high bid exists
            if not active:
                return None  # everyone passed (only where the dealer may pass: redeal/eldest)
            nxt = (seat + 1) % n
            while not active >> nxt & 1:
                nxt = (nxt + 1) % n
            return nxt
        # pass_is_final=False: the auction ends once everyone else passed after the last bid.
        if high and self._passes >= n - 1:
            return None
        if not high and self._passes >= n:
            return None
        return (seat + 1) % n

    def _dealer_can_act(self) -> bool:
        return not self._rs.pass_is_final or bool(self._active >> self.dealer & 1)

    def _end_auction(self) -> None:
        rules = self._rs
        if self._high == 0:
            if rules.all_pass == "redeal":
                # §7.10: everyone passed, the cards are thrown in.
                self._phase = OVER
                self.seat_to_act = None
                self.result = HandResult.thrown_in_result(self.sides)
                return
            # H4: the eldest hand pitches with no contract.
            self.pitcher = (self.dealer + 1) % self.players
            self.contract = 0
        else:
            self.pitcher = self._high_seat
            self.contract = self._high
        if rules.trump_selection != "first_lead":
            self._phase = DECLARE  # T5: the pitcher names trump
            self.seat_to_act = self.pitcher
            return
        if rules.calls_partner:
            self._phase = CALL_PHASE  # CP3: the call, before the first lead (and the pitch)
            self.seat_to_act = self.pitcher
            return
        self._start_play()
        if self._pitch >= 0:
            # B-R4.3: the pitched card is the opening lead.
            self._play_card(self.pitcher, self._pitch)

    def pop(self) -> Action:
        """Undo the last action and return it."""
        if not self._stack:
            raise IllegalActionError("nothing to undo: no action has been taken in this hand",
                                     reason="nothing_to_undo", phase=self.phase)
        entry = self._stack.pop()
        action: Action = entry[0]  # type: ignore[assignment]
        seat: int = entry[1]  # type: ignore[assignment]
        if len(entry) == 5:  # a play: (action, seat, led, winning seat, winning strength)
            _, _, self._led, self._win_seat, self._win_str = entry  # type: ignore[assignment]
            self._unplay(seat, _PLAY_CARD[action])
            self._phase = PLAY_PHASE
            if not self._tricks and not self._trick and not self._rs.declares_trump:
                self._trump = -1  # the opening lead is taken back: no trump yet
        elif len(entry) == 3:  # naming trump, a call or a discard (T4, T5, CP3)
            if entry[2] == CALL_PHASE:
                if self._phase == PLAY_PHASE and self._trick and not self._tricks:
                    self._unplay(seat, self._trick[0])  # the pitch led after the call
                    self._led = self._win_seat = self._win_str = -1
                    if not self._rs.declares_trump:
                        self._trump = -1
                self._phase = CALL_PHASE
                self._called = self._partner = -1
            elif entry[2] == DECLARE:
                self._phase = DECLARE
                self._trump = -1
                self._opening = _ANY_CARD
            else:
                card: int = action.card  # type: ignore[assignment]
                self._hands[seat] |= _BITS[card]
                self._discarded[seat] &= ~_BITS[card]
                self._phase = DISCARD_PHASE
            self._leader = -1
        else:  # a bid, pass or pitch, which may have ended the auction (and led a pitch)
            (_, _, self._high, self._high_seat, self._pitch, self._active, self._passes,
             _) = entry  # type: ignore[assignment]
            if self._phase == PLAY_PHASE and self._trick:
                self._unplay(self.pitcher, self._trick[0])  # type: ignore[arg-type]
            self._phase = AUCTION
            self.pitcher = None
            self.contract = None
            self.result = None
            self._led = self._win_seat = self._win_str = self._trump = self._leader = -1
        self.seat_to_act = seat
        return action

    def _unplay(self, seat: int, card: int) -> None:
        """Take ``card`` back into ``seat``'s hand, reopening a closed trick if needed."""
        if not self._trick:
            leader, cards, winner = self._tricks.pop()
            mask = 0
            for c in cards:
                mask |= 1 << c
            captured, won = self._captured, self._tricks_won
            captured[winner] = captured[winner] & ~mask  # (compiled: int operations)
            won[winner] = won[winner] - 1
            self._trick.extend(cards)
            self._leader = leader
            self._strengths = self._strength_rows[self._led]
            self._allowed = self._allowed_rows[self._led]
            self._led_mask = self._suit_masks[self._led]
            self.result = None
        self._trick.pop()
        hands = self._hands
        hands[seat] = hands[seat] | 1 << card

    # ------------------------------------------------------------------ views
    def view(self, seat: SupportsIndex | None = None) -> View:
        """What ``seat`` may know now (``None``: a spectator, who sees no hidden card)."""
        return view_of(self, seat)  # type: ignore[arg-type]  # view_of checks the seat

    def describe(self) -> str:
        """A short human-readable summary of the hand so far."""
        lines = [repr(self)]
        for s in range(self.players):
            lines.append(f"  seat {s}: {format_cards(self._hands[s])}")
        if self.contract is not None:
            lines.append(f"  pitcher seat {self.pitcher} bid "
                         f"{self.rules.bid_text(self.contract)}, trump {self.trump}")
        for leader, cards, winner in self._tricks:
            lines.append(f"  trick led by {leader}: {' '.join(card_name(c) for c in cards)}"
                         f" -> seat {winner}")
        return "\n".join(lines)


def check_table(rules: RuleSet, players: object, dealer: object) -> int:
    """The table size, once ``rules``, ``players`` and ``dealer`` are checked (E1, C3).

    ``players`` and ``dealer`` must be ints (a float or a bool is refused before anything is
    cached under it); ``dealer`` a seat.
    """
    if not isinstance(rules, RuleSet):
        raise OptionError(f"rules must be a RuleSet (e.g. find_variant('auction')), not "
                          f"{shown(rules)}")
    low, high = rule_values(rules).player_range
    if type(players) is int and low <= players <= high:
        n = players  # what check_players accepts, from its player_range worked out once
    else:
        n = rules.check_players(players, "deal")  # refuses it, saying why (E1)
    if type(dealer) is not int or not 0 <= dealer < n:
        raise IllegalActionError(
            f"dealer {shown(dealer)} is not a seat of a {n}-player table (an int 0..{n - 1})",
            reason="bad_setup", phase="deal", legal=[str(s) for s in range(n)])
    return n


def check_seed(seed: object) -> int | None:
    """``seed`` if it is an int or None (what seeds a deal); else ``bad_setup``."""
    if seed is None or type(seed) is int:
        return seed
    raise IllegalActionError(f"seed {shown(seed)} is not an int or None", reason="bad_setup",
                             phase="setup")


_DEAL_ORDERS: Final[dict[tuple[int, int, int, int], tuple[int, ...]]] = {}
#: The same keys: for each seat, the positions in the deal (as deal_order gives it) of its cards.
_DEAL_POSITIONS: Final[dict[tuple[int, int, int, int], tuple[tuple[int, ...], ...]]] = {}


def deal_order(players: int, dealer: int, batch: int, size: int = 6) -> tuple[int, ...]:
    """The seat receiving each card dealt, in order (C4: clockwise from the dealer's left, in
    packets of ``batch``; T4: a last, smaller packet when ``batch`` does not divide ``size``)."""
    key = (players, dealer, batch, size)
    order = _DEAL_ORDERS.get(key)
    if order is None:
        packets = [batch] * (size // batch) + ([size % batch] if size % batch else [])
        order = tuple((dealer + k) % players for packet in packets
                      for k in range(1, players + 1) for _ in range(packet))
        _DEAL_POSITIONS[key] = tuple(tuple(i for i, s in enumerate(order) if s == seat)
                                     for seat in range(players))
        _DEAL_ORDERS[key] = order
    return order


def deal_masks(rng: random.Random, players: int, dealer: int, batch: int = 3, size: int = 6,
               deck_size: int = DECK_SIZE) -> list[int]:
    """C4: a uniformly shuffled deck dealt clockwise from the dealer's left in packets.

    The shuffle is a Fisher-Yates pass over the first ``size * players`` positions of a
    ``deck_size``-card deck (52, or 53 / 54 with the jokers, T1) driven by ``rng.random()``
    (the rest of the deck is never looked at, C3), so a seed fixes the deal; the card at
    position ``i`` goes to the seat ``deal_order`` names ``i``-th.
    """
    deck = _CARD_IDS[:deck_size]
    rnd = rng.random
    for i in range(size * players):
        j = i + int(rnd() * (deck_size - i))
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
    key = (players, dealer, batch, size)
    positions = _DEAL_POSITIONS.get(key)
    if positions is None:
        deal_order(players, dealer, batch, size)
        positions = _DEAL_POSITIONS[key]
    masks = []
    for seat_positions in positions:
        mask = 0  # (a local: the compiled build boxes one int per seat, not one per card)
        for i in seat_positions:
            mask |= 1 << deck[i]
        masks.append(mask)
    return masks


def _deal_size(rules: RuleSet, first: int) -> int:
    """How many cards each seat must have been dealt: ``hand_size``, or six (the kept cards
    of a public record, T4) where seats discard and the first seat has six."""
    return 6 if rules.hand_size > 6 and first == 6 else rules.hand_size


def _stacked(cards: object, players: int, rules: RuleSet) -> list[int]:
    """The masks of a stacked deal: one entry per seat, ``hand_size`` distinct cards each of
    the rule set's deck (C3, T1, T4)."""
    if not isinstance(cards, list | tuple):
        raise InvalidActionError(f"cards must be a list with one entry per seat, e.g. "
                                 f"['AS KS 2S 9H 3D TC', ...], not {shown(cards)}")
    if len(cards) != players:
        raise IllegalActionError(f"stacked deal has {len(cards)} hands for {players} players",
                                 reason="bad_deal", phase="deal")
    masks = []
    seen = 0
    deck = deck_model(rules).mask
    size = 0
    for seat, entry in enumerate(cards):
        ids = _stacked_entry(entry, seat)
        size = size or _deal_size(rules, len(ids))
        if len(ids) != size:
            raise IllegalActionError(f"stacked deal gives seat {seat} {len(ids)} cards; "
                                     f"each seat gets exactly {size} (C3)", reason="bad_deal",
                                     phase="deal")
        mask = 0
        for c in ids:
            bit = 1 << c
            if not deck & bit:
                raise IllegalActionError(f"stacked deal uses {card_name(c)}, which is not in "
                                         f"the {rules.deck}-card deck of these rules (T1)",
                                         reason="bad_deal", phase="deal")
            if (seen | mask) & bit:
                raise IllegalActionError(f"stacked deal uses {card_name(c)} twice",
                                         reason="bad_deal", phase="deal")
            mask |= bit
        seen |= mask
        masks.append(mask)
    return masks


def _stacked_entry(entry: object, seat: int) -> list[int]:
    """One seat's stacked cards: text, or a list of card ids (ints 0..51) or card texts."""
    if isinstance(entry, str):
        if len(entry) > 100:  # nine cards are at most ~60 characters: refuse before reading
            raise InvalidCardError(f"seat {seat}'s cards {shown(entry)} are not a hand")
        return parse_cards(entry)
    if not isinstance(entry, list | tuple) or len(entry) > DECK_SIZE:
        raise InvalidActionError(f"seat {seat}'s cards must be text such as 'AS KS 2S 9H 3D TC' "
                                 f"or a list of card ids, not {shown(entry)}")
    ids = []
    for c in entry:
        if isinstance(c, str):
            ids.append(parse_card(c))
        elif type(c) is int and 0 <= c < MAX_CARDS:  # not 5.7, not True
            ids.append(c)
        else:
            raise InvalidCardError(f"seat {seat}: {shown(c)} is not a card: a card id is an "
                                   "int 0..53, or text such as 'QH'")
    return ids
