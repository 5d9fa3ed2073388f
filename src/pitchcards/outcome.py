"""Hands entered by their outcome: a real table's hand scored without its cards (issue 16).

At a kitchen table the cards are real; the score is kept by saying what happened: who bid what,
trump, and who took High, Low, Jack and Game (or the points each side won).  An
:class:`Outcome` says that; :meth:`EnteredHand.enter` checks it against the rules in force and
scores it through the same code a played hand goes through:

* the auction is pushed, bid by bid, into a real :class:`~pitchcards.hand.Hand` (one dealt no
  cards), so the forced dealer bid, the bid ladder, the steal and the continuous auction are the
  engine's own rules (A-R4, B-R4), refused with the engine's reasons;
* the points become a :class:`~pitchcards.scoring.HandResult` through
  :func:`~pitchcards.scoring.contract_result`, the function that judges every played hand's
  contract (A-R6, B-R6), and a tied Game through :func:`~pitchcards.scoring.game_point`.

``Match.enter`` and ``MoneySession.enter`` take an :class:`Outcome` between hands, apply it like a
played hand's result and ``pop`` undoes it whole.  Seats name players: in partnerships a point
goes to the taker's side.  An outcome is plain data: :meth:`Outcome.to_dict` /
:meth:`Outcome.from_dict` give it as JSON, and a game record carries it as an ``outcome`` line
(docs/notation.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import PASS, Action, parse_action
from .call_partner import hand_sides, share_result
from .cards import SUIT_SYMBOLS, SUITS, card_name, parse_card
from .deck import deck_model
from .errors import IllegalActionError, InvalidActionError, InvalidCardError, shown
from .hand import OVER, Hand
from .rules import MOON, RuleSet, bid_text
from .scoring import HandResult, contract_result, game_point

__all__ = ["EnteredHand", "Outcome"]

#: The points of a hand (C10), in the order they are counted.
POINTS = ("high", "low", "jack", "game")


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """What happened in a hand, without its cards.

    The auction: ``bids``, every bid in order from the dealer's left (``"pass"``, ``"2"``,
    ``"moon"``; ints are read too), or only the winner: ``bidder`` (a seat) and ``bid`` (1-4,
    ``"moon"``, or 0 for no contract when everyone passed and the eldest hand pitches).  All
    passing where the cards are thrown in (``all_pass="redeal"``) is ``bids`` of passes only.

    The points, by seat (in partnerships the taker's side scores): ``high`` and ``low`` (always
    out once trump is led), ``jack`` (None: the Jack was not dealt), ``game`` (None: nobody
    took it; ``game_tied`` lists the seats that tied for it, and ``game_tie`` decides); or
    instead ``points``, the points won per side, directly.  ``swept``: the pitcher's side took
    all six tricks (needed when it decides a moon, A-R6.2).  ``dealer``: checked against the
    rotation when given.

    Call-your-partner (CP3-CP7): ``called``, the card the pitcher called (``"AS"``), and
    ``partner``, the seat that turned out to hold it (None: nobody was dealt it and the pitcher
    played alone, CP4; the pitcher itself: it called its own card, ``call_rule="alone_allowed"``).
    The points are then scored by the hand's sides (the pitcher and the partner pooled) and
    shared out (CP6); they are given by who took each (not as ``points``: the sides change
    from hand to hand, so :meth:`of` gives the takers of a call hand even with ``points``).
    """

    trump: str | None = None
    bids: tuple[str, ...] | None = None
    bidder: int | None = None
    bid: int | str | None = None
    high: int | None = None
    low: int | None = None
    jack: int | None = None
    game: int | None = None
    game_tied: tuple[int, ...] = ()
    points: tuple[int, ...] | None = None
    swept: bool | None = None
    dealer: int | None = None
    called: str | None = None
    partner: int | None = None

    @classmethod
    def of(cls, hand: Hand, points: bool = False) -> Outcome:
        """The outcome of a finished played hand: what a scorekeeper watching it would enter.

        Every bid in order (a pitched card is its bid of 4), trump, and who took each point
        (a seat of the taking side; a Game tie as the seats of the tied sides), or with
        ``points`` the points per side; ``swept`` where it decides a moon.
        """
        result = hand.result
        if result is None:
            raise IllegalActionError("the hand is not over: it has no outcome yet",
                                     reason="hand_in_progress", phase=hand.phase)
        bids = tuple("4" if a.kind == "pitch" else _word(a) for _, a in hand.history
                     if a.kind in ("bid", "pass", "pitch"))  # not the call (CP3)
        if result.thrown_in:
            return cls(bids=bids, dealer=hand.dealer)
        seat_of = {hand.side_of(s): s for s in range(hand.players - 1, -1, -1)}
        counts = result.game_counts
        tied: tuple[int, ...] = ()
        if result.game is None and counts and max(counts) > 0:
            tied = tuple(seat_of[s] for s, c in enumerate(counts) if c == max(counts))
        pside = result.pitcher_side
        swept = None if pside is None else result.tricks[pside] == 6
        if points and result.called is None:  # CP6: a call's pooled points say no taker
            return cls(trump=result.trump, bids=bids, points=result.points, swept=swept,
                       dealer=hand.dealer)
        return cls(
            trump=result.trump, bids=bids, dealer=hand.dealer, swept=swept,
            called=result.called, partner=result.partner,
            high=None if result.high is None else seat_of[result.high],
            low=None if result.low is None else seat_of[result.low],
            jack=None if result.jack is None else seat_of[result.jack],
            game=None if result.game is None else seat_of[result.game], game_tied=tied)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON: only the fields given (tuples become lists)."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is not None and value != ():
                out[field.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """The outcome :meth:`to_dict` gave; unknown keys or bad types raise
        :class:`IllegalActionError` (``bad_outcome``)."""
        if not isinstance(data, Mapping):
            raise _bad(f"an outcome is a JSON object, not {shown(data)}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = [k for k in data if k not in names]
        if unknown:
            raise _bad(f"unknown outcome field {shown(unknown[0])}; fields are "
                       + ", ".join(sorted(names)))
        values = dict(data)
        for key in ("bids", "game_tied", "points"):
            if isinstance(values.get(key), list):
                values[key] = tuple(values[key])
        return cls(**values)


def _all_passes(outcome: Outcome) -> bool:
    """``outcome`` is a thrown-in hand's: every bid a pass, nothing else given."""
    return (outcome.bids is not None and len(outcome.bids) > 0
            and all(isinstance(b, str) and b.strip().lower() == "pass" for b in outcome.bids)
            and outcome == Outcome(bids=outcome.bids, dealer=outcome.dealer))


