"""What one seat may know, built in exactly one place: :func:`view_of`.

Bots, clients and RL observations are all made from a :class:`View`, so a leak of hidden cards
has one place to hide and one test to find it (OpenSpiel's information-state discipline).

A seat knows: the cards it was dealt and still holds, every public action (bids, passes, a
pitched card, every card played, who won each trick), trump, the scores, whose turn it is, and its
own legal actions.  A spectator (``seat=None``) knows only the public part.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from .actions import ACTIONS, Action, parse_action
from .call_partner import is_revealed
from .cards import SUITS, card_name, cards_of, mask_of, parse_card, parse_cards
from .deck import deck_model, off_jack_of
from .errors import DataError, shown
from .rules import MOON, VARIANTS, RuleSet, bid_text, first_to_bid, parse_money, trick_seats
from .scoring import HandResult

if TYPE_CHECKING:
    from .hand import Hand

__all__ = ["SCHEMA", "View", "hand_order", "result_from_dict", "result_to_dict",
           "rules_from_dict", "rules_to_dict", "trick_plays", "view_of"]


def trick_plays(leader: int, cards: Sequence[str], players: int) -> list[list[Any]]:
    """A finished trick as ``[seat, card]`` pairs in play order (C7), as JSON: what a face
    shows in front of each seat, so none works out who played which card."""
    return [[seat, card] for seat, card in zip(trick_seats(leader, len(cards), players), cards,
                                               strict=True)]


@dataclasses.dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a hand (``seat is None``: a spectator's)."""

    rules: RuleSet
    seat: int | None
    players: int
    dealer: int
    phase: str
    seat_to_act: int | None
    hand_mask: int                   #: cards this seat holds now (0 for a spectator)
    dealt_mask: int                  #: cards this seat was dealt (0 for a spectator)
    hand_sizes: tuple[int, ...]      #: how many cards each seat holds (public)
    auction: tuple[tuple[int, Action], ...]   #: (seat, bid/pass/pitch) in order
    high_bid: int | None             #: current high bid (moon = 5)
    high_bidder: int | None
    pitched_card: int | None         #: a card pitched face up with the high bid (public)
    pitcher: int | None
    contract: int | None
    trump: str | None
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]  #: finished (leader, cards, winner)
    trick: tuple[tuple[int, int], ...]                    #: current trick as (seat, card)
    leader: int | None
    tricks_won: tuple[int, ...]
    played_mask: int                 #: every card played so far (public)
    legal_actions: tuple[Action, ...]  #: this seat's legal actions (empty if not its turn)
    result: HandResult | None
    scores: tuple[int, ...] | None = None   #: running score per side (match/session)
    target: int | None = None
    names: tuple[str, ...] | None = None    #: player names in seat order
    stars: tuple[int, ...] | None = None    #: moons made per seat (money sessions, A-R6.4)
    money: tuple[Fraction, ...] | None = None  #: exact dollars per seat if paid now (A-R7)
    #: the same in whole cents as they would be paid: reconciled by the engine so that they sum
    #: with every cent already paid to the exact total rounded (A-R7.6); a faces shows these
    money_cents: tuple[int, ...] | None = None
    #: T4: the cards this seat discarded face down (0 for everyone else: never shown to them)
    discarded_mask: int = 0
    #: CP3: the card the pitcher called (public once called), else None
    called_card: int | None = None
    #: CP5: the partner once the table knows it (the called card played, or the hand over),
    #: else None; the pitcher's own seat when it played alone holding the called card
    partner: int | None = None
    #: CP5: the table knows the partnership (the called card was played, or the hand is over:
    #: ``partner`` None then means nobody was dealt the card, CP4)
    partner_known: bool = False

    def __reduce__(self) -> tuple[type[View], tuple[Any, ...]]:
        """Copied and pickled as ``View(*fields)``: the compiled build's View (issue 35) cannot
        set a frozen field the way a slotted dataclass's default ``__setstate__`` does."""
        return (View, tuple([getattr(self, name) for name in _FIELDS]))

    @property
    def hand(self) -> list[str]:
        """This seat's cards as text."""
        return [card_name(c) for c in cards_of(self.hand_mask)]

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.seat_to_act

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat``: the seat, or its team (B-R1.3, TT1)."""
        return self.rules.side_of(seat)

    @property
    def holds_called(self) -> bool:
        """CP5: this seat was dealt the called card, so it knows it is the pitcher's partner
        (the pitcher: that it plays alone) before anyone else does."""
        return self.called_card is not None and bool(self.dealt_mask >> self.called_card & 1)

    @property
    def known_partner(self) -> int | None:
        """The pitcher's partner as this seat knows it (CP5): public once revealed; before
        that only its holder knows (itself), everyone else None."""
        if self.partner_known:
            return self.partner
        return self.seat if self.holds_called else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: cards and actions as text, money as exact strings, never floats.

        :meth:`from_dict` reads it back to an equal View.  ``schema`` is :data:`SCHEMA`.  It is
        :meth:`public_dict` and :meth:`own_dict` together.
        """
        return self.public_dict() | self.own_dict()

    def own_dict(self) -> dict[str, Any]:
        """The part of :meth:`to_dict` that is this seat's own: its seat, cards, discards and
        legal actions, and what follows from them.  Every other key (:meth:`public_dict`) is
        the same in every seat's view of one moment, so a server encodes it once for all the
        seats (the seat's copy of an event differs only here: ``Table.cut``)."""
        return {
            "seat": self.seat,
            "hand": [card_name(c) for c in hand_order(self)],  # in the order faces show it
            "dealt": [card_name(c) for c in cards_of(self.dealt_mask)],
            "legal_actions": [str(a) for a in self.legal_actions],
            "discards_left": self.discards_left,
            "off_jack": self.off_jack_held,
        } | ({"discarded": [card_name(c) for c in cards_of(self.discarded_mask)]}
             if self.discarded_mask else {}) | (
            {"holds_called": self.holds_called} if self.rules.calls_partner else {})

    def public_dict(self) -> dict[str, Any]:
        """The part of :meth:`to_dict` every seat's view of one moment shares (the table's
        public state and the facts a client shows rather than works out, issue 29); none of
        it depends on ``seat``, ``hand_mask``, ``dealt_mask``, ``discarded_mask`` or
        ``legal_actions``."""
        return {
            "schema": SCHEMA,
            "rules": rules_to_dict(self.rules),
            "players": self.players,
            "dealer": self.dealer,
            "phase": self.phase,
            "seat_to_act": self.seat_to_act,
            "hand_sizes": list(self.hand_sizes),
            "auction": [[s, str(a)] for s, a in self.auction],
            "high_bid": None if self.high_bid is None else bid_text(self.high_bid, self.rules),
            "high_bidder": self.high_bidder,
            "pitched_card": None if self.pitched_card is None else card_name(self.pitched_card),
            "pitcher": self.pitcher,
            "contract": None if self.contract is None else bid_text(self.contract, self.rules),
            "trump": self.trump,
            "tricks": [_trick_dict(ld, cs, w, self.players) for ld, cs, w in self.tricks],
            "trick": [[s, card_name(c)] for s, c in self.trick],
            "leader": self.leader,
            "tricks_won": list(self.tricks_won),
            "result": None if self.result is None else result_to_dict(self.result),
            "scores": None if self.scores is None else list(self.scores),
            "target": self.target,
            "names": None if self.names is None else list(self.names),
            "stars": None if self.stars is None else list(self.stars),
            "money": None if self.money is None else [str(m) for m in self.money],
            "money_cents": None if self.money_cents is None else list(self.money_cents),
            # facts a client shows rather than works out (issue 29)
            "first_to_bid": first_to_bid(self.dealer, self.players),
            "sides": [self.side_of(seat) for seat in range(self.players)],
            "side_names": self.side_names,
        } | (self._call_dict() if self.rules.calls_partner else {})

    def _call_dict(self) -> dict[str, Any]:
        """CP3, CP5: the called card and the partner once the table knows it (only under
        call-your-partner, so other rule sets' views are as they were)."""
        return {"called": None if self.called_card is None else card_name(self.called_card),
                "partner": self.partner, "partner_known": self.partner_known}

    @property
    def off_jack_held(self) -> str | None:
        """T2: the off-jack, a trump once trump is known, if this seat holds it (a face marks
        it as a trump); None otherwise (it names no card the seat does not hold)."""
        if not self.rules.off_jack or self.trump is None:
            return None
        card = off_jack_of(SUITS.index(self.trump))
        return card_name(card) if self.hand_mask >> card & 1 else None

    @property
    def discards_left(self) -> int:
        """T4: how many cards this seat still throws to be down to six (0 but in its discard)."""
        if self.seat is None or self.phase != "discard":
            return 0
        return max(0, self.hand_mask.bit_count() - 6)

    @property
    def side_names(self) -> list[str] | None:
        """Each side's name: its player, or the partners "Ann & Cy" (None without names)."""
        if self.names is None:
            return None
        names = self.names
        return [" & ".join(names[s] for s in seats)
                for seats in self.rules.side_seats(self.players)]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> View:
        """The View a :meth:`to_dict` dict describes (a client's copy of the server's view).

        Anything else — a wrong schema, a missing key, a value of the wrong type or out of
        range, money text too long to convert quickly — is a :class:`DataError`.
        """
        _check_schema(data, "view")
        try:
            return cls._read(data)
        except DataError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise DataError(f"cannot read this view: {shown(exc)}") from None

    @classmethod
    def _read(cls, data: Mapping[str, Any]) -> View:
        players = _int(data, "players", 2, 8)
        seat_range = (0, players - 1)
        tricks = tuple((_seat(t["leader"], players), tuple(parse_card(c) for c in _cards(t)),
                        _seat(t["winner"], players)) for t in data["tricks"])
        trick = tuple((_seat(s, players), parse_card(c)) for s, c in data["trick"])
        played = mask_of(c for _, cs, _ in tricks for c in cs) | mask_of(c for _, c in trick)
        if data["phase"] not in _PHASES:
            raise DataError(f"cannot read this view: phase {shown(data['phase'])}")
        if data["trump"] is not None and data["trump"] not in SUITS:
            raise DataError(f"cannot read this view: trump {shown(data['trump'])}")
        rules = rules_from_dict(data["rules"])
        return cls(
            rules=rules,
            seat=_int(data, "seat", *seat_range, optional=True),
            players=players,
            dealer=_int(data, "dealer", *seat_range),
            phase=data["phase"],
            seat_to_act=_int(data, "seat_to_act", *seat_range, optional=True),
            hand_mask=mask_of(parse_cards(data["hand"])),
            dealt_mask=mask_of(parse_cards(data["dealt"])),
            hand_sizes=_ints(data["hand_sizes"], "hand_sizes"),
            auction=tuple((_seat(s, players), parse_action(a)) for s, a in data["auction"]),
            high_bid=_bid_value(data["high_bid"], rules),
            high_bidder=_int(data, "high_bidder", *seat_range, optional=True),
            pitched_card=None if data["pitched_card"] is None else parse_card(
                data["pitched_card"]),
            pitcher=_int(data, "pitcher", *seat_range, optional=True),
            contract=_bid_value(data["contract"], rules),
            trump=data["trump"],
            tricks=tricks,
            trick=trick,
            leader=_int(data, "leader", *seat_range, optional=True),
            tricks_won=_ints(data["tricks_won"], "tricks_won"),
            played_mask=played,
            legal_actions=tuple(parse_action(a) for a in data["legal_actions"]),
            result=None if data["result"] is None else result_from_dict(data["result"]),
            scores=None if data["scores"] is None else _ints(data["scores"], "scores"),
            target=_int(data, "target", -10**6, 10**6, optional=True),
            names=None if data["names"] is None else _strs(data["names"], "names"),
            stars=None if data["stars"] is None else _ints(data["stars"], "stars"),
            money=None if data["money"] is None else tuple(
                parse_money(m, what="money", negative=True) for m in data["money"]),
            # absent from views written before the cents were sent
            money_cents=None if data.get("money_cents") is None
            else _ints(data["money_cents"], "money_cents"),
            discarded_mask=mask_of(parse_cards(data.get("discarded", []))),
            called_card=None if data.get("called") is None else parse_card(data["called"]),
            partner=_int(data, "partner", *seat_range, optional=True)
            if "partner" in data else None,
            partner_known=data.get("partner_known") is True,
        )


