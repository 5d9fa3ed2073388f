"""Writing a record: a :class:`Match` or :class:`MoneySession` as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import format_cards
from ..hand import Hand
from ..match import Match
from ..money import MoneySession
from ..outcome import EnteredHand, Outcome
from ..rules import RuleSet
from ..session import GameSession
from .format import (
    END,
    FORMAT_NAME,
    FORMAT_VERSION,
    LEVEL_PATTERN,
    READ_VERSIONS,
    STAND_IN,
    _canonical,
    _format_result,
    _quote,
    _tokens,
    checksum,
    format_outcome,
    format_value,
    result_fields,
)


# ---------------------------------------------------------------------------------- writing
def write_record(game: GameSession, *, names: Sequence[str] | None = None,
                 bots: Mapping[str, str] | None = None, practice: bool | None = None,
                 undos: int | None = None,
                 version: int = FORMAT_VERSION, public: bool = False,
                 stand_ins: Mapping[tuple[int, int], str] | None = None) -> str:
    """The record of a match or money session, finished or not (see ``docs/notation.md``).

    The header tags: ``names``, a match's player names in seat order (a money session's are
    its players'); ``bots``, the bot level of each player a program plays; ``practice``, the
    game was a practice game; ``undos``, how many actions were taken back (written when not
    None).  ``version=1`` writes the old format, without the ``end`` line.
    ``public``: the record a table's players may see while it goes on — finished hands only
    (a hand in play would show its unplayed cards) and no seed (it deals the hands to come);
    where seats discard (T4), each seat's deal line is the six cards it kept and the discard
    lines are left out, so no discard is ever shown; it replays like any other, from its deal
    lines, to the same results.
    """
    if version not in READ_VERSIONS:
        raise ValueError(f"write_record writes format versions {READ_VERSIONS}, not {version!r}")
    if isinstance(game, MoneySession):
        if names is not None:
            raise ValueError("a money session's names are its players': give no names")
        out = _write_money(game, version, _tags(None, bots, practice, set(game.scores), undos),
                           public, stand_ins or {})
    elif isinstance(game, Match):
        if names is None and game.names != _default_names(game.seat_count):
            names = game.names  # named seats: the names tag, so that they replay
        if names is not None and (len(names) != game.players or len(set(names)) != len(names)):
            raise ValueError(f"names must be {game.players} different names, one per seat, not "
                             f"{list(names)!r}")
        out = _write_match(game, version, _tags(names, bots, practice, set(names or ()), undos),
                           public, stand_ins or {})
    else:
        raise TypeError(f"write_record needs a Match or a MoneySession, not "
                        f"{type(game).__name__}")
    if version >= 2:
        canonical = [_canonical(toks) for toks in (_tokens(line, 0) for line in out) if toks]
        out += ["", f"{END} {len(canonical)} {checksum(canonical)}"]
    return "\n".join(out) + "\n"


def _default_names(seats: int) -> tuple[str, ...]:
    """The names a Match gives seats it was not told the names of."""
    return tuple(f"Seat {s}" for s in range(seats))


def _tags(names: Sequence[str] | None, bots: Mapping[str, str] | None,
          practice: bool | None, players: set[str], undos: int | None = None) -> list[str]:
    out = []
    if names is not None:
        out.append("names " + " ".join(_quote(n) for n in names))
    for name, level in (bots or {}).items():
        if name not in players or not LEVEL_PATTERN.fullmatch(level):
            raise ValueError(f"bots: {name!r} is not a player of this game (a match's players "
                             f"are its names), or {level!r} is not a bot level")
        out.append(f"bot {_quote(name)} {level}")
    if practice is not None:
        out.append(f"practice {'true' if practice else 'false'}")
    if undos is not None:
        if type(undos) is not int or undos < 0:
            raise ValueError(f"undos must be a whole number >= 0, not {undos!r}")
        out.append(f"undos {undos}")
    return out


def _write_header(out: list[str], kind: str, rules: RuleSet, version: int) -> None:
    out.append(f"{FORMAT_NAME} {version}")
    out.append(f"game {kind}")
    out.append(f"variant {_quote(rules.name)}")
    for name, value in rules.changes().items():
        out.append(f"option {name} {format_value(value)}")


def _check_whole(game: GameSession) -> None:
    """A record is of the whole session: refused once its older hands were forgotten."""
    if game.first_hand:
        raise ValueError(f"this session keeps hands {game.first_hand + 1}.. only (its older "
                         "hands were forgotten: MoneySession.forget_hands); write its record "
                         "from the whole log")


def _write_match(m: Match, version: int, tags: list[str], public: bool = False,
                 stand_ins: Mapping[tuple[int, int], str] | None = None) -> list[str]:
    _check_whole(m)
    out: list[str] = []
    _write_header(out, "match", m.rules, version)
    out.append(f"players {m.players}")
    out.append(f"dealer {m.first_dealer}")
    if any(m.starting_scores):
        out.append("scores " + " ".join(str(s) for s in m.starting_scores))
    if m.seed is not None and not public:
        out.append(f"seed {m.seed}")
    out += tags
    running = list(m.starting_scores)
    for number, hand in enumerate(m.hands, 1):
        if public and hand.result is None:
            break
        _write_hand(out, number, hand, None, public, _marks(stand_ins, number - 1))
        if hand.result is not None:
            for side, d in enumerate(hand.result.deltas):
                running[side] += d
            out.append("total " + " ".join(str(s) for s in running))
    if m.winner is not None:
        out.append("")
        out.append(f"winner {m.winner}")
    return out


def _write_money(s: MoneySession, version: int, tags: list[str],
                 public: bool = False,
                 stand_ins: Mapping[tuple[int, int], str] | None = None) -> list[str]:
    _check_whole(s)
    out: list[str] = []
    _write_header(out, "money", s.rules, version)
    start = [str(v) for k, v in s.events if k == "player"]
    dealer = next(v for k, v in s.events if k == "dealer")
    out.append("players " + " ".join(_quote(n) for n in start))
    out.append(f"dealer {dealer}")
    if s.seed is not None and not public:
        out.append(f"seed {s.seed}")
    out += tags
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
            if public and hand.result is None:
                break
            _write_hand(out, index + 1, hand, seated, public, _marks(stand_ins, index))
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
    return out


def _marks(stand_ins: Mapping[tuple[int, int], str] | None, index: int) -> dict[int, str]:
    """The stand-in marks of the hand at ``index``: action index -> why."""
    return {a: why for (h, a), why in (stand_ins or {}).items() if h == index}


def _write_hand(out: list[str], number: int, hand: Hand, seated: Sequence[str] | None,
                public: bool = False, marks: Mapping[int, str] | None = None) -> None:
    out.append("")
    out.append(f"hand {number} dealer {hand.dealer}")
    if seated is not None:
        out.append("seats " + " ".join(_quote(n) for n in seated))
    if isinstance(hand, EnteredHand):  # entered by its outcome: no cards, no actions
        out.append("outcome " + format_outcome(hand.outcome))
        out.append("result " + _format_result(result_fields(hand.result)))  # type: ignore[arg-type]
        return
    if public and hand.result is not None and hand.result.thrown_in:
        # A thrown-in hand (A-R4.4(a) / §7.10, all_pass="redeal") had no card played: a public
        # record gives it by its bids alone, as an outcome, so no card dealt in it is shown.
        out.append("outcome " + format_outcome(Outcome.of(hand)))
        out.append("result " + _format_result(result_fields(hand.result)))
        return
    hide = public and any(hand.discarded(s) for s in range(hand.players))
    for seat, mask in enumerate(hand.dealt):
        # T4: a public record deals the kept cards; the discards stay face down for ever.
        out.append(f"deal {seat} {format_cards(mask & ~hand.discarded(seat) if hide else mask)}")
    # A trick ends with its last card: note its winner in a comment after that card.
    ends = {cards[-1]: (k, winner)
            for k, (_, cards, winner) in enumerate(hand.completed_tricks(), 1)}
    for index, (seat, action) in enumerate(hand.history):
        if hide and action.kind == "discard":
            continue
        out.append(f"{seat} {action}")
        if marks and index in marks:  # a stand-in bot played this for a person
            out.append(f"{STAND_IN} {marks[index]}".rstrip())
        card = action.card
        end = ends.get(card) if card is not None and action.kind == "play" else None
        if end is not None:
            out.append(f"# trick {end[0]} won by seat {end[1]}")
    if hand.result is not None:
        out.append("result " + _format_result(result_fields(hand.result)))
