"""The record format's vocabulary: the record's data classes, its errors, and reading and writing
one token, number, option value or result field.  ``docs/notation.md`` is the format's reference.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from fractions import Fraction
from typing import TypeAlias

from ..actions import Action
from ..cards import SUITS
from ..errors import (
    REASONS,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    PitchError,
    shown,
)
from ..match import Match
from ..money import MoneySession
from ..outcome import Outcome
from ..rules import RuleSet, parse_money
from ..scoring import HandResult

#: The first line of every record is ``FORMAT_NAME FORMAT_VERSION``.
FORMAT_NAME = "pitchcards-record"
#: What :func:`write_record` writes: version 2, which ends with an ``end`` line (a line count
#: and a checksum) so that a record cut short is refused.  Version 1 (no ``end`` line) is read.
FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)
#: The last line of a version-2 record: ``end LINES CHECKSUM``.
END = "end"
#: The line after an action that a server's stand-in bot took for a person (issue 32)
STAND_IN = "stand-in"
#: The longest line a record may have (a player's name, a custom variant's name: far less).
LINE_LIMIT = 10_000
#: A bot level in a ``bot`` tag: a bot's name as ``make_bot`` knows it (e.g. ``medium``).
LEVEL_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
#: The most characters a whole number in a record may have.
_INT_LIMIT = 40

OptionValue: TypeAlias = bool | int | str | Fraction | None
Game: TypeAlias = Match | MoneySession

#: The declared type of every rules option (``"int"``, ``"bool"``, ``"int | None"`` ...).
_OPTION_TYPES: dict[str, str] = {
    f.name: str(f.type) for f in dataclasses.fields(RuleSet) if f.name != "name"
}
_RESULT_KEYS = ("pitcher", "bid", "trump", "outcome", "high", "low", "jack", "game", "offjack",
                "joker", "highjoker", "lowjoker", "three", "partner", "tricks", "deltas")
#: T7: the result field of each of the ten-point family's extra points (HandResult.extra).
_EXTRA_KEYS = {"Off-jack": "offjack", "Joker": "joker", "High joker": "highjoker",
               "Low joker": "lowjoker", "Three": "three"}
_OUTCOMES = ("made", "made moon", "set", "thrown in")
_HEADER_KEYS = ("game", "variant", "players", "dealer", "scores", "seed", "names", "bot",
                "practice", "undos")
_DECODER = json.JSONDecoder()


# ---------------------------------------------------------------------------------------- errors
class RecordError(PitchError):
    """A record that cannot be read or replayed.  ``line`` is the 1-based line it concerns."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.message = message  #: the message without its line number
        PitchError.__init__(self, f"line {line}: {message}" if line is not None else message)


class RecordSyntaxError(RecordError, InvalidActionError):
    """Text that is not a well-formed record (an unknown keyword, a bad card or number ...)."""


class RecordReplayError(RecordError, IllegalActionError):
    """A well-formed record whose game the engine refuses (an illegal action, a wrong dealer).

    ``reason`` is the engine's :data:`~pitchcards.errors.REASONS` key for what it refused.
    """

    def __init__(self, message: str, line: int | None = None, *, reason: str) -> None:
        RecordError.__init__(self, message, line)
        if reason not in REASONS:
            raise KeyError(f"undocumented error reason {reason!r}")
        self.reason = reason
        self.action: str | None = None
        self.seat: int | None = None
        self.phase: str | None = None
        self.legal: tuple[str, ...] = ()


class RecordDamagedError(RecordSyntaxError):
    """A version-2 record whose ``end`` line is missing or does not match the lines before it:
    the text was cut short (an interrupted save, a full disk) or changed after it was written."""


class RecordMismatchError(RecordError):
    """A check line (result, total, payout, winner, seats) that the replay does not reproduce.

    ``hand`` is the hand's number (1-based) when the check belongs to a hand.
    """

    def __init__(self, message: str, line: int | None = None, hand: int | None = None) -> None:
        super().__init__(message, line)
        self.hand = hand


