"""The one game loop: a :class:`Table` owns a session, its seats' agents, and the event stream.

Every face drives a game through a Table — the terminal game, the arena, the research
environments, and the server to come — so "whose turn is it, ask that seat's agent, apply the
action, tell everyone what happened" is written once, here::

    from pitchcards.table import Table
    from pitchcards.bots import make_bot
    t = Table(pc.Match(rules, players=4, dealer=0, seed=7),
              bots={1: make_bot("random", seed=1), 2: make_bot("heuristic", seed=2),
                    3: make_bot("random", seed=3)})
    t.advance()                     # bots act until a seat without a bot must act, or it is over
    t.push("play QH", seat=0)       # an outside seat's action; the engine's errors if refused
    t.events_for(0, after=0)        # JSON-ready dicts, each with "seq" and "type", for seat 0
    t.events_for(None, after=12)    # a spectator's events after seq 12
    t.view(0)                       # seat 0's View now

A seat's agent is a bot (:class:`~pitchcards.bots.Bot`) or nobody: then the seat is played from
outside (a key press, a socket message) with :meth:`Table.push`.  In a money session agents
belong to *players*, not seat numbers, since seats move as players join and leave (A-R8.3).

The table says what happens next (issue 28, item 2), so that no face keeps its own "deal
between hands, pick the bot, think, is it still current, apply" loop::

    step = t.next_step()            # DealNext | BotTurn | OutsideTurn | Over
    if isinstance(step, BotTurn):   # the seat, its view (built here, on the owner's thread), seq
        action = step.choose()      # reads only that view: may run on a worker thread
        step.apply(action)          # back on the owner's thread: False if the table moved on

A face only *schedules* that work (a worker thread, an asyncio task, a timer): it deals when
told :class:`DealNext`, waits for a person at an :class:`OutsideTurn`, stops at :class:`Over`.
:meth:`Table.advance` is the same decisions in one fast loop (the arena's hot path).

Visibility is decided in one place, :meth:`Table.events_for` (like
:func:`~pitchcards.views.view_of` for views): a deal event carries only the receiving seat's
cards, legal actions go only to the seat to act, a spectator gets the public events only.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .actions import Action, parse_action
from .cards import card_name
from .errors import IllegalActionError, InvalidActionError, shown
from .events import (
    DISCARD_PREFIX,
    HIDDEN_DISCARD,
    ActionTaken,
    ActionUndone,
    Event,
    HandDealt,
    HandScored,
    MatchWon,
    PlayerJoined,
    PlayerLeft,
    Settled,
    TrickWon,
)
from .hand import ActionLike, Hand
from .notation import write_record
from .rules import trick_seats
from .session import Deal, GameSession
from .views import SCHEMA, View

if TYPE_CHECKING:
    from .bots.base import Bot

__all__ = ["BotTurn", "DealNext", "OutsideTurn", "Over", "Step", "Table", "seat_of"]

#: Who an event is cut for: a seat index, a player's name (money sessions), or None (spectator).
Who = int | str | None


def seat_of(who: object, names: Sequence[str]) -> int | None:
    """THE who→seat rule: ``who``'s seat in the seating ``names`` — a seat number in range, or a
    player's name — or None (a bool is not a seat)."""
    if isinstance(who, str):
        return names.index(who) if who in names else None
    if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(names):
        return who
    return None


def _no_such_seat(who: object, names: Sequence[str]) -> IllegalActionError:
    return IllegalActionError(f"{shown(who)} is not a seat (0..{len(names) - 1}) or a player at "
                              "this table", reason="no_such_seat")


# ---------------------------------------------------------------------- what happens next
@dataclasses.dataclass(frozen=True, slots=True)
class DealNext:
    """Between hands (or before the first): the next hand is to be dealt.  The face chooses
    when — after its result panel, a pause, a money game's joins and leaves (A-R8.3) — and
    calls :meth:`Table.deal`."""

    hand: int  #: the index of the hand to deal (0: the first)


