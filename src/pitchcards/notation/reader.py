"""Reading a record: text to a :class:`Record` (its syntax only; :mod:`.replay` checks the game)."""

from __future__ import annotations

from collections.abc import Iterator

from ..actions import parse_action
from ..cards import format_cards, mask_of, parse_cards
from ..errors import InvalidActionError, OptionError, shown
from ..rules import VARIANTS, RuleSet, find_variant, parse_money
from .format import (
    _HEADER_KEYS,
    _OPTION_TYPES,
    END,
    FORMAT_NAME,
    FORMAT_VERSION,
    LEVEL_PATTERN,
    LINE_LIMIT,
    READ_VERSIONS,
    STAND_IN,
    EventRecord,
    HandRecord,
    OptionValue,
    Record,
    RecordDamagedError,
    RecordSyntaxError,
    _canonical,
    _int,
    _parse_outcome,
    _parse_result,
    _parse_value,
    _tokens,
    checksum,
)


def parse_record(text: str) -> Record:
    """The record in ``text``, read but not replayed (:func:`~.replay.read_record` does both).

    Raises :class:`RecordSyntaxError`, or :class:`RecordDamagedError` for a version-2 record
    cut short or changed after it was written.
    """
    parser = _Parser(text)
    record = parser.parse()
    if parser.damage is not None:
        raise parser.damage
    return record