def _trick_dict(leader: int, cards: tuple[int, ...], winner: int, players: int) -> dict[str, Any]:
    """A finished trick as JSON: who led, who took it, and its cards as ``[seat, card]`` pairs
    in play order (``plays``: the cards once, each with the seat that played it)."""
    return {"leader": leader, "winner": winner,
            "plays": trick_plays(leader, [card_name(c) for c in cards], players)}


def _cards(trick: Mapping[str, Any]) -> list[Any]:
    """A finished trick's cards in play order, from its ``plays`` (or the ``cards`` list views
    carried before them)."""
    if "plays" not in trick:
        return list(trick["cards"])
    plays = trick["plays"]
    if not isinstance(plays, list) or len(plays) > 8 or not all(
            isinstance(p, list) and len(p) == 2 for p in plays):
        raise DataError(f"cannot read this view: a trick's plays are {shown(plays)}")
    return [card for _, card in plays]


_PHASES = ("auction", "declare", "call", "discard", "play", "over")
#: The actions a view lists in ``auction`` (T4: never a discard).
_AUCTION_KINDS = frozenset(("pass", "bid", "pitch"))


def _int(data: Mapping[str, Any], key: str, low: int, high: int,
         optional: bool = False) -> Any:
    value = data[key]
    if value is None and optional:
        return None
    if type(value) is not int or not low <= value <= high:
        raise DataError(f"cannot read this view: {key} is {shown(value)}, expected an int "
                        f"{low}..{high}")
    return value