@dataclasses.dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot is to act: ``seat``, the ``view`` it decides from (built on the owner's thread;
    None only for a bot that sees every card, ``sees_all``), and ``seq``, the table's event
    number when the turn was taken.  :meth:`choose` may run on a worker thread; :meth:`apply`,
    on the owner's thread, applies the choice only if the table is still where it was."""

    seat: int
    view: View | None
    seq: int
    bot: Bot
    _table: Table = dataclasses.field(repr=False, compare=False)
    _hand: Hand = dataclasses.field(repr=False, compare=False)
    _moves: int = dataclasses.field(repr=False, compare=False)

    def choose(self) -> Action:
        """The bot's decision from its view (reads nothing else of the table's)."""
        return self._table._think(self.bot, self.seat, self.view, self._hand)

    def apply(self, action: ActionLike) -> bool:
        """:meth:`Table.apply_if_current` for this turn."""
        return self._table.apply_if_current(self, action)


@dataclasses.dataclass(frozen=True, slots=True)
class OutsideTurn:
    """A seat played from outside (a key press, a socket message) is to act: the table waits
    for :meth:`Table.push`.  ``seq`` as in :class:`BotTurn` (a turn timer's stand-in checks
    :meth:`Table.is_current` before it plays)."""

    seat: int
    seq: int
    _table: Table = dataclasses.field(repr=False, compare=False)
    _moves: int = dataclasses.field(repr=False, compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class Over:
    """The match has a winner, or the money session is settled: nothing more happens."""


#: What :meth:`Table.next_step` says happens next: a closed set.
Step = DealNext | BotTurn | OutsideTurn | Over
_OVER = Over()


class Table:
    """A session, the agents at its seats, and everything that happened, as events.

    ``bots`` maps seats (indices into the session's seating now) or player names to bots;
    seats without one are played from outside.  ``auto_deal``: :meth:`advance` deals the next
    hand by itself (off for faces that pause between hands).  ``history=False`` keeps no events
    (the arena plays millions of hands and reads only the results).  ``time_decisions`` records
    each bot decision's duration in nanoseconds in :attr:`decision_ns`, per player name.
    """

    def __init__(self, session: GameSession, bots: Mapping[int | str, Bot] | None = None, *,
                 auto_deal: bool = True, history: bool = True,
                 time_decisions: bool = False) -> None:
        if not isinstance(session, GameSession):
            raise IllegalActionError(f"a Table needs a Match or a MoneySession, not "
                                     f"{shown(session)}", reason="bad_setup", phase="setup")
        if bots is not None and not isinstance(bots, Mapping):
            raise IllegalActionError(f"bots must map seats or names to bots, not {shown(bots)}",
                                     reason="bad_setup", phase="setup")
        self.session = session
        self.rules = session.rules
        self.auto_deal = auto_deal
        self.history = history
        self._events: list[Event] = []
        self._seq = 0
        #: every change of position (an action, an undo, a deal, a new bot): what a turn from
        #: :meth:`next_step` is checked against, with or without events (``history``)
        self._moves = 0
        self._agents: dict[str, Bot] = {}
        names = session.names
        for key, bot in (bots or {}).items():
            if not callable(getattr(bot, "choose", None)):
                raise IllegalActionError(f"the bot for {shown(key)} is {shown(bot)}, not a bot "
                                         "(make one with pitchcards.bots.make_bot)",
                                         reason="bad_setup", phase="setup")
            seat = seat_of(key, names)
            if seat is not None:
                self._agents[names[seat]] = bot
            else:
                raise IllegalActionError(
                    f"cannot seat a bot at {shown(key)}: seats are 0..{len(names) - 1}, "
                    f"players are {', '.join(names)}", reason="bad_setup", phase="setup")
        self.decision_ns: dict[str, list[int]] | None = (
            {n: [] for n in self._agents} if time_decisions else None)
        #: the bot of each seat now, and the seat's player: a list lookup on the hot path
        self._seat_bots: list[Bot | None] = []
        self._seat_names: tuple[str, ...] = ()
        self._reseat()
        self._tricks_seen = 0
        self._listeners: list[Callable[[Event], None]] = []
        #: the seats' own starting views of each deal, by the deal event's seq
        self._deals: dict[int, tuple[View, ...]] = {}
        #: after each action's event, by its seq: each seat's dealt, held and discarded cards
        self._holdings: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}
        #: each seating hands were dealt in here (a new one per change), and which of them each
        #: event belongs to
        self._seatings: list[tuple[str, ...]] = [
            session.view(None).names or session.names if session.hand is not None
            else session.names]
        self._event_seating: list[int] = []
        self._forgotten = 0  #: events dropped from memory by :meth:`forget` (the oldest)
        if session.hand is not None and history:
            self._emit_deal(session.hand)

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand | None:
        """The hand in play, or the last one (None before the first deal)."""
        return self.session.hand

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in seat order now."""
        return self.session.names

    @property
    def seating(self) -> tuple[str, ...]:
        """Names in the seat order of the last hand dealt (what views and events speak of);
        before the first deal, the session's seating."""
        return self._seatings[-1]

    @property
    def is_over(self) -> bool:
        return self.session.is_over

    @property
    def in_hand(self) -> bool:
        return self.session.in_hand

    @property
    def to_act(self) -> int | None:
        """The seat to act in the current hand, or None between hands and when over."""
        hand = self.session.hand
        return None if hand is None else hand.seat_to_act

    @property
    def seq(self) -> int:
        """The number of the last event (0 before any)."""
        return self._seq

    @property
    def moves(self) -> int:
        """How many times the position has changed (an action, an undo, a deal, a new bot),
        events or not: a view built since it last changed is still current (the research
        environments build a seat's view once while it stays the same, issue 35)."""
        return self._moves

    def bot_at(self, seat: int) -> Bot | None:
        """The bot playing ``seat`` in the current hand (None: played from outside)."""
        return self._seat_bots[seat]

    def _reseat(self) -> None:
        """Refresh the per-seat bots after the seating changed (a deal, a join, a leave)."""
        self._seat_names = self.session.names
        self._seat_bots = [self._agents.get(name) for name in self._seat_names]
        self._moves += 1

    def set_bot(self, who: int | str, bot: Bot | None) -> None:
        """From now on ``bot`` plays ``who`` (a seat now, or a player's name), or, with None,
        the seat is played from outside again: a server hands a dropped player's seat to a bot
        and back.  Its actions are marked ``by_bot`` in the events."""
        names = self.session.names
        seat = seat_of(who, names)
        if seat is None:
            raise _no_such_seat(who, names)
        name = names[seat]
        if bot is None:
            self._agents.pop(name, None)
        elif not callable(getattr(bot, "choose", None)):
            raise IllegalActionError(f"the bot for {shown(who)} is {shown(bot)}, not a bot",
                                     reason="bad_setup", phase="setup")
        else:
            self._agents[name] = bot
            if self.decision_ns is not None:
                self.decision_ns.setdefault(name, [])
        self._reseat()

    def is_bot(self, seat: int) -> bool:
        return self.bot_at(seat) is not None

    def view(self, seat: int | None) -> View:
        """``seat``'s view of the current hand now (None: a spectator's)."""
        return self.session.view(seat)

    def record(self) -> str:
        """The game record so far (docs/notation.md), written by notation from the session."""
        return write_record(self.session)

    # ------------------------------------------------------------------ acting
    def deal(self, cards: Deal | None = None) -> Hand:
        """Deal the next hand (shuffled, or the stacked ``cards``)."""
        hand = self.session.deal(cards)
        self._reseat()
        if self._seat_names != self._seatings[-1]:
            # a new seating only when it changed (a join or leave): a money table that deals
            # for ever keeps one per change, not one per hand
            self._seatings.append(self._seat_names)
        self._tricks_seen = 0
        if self.history:
            self._emit_deal(hand)
        return hand

    def push(self, action: ActionLike, seat: int | None = None) -> None:
        """Apply an outside seat's action (``seat`` None: whoever is to act).

        Refused with the engine's errors when illegal (nothing changes), and with reason
        ``not_your_seat`` when a bot plays that seat.
        """
        if seat is not None and type(seat) is not int:
            raise IllegalActionError(f"{shown(action)} by seat {shown(seat)}: a seat is an int",
                                     reason="no_such_seat", seat=None)
        hand = self._hand_in_play(action, seat)
        if seat is not None and not 0 <= seat < hand.players:
            raise IllegalActionError(f"{shown(action)} by seat {seat}: seats are "
                                     f"0..{hand.players - 1}", reason="no_such_seat",
                                     phase=hand.phase)
        actor = hand.seat_to_act
        if actor is not None and self._seat_bots[actor] is not None and seat in (None, actor):
            # an outside caller never plays for a bot, named seat or not
            raise IllegalActionError(
                f"{shown(action)} by {'seat ' + str(seat) if seat is not None else 'nobody'}: "
                f"a bot plays seat {actor}, which is to act", reason="not_your_seat",
                action=shown(action), seat=seat, phase=hand.phase)
        self._apply(action, seat, by_bot=False)

    def push_all(self, actions: Sequence[ActionLike], seat: int) -> None:
        """Apply several actions of ``seat`` in a row, all or none: a ten-point seat's discard
        down to six is one request (T4).  They are tried in order on a copy of the hand
        first; the first one refused raises the engine's error (naming it) and nothing
        changes.  Each applied action is its own event, as with :meth:`push`."""
        hand = self._hand_in_play(actions, seat)
        if not actions:
            raise InvalidActionError(f"no actions for seat {shown(seat)} in phase "
                                     f"{hand.phase}: send at least one")
        if type(seat) is not int or not 0 <= seat < hand.players:
            raise IllegalActionError(f"{shown(actions)} by seat {shown(seat)}: seats are "
                                     f"0..{hand.players - 1}", reason="no_such_seat",
                                     phase=hand.phase)
        trial = hand.copy()
        for action in actions:
            trial.push(action, seat)
        for action in actions:
            self.push(action, seat)

    def decide(self) -> tuple[int, Action]:
        """The bot to act and its choice, from its own view (reads only)."""
        hand = self._hand_in_play(None, None)
        seat: int = hand.seat_to_act  # type: ignore[assignment]
        bot = self._bot_or_refuse(seat, hand)
        view = None if bot.sees_all else self.session.view(seat)
        return seat, self._think(bot, seat, view, hand)

    def choose(self, seat: int, view: View | None) -> Action:
        """The bot at ``seat`` decides from ``view``, which the caller built on the owner's
        thread (:meth:`view`); this call touches nothing else, so it may run on a worker thread.
        ``view`` is None only for a bot that sees every card (``sees_all``, the arena's oracle).
        """
        hand = self._hand_in_play(None, seat)
        return self._think(self._bot_or_refuse(seat, hand), seat, view, hand)

    def _think(self, bot: Bot, seat: int, view: View | None, hand: Hand) -> Action:
        if self.decision_ns is None:
            return bot.choose(view) if view is not None else bot.choose_open(hand)
        clock = time.perf_counter_ns
        t0 = clock()  # the bot's thinking only, not the building of its view
        action = bot.choose(view) if view is not None else bot.choose_open(hand)
        self.decision_ns[self._seat_names[seat]].append(clock() - t0)
        return action

    def _bot_or_refuse(self, seat: int, hand: Hand) -> Bot:
        bot = self._seat_bots[seat] if type(seat) is int and 0 <= seat < hand.players else None
        if bot is None:
            raise IllegalActionError(f"seat {shown(seat)} is played from outside, not by a bot",
                                     reason="not_your_seat", seat=seat, phase=hand.phase)
        return bot

    def apply(self, seat: int, action: ActionLike) -> None:
        """Apply a bot's decision from :meth:`decide` (refused if the position moved on)."""
        self._apply(action, seat, by_bot=True)

    def step(self) -> Action:
        """The bot to act decides and its action is applied."""
        seat, action = self.decide()
        self._apply(action, seat, by_bot=True)
        return action

    def advance(self, *, stop_at_hand_end: bool = False) -> None:
        """Let the bots play until an outside seat must act or the game is over.

        Between hands it deals the next hand when ``auto_deal`` is on, else it stops there;
        with ``stop_at_hand_end`` it also stops as soon as a hand ends.  These are
        :meth:`next_step`'s decisions, done in one loop: nothing else moves the table while it
        runs, so within a hand each bot's turn is played without a :class:`BotTurn` object.
        """
        session = self.session
        while True:
            step = self.next_step()
            if type(step) is DealNext:
                if not self.auto_deal:
                    return
                self.deal()
                continue
            if type(step) is not BotTurn:  # Over, or an OutsideTurn: wait for that seat
                return
            hand = step._hand
            self._push(hand, step.choose(), step.seat, by_bot=True)
            # The hot path of every bot match (the arena plays millions of these): the seat's
            # bot from a list, its view, its choice, the engine's checked push — a BotTurn's
            # choose and apply, as next_step would give them.
            seat = hand.seat_to_act
            while seat is not None:
                bot = self._seat_bots[seat]
                if bot is None:
                    return
                view = None if bot.sees_all else session.view(seat)
                self._push(hand, self._think(bot, seat, view, hand), seat, by_bot=True)
                seat = hand.seat_to_act
            if stop_at_hand_end:
                return

    # ------------------------------------------------------------------ what happens next
    def next_step(self) -> Step:
        """What happens next: :class:`DealNext` between hands, :class:`BotTurn` when a bot is to
        act (its view built here: call this on the owner's thread), :class:`OutsideTurn` when
        a seat played from outside is to act, :class:`Over` at the end.  Reads only."""
        session = self.session
        if session.is_over:
            return _OVER
        hand = session.hand
        seat = None if hand is None or not session.in_hand else hand.seat_to_act
        if seat is None or hand is None:
            return DealNext(session.first_hand + len(session.hands))
        bot = self._seat_bots[seat]
        if bot is None:
            return OutsideTurn(seat, self._seq, self, self._moves)
        view = None if bot.sees_all else session.view(seat)
        return BotTurn(seat, view, self._seq, bot, self, hand, self._moves)

    def is_current(self, turn: BotTurn | OutsideTurn) -> bool:
        """``turn`` (from :meth:`next_step`) is still what happens next: the same table, no
        action, undo, deal or change of bot since, and the seat still played as it was (by the
        same bot, or from outside).  A server holding a lock checks this before it applies a
        choice made outside the lock."""
        if turn._table is not self or turn._moves != self._moves or turn.seq != self._seq:
            return False
        hand = self.session.hand
        if hand is None or not self.session.in_hand or hand.seat_to_act != turn.seat:
            return False
        bot = turn.bot if type(turn) is BotTurn else None
        return self._seat_bots[turn.seat] is bot

    def apply_if_current(self, turn: BotTurn, action: ActionLike) -> bool:
        """Apply the choice made for ``turn`` if the table is still where it was
        (:meth:`is_current`) and return True; False, changing nothing, if it moved on (an
        undo, another action, a new game, the seat handed back to a person).

        An action the engine refuses raises its :class:`~pitchcards.errors.IllegalActionError`
        and changes nothing; so does a ``turn`` that is not a bot's (reason ``not_your_seat``:
        an outside seat's action goes through :meth:`push`).
        """
        if type(turn) is not BotTurn:
            seat = getattr(turn, "seat", None)
            raise IllegalActionError(
                f"{shown(action)} for {shown(turn)}: only a BotTurn from next_step() is applied "
                "here; an outside seat's action goes through push()", reason="not_your_seat",
                action=shown(action), seat=seat if type(seat) is int else None,
                phase=self._phase())
        if not self.is_current(turn):
            return False
        self._push(turn._hand, action, turn.seat, by_bot=True)
        return True

    def _phase(self) -> str:
        hand = self.session.hand
        if self.session.is_over:
            return "over"
        return hand.phase if hand is not None and self.session.in_hand else "between hands"

    def pop(self) -> Action:
        """Take back the last action of the current hand (practice games)."""
        hand = self.session.hand
        seat = hand.history[-1][0] if hand is not None and hand.history else -1
        action = self.session.pop()  # refuses (nothing to undo, no hand) before we look again
        self._moves += 1
        hand = self.session.hand
        assert hand is not None
        self._tricks_seen = len(hand.completed_tricks())
        if self.history:
            self._emit(ActionUndone(self._held(hand), seat=seat, action=str(action),
                                    state=self.session.view(None), legal=self._legal_now(hand)))
        return action

    def _hand_in_play(self, action: object, seat: int | None) -> Hand:
        hand = self.session.hand
        if hand is None or not self.session.in_hand:
            over = self.session.is_over
            raise IllegalActionError(
                f"{shown(action)} by {'seat ' + str(seat) if seat is not None else 'nobody'}: "
                + ("the game is over" if over else "no hand in progress: deal first"),
                reason="game_over" if over else "no_hand",
                seat=seat if isinstance(seat, int) else None,
                phase="over" if over else "between hands")
        return hand

    def _apply(self, action: ActionLike, seat: int | None, *, by_bot: bool) -> None:
        hand = self._hand_in_play(action, seat)
        self._push(hand, action, seat if seat is not None else hand.seat_to_act, by_bot=by_bot)

    def _push(self, hand: Hand, action: ActionLike, seat: int | None, *, by_bot: bool) -> None:
        """Push to the session (which checks and refuses, changing nothing) and tell it."""
        self.session.push(action, seat)
        self._moves += 1
        if not self.history:
            return
        actor = hand.history[-1][0]
        taken = hand.history[-1][1]
        self._emit(ActionTaken(self._held(hand), seat=actor, action=str(taken), by_bot=by_bot,
                               state=self.session.view(None), legal=self._legal_now(hand)))
        done = hand.completed_tricks()
        for i in range(self._tricks_seen, len(done)):
            leader, cards, winner = done[i]
            names = tuple(card_name(c) for c in cards)
            self._emit(TrickWon(self._next(), trick=i, leader=leader, cards=names, winner=winner,
                                plays=tuple(zip(trick_seats(leader, len(names), hand.players),
                                                names, strict=True))))
        self._tricks_seen = len(done)
        if hand.result is not None:
            self._emit(HandScored(self._next(), hand=self._hand_index(),
                                  result=hand.result, scores=tuple(self.session.side_scores())))
            if self.session.winner is not None:
                self._emit(MatchWon(self._next(), winner=self.session.winner,
                                    scores=tuple(self.session.side_scores())))

    @staticmethod
    def _legal_now(hand: Hand) -> tuple[str, ...]:
        return tuple(str(a) for a in hand.legal_actions()) if hand.seat_to_act is not None else ()

    # ------------------------------------------------------------------ money sessions
    def join(self, name: str, bot: Bot | None = None) -> None:
        """Seat a player between hands (A-R8.3); ``bot`` plays for them, or nobody does."""
        self.session.join(name)  # a match refuses (join_leave_not_allowed)
        if bot is not None:
            self._agents[name] = bot
            if self.decision_ns is not None:
                self.decision_ns.setdefault(name, [])
        self._reseat()
        if self.history:
            seat = self.session.names.index(name)
            score = self.session.seat_scores()[seat]
            self._emit(PlayerJoined(self._next(), name=name, seat=seat, score=score,
                                    state=self._public_state()))

    def leave(self, name: str) -> Fraction:
        """A player leaves between hands and is paid out (A-R7.5); returns the payout."""
        was_over = self.session.is_over
        payout = self.session.leave(name)  # a match refuses (join_leave_not_allowed)
        self._agents.pop(name, None)
        self._reseat()
        if self.history:
            cents = self.session.payout_cents
            self._emit(PlayerLeft(self._next(), name=name, payout=payout, cents=cents[name],
                                  state=self._public_state()))
            if self.session.is_over and not was_over:  # A-R8.5: one player left, it ends
                paid = self.session.payouts
                # as settle() reports it: the payouts of the players still seated
                self._emit(Settled(self._next(), payouts={n: paid[n] for n in self.names},
                                   payout_cents={n: cents[n] for n in self.names},
                                   state=self._public_state()))
        return payout

    def settle(self) -> dict[str, Fraction]:
        """End a money session: every seated player's payout (A-R7.5)."""
        final = self.session.settle()  # a match refuses (join_leave_not_allowed)
        if self.history:
            cents = self.session.payout_cents
            self._emit(Settled(self._next(), payouts=dict(final),
                               payout_cents={n: cents[n] for n in final},
                               state=self._public_state()))
        return final

    def _public_state(self) -> View | None:
        return None if self.session.hand is None else self.session.view(None)

    # ------------------------------------------------------------------ events
    def _held(self, hand: Hand) -> int:
        """The next seq, for an action's event: what each seat holds after it is kept with it,
        so that each seat's copy carries that seat's own view (:meth:`cut`)."""
        seq = self._next()
        seats = range(hand.players)
        self._holdings[seq] = (tuple(hand.dealt), tuple(hand.hand_of(s) for s in seats),
                               tuple(hand.discarded(s) for s in seats))
        return seq

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _emit(self, event: Event) -> None:
        self._events.append(event)
        self._event_seating.append(len(self._seatings) - 1)
        for listener in self._listeners:
            listener(event)

    def _emit_deal(self, hand: Hand) -> None:
        seq = self._next()
        index = self._hand_index()
        self._deals[seq] = tuple(self.session.view(s) for s in range(hand.players))
        self._emit(HandDealt(seq, hand=index, dealer=hand.dealer, names=self.session.names,
                             view=self.session.view(None)))

    def _hand_index(self) -> int:
        """The number of the session's last hand dealt, from 0 (older ones may be forgotten)."""
        return self.session.first_hand + len(self.session.hands) - 1

    def subscribe(self, listener: Callable[[Event], None]) -> None:
        """Call ``listener`` with every new event as it happens (full knowledge: a face that
        forwards events to a seat must pass them through :meth:`cut`)."""
        self._listeners.append(listener)

    def cut(self, event: Event, who: Who) -> Event:
        """``event`` as ``who`` may see it: THE place that decides what a seat is told.

        A deal carries that seat's own starting view (a spectator's: no cards); an action's
        ``state`` is the seat's own view after it (its cards in the order faces show them, its
        discards and legal actions: a client folds nothing, issue 29), a spectator's the public
        one; legal actions go only to the seat to act; a discard's card only to the seat that
        threw it (everyone else is told ``discard``: the card is face down, T4); everything
        else is public.
        """
        seat = self._seat_of(event, who)
        if isinstance(event, HandDealt):
            view = self._deals[event.seq][seat] if seat is not None else event.view
            return HandDealt(event.seq, hand=event.hand, dealer=event.dealer, names=event.names,
                             view=view)
        if isinstance(event, ActionTaken | ActionUndone):
            mine = seat is not None and seat == event.state.seat_to_act
            hide = event.action.startswith(DISCARD_PREFIX) and seat != event.seat
            held = self._holdings.get(event.seq) if seat is not None else None
            if held is not None or hide or (not mine and event.legal):
                legal = event.legal if mine else ()
                state = event.state if held is None or seat is None else dataclasses.replace(
                    event.state, seat=seat, dealt_mask=held[0][seat], hand_mask=held[1][seat],
                    discarded_mask=held[2][seat],
                    legal_actions=tuple(parse_action(a) for a in legal))
                return dataclasses.replace(
                    event, legal=legal, state=state,
                    action=HIDDEN_DISCARD if hide else event.action)
        return event

    def events(self, who: Who = None, after: int = 0) -> list[Event]:
        """``who``'s copy of every event after ``seq`` ``after`` (a seat, a name, None)."""
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            raise IllegalActionError(f"after={shown(after)}: expected a seq number >= 0",
                                     reason="bad_seq")
        self._check_who(who)
        if after < self._forgotten:
            raise IllegalActionError(
                f"after={after}: the events up to seq {self._forgotten} are no longer kept "
                f"(kept: after {self._forgotten}..{self._seq}); take a snapshot",
                reason="bad_seq")
        return [self.cut(e, who) for e in self._events[after - self._forgotten:]]

    def forget(self, keep: int) -> None:
        """Keep only the last ``keep`` events in memory (a long-lived table's memory stays
        bounded; its log is elsewhere): :meth:`events` after an older ``seq`` is refused,
        and a client that far behind takes a :meth:`snapshot` instead."""
        drop = len(self._events) - max(0, keep)
        if drop <= 0:
            return
        for event in self._events[:drop]:
            self._deals.pop(event.seq, None)
            self._holdings.pop(event.seq, None)
        del self._events[:drop]
        del self._event_seating[:drop]
        self._forgotten += drop

    def events_for(self, who: Who = None, after: int = 0) -> list[dict[str, Any]]:
        """:meth:`events` as JSON-ready dicts."""
        return [e.to_dict() for e in self.events(who, after)]

    def snapshot(self, who: Who = None) -> dict[str, Any]:
        """A fresh start for a client that lost the thread: the last ``seq`` and its view now.

        A client that applies events after ``seq`` to this view is where the stream would
        have brought it.
        """
        seat = self._resolve_now(who)
        hand = self.session.hand
        return {"schema": SCHEMA, "seq": self._seq,
                "view": None if hand is None else self.session.view(seat).to_dict()}

    def _check_who(self, who: Who) -> None:
        """Refuse a ``who`` that was never at this table: not a seat number, not a player."""
        if who is not None and all(seat_of(who, names) is None for names in self._seatings):
            raise _no_such_seat(who, self.session.names)

    def _seat_of(self, event: Event, who: Who) -> int | None:
        """``who``'s seat in the hand ``event`` belongs to (names move between hands: a player
        who did not sit in it has none there)."""
        if who is None:
            return None
        names = self._names_at(event.seq)
        seat = seat_of(who, names)
        if seat is None and not isinstance(who, str):
            raise _no_such_seat(who, names)
        return seat

    def _names_at(self, seq: int) -> tuple[str, ...]:
        """The seating of the hand event ``seq`` belongs to (names move between hands)."""
        return self._seatings[self._event_seating[seq - 1 - self._forgotten]]

    def _resolve_now(self, who: Who) -> int | None:
        if who is None:
            return None
        names = self._seatings[-1]  # the seating of the last hand dealt: views are of it
        seat = seat_of(who, names)
        if seat is None:
            raise _no_such_seat(who, names)
        return seat

    def __repr__(self) -> str:
        return f"<Table {self.session!r} seq={self._seq} bots={sorted(self._agents)}>"


