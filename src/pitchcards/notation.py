"""Game records: a whole :class:`Match` or :class:`MoneySession` as text, read back and replayed.

A record is the game's rules, its deals and its actions, in the spirit of python-chess's PGN and
OpenSpiel's serialized history: any state is rebuilt by dealing the recorded cards and pushing
the recorded actions (:func:`replay`).  Everything else in a record (results, running totals,
payouts, the winner) is a *check*: optional on reading, always written, and compared with the
replay, so a record that no longer replays to what it says raises :class:`RecordMismatchError`.
``docs/notation.md`` describes the format with an example; in brief::

    pitchcards-record 1
    game match                         # or: game money
    variant auction
    option target 11                   # every option that differs from the variant
    players 4                          # money: players Alice Bob Cy
    dealer 0                           # the first dealer's seat
    scores 0 0 3 0                     # match only, if the starting scores are not all zero
    seed 7                             # informational

    hand 1 dealer 0
    deal 0 AS KS 2S 9H 3D TC           # one line per seat, six cards each
    deal 1 ...
    1 pass                             # acting seat, then the action as str(action) writes it
    2 bid 2
    ...
    result pitcher 2, bid 2, trump H, made, high 2, low 1, jack -, game 2, tricks 0 2 4 0, ...
    total 0 1 3 0                      # running score per side after the hand
    winner 2                           # match only, once a side has won

Money sessions add ``seats NAME...`` (who sits in each hand, a check), the between-hands events
``join NAME``, ``leave NAME`` and ``settle``, and after a ``leave``/``settle`` the check lines
``payout NAME AMOUNT`` (exact dollars, e.g. ``-2/15``).  ``#`` starts a comment; blank lines are
ignored.  A record may stop anywhere between or inside hands: a saved game in progress.

The seed is informational: a replayed game restarts its random generator from the seed, so hands
dealt at random after a replay are not the ones the original game would have dealt next.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import TypeAlias

from .actions import Action, parse_action
from .cards import SUIT_SYMBOLS, SUITS, card_symbol, format_cards, mask_of, parse_cards
from .errors import IllegalActionError, InvalidActionError, OptionError, PitchError
from .hand import Hand
from .match import Match
from .money import MoneySession, round_half_away
from .rules import VARIANTS, RuleSet, bid_text, find_variant
from .scoring import HandResult

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "EventRecord",
    "HandRecord",
    "OptionValue",
    "Record",
    "RecordError",
    "RecordMismatchError",
    "RecordReplayError",
    "RecordSyntaxError",
    "read_record",
    "replay",
    "replay_text",
    "result_fields",
    "write_record",
]

#: The first line of every record is ``FORMAT_NAME FORMAT_VERSION``.
FORMAT_NAME = "pitchcards-record"
FORMAT_VERSION = 1

OptionValue: TypeAlias = bool | int | str | Fraction | None
Game: TypeAlias = Match | MoneySession

#: The declared type of every rules option (``"int"``, ``"bool"``, ``"int | None"`` ...).
_OPTION_TYPES: dict[str, str] = {
    f.name: str(f.type) for f in dataclasses.fields(RuleSet) if f.name != "name"
}
_RESULT_KEYS = ("pitcher", "bid", "trump", "outcome", "high", "low", "jack", "game", "tricks",
                "deltas")
_OUTCOMES = ("made", "made moon", "set", "thrown in")
_HEADER_KEYS = ("game", "variant", "players", "dealer", "scores", "seed")
_DECODER = json.JSONDecoder()


# ---------------------------------------------------------------------------------------- errors
class RecordError(PitchError):
    """A record that cannot be read or replayed.  ``line`` is the 1-based line it concerns."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


class RecordSyntaxError(RecordError, InvalidActionError):
    """Text that is not a well-formed record (an unknown keyword, a bad card or number ...)."""


class RecordReplayError(RecordError, IllegalActionError):
    """A well-formed record whose game the engine refuses (an illegal action, a wrong dealer)."""


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
    result: dict[str, str] | None = None         #: the result line's fields (a check)
    total: list[int] | None = None               #: running score per side after it (a check)
    line: int = 0                                #: line of the ``hand`` line
    deal_lines: list[int] = dataclasses.field(default_factory=list)
    action_lines: list[int] = dataclasses.field(default_factory=list)
    seats_line: int | None = None
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
        if text.strip("+-").isdigit():
            return int(text)
    except ValueError:
        pass
    raise RecordSyntaxError(f"{what} must be a whole number, not {text!r}", lineno)