def _bad(message: str, phase: str = "between hands") -> IllegalActionError:
    return IllegalActionError(message, reason="bad_outcome", phase=phase)


class EnteredHand(Hand):
    """A finished hand known by its :class:`Outcome`: its auction and result, no cards.

    It reads like any finished :class:`Hand` (dealer, history of bids, pitcher, contract, trump,
    result, a view); it was dealt no cards and has no tricks.  It is undone whole by the
    session's ``pop``, never action by action.
    """

    __slots__ = ("outcome",)

    outcome: Outcome

    @classmethod
    def enter(cls, rules: RuleSet, players: int, dealer: int, outcome: Outcome,
              names: Sequence[str] | None = None) -> EnteredHand:
        """The hand ``outcome`` describes, checked against ``rules``; its result is set.

        ``names`` name the seats in error messages.  Refusals are
        :class:`IllegalActionError`: ``wrong_dealer``, ``no_such_seat``, ``bad_outcome``, or
        the engine's own auction reasons (``bid_too_low``, ``must_bid``, …).
        """
        if not isinstance(outcome, Outcome):
            raise _bad(f"a hand is entered as an Outcome, not {shown(outcome)}")
        if (rules.is_ten_point or rules.points_total != 4) and not _all_passes(outcome):
            # An outcome names who took High, Low, Jack and Game: the four-point game's points.
            # A hand thrown in (T8 with all_pass="redeal") is its passes alone, in either family.
            raise _bad(f"{rules.name!r} is a ten-point game (T7): its hands are played, not "
                       "entered by their outcome; the scorekeeper keeps four-point games")
        who = _Namer(players, names)
        if (outcome.called is not None or outcome.partner is not None) and not (
                rules.calls_partner):
            raise _bad(f"called and partner are for call-your-partner games (CP3); "
                       f"{rules.name!r} has no call")
        if outcome.dealer is not None and outcome.dealer != dealer:
            raise IllegalActionError(
                f"dealer {shown(outcome.dealer)}: the deal is {who(dealer)}'s by rotation "
                "(A-R2.2, B-R2.2)", reason="wrong_dealer", phase="between hands",
                legal=[str(dealer)])
        hand = cls._auction(rules, players, dealer, outcome, who)
        hand.outcome = outcome
        if outcome.bids is not None:  # kept as the record writes them: pass, 2, moon
            hand.outcome = dataclasses.replace(outcome, bids=tuple(
                _word(_bid_action(b, "bid")) for b in outcome.bids))
        elif outcome.bid is not None:
            value = hand.contract or 0
            hand.outcome = dataclasses.replace(outcome, bid=value if value < MOON else "moon")
        if hand.result is not None:  # thrown in (all_pass="redeal")
            given = [f for f in ("trump", *POINTS, "points", "swept")
                     if getattr(outcome, f) not in (None, ())]
            if given or outcome.game_tied:
                raise _bad("everyone passed and the cards were thrown in (all_pass='redeal'): "
                           f"no trump or points to enter, but {', '.join(given or ['game_tied'])}"
                           " given")
            return hand
        result = _score(rules, hand, outcome, who)
        hand.outcome = dataclasses.replace(hand.outcome, trump=result.trump,
                                           called=result.called)  # as the record writes it
        hand._close(result)
        return hand

    @classmethod
    def _auction(cls, rules: RuleSet, players: int, dealer: int, outcome: Outcome,
                 who: _Namer) -> EnteredHand:
        """A hand dealt no cards whose auction is over, as the outcome says it went."""
        if outcome.bids is not None:
            if outcome.bidder is not None or outcome.bid is not None:
                raise _bad("give either every bid in order or the winning bidder and bid, "
                           "not both")
            if not isinstance(outcome.bids, tuple | list):
                raise _bad(f"bids must be a list of bids in order, not {shown(outcome.bids)}")
            hand = cls._blank(rules, players, dealer)
            for number, bid in enumerate(outcome.bids, 1):
                if hand.phase != "auction":
                    raise _bad(f"bid {number} ({shown(bid)}): the auction was already over "
                               f"after {number - 1} bids", "deal")
                seat: int = hand.seat_to_act  # type: ignore[assignment]
                action = _bid_action(bid, f"bid {number}")
                try:
                    hand.push(action)
                except IllegalActionError as exc:
                    raise IllegalActionError(
                        f"bid {number} ({who(seat)}'s {_word(action)}): {exc}",
                        reason=exc.reason, action=str(action), seat=seat, phase="auction",
                        legal=[_word(a) for a in hand.legal_actions()]) from None
            if hand.phase == "auction":
                raise IllegalActionError(
                    f"the bids stop before the auction is over: {who(hand.seat_to_act)} is "
                    f"still to bid (may: {', '.join(_word(a) for a in hand.legal_actions())})",
                    reason="auction_in_progress", seat=hand.seat_to_act, phase="auction",
                    legal=[_word(a) for a in hand.legal_actions()])
            return hand
        bidder, value = who.seat(outcome.bidder, "bidder"), _bid_value(outcome.bid)
        tried = _winning_auctions(rules, players, dealer, bidder, value)
        for script in tried:
            hand = cls._blank(rules, players, dealer)
            if hand._run(script) and hand.pitcher == bidder and hand.contract == value:
                return hand
        wins = [bid_text(v) if v else "0 (no contract)" for v in range(0, rules.max_bid + 1)
                if any(cls._blank(rules, players, dealer)._wins(s, bidder, v)
                       for s in _winning_auctions(rules, players, dealer, bidder, v))]
        raise IllegalActionError(
            f"bid {shown(outcome.bid)} by {who(bidder)}: no auction under these rules ends with "
            f"{who(bidder)} the pitcher at {bid_text(value) if value else 'no contract'}; "
            + (f"{who(bidder)} could win with {', '.join(wins)}" if wins else
               f"{who(bidder)} cannot be the pitcher"),
            reason=_refusal(rules, value), seat=bidder, phase="auction", legal=wins)

    @classmethod
    def blank(cls, rules: RuleSet, players: int, dealer: int) -> EnteredHand:
        """A hand dealt no cards, its auction about to start: the bids of a hand known only
        by them (thrown in) are pushed on it one by one, as a viewer steps through them."""
        return cls._blank(rules, players, dealer)

    @classmethod
    def _blank(cls, rules: RuleSet, players: int, dealer: int) -> EnteredHand:
        hand = cls.__new__(cls)
        hand._start(rules, (0,) * players, dealer)  # no cards: bids never need any
        return hand

    def _run(self, script: Sequence[tuple[int, int]]) -> bool:
        """Play an auction: each (seat, value) bids when that seat's turn comes, in order;
        every other turn passes.  False when the rules refuse a step."""
        todo = list(script)
        for _ in range(64):
            if self.phase != "auction":
                return not todo
            seat = self.seat_to_act
            action = (parse_action(f"bid {bid_text(todo[0][1])}")
                      if todo and todo[0][0] == seat else PASS)
            if not self.is_legal(action):
                return False
            if action != PASS:
                todo.pop(0)
            self.push(action)
        return False

    def _wins(self, script: Sequence[tuple[int, int]], bidder: int, value: int) -> bool:
        return self._run(script) and self.pitcher == bidder and self.contract == value

    def _close(self, result: HandResult) -> None:
        """End the hand with its entered result: trump named, no cards played."""
        self._phase = OVER
        self.seat_to_act = None
        self._trump = SUITS.index(result.trump) if result.trump is not None else -1
        self.result = result

    def pop(self) -> Action:
        """An entered hand is undone whole, by the session's ``pop``."""
        raise IllegalActionError("an entered hand is undone whole: call pop() on its match or "
                                 "session", reason="nothing_to_undo", phase="over")


