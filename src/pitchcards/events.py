"""What happened at a table, as events: frozen dataclasses, one per kind, numbered by ``seq``.

A :class:`~pitchcards.table.Table` emits an event for everything that happens: a hand dealt, an
action taken or taken back, a trick won, a hand scored, a match won, a player joining or leaving
(with the payout), the money settled.  Events are *facts plus the public state after them*:

* the fact (``seat``, ``action``, ``winner``, ``result``, ``payout`` …) is what a screen animates
  or a log prints;
* ``state`` is the spectator's :class:`~pitchcards.views.View` right after the event (None
  before the first deal): everything public, built by :func:`~pitchcards.views.view_of`, the one
  place that decides visibility;
* ``legal`` is the acting seat's legal actions, present only in that seat's copy.

So a client never restates a rule to follow the game: :func:`apply_event` turns its view before
an event into its view after it by taking the public state and adding the only private things a
seat has — its cards (what it was dealt, less what has been played) and its legal actions.  A
:class:`HandDealt` event carries the receiving seat's whole starting view instead.  The Table's
``events_for(seat)`` is the one place that cuts a seat's copy of each event (see
:func:`~pitchcards.table.Table.events_for`).

Every event serialises to a JSON-ready dict (``to_dict``) with ``schema``, ``seq`` and ``type``,
and :func:`event_from_dict` reads it back to an equal event.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, ClassVar

from .actions import parse_action
from .errors import DataError, shown
from .rules import parse_money
from .scoring import HandResult
from .views import SCHEMA, View, result_from_dict, result_to_dict

__all__ = [
    "DISCARD_PREFIX",
    "EVENT_TYPES",
    "HIDDEN_DISCARD",
    "ActionTaken",
    "ActionUndone",
    "Event",
    "EventError",
    "HandDealt",
    "HandScored",
    "MatchWon",
    "PlayerJoined",
    "PlayerLeft",
    "Settled",
    "TrickWon",
    "apply_event",
    "event_from_dict",
]


#: T4: the text of another seat's discard, as every other seat and spectator is told it (the
#: card is face down); the seat that discarded is told ``discard QH``.
HIDDEN_DISCARD = "discard"
DISCARD_PREFIX = "discard "


class EventError(DataError):
    """A dict that is not an event this version can read."""


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base of every event: ``seq`` numbers a table's events 1, 2, 3 … without gaps."""

    seq: int
    type: ClassVar[str] = "event"

    @property
    def public_state(self) -> View | None:
        """The public view after this event (None for events that do not carry one)."""
        state: View | None = getattr(self, "state", None)
        return state

    def to_dict(self, skip: str | None = None) -> dict[str, Any]:
        """JSON-ready: cards and actions as text, views as :meth:`View.to_dict`, money as exact
        strings (``"-3/4"``), never floats.  ``skip``: leave that field out (a server encodes
        an event's view itself: its public part once for every seat's copy)."""
        out: dict[str, Any] = {"schema": SCHEMA, "type": self.type}
        for f in dataclasses.fields(self):
            if f.name != skip:
                out[f.name] = _encode(getattr(self, f.name))
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A hand was dealt.  ``view`` is the receiving seat's starting view (its own cards only)."""

    hand: int                      #: index of the hand in the session, from 0
    dealer: int
    names: tuple[str, ...]         #: who sits where for this hand
    view: View
    type: ClassVar[str] = "hand_dealt"