# ---------------------------------------------------------------------------------- the record
@dataclasses.dataclass
class HandRecord:
    """One hand of a record: who dealt, the cards, the actions and the recorded checks."""

    number: int                                  #: 1-based position among the hands
    dealer: int
    cards: list[str] = dataclasses.field(default_factory=list)  #: per seat, e.g. "AS KS 2S ..."
    actions: list[tuple[int, Action]] = dataclasses.field(default_factory=list)  #: (seat, action)
    seats: list[str] | None = None               #: money: the names seated (a check)
    outcome: Outcome | None = None               #: a hand entered by its outcome (no cards)
    result: dict[str, str] | None = None         #: the result line's fields (a check)
    total: list[int] | None = None               #: running score per side after it (a check)
    line: int = 0                                #: line of the ``hand`` line
    deal_lines: list[int] = dataclasses.field(default_factory=list)
    action_lines: list[int] = dataclasses.field(default_factory=list)
    #: the actions a server's stand-in bot took for a person (``stand-in`` lines): the
    #: action's index in ``actions`` -> why (``""``: the person was away or had left;
    #: ``"timeout"``: their turn timer ran out).  Informational: the replay ignores it.
    stand_ins: dict[int, str] = dataclasses.field(default_factory=dict)
    seats_line: int | None = None
    outcome_line: int | None = None
    result_line: int | None = None
    total_line: int | None = None


@dataclasses.dataclass
class EventRecord:
    """A money-session event between hands: ``join``, ``leave`` or ``settle``."""

    kind: str
    name: str | None = None
    payouts: dict[str, Fraction] = dataclasses.field(default_factory=dict)  #: checks
    line: int = 0
    payout_lines: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Record:
    """The parsed content of a record (:func:`read_record`); :func:`replay` turns it into a game."""

    game: str                                    #: "match" or "money"
    variant: str
    options: dict[str, OptionValue]              #: options that differ from the variant
    rules: RuleSet
    players: int                                 #: how many seats (money: at the start)
    names: list[str] | None                      #: money: the starting players, in seat order
    dealer: int                                  #: the first dealer's seat
    scores: list[int] | None = None              #: match: starting scores, if given
    seed: int | None = None
    items: list[HandRecord | EventRecord] = dataclasses.field(default_factory=list)
    winner: int | None = None                    #: match: the recorded winner (a check)
    version: int = FORMAT_VERSION
    lines: dict[str, int] = dataclasses.field(default_factory=dict)  #: header keyword -> line
    #: Header tags (docs/notation.md), informational for the replay: a match's player names in
    #: seat order, the bot level of each player a program plays, practice mode, and how many
    #: actions were taken back with undo (None: the record does not say; older records).
    seat_names: list[str] | None = None
    bots: dict[str, str] = dataclasses.field(default_factory=dict)
    practice: bool | None = None
    undos: int | None = None

    @property
    def hands(self) -> list[HandRecord]:
        return [item for item in self.items if isinstance(item, HandRecord)]

    @property
    def events(self) -> list[EventRecord]:
        return [item for item in self.items if isinstance(item, EventRecord)]


# ------------------------------------------------------------------------------- text helpers
def _quote(text: str) -> str:
    """A name as one token: bare when it can be, else a JSON string."""
    if text and text.isprintable() and not any(c.isspace() or c in '#"\\' for c in text):
        return text
    return json.dumps(text, ensure_ascii=False)


def _tokens(line: str, lineno: int) -> list[str]:
    """Split a line into tokens: bare words and ``"quoted"`` JSON strings; ``#`` ends it."""
    out: list[str] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c.isspace():
            i += 1
        elif c == "#":
            break
        elif c == '"':
            try:
                value, i = _DECODER.raw_decode(line, i)
            except json.JSONDecodeError as exc:
                raise RecordSyntaxError(f"malformed quoted text: {exc.msg}", lineno) from None
            out.append(value)
        else:
            j = i
            while j < n and not line[j].isspace() and line[j] not in '#"':
                j += 1
            out.append(line[i:j])
            i = j
    return out