class _Namer:
    """Seats named for messages: ``Bob (seat 1)`` or ``seat 1``."""

    def __init__(self, players: int, names: Sequence[str] | None) -> None:
        self.players = players
        self.names = list(names) if names is not None else None

    def __call__(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return f"{self.names[seat]} (seat {seat})" if self.names else f"seat {seat}"

    def choices(self) -> str:
        return ", ".join(self(s) for s in range(self.players))

    def seat(self, value: object, what: str) -> int:
        if value is None:
            raise IllegalActionError(f"{what}: say who took it; players: {self.choices()}",
                                     reason="no_such_seat", phase="between hands",
                                     legal=[str(s) for s in range(self.players)])
        if type(value) is not int or not 0 <= value < self.players:
            raise IllegalActionError(
                f"{what}: {shown(value)} is not a player here; players: {self.choices()}",
                reason="no_such_seat", phase="between hands",
                legal=[str(s) for s in range(self.players)])
        return value


def _word(action: Action) -> str:
    return "pass" if action == PASS else bid_text(action.bid or 0)


def _bid_action(bid: object, what: str) -> Action:
    """A bid of an outcome's ``bids`` as the engine's action: pass or bid N."""
    text = str(bid) if type(bid) is int else bid
    if isinstance(text, str):
        try:
            action = parse_action(text if text.strip().lower() == "pass"
                                  else f"bid {text.strip()}")
        except InvalidActionError:
            action = None
        if action is not None and action.kind in ("pass", "bid"):
            return action
    raise _bad(f"{what}: {shown(bid)} is not a bid; a bid is pass, 1-4 or moon")


def _bid_value(bid: object) -> int:
    """The winning bid's value (MOON for a moon, 0 for no contract)."""
    if bid == 0 and type(bid) is int:
        return 0
    if bid is None:
        raise _bad("say the winning bid (1-4 or moon; 0 when everyone passed and the eldest "
                   "hand pitched with no contract) with the bidder, or give every bid")
    action = _bid_action(bid, "bid")
    if action == PASS:
        raise _bad("bid: the winning bid cannot be a pass; give every bid (all passes) for a "
                   "hand thrown in")
    return action.bid or 0


def _refusal(rules: RuleSet, value: int) -> str:
    """The engine's reason for a winning bid no auction can end with."""
    if value > rules.max_bid:
        return "bid_too_high"
    return "bid_too_low" if value < rules.min_bid else "bad_outcome"


def _winning_auctions(rules: RuleSet, players: int, dealer: int, bidder: int,
                      value: int) -> list[list[tuple[int, int]]]:
    """Auctions that may end with ``bidder`` the pitcher at ``value``: everyone else passes;
    or (for the dealer) the eldest hand bids lower, or the same and the dealer steals (A-R4.4).
    ``value`` 0: everyone passes and the eldest hand pitches with no contract (H4)."""
    if value == 0:
        return [[]]
    out = [[(bidder, value)]]
    eldest = (dealer + 1) % players
    if bidder == dealer and eldest != dealer:
        out += [[(eldest, low), (bidder, value)] for low in range(1, value + 1)]
    return out


def _score(rules: RuleSet, hand: EnteredHand, outcome: Outcome, who: _Namer) -> HandResult:
    """The result of a hand whose auction is over, from the points the outcome gives."""
    pitcher: int = hand.pitcher  # type: ignore[assignment]
    contract: int = hand.contract  # type: ignore[assignment]
    nsides = hand.sides
    pside = hand.side_of(pitcher)
    trump = _trump(outcome.trump)
    seat_sides = [hand.side_of(s) for s in range(hand.players)]
    call = _call(rules, hand, outcome, who) if rules.calls_partner else None
    if call is not None:
        seat_sides = list(hand_sides(rules, hand.players, pitcher, call[1]))
        if outcome.points is not None:
            raise _bad("call-your-partner: say who took High, Low, Jack and Game, not the "
                       "points per side (the sides change with each hand's partner, CP6)")
    if outcome.points is not None:
        taken = [f for f in POINTS if getattr(outcome, f) is not None]
        if taken or outcome.game_tied:
            raise _bad("give the points per side or who took High, Low, Jack and Game, not "
                       f"both ({', '.join(taken or ['game_tied'])} given with points)")
        points = _points(rules, outcome.points, nsides)
        sides: list[int | None] = [None] * 4
    else:
        sides = _takers(rules, hand, outcome, who, seat_sides)
        points = [0] * nsides
        for side in sides:
            if side is not None:
                points[side] += 1
    swept = _swept(rules, outcome, hand, points, sides, contract, who)
    high, low, jack, game = sides
    result = contract_result(rules, pitcher, contract, pside, points, swept, high, low, jack,
                             game, trump=trump)
    if call is None:
        return result
    return share_result(rules, result, seat_sides, call[0], call[1])  # CP6


def _call(rules: RuleSet, hand: EnteredHand, outcome: Outcome, who: _Namer) -> tuple[int, int]:
    """CP3, CP4: the called card and the seat that held it (-1: nobody was dealt it)."""
    pitcher: int = hand.pitcher  # type: ignore[assignment]
    if outcome.called is None:
        raise _bad(f"call-your-partner: say which card {who(pitcher)} called (CP3), "
                   "e.g. called='AS', and who held it (partner; none if nobody was dealt it)")
    try:
        card = int(parse_card(outcome.called))
    except InvalidCardError:
        card = -1
    if card < 0 or not deck_model(rules).mask >> card & 1:
        raise _bad(f"called: {shown(outcome.called)} is not a card of this deck; say a card "
                   "such as AS, 10H or JD (CP3)")
    partner = -1 if outcome.partner is None else who.seat(outcome.partner, "partner")
    if partner == pitcher and rules.call_rule != "alone_allowed":
        raise _bad(f"partner: {who(pitcher)} called {card_name(card)}, a card it did not hold "
                   "(call_rule='not_own', CP3), so the partner is another player, or nobody "
                   "when the card was not dealt (CP4)")
    return card, partner


def _trump(value: object) -> str:
    if isinstance(value, str):
        text = value.strip().upper()
        if text in SUITS:
            return text
        if text in SUIT_SYMBOLS:
            return SUITS[SUIT_SYMBOLS.index(text)]
    raise _bad(f"trump: {shown(value)} is not a suit; say which suit was trump: "
               + ", ".join(SUITS))


def _points(rules: RuleSet, points: object, nsides: int) -> list[int]:
    """Points per side given directly: 2 to 4 in all (High and Low are always out, C10)."""
    each = "team" if rules.partnership_mode else "player"
    if (not isinstance(points, tuple | list) or len(points) != nsides
            or not all(type(p) is int and p >= 0 for p in points)):
        raise _bad(f"points: {shown(points)} must be {nsides} whole numbers >= 0, one per "
                   f"{each} in seat order")
    total = sum(points)
    if not 2 <= total <= 4:
        raise _bad(f"points: {total} in all, but a hand gives 2 to 4 (High and Low always, "
                   "Jack if it was dealt, Game unless tied; C10)")
    if rules.target is not None and rules.win_rule in ("first_to_target_HLJG_order",
                                                       "pitcher_counted_first"):
        raise _bad(f"points per {each} cannot say who reaches {rules.target} first: under "
                   f"win_rule={rules.win_rule!r} points count in the order High, Low, Jack, "
                   "Game (§7.7); say who took each")
    return list(points)


def _takers(rules: RuleSet, hand: EnteredHand, outcome: Outcome, who: _Namer,
            side_of: Sequence[int]) -> list[int | None]:
    """The side that took High, Low, Jack and Game (None: nobody); ``side_of``: each seat's
    side in this hand (the match's, or a call's, CP6)."""
    high = side_of[who.seat(outcome.high, "High")]  # C9: always out once trump is led
    low = side_of[who.seat(outcome.low, "Low")]
    jack = None if outcome.jack is None else side_of[who.seat(outcome.jack, "Jack")]
    game = None if outcome.game is None else side_of[who.seat(outcome.game, "Game")]
    if outcome.game_tied:
        if outcome.game is not None:
            raise _bad("give who took Game or who tied for it, not both")
        tied = outcome.game_tied
        if not isinstance(tied, tuple | list):
            raise _bad(f"game_tied must list the players who tied for Game, not {shown(tied)}")
        sides = {side_of[who.seat(s, "Game tied")] for s in tied}
        if len(sides) < 2:
            each = "teams" if rules.partnership_mode else "sides" if rules.calls_partner \
                else "players"
            raise _bad(f"Game tied: a tie needs two {each}, not "
                       + ", ".join(who(s) for s in tied))
        # C10 / B-R6.2: the rules in force settle a tie (game_tie), as for a played hand.
        counts = [1 if s in sides else 0 for s in range(hand.sides)]
        game = game_point(rules, counts, list(side_of), hand.dealer,
                          side_of[hand.pitcher])  # type: ignore[index]
    return [high, low, jack, game]


def _swept(rules: RuleSet, outcome: Outcome, hand: EnteredHand, points: Sequence[int],
           sides: Sequence[int | None], contract: int, who: _Namer) -> bool:
    """Whether the pitcher's side took every trick, where it decides a moon (A-R6.2, D15)."""
    pitcher: int = hand.pitcher  # type: ignore[assignment]
    pside = hand.side_of(pitcher)
    swept = outcome.swept
    if swept is not None and not isinstance(swept, bool):
        raise _bad(f"swept must be true or false, not {shown(swept)}")
    decides = points[pside] == 4 and (contract == MOON or not rules.moon_must_be_bid)
    if swept is None:
        if decides:
            raise _bad(f"{who(pitcher)}'s side took all four points: say whether it also took "
                       "all six tricks (swept), which a moon needs (A-R6.2)")
        return False
    if swept:
        # Every card was captured by the sweepers: High, Jack, Game and Low (unless Low goes
        # to its holder, B-R7.2) are theirs.
        lost = [name.capitalize() for name, side in zip(POINTS, sides, strict=True)
                if side is not None and side != pside
                and not (name == "low" and rules.low_to == "holder")]
        others = sum(points) - points[pside]
        if lost or others > (1 if rules.low_to == "holder" else 0):
            raise _bad(f"swept: a side that took all six tricks captured every card, so "
                       f"{' and '.join(lost) or 'the other points'} cannot be another side's")
    return swept