@dataclasses.dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A seat bid, passed, pitched, named trump, discarded or played (its own action, or its
    bot's).  Another seat's discard reads ``discard`` without the card (T4)."""

    seat: int
    action: str
    by_bot: bool
    state: View
    legal: tuple[str, ...] = ()    #: the receiver's legal actions, if it is to act now
    type: ClassVar[str] = "action_taken"


@dataclasses.dataclass(frozen=True, slots=True)
class ActionUndone(Event):
    """The last action was taken back (practice games)."""

    seat: int
    action: str
    state: View
    legal: tuple[str, ...] = ()
    type: ClassVar[str] = "action_undone"


@dataclasses.dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """A trick was completed (C7): who led, the cards in play order, who took it, and who
    played each card (``plays``: ``(seat, card)`` in play order, as the view's trick)."""

    trick: int                     #: 0..5
    leader: int
    cards: tuple[str, ...]
    winner: int
    plays: tuple[tuple[int, str], ...] = ()
    type: ClassVar[str] = "trick_won"


@dataclasses.dataclass(frozen=True, slots=True)
class HandScored(Event):
    """A hand ended: its result and the running scores (per side) after it."""

    hand: int
    result: HandResult
    scores: tuple[int, ...]
    type: ClassVar[str] = "hand_scored"


@dataclasses.dataclass(frozen=True, slots=True)
class MatchWon(Event):
    """A side reached the target and won the match (B-R8)."""

    winner: int                    #: the winning side (a seat, or team 0/1)
    scores: tuple[int, ...]
    type: ClassVar[str] = "match_won"


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    """A player sat down between hands (A-R8.3) with ``score``; ``seat`` is theirs next hand."""

    name: str
    seat: int
    score: int
    state: View | None = None      #: the public view after it (None before the first hand)
    type: ClassVar[str] = "player_joined"


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """A player left between hands and was paid ``payout`` dollars, exactly (A-R7.5), which
    is ``cents`` in whole cents as the engine pays it (A-R7.6: reconciled with every cent paid
    before, so a table's shown amounts add up)."""

    name: str
    payout: Fraction
    cents: int
    state: View | None = None      #: the public view after it: money against the average moves
    type: ClassVar[str] = "player_left"


@dataclasses.dataclass(frozen=True, slots=True)
class Settled(Event):
    """The money session ended: every seated player's payout in exact dollars (A-R7.5), and
    in whole cents as paid (``payout_cents``, A-R7.6)."""

    payouts: dict[str, Fraction]
    payout_cents: dict[str, int]
    state: View | None = None
    type: ClassVar[str] = "settled"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls for cls in (HandDealt, ActionTaken, ActionUndone, TrickWon, HandScored,
                              MatchWon, PlayerJoined, PlayerLeft, Settled)
}


def _encode(value: Any) -> Any:
    if isinstance(value, View):
        return value.to_dict()
    if isinstance(value, HandResult):
        return result_to_dict(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    return value


#: How each field that is not a plain JSON value is read back.
_DECODE: dict[str, Any] = {
    "view": View.from_dict,
    "state": lambda d: None if d is None else View.from_dict(d),
    "result": result_from_dict,
    "payout": lambda text: parse_money(text, what="payout", negative=True),
    "payouts": lambda d: {_name(k): parse_money(v, what="payout", negative=True)
                          for k, v in d.items()},
    "payout_cents": lambda d: {_name(k): _plain(v, "int", "payout_cents") for k, v in d.items()},
    "plays": lambda pairs: _plays(pairs),
}


def _plays(pairs: Any) -> tuple[tuple[int, str], ...]:
    """A trick's ``[seat, card]`` pairs (at most eight: one card a seat)."""
    if not isinstance(pairs, list) or len(pairs) > 8 or not all(
            isinstance(p, list) and len(p) == 2 for p in pairs):
        raise EventError(f"field plays is {shown(pairs)}, expected [seat, card] pairs")
    return tuple((_plain(s, "int", "plays"), _plain(c, "str", "plays")) for s, c in pairs)


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 100:
        raise EventError(f"{shown(value)} is not a player's name")
    return value


#: How a plain field of each declared type is checked (bounded: no input is slow or huge).
_PLAIN_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": lambda v: type(v) is int and abs(v) < 10**9,
    "str": lambda v: isinstance(v, str) and len(v) <= 100,
    "bool": lambda v: type(v) is bool,
    # a seat's legal actions: up to 53 cards it may call (CP3), names of up to 8 seats
    "tuple[str, ...]": lambda v: isinstance(v, list) and len(v) <= 60
    and all(isinstance(x, str) and len(x) <= 100 for x in v),
    "tuple[int, ...]": lambda v: isinstance(v, list) and len(v) <= 16
    and all(type(x) is int and abs(x) < 10**9 for x in v),
}


def _plain(value: Any, kind: str, field: str) -> Any:
    """A plain JSON field checked against its declared type (``kind``: the annotation)."""
    ok = _PLAIN_CHECKS[kind]
    if not ok(value):
        raise EventError(f"field {field} is {shown(value)}, expected {kind}")
    return tuple(value) if isinstance(value, list) else value


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a ``to_dict`` dict describes; :class:`EventError` if it is not one."""
    if not isinstance(data, Mapping):
        raise EventError(f"an event is a JSON object, not {shown(data)}")
    if data.get("schema") != SCHEMA:
        raise EventError(f"event schema {shown(data.get('schema'))}: this version reads "
                         f"schema {SCHEMA}")
    cls = EVENT_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise EventError(f"unknown event type {shown(data.get('type'))}; types are: "
                         + ", ".join(EVENT_TYPES))
    kwargs: dict[str, Any] = {}
    try:
        for f in dataclasses.fields(cls):
            raw = data[f.name]
            decode = _DECODE.get(f.name)
            if decode is not None:
                kwargs[f.name] = decode(raw)
            else:
                kwargs[f.name] = _plain(raw, str(f.type), f.name)
    except EventError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise EventError(f"cannot read {cls.type} event: {shown(exc)}") from None
    if kwargs["seq"] < 1:
        raise EventError(f"cannot read {cls.type} event: seq {kwargs['seq']} is not 1 or more")
    return cls(**kwargs)


def apply_event(view: View | None, event: Event) -> View | None:
    """A seat's view after ``event``, from its view before it (a client's fold).

    ``view`` is None before the first deal.  No rule is restated here: the event carries the
    public state, and the seat adds what only it knows — its cards and its legal actions.
    """
    if isinstance(event, HandDealt):
        return event.view
    state = event.public_state
    if state is None or view is None:
        return view
    if view.seat is None:
        return state
    legal = getattr(event, "legal", ())
    discarded = view.discarded_mask
    action = getattr(event, "action", "")
    if action.startswith(DISCARD_PREFIX) and getattr(event, "seat", None) == view.seat:
        card = 1 << parse_action(action).card  # type: ignore[operator]
        discarded = discarded | card if isinstance(event, ActionTaken) else discarded & ~card
    return dataclasses.replace(
        state, seat=view.seat, dealt_mask=view.dealt_mask, discarded_mask=discarded,
        hand_mask=view.dealt_mask & ~state.played_mask & ~discarded,
        legal_actions=tuple(parse_action(a) for a in legal))