def _seat(value: Any, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise DataError(f"cannot read this view: {shown(value)} is not a seat 0..{players - 1}")
    return value


def _ints(items: Sequence[Any], key: str) -> tuple[int, ...]:
    if not isinstance(items, list | tuple) or len(items) > 16 or \
            not all(type(v) is int and abs(v) < 10**9 for v in items):
        raise DataError(f"cannot read this view: {key} is {shown(items)}, expected whole numbers")
    return tuple(items)


def _strs(items: Sequence[Any], key: str) -> tuple[str, ...]:
    if not isinstance(items, list | tuple) or len(items) > 16 or \
            not all(isinstance(v, str) and len(v) <= 100 for v in items):
        raise DataError(f"cannot read this view: {key} is {shown(items)}, expected names")
    return tuple(items)


#: The version of the JSON forms of views and events; a reader refuses any other.
SCHEMA = 1


def _check_schema(data: Mapping[str, Any], what: str) -> None:
    if not isinstance(data, Mapping) or data.get("schema") != SCHEMA:
        got = data.get("schema") if isinstance(data, Mapping) else shown(data)
        raise DataError(f"cannot read this {what}: schema {got!r}, this version reads "
                         f"schema {SCHEMA}")


def _bid_value(text: str | None, rules: RuleSet) -> int | None:
    """A bid's text as its value under ``rules``: ``"0"`` (no contract) up to the top numeric
    bid (4, or 10 in ten-point: T8), or ``"moon"`` where there is one."""
    if text is None:
        return None
    if text == "moon" and rules.moon_bid is not None:
        return MOON
    top = 4 if rules.moon_bid is not None else rules.points_total
    if text in _BID_TEXTS[:top + 1]:
        return int(text)
    raise DataError(f"cannot read this view: bid {shown(text)} under {rules.name!r}")


_BID_TEXTS = tuple(str(v) for v in range(11))  # 0 (no contract) .. 10 (T8)


def _tuple_or_none(items: Sequence[Any] | None) -> tuple[Any, ...] | None:
    return None if items is None else tuple(items)


def rules_to_dict(rules: RuleSet, resolved: bool = False) -> dict[str, Any]:
    """A rule set as JSON: its name and the options that differ from that named variant
    (what :func:`rules_from_dict` reads), then the facts a client shows instead of working them
    out (issue 29: the browser knows no rule): the points a hand holds, the table sizes, the
    moon's name (None: no moon), the bid ladder as ``[action, word]`` pairs and each bid
    value's word (``bid_words``: ``{"5": "moon"}``), whether seats
    play in partnerships and the seats of each team, how many cards a seat discards (T4) and
    the target.  ``resolved``:
    also every option's value (a table's description and ``POST /api/rules``; a view leaves
    them out, it is sent with every event)."""
    out = {"name": rules.name, "options": dict(_changed_options(rules)), **_rules_facts(rules)}
    if resolved:
        out["resolved"] = {k: str(v) if isinstance(v, Fraction) else v
                           for k, v in rules.options().items()}
    return out


@functools.lru_cache(maxsize=256)
def _rules_facts(rules: RuleSet) -> dict[str, Any]:
    """Worked out once per rule set (every view a server sends carries them); shared: the
    caller copies what it changes."""
    moon = None if rules.moon == "none" else ("smudge" if rules.moon.startswith("smudge")
                                              else "moon")
    low, high = rules.player_range
    return {
        "points_total": rules.points_total,
        "players": [low, high],
        "moon": moon,
        "bids": [[f"bid {v}", moon if v == "moon" else str(v)] for v in rules.bid_values],
        # each bid value as views and results carry it (a moon is the value 5) -> its word, so
        # a page never decides which number is the moon (bid_text, T8)
        "bid_words": {str(MOON if v == "moon" else v): moon if v == "moon" else str(v)
                      for v in rules.bid_values},
        "partners": rules.partnership_mode,
        "discards": rules.hand_size - 6,  # T4: each seat discards down to six
        "target": rules.target,
        # the seats of each team where seats play in partnerships (None: each for themselves),
        # so a page names partners before the first deal without working them out
        "teams": [list(seats) for seats in rules.side_seats(high)]
        if rules.partnership_mode else None,
    }


def hand_order(view: View) -> list[int]:
    """A seat's cards in the order a face shows them.  Once trump is known in the ten-point
    family, by suit for following (the jokers and the off-jack with the trumps, in the trump
    order: T2, T3); otherwise by suit and rank, as the four-point game always showed them."""
    cards = list(cards_of(view.hand_mask))
    if not view.rules.is_ten_point or view.trump is None:
        return cards
    trump = SUITS.index(view.trump)
    model = deck_model(view.rules)
    order = model.trump_order[trump]

    def key(card: int) -> tuple[int, int]:
        suit = model.suit_of[trump][card]
        return (suit, order.index(card) if suit == trump else card % 13)
    return sorted(cards, key=key)


@functools.lru_cache(maxsize=256)
def _changed_options(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    """The JSON options of a rule set, worked out once per rule set (every event a server
    sends carries them; a RuleSet is frozen, so it is its own cache key)."""
    return tuple((k, str(v) if isinstance(v, Fraction) else v)
                 for k, v in rules.changes().items())


def rules_from_dict(data: Mapping[str, Any]) -> RuleSet:
    """The rule set :func:`rules_to_dict` describes."""
    base = VARIANTS.get(data["name"], RuleSet(name=data["name"]))
    return base.replace(**data["options"])


def result_to_dict(result: HandResult) -> dict[str, Any]:
    """A hand's result as JSON (tuples become lists; ``extra`` only when there is one, T7;
    ``called`` and ``partner`` only after a call, CP3)."""
    return {k: list(v) if isinstance(v, tuple) else v
            for k, v in dataclasses.asdict(result).items()
            if (k != "extra" or v) and (k not in _CALL_KEYS or result.called is not None)}


_CALL_KEYS = frozenset(("called", "partner"))


def result_from_dict(data: Mapping[str, Any]) -> HandResult:
    """The result :func:`result_to_dict` describes (its values are trusted: it is public data a
    client shows, never fed back to the engine)."""
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    if "extra" in fields:
        fields["extra"] = tuple(tuple(e) for e in fields["extra"])
    return HandResult(**fields)


class _Seat(Protocol):
    """The type :func:`view_of` gives its seat: to mypy an int (the methods are int's), to the
    compiled build an object it checks nothing of, so that a str, a float or a bool seat is
    refused by view_of itself with the library's IllegalActionError (no_such_seat) on both
    builds, not by mypyc with a bare TypeError (docs/design.md, "Speed")."""

    def __index__(self) -> int: ...
    def bit_count(self) -> int: ...


def view_of(hand: Hand, seat: _Seat | None, scores: Sequence[int] | None = None,
            names: Sequence[str] | None = None, stars: Sequence[int] | None = None,
            money: Sequence[Fraction] | None = None,
            money_cents: Sequence[int] | None = None) -> View:
    """The one function that decides what ``seat`` (or a spectator) may see of ``hand``."""
    n = hand.players
    me: int | None = None
    if seat is not None:
        # a seat is an int 0..n-1 (or has __index__); anything else is IllegalActionError
        # (no_such_seat) on either build (_Seat)
        me = seat if type(seat) is int and 0 <= seat < n else hand.check_seat(
            seat, "a view for seat")
    tricks = tuple(hand.completed_tricks())
    trick = tuple(hand.current_trick())
    played = 0
    for _, cards, _ in tricks:
        for c in cards:
            played |= 1 << c
    for _, c in trick:
        played |= 1 << c
    called = hand.called_card
    # CP5: the partnership is public once the called card is played or the hand is over
    known = called is not None and is_revealed(called, played, hand.is_over)
    seats = range(n)
    # Every field of the View in its order (_FIELDS): issue 35, see _filled.
    return _filled((
        hand.rules,                                    # rules
        me,                                            # seat
        n,                                             # players
        hand.dealer,                                   # dealer
        hand.phase,                                    # phase
        hand.seat_to_act,                              # seat_to_act
        hand.hand_of(me) if me is not None else 0,     # hand_mask
        hand.dealt[me] if me is not None else 0,       # dealt_mask
        tuple([hand.hand_of(s).bit_count() for s in seats]),  # hand_sizes
        # auction: bids, passes and pitches only: naming trump is in ``trump``, and a discard
        # (T4) is hidden from everyone but the seat that made it (``discarded_mask``)
        tuple([e for e in hand.history if e[1] in _AUCTION_IDS]),
        hand.high_bid,                                 # high_bid
        hand.high_bidder,                              # high_bidder
        hand.pitched_card,                             # pitched_card
        hand.pitcher,                                  # pitcher
        hand.contract,                                 # contract
        hand.trump,                                    # trump
        tricks,                                        # tricks
        trick,                                         # trick
        hand.leader,                                   # leader
        tuple([hand.tricks_won(s) for s in seats]),    # tricks_won
        played,                                        # played_mask
        # legal_actions: only the seat to act's own
        tuple(hand.legal_actions()) if me is not None and me == hand.seat_to_act else (),
        hand.result,                                   # result
        tuple(scores) if scores is not None else None,  # scores
        hand.rules.target,                             # target
        tuple(names) if names is not None else None,   # names
        tuple(stars) if stars is not None else None,   # stars
        tuple(money) if money is not None else None,   # money
        tuple(money_cents) if money_cents is not None else None,  # money_cents
        hand.discarded(me) if me is not None else 0,   # discarded_mask
        called,                                        # called_card
        hand.partner if known else None,               # partner
        known,                                         # partner_known
    ))


#: The View's fields in order, and the setter of each one's slot.
_FIELDS = tuple(field.name for field in dataclasses.fields(View))
_SETTERS: tuple[Callable[[View, Any], None], ...] = tuple(
    getattr(View, name).__set__ for name in _FIELDS)
#: The ids of the actions a view lists in ``auction`` (pass, bid, pitch; T4: never a discard).
_AUCTION_IDS = frozenset(a for a in ACTIONS if a.kind in _AUCTION_KINDS)


def _filled(values: tuple[Any, ...]) -> View:
    """A View of ``values`` (every field, in ``_FIELDS``' order), equal to ``View(*values)``.

    It fills the slots directly: the frozen dataclass's ``__init__`` sets each of its 33 fields
    through ``object.__setattr__``, which was most of the cost of :func:`view_of`, built at every
    step of a research environment and every bot's turn (issue 35: 1.7x faster than
    ``View(*values)`` pure, 3.5x compiled, where an indexed loop is also 2.5x faster than a
    ``zip``).  tests/test_views_reference.py checks that :func:`view_of` equals the View the old
    ``view_of`` made with every field named.
    """
    view: View = View.__new__(View)
    setters = _SETTERS
    for i in range(len(setters)):
        setters[i](view, values[i])
    return view