def _int(text: str, what: str, lineno: int) -> int:
    try:
        if len(text) <= _INT_LIMIT and text.strip("+-").isdigit():
            return int(text)
    except ValueError:
        pass
    raise RecordSyntaxError(f"{what} must be a whole number (at most {_INT_LIMIT} digits), not "
                            f"{shown(text)}", lineno)


def _canonical(tokens: list[str]) -> str:
    """A line's tokens as the checksum sees them (comments, spacing and quoting left out)."""
    return " ".join(_quote(t) for t in tokens)


def checksum(lines: list[str]) -> str:
    """The ``end`` line's checksum of a record's lines (each from :func:`_canonical`)."""
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line.encode("utf-8", "surrogatepass"))
        digest.update(b"\n")
    return digest.hexdigest()[:16]


def format_value(value: OptionValue) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Fraction):
        return str(value)
    return _quote(value)


def _parse_value(name: str, text: str, lineno: int) -> OptionValue:
    kind = _OPTION_TYPES[name]
    low = text.lower()
    if "None" in kind and low == "none":
        return None
    if "bool" in kind:
        if low in ("true", "false"):
            return low == "true"
        raise RecordSyntaxError(f"option {name} must be true or false, not {shown(text)}", lineno)
    if "Fraction" in kind:
        try:
            return parse_money(text, what=f"option {name}")
        except OptionError as exc:
            raise RecordSyntaxError(str(exc), lineno) from None
    if "int" in kind:
        return _int(text, f"option {name}", lineno)
    return text



# ---------------------------------------------------------------------------------- the result
def _side(value: int | None) -> str:
    return "-" if value is None else str(value)


def result_fields(result: HandResult) -> dict[str, str]:
    """The fields of a result line, as text (what the record writes and compares).

    A hand entered by its outcome has no ``tricks`` (they are not known)."""
    if result.thrown_in:
        return {"outcome": "thrown in"}
    fields = {
        "pitcher": _side(result.pitcher),
        "bid": _side(result.bid) if not isinstance(result.bid, str) else result.bid,
        "trump": result.trump or "-",
        "outcome": ("made moon" if result.moon else "made") if result.made else "set",
        "high": _side(result.high),
        "low": _side(result.low),
        "jack": _side(result.jack),
        "game": _side(result.game),
        **{_EXTRA_KEYS[name]: _side(side) for name, side, _ in result.extra},
        # CP5: who held the called card (the pitcher: alone; -: nobody was dealt it)
        **({"partner": _side(result.partner)} if result.called is not None else {}),
        "tricks": " ".join(str(t) for t in result.tricks),
        "deltas": " ".join(f"{d:+d}" for d in result.deltas),
    }
    if not result.tricks:
        del fields["tricks"]
    return fields


def _format_result(fields: dict[str, str]) -> str:
    return ", ".join(v if k == "outcome" else f"{k} {v}" for k, v in fields.items())


def _parse_result(text: str, lineno: int) -> dict[str, str]:
    fields: dict[str, str] = {}
    for clause in text.split(","):
        words = clause.split()
        if not words:
            raise RecordSyntaxError("empty clause in the result line", lineno)
        if words[0] in ("made", "set", "thrown"):
            key, value = "outcome", " ".join(words)
            if value not in _OUTCOMES:
                raise RecordSyntaxError(f"unknown outcome {shown(value)}; expected one of "
                                        + ", ".join(_OUTCOMES), lineno)
        elif words[0] in _RESULT_KEYS:
            key, args = words[0], words[1:]
            value = _canonical_result_value(key, args, lineno)
        else:
            raise RecordSyntaxError(f"unknown result field {shown(words[0])}; fields are "
                                    + ", ".join(_RESULT_KEYS), lineno)
        if key in fields:
            raise RecordSyntaxError(f"result field {key!r} given twice", lineno)
        fields[key] = value
    return fields