def _format_value(value: OptionValue) -> str:
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
        raise RecordSyntaxError(f"option {name} must be true or false, not {text!r}", lineno)
    if "Fraction" in kind:
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise RecordSyntaxError(f"option {name} must be an exact amount such as 1/10 or "
                                    f"0.25, not {text!r}", lineno) from None
    if "int" in kind:
        return _int(text, f"option {name}", lineno)
    return text


def _dollars(amount: Fraction) -> str:
    """``+$0.50``, or ``-$0.07 (-1/15)`` when the amount is not a whole number of cents."""
    cents = round_half_away(amount)
    if amount == 0:
        return "$0.00"
    text = f"{'-' if cents < 0 else '+'}${abs(cents) // 100}.{abs(cents) % 100:02d}"
    return text if amount * 100 == cents else f"{text} ({amount})"


# ---------------------------------------------------------------------------------- the result
def _side(value: int | None) -> str:
    return "-" if value is None else str(value)


def result_fields(result: HandResult) -> dict[str, str]:
    """The fields of a result line, as text (what the record writes and compares)."""
    if result.thrown_in:
        return {"outcome": "thrown in"}
    return {
        "pitcher": _side(result.pitcher),
        "bid": _side(result.bid) if not isinstance(result.bid, str) else result.bid,
        "trump": result.trump or "-",
        "outcome": ("made moon" if result.moon else "made") if result.made else "set",
        "high": _side(result.high),
        "low": _side(result.low),
        "jack": _side(result.jack),
        "game": _side(result.game),
        "tricks": " ".join(str(t) for t in result.tricks),
        "deltas": " ".join(f"{d:+d}" for d in result.deltas),
    }


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
                raise RecordSyntaxError(f"unknown outcome {value!r}; expected one of "
                                        + ", ".join(_OUTCOMES), lineno)
        elif words[0] in _RESULT_KEYS:
            key, args = words[0], words[1:]
            value = _canonical_result_value(key, args, lineno)
        else:
            raise RecordSyntaxError(f"unknown result field {words[0]!r}; fields are "
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
            raise RecordSyntaxError(f"trump must be one of {' '.join(SUITS)}, not {arg!r}",
                                    lineno)
        return arg.upper()
    if key == "bid":
        return "moon" if arg.lower() == "moon" else str(_int(arg, "bid", lineno))
    if arg == "-":
        return arg
    return str(_int(arg, f"result field {key}", lineno))


# ---------------------------------------------------------------------------------- writing
def write_record(game: Match | MoneySession) -> str:
    """The record of a match or money session, finished or not (see ``docs/notation.md``)."""
    if isinstance(game, MoneySession):
        return _write_money(game)
    if isinstance(game, Match):
        return _write_match(game)
    raise TypeError(f"write_record needs a Match or a MoneySession, not {type(game).__name__}")


def _write_header(out: list[str], kind: str, rules: RuleSet) -> None:
    out.append(f"{FORMAT_NAME} {FORMAT_VERSION}")
    out.append(f"game {kind}")
    out.append(f"variant {_quote(rules.name)}")
    for name, value in rules.changes().items():
        out.append(f"option {name} {_format_value(value)}")


def _write_match(m: Match) -> str:
    out: list[str] = []
    _write_header(out, "match", m.rules)
    out.append(f"players {m.players}")
    out.append(f"dealer {m.first_dealer}")
    if any(m.starting_scores):
        out.append("scores " + " ".join(str(s) for s in m.starting_scores))
    if m.seed is not None:
        out.append(f"seed {m.seed}")
    running = list(m.starting_scores)
    for number, hand in enumerate(m.hands, 1):
        _write_hand(out, number, hand, None)
        if hand.result is not None:
            for side, d in enumerate(hand.result.deltas):
                running[side] += d
            out.append("total " + " ".join(str(s) for s in running))
    if m.winner is not None:
        out.append("")
        out.append(f"winner {m.winner}")
    return "\n".join(out) + "\n"


def _write_money(s: MoneySession) -> str:
    out: list[str] = []
    _write_header(out, "money", s.rules)
    start = [str(v) for k, v in s.events if k == "player"]
    dealer = next(v for k, v in s.events if k == "dealer")
    out.append("players " + " ".join(_quote(n) for n in start))
    out.append(f"dealer {dealer}")
    if s.seed is not None:
        out.append(f"seed {s.seed}")
    # Each player's score before their first hand (0, or the table average for a joiner in
    # snapshot mode): the final score less every delta they were dealt.
    base = dict(s.scores)
    for hand, seated in zip(s.hands, s.hand_players, strict=True):
        if hand.result is not None:
            for name, d in zip(seated, hand.result.deltas, strict=True):
                base[name] -= d
    running = {name: base[name] for name in start}
    for kind, value in s.events:
        if kind == "hand":
            index = int(value)
            hand, seated = s.hands[index], s.hand_players[index]
            _write_hand(out, index + 1, hand, seated)
            if hand.result is not None:
                for name, d in zip(seated, hand.result.deltas, strict=True):
                    running[name] += d
                out.append("total " + " ".join(str(running[n]) for n in seated))
        elif kind in ("join", "leave"):
            name = str(value)
            out.append("")
            out.append(f"{kind} {_quote(name)}")
            if kind == "join":
                running[name] = base[name]
            else:
                out.append(f"payout {_quote(name)} {s.payouts[name]}")
        elif kind == "settle":
            out.append("")
            out.append("settle")
            for name in s.players:
                out.append(f"payout {_quote(name)} {s.payouts[name]}")
    return "\n".join(out) + "\n"


def _write_hand(out: list[str], number: int, hand: Hand, seated: Sequence[str] | None) -> None:
    out.append("")
    out.append(f"hand {number} dealer {hand.dealer}")
    if seated is not None:
        out.append("seats " + " ".join(_quote(n) for n in seated))
    for seat, mask in enumerate(hand.dealt):
        out.append(f"deal {seat} {format_cards(mask)}")
    # A trick ends with its last card: note its winner in a comment after that card.
    ends = {cards[-1]: (k, winner)
            for k, (_, cards, winner) in enumerate(hand.completed_tricks(), 1)}
    for seat, action in hand.history:
        out.append(f"{seat} {action}")
        card = action.card
        end = ends.get(card) if card is not None and action.kind == "play" else None
        if end is not None:
            out.append(f"# trick {end[0]} won by seat {end[1]}")
    if hand.result is not None:
        out.append("result " + _format_result(result_fields(hand.result)))


# ---------------------------------------------------------------------------------- reading
def read_record(text: str) -> Record:
    """Parse a record and verify it by replaying it (every check line must hold).

    Raises :class:`RecordSyntaxError` (an :class:`~pitchcards.InvalidActionError`) for text
    that is not a record, :class:`RecordReplayError` (an
    :class:`~pitchcards.IllegalActionError`) for a game the rules refuse, and
    :class:`RecordMismatchError` when a recorded result, total, payout, seating or winner
    differs from the replay; every message starts with the line number.
    """
    record = _Parser(text).parse()
    _run(record)
    return record


def replay(record: Record) -> Match | MoneySession:
    """The game of a record, rebuilt by dealing the recorded cards and pushing the actions.

    The record's check lines are verified again (a :class:`Record` may have been built or
    changed in code), raising the errors :func:`read_record` raises.
    """
    return _run(record)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text.removeprefix("\ufeff")
        self.header: dict[str, tuple[list[str], int]] = {}
        self.options: dict[str, tuple[OptionValue, int]] = {}
        self.items: list[HandRecord | EventRecord] = []
        self.hand: HandRecord | None = None
        self.event: EventRecord | None = None
        self.winner: tuple[int, int] | None = None
        self.kind: str | None = None

    def lines(self) -> Iterator[tuple[int, list[str]]]:
        for lineno, raw in enumerate(self.text.split("\n"), 1):
            toks = _tokens(raw.removesuffix("\r"), lineno)
            if toks:
                yield lineno, toks

    def parse(self) -> Record:
        lines = self.lines()
        first = next(lines, None)
        if first is None:
            raise RecordSyntaxError(f"empty record: the first line must be "
                                    f"'{FORMAT_NAME} {FORMAT_VERSION}'", 1)
        lineno, toks = first
        if toks[0] != FORMAT_NAME or len(toks) != 2:
            raise RecordSyntaxError(f"not a pitchcards record: the first line must be "
                                    f"'{FORMAT_NAME} {FORMAT_VERSION}'", lineno)
        version = _int(toks[1], "the format version", lineno)
        if version != FORMAT_VERSION:
            raise RecordSyntaxError(f"unsupported format version {version}; this pitchcards "
                                    f"reads version {FORMAT_VERSION}", lineno)
        record: Record | None = None
        last = lineno
        for lineno, toks in lines:
            last = lineno
            key = toks[0].lower()
            if key in _HEADER_KEYS or key == "option":
                if record is not None:
                    raise RecordSyntaxError(f"header line {key!r} after the first hand or "
                                            "event: the header comes first", lineno)
                self.header_line(key, toks, lineno)
                continue
            if record is None:
                record = self.make_record(lineno)
            self.body_line(record, key, toks, lineno)
        if record is None:
            record = self.make_record(last)
        self.close_hand()
        record.items = self.items
        if self.winner is not None:
            record.winner, record.lines["winner"] = self.winner
        return record

    # ----- the header
    def header_line(self, key: str, toks: list[str], lineno: int) -> None:
        if key == "option":
            if len(toks) != 3:
                raise RecordSyntaxError("an option line is 'option NAME VALUE'", lineno)
            name = toks[1]
            if name not in _OPTION_TYPES:
                raise RecordSyntaxError(f"unknown option {name!r}; options are: "
                                        + ", ".join(_OPTION_TYPES), lineno)
            if name in self.options:
                raise RecordSyntaxError(f"option {name} given twice (first on line "
                                        f"{self.options[name][1]})", lineno)
            self.options[name] = (_parse_value(name, toks[2], lineno), lineno)
            return
        if key in self.header:
            raise RecordSyntaxError(f"{key!r} given twice (first on line "
                                    f"{self.header[key][1]})", lineno)
        if len(toks) < 2:
            raise RecordSyntaxError(f"{key!r} needs a value", lineno)
        if key in ("game", "variant", "dealer", "seed") and len(toks) != 2:
            raise RecordSyntaxError(f"{key!r} takes exactly one value", lineno)
        if key == "game":
            if toks[1] not in ("match", "money"):
                raise RecordSyntaxError(f"game must be 'match' or 'money', not {toks[1]!r}",
                                        lineno)
            self.kind = toks[1]
        self.header[key] = (toks[1:], lineno)

    def make_record(self, lineno: int) -> Record:
        for key in ("game", "variant", "players", "dealer"):
            if key not in self.header:
                raise RecordSyntaxError(f"the header lacks its {key!r} line (it must come "
                                        "before the first hand or event)", lineno)
        kind = self.header["game"][0][0]
        variant, vline = self.header["variant"][0][0], self.header["variant"][1]
        rules = self.rules(variant, vline)
        values, pline = self.header["players"]
        names: list[str] | None = None
        if kind == "match":
            if len(values) != 1:
                raise RecordSyntaxError("a match gives 'players N', the number of seats", pline)
            players = _int(values[0], "players", pline)
        else:
            names = list(values)
            players = len(names)
        scores: list[int] | None = None
        if "scores" in self.header:
            if kind != "match":
                raise RecordSyntaxError("starting scores are for matches only",
                                        self.header["scores"][1])
            values, sline = self.header["scores"]
            scores = [_int(v, "a score", sline) for v in values]
        seed: int | None = None
        if "seed" in self.header:
            seed = _int(self.header["seed"][0][0], "the seed", self.header["seed"][1])
        dvalue, dline = self.header["dealer"]
        return Record(
            game=kind, variant=rules.name, options={k: v for k, (v, _) in self.options.items()},
            rules=rules, players=players, names=names, dealer=_int(dvalue[0], "dealer", dline),
            scores=scores, seed=seed, version=FORMAT_VERSION,
            lines={k: line for k, (_, line) in self.header.items()})

    def rules(self, variant: str, vline: int) -> RuleSet:
        options = {k: v for k, (v, _) in self.options.items()}
        base = VARIANTS.get(variant)
        missing = [k for k in _OPTION_TYPES if k not in options]
        if base is None and not missing:
            base = RuleSet(name=variant)  # a custom rule set: every option is given
        elif base is None:
            try:
                base = find_variant(variant)  # a variant's other spelling ("Auction", "a")
            except OptionError:
                raise RecordSyntaxError(
                    f"unknown variant {variant!r} (variants: {', '.join(VARIANTS)}); a custom "
                    "rule set must give every option, missing: " + ", ".join(missing),
                    vline) from None
        try:
            return base.replace(**options)
        except OptionError as exc:
            line = min((line for _, line in self.options.values()), default=vline)
            raise RecordSyntaxError(f"the options do not make a valid rule set: {exc}",
                                    line) from None

    # ----- the body
    def body_line(self, record: Record, key: str, toks: list[str], lineno: int) -> None:
        money = record.game == "money"
        if key == "hand":
            self.start_hand(toks, lineno)
        elif key in ("join", "leave", "settle"):
            if not money:
                raise RecordSyntaxError(f"{key!r} events belong to money sessions only", lineno)
            self.close_hand()
            want = 1 if key == "settle" else 2
            if len(toks) != want:
                raise RecordSyntaxError("'settle' takes no value" if key == "settle" else
                                        f"'{key} NAME' takes exactly one name (quote names "
                                        'with spaces: "Ann Lee")', lineno)
            self.event = EventRecord(kind=key, name=toks[1] if want == 2 else None, line=lineno)
            self.items.append(self.event)
        elif key == "payout":
            if self.event is None or self.event.kind == "join" or self.hand is not None:
                raise RecordSyntaxError("a payout line follows a 'leave' or 'settle' line",
                                        lineno)
            if len(toks) != 3:
                raise RecordSyntaxError("a payout line is 'payout NAME AMOUNT'", lineno)
            try:
                amount = Fraction(toks[2])
            except (ValueError, ZeroDivisionError):
                raise RecordSyntaxError(f"payout amount must be exact dollars such as -2/15 or "
                                        f"0.5, not {toks[2]!r}", lineno) from None
            if toks[1] in self.event.payouts:
                raise RecordSyntaxError(f"payout for {toks[1]!r} given twice", lineno)
            self.event.payouts[toks[1]] = amount
            self.event.payout_lines[toks[1]] = lineno
        elif key == "winner":
            if money:
                raise RecordSyntaxError("money sessions have no winner line", lineno)
            if len(toks) != 2:
                raise RecordSyntaxError("a winner line is 'winner SIDE'", lineno)
            if self.winner is not None:
                raise RecordSyntaxError("'winner' given twice", lineno)
            self.close_hand()
            self.winner = (_int(toks[1], "winner", lineno), lineno)
        else:
            if self.winner is not None:
                raise RecordSyntaxError("nothing but comments may follow the winner line",
                                        lineno)
            hand = self.hand
            if hand is None:
                raise RecordSyntaxError(f"{toks[0]!r} outside a hand: expected 'hand N dealer "
                                        "D'" + (", 'join', 'leave' or 'settle'" if money else ""),
                                        lineno)
            self.hand_line(hand, money, key, toks, lineno)

    def start_hand(self, toks: list[str], lineno: int) -> None:
        if self.winner is not None:
            raise RecordSyntaxError("no hand may follow the winner line", lineno)
        if len(toks) != 4 or toks[2].lower() != "dealer":
            raise RecordSyntaxError("a hand starts with 'hand N dealer SEAT'", lineno)
        self.close_hand()
        self.event = None
        number = _int(toks[1], "the hand number", lineno)
        expected = sum(isinstance(i, HandRecord) for i in self.items) + 1
        if number != expected:
            raise RecordSyntaxError(f"hand {number} is out of order: expected hand {expected}",
                                    lineno)
        self.hand = HandRecord(number=number, dealer=_int(toks[3], "dealer", lineno),
                               line=lineno)
        self.items.append(self.hand)

    def close_hand(self) -> None:
        hand = self.hand
        if hand is not None and not hand.cards:
            raise RecordSyntaxError(f"hand {hand.number} has no 'deal' lines", hand.line)
        self.hand = None

    def hand_line(self, hand: HandRecord, money: bool, key: str, toks: list[str],
                  lineno: int) -> None:
        where = f"hand {hand.number}"
        if key == "seats":
            if not money:
                raise RecordSyntaxError("'seats' lines belong to money sessions only", lineno)
            if hand.cards or hand.seats is not None:
                raise RecordSyntaxError(f"{where}: 'seats' comes once, before the deal", lineno)
            hand.seats, hand.seats_line = toks[1:], lineno
        elif key == "deal":
            if hand.actions or hand.result is not None:
                raise RecordSyntaxError(f"{where}: 'deal' lines come before the actions", lineno)
            if len(toks) < 2 or _int(toks[1], "the seat", lineno) != len(hand.cards):
                raise RecordSyntaxError(f"{where}: expected 'deal {len(hand.cards)} CARDS' (one "
                                        "line per seat, in seat order)", lineno)
            try:
                ids = parse_cards(toks[2:])
            except InvalidActionError as exc:
                raise RecordSyntaxError(f"{where}: {exc}", lineno) from None
            if len(ids) != 6:
                raise RecordSyntaxError(f"{where}: seat {toks[1]} is dealt {len(ids)} cards; "
                                        "each seat gets exactly 6", lineno)
            mask = mask_of(ids)
            taken = mask_of(c for text in hand.cards for c in parse_cards(text))
            if mask.bit_count() != 6 or mask & taken:
                twice = [c for c in ids if ids.count(c) > 1 or taken >> c & 1]
                raise RecordSyntaxError(f"{where}: {format_cards(twice[:1])} is dealt twice",
                                        lineno)
            hand.cards.append(format_cards(mask))
            hand.deal_lines.append(lineno)
        elif key == "result":
            if hand.result is not None:
                raise RecordSyntaxError(f"{where}: a second result line", lineno)
            hand.result = _parse_result(" ".join(toks[1:]), lineno)
            hand.result_line = lineno
        elif key == "total":
            if hand.result is None or hand.total is not None:
                raise RecordSyntaxError(f"{where}: one 'total' line follows the result line",
                                        lineno)
            hand.total = [_int(v, "a total", lineno) for v in toks[1:]]
            hand.total_line = lineno
        elif toks[0].strip("+-").isdigit():
            if not hand.cards:
                raise RecordSyntaxError(f"{where}: actions come after the 'deal' lines", lineno)
            if hand.result is not None:
                raise RecordSyntaxError(f"{where}: an action after the result line", lineno)
            seat = _int(toks[0], "the seat", lineno)
            try:
                action = parse_action(" ".join(toks[1:]))
            except InvalidActionError as exc:
                raise RecordSyntaxError(f"{where}: {exc}", lineno) from None
            hand.actions.append((seat, action))
            hand.action_lines.append(lineno)
        else:
            raise RecordSyntaxError(
                f"{where}: unknown line {toks[0]!r}; expected 'deal', 'SEAT ACTION' (e.g. "
                "'2 bid 3', '0 play QH'), 'result', 'total'"
                + (", 'seats'" if money else "") + " or the next 'hand'", lineno)


# ---------------------------------------------------------------------------------- replaying
def _run(record: Record,
         on_item: Callable[[Game, HandRecord | EventRecord], None] | None = None) -> Game:
    """Replay a record, checking every check line; ``on_item`` sees each hand or event once
    it has been applied."""
    game: Game
    if not 0 <= record.dealer < record.players:
        raise RecordReplayError(f"dealer {record.dealer} is not a seat (0..{record.players - 1})",
                                record.lines.get("dealer"))
    try:
        if record.game == "money":
            game = MoneySession(record.rules, players=record.names or [], dealer=record.dealer,
                                seed=record.seed)
        else:
            game = Match(record.rules, players=record.players, dealer=record.dealer,
                         seed=record.seed, scores=record.scores)
    except PitchError as exc:
        raise _replay_error(exc, "the header", record.lines.get("players")) from exc
    previous: EventRecord | None = None
    for item in record.items:
        if game.in_hand:
            number = len(game.hands)
            raise RecordReplayError(f"hand {number} is unfinished, but the record goes on",
                                    item.line)
        if isinstance(item, HandRecord):
            _play_hand(game, item)
            previous = None
        else:
            if not isinstance(game, MoneySession):
                raise RecordReplayError(f"{item.kind!r} events belong to money sessions only",
                                        item.line)
            _apply_event(game, item, previous)
            previous = item
        if on_item is not None:
            on_item(game, item)
    if isinstance(game, Match) and record.winner is not None and record.winner != game.winner:
        replayed = "no winner yet" if game.winner is None else f"side {game.winner} wins"
        raise RecordMismatchError(f"the record says side {record.winner} wins, the replay has "
                                  f"{replayed}", record.lines.get("winner"))
    return game


def _replay_error(exc: PitchError, where: str, line: int | None) -> RecordReplayError:
    err = RecordReplayError(f"{where}: {exc}", line)
    if isinstance(exc, IllegalActionError):
        err.action, err.seat, err.phase, err.legal = exc.action, exc.seat, exc.phase, exc.legal
    return err


def _play_hand(game: Game, rec: HandRecord) -> None:
    where = f"hand {rec.number}"
    if isinstance(game, MoneySession) and game.finished:
        raise RecordReplayError(f"{where}: the session has ended", rec.line)
    if isinstance(game, Match) and game.winner is not None:
        raise RecordReplayError(f"{where}: the match is over, side {game.winner} won", rec.line)
    if rec.number != len(game.hands) + 1:
        raise RecordReplayError(f"{where} is out of order: this is hand {len(game.hands) + 1}",
                                rec.line)
    if rec.dealer != game.next_dealer:
        raise RecordReplayError(f"{where}: the deal is seat {game.next_dealer}'s by rotation, "
                                f"not seat {rec.dealer}'s", rec.line)
    if isinstance(game, MoneySession):
        seated = list(game.players)
        if rec.seats is not None and rec.seats != seated:
            raise RecordMismatchError(f"{where}: the record seats {' '.join(rec.seats)}, the "
                                      f"replay seats {' '.join(seated)}", rec.seats_line,
                                      rec.number)
        players = len(seated)
    else:
        players = game.players
    if len(rec.cards) != players:
        raise RecordReplayError(f"{where} deals {len(rec.cards)} seats, but {players} players "
                                "are seated", rec.deal_lines[-1] if rec.deal_lines else rec.line)
    try:
        hand = game.deal(cards=rec.cards)
    except PitchError as exc:
        raise _replay_error(exc, where, rec.line) from exc
    for (seat, action), line in zip(rec.actions, rec.action_lines, strict=True):
        try:
            game.push(action, seat)
        except PitchError as exc:
            raise _replay_error(exc, where, line) from exc
    if rec.result is not None:
        if hand.result is None:
            raise RecordMismatchError(f"{where} has a result line but is not finished after "
                                      f"{len(rec.actions)} actions", rec.result_line, rec.number)
        replayed = result_fields(hand.result)
        diffs = [f"{k}: recorded {v!r}, replayed {replayed.get(k, '(none)')!r}"
                 for k, v in rec.result.items() if replayed.get(k) != v]
        if diffs:
            raise RecordMismatchError(f"{where}: the replayed result differs from the record: "
                                      + "; ".join(diffs) + f" (replayed: "
                                      f"{_format_result(replayed)})", rec.result_line,
                                      rec.number)
    if rec.total is not None:
        if isinstance(game, MoneySession):
            totals = [game.scores[n] for n in game.hand_players[-1]]
        else:
            totals = list(game.scores)
        if totals != rec.total:
            raise RecordMismatchError(
                f"{where}: the recorded totals {' '.join(map(str, rec.total))} differ from the "
                f"replayed {' '.join(map(str, totals))}", rec.total_line, rec.number)


def _apply_event(game: MoneySession, event: EventRecord, previous: EventRecord | None) -> None:
    try:
        if event.kind == "join":
            game.join(event.name or "")
        elif event.kind == "leave":
            game.leave(event.name or "")
        elif not (game.finished and previous is not None and previous.kind == "leave"):
            game.settle()  # (after a leave that left one player, the session settled itself)
    except PitchError as exc:
        raise _replay_error(exc, event.kind, event.line) from exc
    for name, amount in event.payouts.items():
        paid = game.payouts.get(name)
        if paid != amount:
            raise RecordMismatchError(f"the record pays {name!r} {amount}, the replay "
                                      + ("pays nothing" if paid is None else f"pays {paid}"),
                                      event.payout_lines.get(name, event.line))


# ---------------------------------------------------------------------------------- replay text
def replay_text(text: str) -> str:
    """What ``pitch replay FILE`` prints: every hand played out, then the outcome."""
    record = read_record(text)
    out: list[str] = []
    rules = record.rules
    changes = ", ".join(f"{k}={_format_value(v)}" for k, v in record.options.items())
    who = (f"{record.players} players" if record.names is None
           else "players " + ", ".join(record.names))
    out.append(f"{rules.name}{' (' + changes + ')' if changes else ''}: {who}, "
               f"first dealer seat {record.dealer}"
               + (f", seed {record.seed}" if record.seed is not None else ""))
    if record.scores is not None:
        out.append("starting scores: " + " ".join(map(str, record.scores)))

    def show(game: Game, item: HandRecord | EventRecord) -> None:
        if isinstance(item, HandRecord):
            out.extend(_describe_hand(game, item.number))
        elif item.kind == "join":
            out.extend(["", f"{item.name} joins"])
        elif item.kind == "leave":
            assert isinstance(game, MoneySession)
            paid = game.payouts[str(item.name)]
            out.extend(["", f"{item.name} leaves and is paid {_dollars(paid)}"])
        else:
            out.extend(["", "the session is settled"])

    game = _run(record, on_item=show)
    if isinstance(game, MoneySession):
        out.extend(_describe_money_end(game))
    else:
        out.extend(_describe_match_end(game))
    return "\n".join(out) + "\n"


def _describe_hand(game: Game, number: int) -> list[str]:
    hand = game.hands[number - 1]
    names = game.hand_players[number - 1] if isinstance(game, MoneySession) else None

    def who(seat: int) -> str:
        return f"seat {seat}" if names is None else f"{names[seat]} (seat {seat})"

    def short(seat: int) -> str:
        return str(seat) if names is None else names[seat]

    out = ["", f"hand {number}: dealer {who(hand.dealer)}"]
    for seat, mask in enumerate(hand.dealt):
        out.append(f"  {who(seat)}: {format_cards(mask, symbols=True)}")
    bids = [f"{who(seat)} {_symbolic(action)}" for seat, action in hand.history
            if action.kind != "play"]
    out.append("  auction: " + (", ".join(bids) or "(no bid yet)"))
    if hand.pitcher is not None:
        contract = bid_text(hand.contract) if hand.contract is not None else "-"
        trump = hand.trump_suit
        suit = SUIT_SYMBOLS[trump] if trump is not None else "-"
        out.append(f"  pitcher {who(hand.pitcher)}, contract {contract}, trump {suit}")
    n = hand.players
    tricks = hand.completed_tricks()
    for k, (leader, cards, winner) in enumerate(tricks, 1):
        played = ", ".join(f"{short((leader + i) % n)} {card_symbol(c)}"
                           for i, c in enumerate(cards))
        out.append(f"  trick {k}: {played} -> {who(winner)}")
    current = hand.current_trick()
    if current:
        played = ", ".join(f"{short(s)} {card_symbol(c)}" for s, c in current)
        out.append(f"  trick {len(tricks) + 1}: {played} ...")
    if hand.result is None:
        to_act = hand.seat_to_act
        out.append(f"  (hand in progress: {who(to_act) if to_act is not None else '-'} to act)")
        return out
    out.append("  " + hand.result.summary())
    if isinstance(game, Match):
        out.append("  scores: " + " ".join(map(str, game.scores)))
    else:
        out.append("  scores: " + ", ".join(f"{n} {game.scores[n]}" for n in (names or [])))
    return out


def _symbolic(action: Action) -> str:
    card = action.card
    if card is None:
        return str(action)
    return f"{action.kind} {card_symbol(card)}"


def _side_name(match: Match, side: int) -> str:
    if match.rules.partnership_mode:
        return f"team {side} (seats {side} & {side + 2})"
    return f"seat {side}"


def _describe_match_end(m: Match) -> list[str]:
    out = [""]
    out.append("final scores: " + ", ".join(f"{_side_name(m, s)} {v}"
                                            for s, v in enumerate(m.scores)))
    if m.winner is not None:
        out.append(f"winner: {_side_name(m, m.winner)} after {len(m.results)} hands")
    elif m.in_hand:
        out.append(f"no winner yet: hand {len(m.hands)} is in progress")
    else:
        out.append(f"no winner yet after {len(m.results)} hands")
    return out


def _describe_money_end(s: MoneySession) -> list[str]:
    everyone = list(s.scores)
    out = ["", "session settled" if s.finished else
           ("session in progress: hand in play" if s.in_hand else "session in progress")]
    out.append("scores: " + ", ".join(f"{n} {s.scores[n]}" for n in everyone))
    out.append("stars: " + ", ".join(f"{n} {s.stars[n]}" for n in everyone))
    if not s.finished:
        out.append("ledger: " + ", ".join(f"{n} {_dollars(v)}" for n, v in s.ledger.items()))
    if s.payouts:
        out.append("payouts: " + ", ".join(f"{n} {_dollars(v)}" for n, v in s.payouts.items()))
    out.append(f"pot: {_dollars(s.pot)}")
    return out