class _Parser:
    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise RecordSyntaxError(f"a record is read from text (a str), not {shown(text)}")
        self.text = text.removeprefix("\ufeff")
        self.header: dict[str, tuple[list[str], int]] = {}
        self.options: dict[str, tuple[OptionValue, int]] = {}
        self.items: list[HandRecord | EventRecord] = []
        self.hand: HandRecord | None = None
        self.event: EventRecord | None = None
        self.winner: tuple[int, int] | None = None
        self.kind: str | None = None
        self.bots: dict[str, tuple[str, int]] = {}     #: name -> (level, line)
        self.hand_count = 0
        self.canonical: list[str] = []                 #: the lines the end line's checksum sees
        self.end: int | None = None                    #: the end line's number
        #: Set when a version-2 record's end line is missing or wrong; reported once the
        #: record has been replayed (a more specific error, if there is one, comes first).
        self.damage: RecordDamagedError | None = None

    def lines(self) -> Iterator[tuple[int, list[str]]]:
        for lineno, raw in enumerate(self.text.split("\n"), 1):
            if len(raw) > LINE_LIMIT:
                raise RecordSyntaxError(f"the line is {len(raw)} characters long; a record's "
                                        f"lines have at most {LINE_LIMIT}", lineno)
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
        if version not in READ_VERSIONS:
            raise RecordSyntaxError(f"unsupported format version {version}; this pitchcards "
                                    "reads versions " + " and ".join(map(str, READ_VERSIONS)),
                                    lineno)
        self.canonical.append(_canonical(toks))
        record: Record | None = None
        last = lineno
        for lineno, toks in lines:
            last = lineno
            key = toks[0].lower()
            if self.end is not None:
                raise RecordSyntaxError(f"nothing but comments may follow the {END!r} line "
                                        f"(line {self.end})", lineno)
            if key == END:
                self.end_line(version, toks, lineno)
                continue
            self.canonical.append(_canonical(toks))
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
        record.version = version
        if self.winner is not None:
            record.winner, record.lines["winner"] = self.winner
        self.check_bots(record)
        if version >= 2 and self.end is None:
            self.damage = RecordDamagedError(
                f"the record stops without its {END!r} line: it was cut short after this line "
                "(an interrupted save?); a version-2 record ends with 'end LINES CHECKSUM'",
                last)
        return record

    def end_line(self, version: int, toks: list[str], lineno: int) -> None:
        """``end LINES CHECKSUM``: the count and checksum of the meaningful lines before it."""
        if version < 2:
            raise RecordSyntaxError(f"a version-{version} record has no {END!r} line (it "
                                    "belongs to version 2)", lineno)
        if len(toks) != 3:
            raise RecordSyntaxError(f"the last line is '{END} LINES CHECKSUM'", lineno)
        self.end = lineno
        count = _int(toks[1], "the line count", lineno)
        found = checksum(self.canonical)
        if count != len(self.canonical) or toks[2].lower() != found:
            self.damage = RecordDamagedError(
                f"the record was changed or damaged after it was written: its {END!r} line "
                f"says {count} lines with checksum {shown(toks[2])}, the text has "
                f"{len(self.canonical)} with checksum {found} (to read a record edited by "
                "hand, delete its 'end' line and make its first line 'pitchcards-record 1')",
                lineno)

    def check_bots(self, record: Record) -> None:
        """Each ``bot`` tag names a player of the game."""
        players = set(record.seat_names or record.names or [])
        players |= {i.name for i in record.items if isinstance(i, EventRecord) and i.name}
        for name, (_, line) in self.bots.items():
            if name not in players:
                raise RecordSyntaxError(
                    f"'bot {shown(name)}' names no player of this game"
                    + ("; a match names its players on a 'names' line"
                       if record.game == "match" else ""), line)

    # ----- the header
    def header_line(self, key: str, toks: list[str], lineno: int) -> None:
        if key == "option":
            if len(toks) != 3:
                raise RecordSyntaxError("an option line is 'option NAME VALUE'", lineno)
            name = toks[1]
            if name not in _OPTION_TYPES:
                raise RecordSyntaxError(f"unknown option {shown(name)}; options are: "
                                        + ", ".join(_OPTION_TYPES), lineno)
            if name in self.options:
                raise RecordSyntaxError(f"option {name} given twice (first on line "
                                        f"{self.options[name][1]})", lineno)
            self.options[name] = (_parse_value(name, toks[2], lineno), lineno)
            return
        if key == "bot":
            if len(toks) != 3 or not LEVEL_PATTERN.fullmatch(toks[2].lower()):
                raise RecordSyntaxError("a bot line is 'bot NAME LEVEL' with a level such as "
                                        "easy, medium, hard or expert", lineno)
            if toks[1] in self.bots:
                raise RecordSyntaxError(f"bot {shown(toks[1])} given twice (first on line "
                                        f"{self.bots[toks[1]][1]})", lineno)
            self.bots[toks[1]] = (toks[2].lower(), lineno)
            return
        if key in self.header:
            raise RecordSyntaxError(f"{key!r} given twice (first on line "
                                    f"{self.header[key][1]})", lineno)
        if len(toks) < 2:
            raise RecordSyntaxError(f"{key!r} needs a value", lineno)
        if key in ("game", "variant", "dealer", "seed", "practice", "undos") and len(toks) != 2:
            raise RecordSyntaxError(f"{key!r} takes exactly one value", lineno)
        if key == "game":
            if toks[1] not in ("match", "money"):
                raise RecordSyntaxError(f"game must be 'match' or 'money', not {shown(toks[1])}",
                                        lineno)
            self.kind = toks[1]
        if key == "practice" and toks[1].lower() not in ("true", "false"):
            raise RecordSyntaxError(f"practice must be true or false, not {shown(toks[1])}",
                                    lineno)
        if key == "names" and (len(set(toks[1:])) != len(toks) - 1 or "" in toks):
            raise RecordSyntaxError("the 'names' line gives each seat a different, non-empty "
                                    "name", lineno)
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
        seat_names: list[str] | None = None
        if "names" in self.header:
            values, nline = self.header["names"]
            if kind != "match":
                raise RecordSyntaxError("a money session names its players on its 'players' "
                                        "line, not on a 'names' line", nline)
            if len(values) != players:
                raise RecordSyntaxError(f"'names' gives {len(values)} names for {players} "
                                        "seats", nline)
            seat_names = list(values)
        undos = None
        if "undos" in self.header:
            undos = _int(self.header["undos"][0][0], "undos", self.header["undos"][1])
            if undos < 0:
                raise RecordSyntaxError(f"undos must be 0 or more, not {undos}",
                                        self.header["undos"][1])
        practice = None
        if "practice" in self.header:
            practice = self.header["practice"][0][0].lower() == "true"
        dvalue, dline = self.header["dealer"]
        lines = {k: line for k, (_, line) in self.header.items()}
        lines.update({f"bot {name}": line for name, (_, line) in self.bots.items()})
        return Record(
            game=kind, variant=rules.name, options={k: v for k, (v, _) in self.options.items()},
            rules=rules, players=players, names=names, dealer=_int(dvalue[0], "dealer", dline),
            scores=scores, seed=seed, version=FORMAT_VERSION, lines=lines,
            seat_names=seat_names, bots={name: level for name, (level, _) in self.bots.items()},
            practice=practice, undos=undos)

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
                    f"unknown variant {shown(variant)} (variants: {', '.join(VARIANTS)}); a custom "
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
                amount = parse_money(toks[2], what="payout", negative=True)
            except OptionError as exc:
                raise RecordSyntaxError(f"{exc} (a payout is exact dollars such as -2/15 or "
                                        "0.5)", lineno) from None
            if toks[1] in self.event.payouts:
                raise RecordSyntaxError(f"payout for {shown(toks[1])} given twice", lineno)
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
                raise RecordSyntaxError(f"{shown(toks[0])} outside a hand: expected 'hand N dealer "
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
        expected = self.hand_count + 1
        if number != expected:
            raise RecordSyntaxError(f"hand {number} is out of order: expected hand {expected}",
                                    lineno)
        self.hand = HandRecord(number=number, dealer=_int(toks[3], "dealer", lineno),
                               line=lineno)
        self.hand_count = number
        self.items.append(self.hand)

    def close_hand(self) -> None:
        hand = self.hand
        if hand is not None and not hand.cards and hand.outcome is None:
            raise RecordSyntaxError(f"hand {hand.number} has no 'deal' lines (or 'outcome' "
                                    "line)", hand.line)
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
        elif key == "outcome":
            if hand.cards or hand.outcome is not None or hand.result is not None:
                raise RecordSyntaxError(f"{where}: an 'outcome' line takes the place of the "
                                        "'deal' and action lines: once, before the result",
                                        lineno)
            hand.outcome = _parse_outcome(" ".join(toks[1:]), lineno)
            hand.outcome_line = lineno
        elif key == "deal":
            if hand.outcome is not None:
                raise RecordSyntaxError(f"{where}: a hand entered by its 'outcome' has no "
                                        "'deal' lines", lineno)
            if hand.actions or hand.result is not None:
                raise RecordSyntaxError(f"{where}: 'deal' lines come before the actions", lineno)
            if len(toks) < 2 or _int(toks[1], "the seat", lineno) != len(hand.cards):
                raise RecordSyntaxError(f"{where}: expected 'deal {len(hand.cards)} CARDS' (one "
                                        "line per seat, in seat order)", lineno)
            try:
                ids = parse_cards(toks[2:])
            except InvalidActionError as exc:
                raise RecordSyntaxError(f"{where}: {exc}", lineno) from None
            if not 6 <= len(ids) <= 9:
                raise RecordSyntaxError(f"{where}: seat {toks[1]} is dealt {len(ids)} cards; "
                                        "each seat gets 6 (up to 9 where seats discard, T4)",
                                        lineno)
            mask = mask_of(ids)
            taken = mask_of(c for text in hand.cards for c in parse_cards(text))
            if mask.bit_count() != len(ids) or mask & taken:
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
        elif key == STAND_IN:
            # the action above was a stand-in bot's, playing for a person (docs/notation.md)
            if not hand.actions or hand.result is not None \
                    or len(hand.actions) - 1 in hand.stand_ins:
                raise RecordSyntaxError(f"{where}: a '{STAND_IN}' line follows the action it "
                                        "marks, once", lineno)
            why = [t.lower() for t in toks[1:]]
            if why not in ([], ["timeout"]):
                raise RecordSyntaxError(f"{where}: '{STAND_IN}' takes nothing or 'timeout', "
                                        f"not {shown(' '.join(toks[1:]))}", lineno)
            hand.stand_ins[len(hand.actions) - 1] = "".join(why)
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
                f"{where}: unknown line {shown(toks[0])}; expected 'deal', 'SEAT ACTION' (e.g. "
                "'2 bid 3', '0 play QH'), 'outcome', 'result', 'total'"
                + (", 'seats'" if money else "") + " or the next 'hand'", lineno)