def _canonical_result_value(key: str, args: list[str], lineno: int) -> str:
    if key in ("tricks", "deltas"):
        if not args:
            raise RecordSyntaxError(f"result field {key} needs one number per side", lineno)
        nums = [_int(a, f"result field {key}", lineno) for a in args]
        return " ".join(f"{v:+d}" if key == "deltas" else str(v) for v in nums)
    if len(args) != 1:
        raise RecordSyntaxError(f"result field {key} needs exactly one value", lineno)
    arg = args[0]
    if key == "trump":
        if arg.upper() not in SUITS:
            raise RecordSyntaxError(f"trump must be one of {' '.join(SUITS)}, not {shown(arg)}",
                                    lineno)
        return arg.upper()
    if key == "bid":
        return "moon" if arg.lower() == "moon" else str(_int(arg, "bid", lineno))
    if arg == "-":
        return arg
    return str(_int(arg, f"result field {key}", lineno))




# ---------------------------------------------------------------------------------- the outcome
def format_outcome(outcome: Outcome) -> str:
    """An ``outcome`` line's fields: ``bids pass 2 pass 3, trump H, high 1, low 0, jack -,
    game 1`` (docs/notation.md)."""
    parts: list[str] = []
    if outcome.bids is not None:
        parts.append(" ".join(["bids", *(str(b) for b in outcome.bids)]))
    if outcome.bidder is not None:
        parts.append(f"bidder {outcome.bidder}")
    if outcome.bid is not None:
        parts.append(f"bid {outcome.bid}")
    if outcome.trump is not None:
        parts.append(f"trump {outcome.trump}")
    if outcome.called is not None:  # CP3, CP4: the call and who held the card ('-': nobody)
        parts.append(f"called {outcome.called}")
        parts.append(f"partner {_side(outcome.partner)}")
    if outcome.points is not None:
        parts.append(" ".join(["points", *(str(p) for p in outcome.points)]))
    else:
        for key in ("high", "low", "jack"):
            value = getattr(outcome, key)
            if value is not None or key == "jack":
                parts.append(f"{key} {_side(value)}")
        if outcome.game_tied:
            parts.append(" ".join(["game tie", *(str(s) for s in outcome.game_tied)]))
        else:
            parts.append(f"game {_side(outcome.game)}")
    if outcome.swept is not None:
        parts.append(f"swept {'yes' if outcome.swept else 'no'}")
    return ", ".join(parts)


_OUTCOME_KEYS = ("bids", "bidder", "bid", "trump", "called", "partner", "points", "high", "low",
                 "jack", "game", "swept")


def _parse_outcome(text: str, lineno: int) -> Outcome:
    """An ``outcome`` line's fields as an :class:`Outcome` (checked against the rules only
    when the hand is replayed)."""
    values: dict[str, object] = {}
    for clause in text.split(","):
        words = clause.split()
        if not words or words[0] not in _OUTCOME_KEYS:
            raise RecordSyntaxError(f"unknown outcome field {shown(words[0] if words else '')};"
                                    f" fields are {', '.join(_OUTCOME_KEYS)}", lineno)
        key, args = words[0], words[1:]
        if key in values or (key == "game" and "game_tied" in values):
            raise RecordSyntaxError(f"outcome field {key!r} given twice", lineno)
        if not args:
            raise RecordSyntaxError(f"outcome field {key} needs a value", lineno)
        if key == "bids":
            values[key] = tuple(a.lower() for a in args)
        elif key == "points":
            values[key] = tuple(_int(a, "points", lineno) for a in args)
        elif key == "game" and args[0].lower() == "tie":
            values["game_tied"] = tuple(_int(a, "a seat tied for Game", lineno)
                                        for a in args[1:])
        elif len(args) != 1:
            raise RecordSyntaxError(f"outcome field {key} needs exactly one value", lineno)
        elif key == "swept":
            if args[0].lower() not in ("yes", "no"):
                raise RecordSyntaxError(f"swept is yes or no, not {shown(args[0])}", lineno)
            values[key] = args[0].lower() == "yes"
        elif key in ("trump", "called"):
            values[key] = args[0].upper()
        elif key == "bid":
            values[key] = (args[0].lower() if not args[0].strip("+-").isdigit()
                           else _int(args[0], "bid", lineno))
        elif args[0] != "-":
            values[key] = _int(args[0], f"outcome field {key}", lineno)
    return Outcome(**values)  # type: ignore[arg-type]
